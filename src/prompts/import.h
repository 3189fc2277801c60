/*
 * import.h -- the prompt library's data file (lz-prompts-data(5)): read
 * and checked whole, then written into a new database.
 *
 * import_load() reports every problem it finds, one line each
 * ("FILE: prompts[3].category: ..."), and returns NULL when there was
 * any; nothing is written then.  import_write() builds a complete
 * database at a path that does not exist yet; the caller renames it into
 * place (lzctl prompts import).
 */
#ifndef LZ_IMPORT_H
#define LZ_IMPORT_H

#include <stdint.h>
#include <stdio.h>

#include "util.h"

struct import;

/* Reads and checks path; problems go to errs.  NULL when the file has
 * errors (all reported) or cannot be read.  now only decides the notes
 * about scheduled times that have passed already. */
struct import	*import_load(const char *path, FILE *errs, int64_t now);

/* Writes the data into a new database at dbpath; scheduled prompts due
 * by now are stored as published.  Tells progress (NULL: nobody) how far
 * it is.  0, or -1 with err (dbpath may then hold a partial file; the
 * caller removes it). */
int		 import_write(struct import *, const char *dbpath,
		    const char *source, int64_t now, lz_progress_fn *progress,
		    char *err, size_t errlen);

/* One line of counts: what was stored and what was left out. */
void		 import_summary(const struct import *, FILE *);

void		 import_free(struct import *);

#endif
