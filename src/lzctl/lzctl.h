/*
 * lzctl.h -- shared pieces of the admin CLI.
 *
 * Each command group lives in its own cmd_*.c and is one row of the table
 * in lzctl.c.  Commands print results to stdout, errors to stderr, and
 * return an exit status: 0 done, 1 failed, 2 usage error, 3 not found.
 */
#ifndef LZ_LZCTL_H
#define LZ_LZCTL_H

#include <stdint.h>

#include "conf.h"

#define EXIT_USAGE	2
#define EXIT_NOTFOUND	3

extern struct lz_conf	*ctl_conf;
extern const char	*ctl_progname;

/* Prints "lzctl: ..." to stderr. */
void	ctl_err(const char *fmt, ...) LZ_PRINTF(1, 2);
/* Opens the links database and prepares statements (exits on failure). */
void	ctl_links_open(void);
/* Resolves an account given as an id or an e-mail address; 0 when none
 * (an error is printed). */
int64_t	ctl_account_id(const char *);
/* Gives files to the configured user when run as root. */
void	ctl_chown_to_user(const char *path);

int	cmd_init(int, char **);
int	cmd_migrate(int, char **);
int	cmd_account(int, char **);
int	cmd_key(int, char **);
int	cmd_link(int, char **);
int	cmd_backup(int, char **);
int	cmd_restore(int, char **);
int	cmd_check(int, char **);
int	cmd_prompts(int, char **);
int	cmd_webhook(int, char **);
int	cmd_blocklist(int, char **);

#endif
