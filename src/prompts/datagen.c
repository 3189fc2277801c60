/*
 * datagen.c -- the import generation of the prompt library database.
 *
 * Beside prompts_db lies prompts_db.gen, eight bytes: a counter that
 * "lzctl prompts import" increments after each swap.  Workers map it
 * read-only and compare it with the value they last saw before each
 * request: a load from memory instead of a stat(2) of the database path,
 * which was a tenth of the system time of a prompt detail.  A worker
 * still stats the path once a second, so a file put there by other means
 * is noticed too (and the counter is only a hint: nothing breaks when it
 * is missing or removed).
 */
#include "config.h"

#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datagen.h"
#include "util.h"

char *
datagen_path(const char *db)
{
	return xasprintf("%s.gen", db);
}

/* After a swap: the next request of every worker looks at the path. */
int
datagen_bump(const char *db, char *err, size_t errlen)
{
	uint64_t	*gen;
	char		*path = datagen_path(db);
	int		 fd, rc = -1;

	if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (ftruncate(fd, sizeof(*gen)) == -1 || (gen = mmap(NULL,
	    sizeof(*gen), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) ==
	    MAP_FAILED) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	__atomic_add_fetch(gen, 1, __ATOMIC_SEQ_CST);
	munmap(gen, sizeof(*gen));
	rc = 0;
out:
	if (fd != -1)
		close(fd);
	free(path);
	return rc;
}

/* The counter, mapped read-only; NULL while there is none. */
const volatile uint64_t *
datagen_map(const char *db)
{
	struct stat	 st;
	void		*p = MAP_FAILED;
	char		*path = datagen_path(db);
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) != -1) {
		if (fstat(fd, &st) == 0 && st.st_size >= (off_t)sizeof(uint64_t))
			p = mmap(NULL, sizeof(uint64_t), PROT_READ, MAP_SHARED,
			    fd, 0);
		close(fd);
	}
	free(path);
	return p == MAP_FAILED ? NULL : p;
}
