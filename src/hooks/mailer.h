/*
 * mailer.h -- running mail_command (lz-hooks(8) "Mail").
 *
 * lz-hooks confines itself (sandbox in lz.conf(5)): it may not fork or
 * exec, and a sendmail often needs what the confinement takes away (a
 * set-group-id helper such as Postfix's postdrop, which no_new_privs
 * would make a plain program).  So before confining itself, before it
 * opens the database or reads the key file, it forks the mailer, which
 * never does either: it has the command's words and a socket to
 * lz-hooks, and sees only the messages written to it.  For each
 * message lz-hooks writes to the socket, the mailer runs the command --
 * execv, no shell, so nothing in a message or lz.conf is read as shell
 * syntax -- with the message on its standard input, waits for it at
 * most a timeout (then kills it and its process group), and answers
 * with its exit status: 0 is sent.
 */
#ifndef LZ_HOOKS_MAILER_H
#define LZ_HOOKS_MAILER_H

#include <stddef.h>

#define MAILER_TIMEOUT_MS	30000
#define MAILER_MSG_MAX		(256 * 1024)	/* bytes of one message */
#define MAILER_ERR_LEN		256

struct mailer;

/*
 * Forks the mailer for command (mail_command, split by mail_argv), each
 * run killed after timeout_ms.  Call it before confining the process.
 * The mailer, or NULL with err.
 */
struct mailer	*mailer_start(const char *command, int timeout_ms, char *err,
		    size_t errlen);
/*
 * Mails msg[0..len) through the mailer: 0 sent (the command exited 0),
 * -1 not (why in err: its status and the start of what it said), -2 the
 * mailer is gone (nothing more can be sent this run).
 */
int		 mailer_send(struct mailer *, const char *msg, size_t len,
		    char *err, size_t errlen);
/* Closes the socket: the mailer exits. */
void		 mailer_stop(struct mailer *);

/*
 * What the mailer does for one message, in the calling process: runs
 * argv with msg on its standard input, at most timeout_ms.  0 when it
 * exited 0, else -1 with why in err.
 */
int		 mailer_run(char *const argv[], int timeout_ms,
		    const char *msg, size_t len, char *err, size_t errlen);

#endif
