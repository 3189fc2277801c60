/*
 * lzctl.h -- the admin CLI: its commands are tables.
 *
 * A group (account, key, link, ...) is a table of subcommands in its
 * cmd_*.c; a row holds the subcommand's name, its usage (operands and
 * options), how many operands it takes, its options and the function
 * that runs it.  lzctl.c parses and checks the options and operands from
 * the row, prints usage from the rows (so help cannot drift from what
 * runs), and opens the links database for rows with CTL_DB.
 *
 * Commands print results to stdout, errors to stderr, and return an exit
 * status: 0 done, 1 failed, 2 usage error, 3 not found.
 */
#ifndef LZ_LZCTL_H
#define LZ_LZCTL_H

#include <stddef.h>
#include <stdint.h>

#include "conf.h"
#include "db.h"
#include "util.h"

#define EXIT_USAGE	2
#define EXIT_NOTFOUND	3

#define CTL_OPTS_MAX	12

enum ctl_type {
	CTL_FLAG,	/* no argument */
	CTL_STR,
	CTL_INT,	/* in min..max */
	CTL_TIME,	/* ISO 8601 with a time zone, into ms */
	CTL_LIST	/* repeatable: the values joined by commas */
};

struct ctl_opt {
	const char	*name;		/* --name; NULL: only -ch */
	int		 ch;
	enum ctl_type	 type;
	long long	 min, max, def;	/* CTL_INT: bounds, default */
	int		 required;
};

struct ctl_val {
	int		 set;
	const char	*s;		/* as given */
	long long	 i;		/* CTL_INT, CTL_TIME: the value (def) */
	char		 list[512];	/* CTL_LIST: where s points */
};

struct ctl_cmd;

struct ctl_args {
	const struct ctl_cmd	*cmd;
	int			 argc;	/* operands */
	char			**argv;
	struct ctl_val		 opt[CTL_OPTS_MAX]; /* as the row's opts */
};

#define CTL_DB	0x01		/* opens the links database first */

struct ctl_cmd {
	const char	*name;		/* NULL: the group is one command */
	const char	*usage;		/* operands and options */
	int		 min, max;	/* operands */
	unsigned	 flags;		/* CTL_* */
	int		(*fn)(struct ctl_args *);
	struct ctl_opt	 opts[CTL_OPTS_MAX];
};

struct ctl_group {
	const char		*name;
	const char		*what;	/* in the list of commands */
	const struct ctl_cmd	*cmds;
	size_t			 ncmds;
};

#define CTL_GROUP(name, what, cmds) \
	{ (name), (what), (cmds), sizeof(cmds) / sizeof((cmds)[0]) }

extern struct lz_conf	*ctl_conf;
/* The links database, once a command opened it (ctl_links_open). */
extern struct lz_db	 ctl_links_db;
extern const char	*ctl_progname;

/* Prints "lzctl: ..." to stderr. */
void	ctl_err(const char *fmt, ...) LZ_PRINTF(1, 2);
/* Opens the links database (exits on failure). */
void	ctl_links_open(void);
/* Resolves an account given as an id or an e-mail address; 0 when none
 * (an error is printed). */
int64_t	ctl_account_id(const char *);
/* An id of s, 1 to INT64_MAX; 0, or -1 after "'s' is not a what id". */
int	ctl_id(const char *s, const char *what, int64_t *id);
/*
 * ms as an ISO 8601 UTC time (to the millisecond with ms_too), or none
 * when ms is 0 and none is not NULL ("never", "-").  The text is in one
 * of CTL_TIMES static buffers used in turn: enough for the times of the
 * printf() of one row.
 */
#define CTL_TIMES	4
const char *ctl_time(int64_t ms, int ms_too, const char *none);
/* Gives files to the configured user when run as root. */
void	ctl_chown_to_user(const char *path);
/* 1 when a server answers on the unix socket at path. */
int	ctl_socket_answers(const char *path);

/* The groups (cmd_*.c). */
extern const struct ctl_group ctl_init, ctl_migrate, ctl_account, ctl_key,
	    ctl_link, ctl_stats, ctl_backup, ctl_restore, ctl_check, ctl_db,
	    ctl_prompts, ctl_webhook, ctl_blocklist, ctl_domain, ctl_tag,
	    ctl_import, ctl_member;

#endif
