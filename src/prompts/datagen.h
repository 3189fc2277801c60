/*
 * datagen.h -- the import generation of the prompt library database.
 */
#ifndef LZ_DATAGEN_H
#define LZ_DATAGEN_H

#include <stdint.h>

char		*datagen_path(const char *db);
int		 datagen_bump(const char *db, char *err, size_t errlen);
const volatile uint64_t *datagen_map(const char *db);

#endif
