/*
 * message.h -- the mail lz sends (lz-hooks(8) "Mail"): an invitation's
 * subject and text, the whole RFC 5322 message lz-hooks hands to
 * mail_command, and the checks that keep a recipient, a sender or a
 * subject from adding headers of its own.  Pure: what it needs is
 * passed in, so the unit suite runs it as lz-hooks does.
 *
 * The rest of mail/ is mail/queue.h: the text sealed and queued in the
 * transaction of its cause.
 */
#ifndef LZ_MAIL_MESSAGE_H
#define LZ_MAIL_MESSAGE_H

#include <stddef.h>
#include <stdint.h>

struct lz_buf;

#define MAIL_ADDR_MAX	254	/* bytes, as an account's e-mail */
#define MAIL_HEADER_MAX	900	/* bytes of one header's value, under
				   RFC 5322's 998 of a line */
#define MAIL_TEXT_MAX	16384	/* bytes of a text */
#define MAIL_ARGS_MAX	32	/* words of mail_command */

/*
 * An address fit for To: or From:: local@domain, at most MAIL_ADDR_MAX
 * bytes of UTF-8 (RFC 6532), nothing a header would read as its end, a
 * second address or a comment (no white space, no control character,
 * none of <>()[],;:\"' ), one '@' with something on both sides.
 */
int	mail_addr_ok(const char *);
/* A header's value: one line of UTF-8, no control character, at most
 * MAIL_HEADER_MAX bytes. */
int	mail_header_ok(const char *);

/*
 * mail_command as the argument vector it is run with: its words, split
 * at spaces and tabs (no shell, no quoting), the first an absolute
 * path.  NULL when it is empty, not absolute, holds a control character
 * or more than MAIL_ARGS_MAX words.  Freed with mail_argv_free.
 */
char	**mail_argv(const char *command);
void	 mail_argv_free(char **);

/* What an invitation's mail says. */
struct mail_invite {
	const char	*to;		/* the e-mail invited */
	const char	*account;	/* the account's e-mail */
	const char	*role;		/* owner, admin, member or viewer */
	const char	*inviter;	/* who invited, NULL: an administrator */
	const char	*url;		/* the one-time URL */
	int64_t		 expires_at;	/* its end, ms */
};

/* The subject and the plain text (English) of an invitation's mail;
 * the caller frees them. */
char	*mail_invite_subject(const struct mail_invite *);
char	*mail_invite_text(const struct mail_invite *);

/* The headers lz-hooks writes above a text. */
struct mail_head {
	const char	*from;		/* mail_from */
	const char	*to;
	const char	*subject;
	int64_t		 date;		/* ms */
	int64_t		 id;		/* the outbox's, in Message-ID */
	const char	*unique;	/* random, in Message-ID */
};

/*
 * The message into b: From, To, Subject, Date, Message-ID, MIME-Version
 * and a plain UTF-8 text in 8 bits, lines ending in LF as a local
 * sendmail reads them.  0, or -1 with why (nothing written) when an
 * address, the subject or the text is not fit: a header would be
 * injected, or a line would end the message early.
 */
int	mail_message(struct lz_buf *b, const struct mail_head *,
	    const char *text, char *why, size_t whylen);

#endif
