/*
 * cdefs.h -- the compiler's notations every header may use: array
 * lengths and function attributes.  Types only, no functions: log.h and
 * util.h both include it, and neither the other.
 */
#ifndef LZ_CDEFS_H
#define LZ_CDEFS_H

#define LZ_NELEM(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define LZ_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define LZ_UNUSED __attribute__((unused))
#define LZ_NORETURN __attribute__((noreturn))
#else
#define LZ_PRINTF(f, a)
#define LZ_UNUSED
#define LZ_NORETURN
#endif

#endif
