/*
 * message.c -- the mail lz sends (mail/message.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mail/message.h"
#include "utf8.h"
#include "util.h"

int
mail_addr_ok(const char *s)
{
	const char	*at = strchr(s, '@');
	size_t		 len = strlen(s);

	return len <= MAIL_ADDR_MAX && at != NULL && at != s &&
	    at[1] != '\0' && strchr(at + 1, '@') == NULL &&
	    strpbrk(s, " <>()[],;:\\\"'") == NULL &&
	    lz_utf8_count(s, len, LZ_UTF8_NOCTRL) > 0;
}

int
mail_header_ok(const char *s)
{
	size_t	 len = strlen(s);

	/* LZ_UTF8_NOCTRL refuses CR, LF and every other C0 and DEL. */
	return len <= MAIL_HEADER_MAX &&
	    lz_utf8_count(s, len, LZ_UTF8_NOCTRL) >= 0;
}

void
mail_argv_free(char **argv)
{
	size_t	 i;

	if (argv == NULL)
		return;
	for (i = 0; argv[i] != NULL; i++)
		free(argv[i]);
	free(argv);
}

char **
mail_argv(const char *command)
{
	char	**argv;
	size_t	 n = 0, len;

	if (lz_utf8_count(command, strlen(command), 0) < 0)
		return NULL;
	argv = xcalloc(MAIL_ARGS_MAX + 1, sizeof(*argv));
	for (;;) {
		command += strspn(command, " \t");
		if (*command == '\0')
			break;
		len = strcspn(command, " \t");
		if (n == MAIL_ARGS_MAX)
			goto bad;
		argv[n] = xstrndup(command, len);
		if (lz_utf8_count(argv[n], len, LZ_UTF8_NOCTRL) < 0) {
			n++;
			goto bad;
		}
		n++;
		command += len;
	}
	if (n == 0 || argv[0][0] != '/')
		goto bad;
	return argv;
bad:
	mail_argv_free(argv);
	return NULL;
}

/* What a role may do, for the text. */
static const char *
role_said(const char *role)
{
	if (strcmp(role, "owner") == 0)
		return "everything, its members and keys included";
	if (strcmp(role, "admin") == 0)
		return "everything but changing its owners";
	if (strcmp(role, "member") == 0)
		return "links, tags and statistics";
	return "reading its links and statistics";
}

/* Printable ASCII only: what a subject carries without encoding. */
static int
ascii(const char *s)
{
	for (; *s != '\0'; s++)
		if (*s < 0x20 || *s > 0x7e)
			return 0;
	return 1;
}

char *
mail_invite_subject(const struct mail_invite *m)
{
	/* A header is ASCII unless encoded (RFC 2047): an account whose
	 * e-mail is not goes unnamed here, and is named in the text. */
	if (ascii(m->account) && strlen(m->account) <= MAIL_ADDR_MAX)
		return xasprintf("Invitation to the account %s on lz",
		    m->account);
	return xstrdup("Invitation to an account on lz");
}

char *
mail_invite_text(const struct mail_invite *m)
{
	struct tm	 tm;
	time_t		 t = (time_t)(m->expires_at / 1000);
	char		 until[32];

	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(until, sizeof(until), "%Y-%m-%d %H:%M UTC", &tm) == 0)
		snprintf(until, sizeof(until), "its end");
	/* What varies stands on lines of its own, so that no address
	 * makes a sentence's lines long. */
	return xasprintf(
	    "Hello,\n"
	    "\n"
	    "you are invited to an account on lz:\n"
	    "\n"
	    "  account:     %s\n"
	    "  your role:   %s (%s)\n"
	    "  invited by:  %s\n"
	    "  for:         %s\n"
	    "\n"
	    "To accept, open this link and choose a password, or sign in\n"
	    "if you have a sign-in already:\n"
	    "\n"
	    "%s\n"
	    "\n"
	    "The link works once, until %s.  If you did not\n"
	    "expect this invitation, ignore this mail: nothing happens\n"
	    "unless the link is opened.\n",
	    m->account, m->role, role_said(m->role), m->inviter != NULL ?
	    m->inviter : "an administrator", m->to, m->url, until);
}

