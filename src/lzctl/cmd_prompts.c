/*
 * cmd_prompts.c -- lzctl prompts: importing the prompt library's data.
 *
 * import checks the data file whole, builds a complete new database next
 * to prompts_db, makes it durable, and renames it over the old one: the
 * swap is atomic.  Then it increments the import counter beside the
 * database (datagen.c): running lz-prompts workers notice the new file
 * on their next request (no restart, no failed request).
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../prompts/datagen.h"
#include "../prompts/import.h"
#include "lzctl.h"
#include "lztime.h"
#include "progress.h"
#include "util.h"

static int
fsync_path(const char *path, int dir)
{
	int	 fd, rc;

	if ((fd = open(path, (dir ? O_DIRECTORY : 0) | O_RDONLY |
	    O_CLOEXEC)) == -1)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

static int
prompts_import(struct ctl_args *a)
{
	struct import	*m;
	const char	*file = a->argv[0], *db = ctl_conf->prompts_db;
	char		*tmp = NULL, *dup = NULL, *gen, *msgs = NULL, err[512];
	size_t		 msgslen = 0;
	FILE		*errs;
	int64_t		 now = lz_now_ms();
	int		 rc = 1, written;

	/* Its problems are held until the progress line has ended. */
	if ((errs = open_memstream(&msgs, &msgslen)) == NULL) {
		ctl_err("open_memstream: %s", strerror(errno));
		return 1;
	}
	progress("reading and checking the file", 0, 0);
	m = import_load(file, errs, now);
	progress_end(m != NULL ? "file read and checked" : "file refused");
	fclose(errs);
	fputs(msgs, stderr);
	free(msgs);
	if (m == NULL)
		return 1;
	if (a->opt[0].set) {	/* -n: only check */
		printf("%s: ok: ", file);
		import_summary(m, stdout);
		import_free(m);
		return 0;
	}

	/* The new file goes next to the old, so rename(2) can swap them. */
	tmp = xasprintf("%s.new-%ld", db, (long)getpid());
	if (unlink(tmp) == -1 && errno != ENOENT) {
		ctl_err("%s: %s", tmp, strerror(errno));
		goto out;
	}
	written = import_write(m, tmp, file, now, progress, err, sizeof(err));
	progress_end(written == 0 ? "database written" : "writing failed");
	if (written == -1) {
		ctl_err("%s", err);
		goto out;
	}
	if (chmod(tmp, 0644) == -1 || fsync_path(tmp, 0) == -1) {
		ctl_err("%s: %s", tmp, strerror(errno));
		goto out;
	}
	ctl_chown_to_user(tmp);
	if (rename(tmp, db) == -1) {
		ctl_err("rename %s to %s: %s", tmp, db, strerror(errno));
		goto out;
	}
	free(tmp);
	tmp = NULL;
	/* Workers look at the path again on their next request. */
	if (datagen_bump(db, err, sizeof(err)) == -1)
		ctl_err("warning: %s (workers notice the new data within a "
		    "second)", err);
	else {
		gen = datagen_path(db);
		ctl_chown_to_user(gen);
		free(gen);
	}
	dup = xstrdup(db);
	if (fsync_path(dirname(dup), 1) == -1)
		ctl_err("warning: fsync of the directory of %s: %s", db,
		    strerror(errno));
	printf("%s: imported into %s: ", file, db);
	import_summary(m, stdout);
	rc = 0;
out:
	if (tmp != NULL) {
		(void)unlink(tmp);
		free(tmp);
	}
	free(dup);
	import_free(m);
	return rc;
}

static const struct ctl_cmd prompts_cmds[] = {
	{ "import", "[-n] FILE", 1, 1, 0, prompts_import,
	  { { .ch = 'n', .type = CTL_FLAG } } },
};

const struct ctl_group ctl_prompts = CTL_GROUP("prompts",
    "the prompt library's data", prompts_cmds);
