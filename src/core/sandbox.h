/*
 * sandbox.h -- what a pool worker may still do once it serves requests.
 *
 * Applied by each worker after its init (databases open, tables loaded):
 *   - no_new_privs;
 *   - a seccomp filter (libseccomp) refusing with EPERM: execve/execveat,
 *     fork/vfork (and clone without CLONE_THREAD), ptrace and process_vm_*, module, mount, reboot, swap,
 *     keyring, bpf, perf and kexec calls -- nothing a FastCGI worker needs;
 *   - a Landlock ruleset (when the kernel has Landlock): files may be
 *     opened read-write only under the directories given (the data
 *     directory), read-only under the few system paths DNS and TLS need,
 *     and nowhere else.  A kernel without Landlock gets the seccomp part
 *     only, and a warning in the log.
 */
#ifndef LZ_SANDBOX_H
#define LZ_SANDBOX_H

#include <stddef.h>

/*
 * rw: NULL-terminated directories the worker may read and write under;
 * ro: NULL-terminated extra paths it may read (system paths are added).
 * Returns 0, or -1 with err set (the worker should then refuse to run).
 * *landlocked tells whether the Landlock part is in force.
 */
int	lz_sandbox(const char *const *rw, const char *const *ro, int *landlocked,
	    char *err, size_t errlen);

#endif