/* Date: as RFC 5322 writes it, in UTC, whatever the locale. */
static void
date_header(struct lz_buf *b, int64_t ms)
{
	static const char	*const days[] = { "Sun", "Mon", "Tue", "Wed",
	    "Thu", "Fri", "Sat" };
	static const char	*const months[] = { "Jan", "Feb", "Mar", "Apr",
	    "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	struct tm		 tm;
	time_t			 t = (time_t)(ms / 1000);

	if (gmtime_r(&t, &tm) == NULL)
		memset(&tm, 0, sizeof(tm));
	lz_buf_printf(b, "Date: %s, %d %s %04d %02d:%02d:%02d +0000\n",
	    days[tm.tm_wday % 7], tm.tm_mday, months[tm.tm_mon % 12],
	    tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/*
 * A text a message may carry: UTF-8, no control character but LF and
 * tab, lines under RFC 5322's 998 bytes, none a lone "." (which a
 * sendmail run without -i reads as the message's end).
 */
static int
text_ok(const char *text, char *why, size_t whylen)
{
	const char	*line, *nl;
	size_t		 len = strlen(text), n;

	if (len > MAIL_TEXT_MAX || lz_utf8_count(text, len, 0) < 0) {
		snprintf(why, whylen, "the text is too long or not UTF-8");
		return 0;
	}
	for (line = text; *line != '\0'; line = nl + (*nl != '\0')) {
		nl = line + strcspn(line, "\n");
		for (n = 0; line + n < nl; n++)
			if (((unsigned char)line[n] < 0x20 &&
			    line[n] != '\t') || line[n] == 0x7f) {
				snprintf(why, whylen, "the text holds a "
				    "control character");
				return 0;
			}
		if (nl - line > 998 || (nl - line == 1 && *line == '.')) {
			snprintf(why, whylen, "the text holds a line a "
			    "mailer would cut or end at");
			return 0;
		}
	}
	return 1;
}

int
mail_message(struct lz_buf *b, const struct mail_head *h, const char *text,
    char *why, size_t whylen)
{
	const char	*domain;

	if (!mail_addr_ok(h->from)) {
		snprintf(why, whylen, "mail_from is not an address");
		return -1;
	}
	if (!mail_addr_ok(h->to)) {
		snprintf(why, whylen, "the recipient is not an address");
		return -1;
	}
	if (!mail_header_ok(h->subject)) {
		snprintf(why, whylen, "the subject is not one line of text");
		return -1;
	}
	if (strspn(h->unique, "0123456789abcdefghijklmnopqrstuvwxyz") !=
	    strlen(h->unique)) {
		snprintf(why, whylen, "the Message-ID is not lower-case "
		    "letters and digits");
		return -1;
	}
	if (!text_ok(text, why, whylen))
		return -1;
	domain = strchr(h->from, '@') + 1;
	lz_buf_printf(b, "From: %s\n", h->from);
	lz_buf_printf(b, "To: %s\n", h->to);
	lz_buf_printf(b, "Subject: %s\n", h->subject);
	date_header(b, h->date);
	lz_buf_printf(b, "Message-ID: <lz.%lld.%s@%s>\n", (long long)h->id,
	    h->unique, domain);
	lz_buf_puts(b, "MIME-Version: 1.0\n"
	    "Content-Type: text/plain; charset=utf-8\n"
	    "Content-Transfer-Encoding: 8bit\n"
	    "Auto-Submitted: auto-generated\n"
	    "\n");
	lz_buf_puts(b, text);
	if (*text == '\0' || text[strlen(text) - 1] != '\n')
		lz_buf_putc(b, '\n');
	return 0;
}
