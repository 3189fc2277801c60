/*
 * check_mail.c -- the mail lz sends (lz-hooks(8) "Mail"): addresses and
 * header values that could add headers refused, mail_command's words,
 * an invitation's text and whole message, its seal, the mailer's runs
 * of a real command (exit status, output, time-out), and the outbox
 * sent by mailq.c on a real SQLite database: sent, retried, given up,
 * its sealed text dropped.
 */
#include "config.h"

#include <sys/stat.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>
#include <sodium.h>

#include "db.h"
#include "lztime.h"
#include "mail/message.h"
#include "mail/queue.h"
#include "mailer.h"
#include "mailq.h"
#include "store/mails.h"
#include "tdb.h"
#include "util.h"

#define T0	1700000000000LL		/* 2023-11-14T22:13:20Z */
#define URL	"https://lz.example/dashboard/#invite/" \
		"AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdE"

static char	 dir[64];

static void
tmp_setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/check_mail.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void
tmp_teardown(void)
{
	char	*cmd = xasprintf("rm -rf '%s'", dir);

	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
}

/* The whole of file path, or NULL. */
static char *
slurp(const char *path)
{
	FILE	*f;
	char	*s;
	long	 n;

	if ((f = fopen(path, "r")) == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = xmalloc((size_t)n + 1);
	s[fread(s, 1, (size_t)n, f)] = '\0';
	fclose(f);
	return s;
}

/* A script in the temporary directory: its path. */
static char *
script(const char *name, const char *body)
{
	char	*path = xasprintf("%s/%s", dir, name);
	FILE	*f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	ck_assert_int_eq(chmod(path, 0755), 0);
	return path;
}

START_TEST(test_addr)
{
	static const char *const good[] = {
		"a@b", "new.user+tag@example.com", "\xc3\xbc@example.de",
		NULL
	};
	static const char *const bad[] = {
		"", "@b", "a@", "a@b@c", "a b@c", "a@b\r\nBcc: x@y",
		"a@b\nBcc: x@y", "a@b\rX", "a\t@b", "<a@b>", "a@b,c@d",
		"\"a\"@b", "a@b;c", "a(c)@b", "a\x01@b", "a\x7f@b",
		"\xff@b", "x@[", NULL
	};
	char	 longer[MAIL_ADDR_MAX + 2];
	size_t	 i;

	for (i = 0; good[i] != NULL; i++)
		ck_assert_msg(mail_addr_ok(good[i]), "%s", good[i]);
	for (i = 0; bad[i] != NULL; i++)
		ck_assert_msg(!mail_addr_ok(bad[i]), "%s", bad[i]);
	memset(longer, 'a', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	longer[1] = '@';
	ck_assert(!mail_addr_ok(longer));
	longer[MAIL_ADDR_MAX] = '\0';
	ck_assert(mail_addr_ok(longer));

	ck_assert(mail_header_ok("Invitation to the account a@b on lz"));
	ck_assert(mail_header_ok("\xe9\x82\x80\xe8\xab\x8b"));
	ck_assert(!mail_header_ok("x\r\nBcc: y@z"));
	ck_assert(!mail_header_ok("x\nBcc: y@z"));
	ck_assert(!mail_header_ok("x\ry"));
	ck_assert(!mail_header_ok("x\xff"));
}
END_TEST

START_TEST(test_argv)
{
	char	**v;

	v = mail_argv("/usr/sbin/sendmail -t -i");
	ck_assert_ptr_nonnull(v);
	ck_assert_str_eq(v[0], "/usr/sbin/sendmail");
	ck_assert_str_eq(v[1], "-t");
	ck_assert_str_eq(v[2], "-i");
	ck_assert_ptr_null(v[3]);
	mail_argv_free(v);
	/* Blanks anywhere, no shell: quotes and ; are plain characters. */
	v = mail_argv("  \t/bin/x\t 'a b' ;rm  $HOME ");
	ck_assert_ptr_nonnull(v);
	ck_assert_str_eq(v[0], "/bin/x");
	ck_assert_str_eq(v[1], "'a");
	ck_assert_str_eq(v[2], "b'");
	ck_assert_str_eq(v[3], ";rm");
	ck_assert_str_eq(v[4], "$HOME");
	ck_assert_ptr_null(v[5]);
	mail_argv_free(v);
	ck_assert_ptr_null(mail_argv(""));
	ck_assert_ptr_null(mail_argv("   "));
	ck_assert_ptr_null(mail_argv("sendmail -t"));
	ck_assert_ptr_null(mail_argv("/bin/x\n-t"));
	ck_assert_ptr_null(mail_argv("/bin/x \xff"));
	ck_assert_ptr_null(mail_argv("/bin/x 1 2 3 4 5 6 7 8 9 10 11 12 13 "
	    "14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32"));
	v = mail_argv("/bin/x 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 "
	    "19 20 21 22 23 24 25 26 27 28 29 30 31");
	ck_assert_ptr_nonnull(v);
	mail_argv_free(v);
}
END_TEST

static const struct mail_invite invite = {
	"new@example.com", "boss@example.com", "viewer", "admin@example.com",
	URL, T0 + 7 * 86400000LL
};

START_TEST(test_invite_text)
{
	struct mail_invite	 m = invite;
	char			*s;

	s = mail_invite_subject(&m);
	ck_assert_str_eq(s, "Invitation to the account boss@example.com on "
	    "lz");
	free(s);
	s = mail_invite_text(&m);
	ck_assert_ptr_nonnull(strstr(s, "\n  account:     boss@example.com\n"
	    "  your role:   viewer (reading its links and statistics)\n"
	    "  invited by:  admin@example.com\n"
	    "  for:         new@example.com\n"));
	ck_assert_ptr_nonnull(strstr(s, "\n" URL "\n"));
	ck_assert_ptr_nonnull(strstr(s, "until 2023-11-21 22:13 UTC"));
	free(s);
	m.inviter = NULL;
	m.role = "owner";
	m.account = "\xc3\xbc@example.de";
	s = mail_invite_text(&m);
	ck_assert_ptr_nonnull(strstr(s, "invited by:  an administrator\n"));
	ck_assert_ptr_nonnull(strstr(s, "your role:   owner (everything"));
	free(s);
	/* A subject is ASCII: an account that is not goes unnamed. */
	s = mail_invite_subject(&m);
	ck_assert_str_eq(s, "Invitation to an account on lz");
	ck_assert(mail_header_ok(s));
	free(s);
}
END_TEST

START_TEST(test_message)
{
	struct mail_head	 h = {
		"lz@lz.example", "new@example.com", "Invitation",
		T0, 42, "0123456789abcdef"
	};
	struct lz_buf		 b = LZ_BUF_INIT;
	char			*text, why[128];

	text = mail_invite_text(&invite);
	ck_assert_int_eq(mail_message(&b, &h, text, why, sizeof(why)), 0);
	ck_assert_ptr_nonnull(strstr(b.p, "From: lz@lz.example\n"
	    "To: new@example.com\nSubject: Invitation\n"
	    "Date: Tue, 14 Nov 2023 22:13:20 +0000\n"
	    "Message-ID: <lz.42.0123456789abcdef@lz.example>\n"
	    "MIME-Version: 1.0\n"
	    "Content-Type: text/plain; charset=utf-8\n"
	    "Content-Transfer-Encoding: 8bit\n"));
	ck_assert(strncmp(b.p, "From: ", 6) == 0);
	/* The headers end once, and the text follows whole. */
	ck_assert_ptr_nonnull(strstr(b.p, "\n\nHello,\n"));
	ck_assert_ptr_null(strstr(strstr(b.p, "\n\n") + 2, "\n\n\n"));
	ck_assert_ptr_nonnull(strstr(b.p, "\n" URL "\n"));
	lz_buf_free(&b);

	/* Whatever would add a header is refused, and nothing written. */
	h.to = "new@example.com\nBcc: all@example.com";
	ck_assert_int_eq(mail_message(&b, &h, text, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "the recipient is not an address");
	ck_assert_ptr_null(b.p);
	h.to = "new@example.com";
	h.subject = "Hi\r\nBcc: all@example.com";
	ck_assert_int_eq(mail_message(&b, &h, text, why, sizeof(why)), -1);
	h.subject = "Hi";
	h.from = "lz@lz.example\nBcc: all@example.com";
	ck_assert_int_eq(mail_message(&b, &h, text, why, sizeof(why)), -1);
	h.from = "lz@lz.example";
	h.unique = "a>\nBcc: x@y";
	ck_assert_int_eq(mail_message(&b, &h, text, why, sizeof(why)), -1);
	h.unique = "ab";
	/* Nor a text a sendmail would end early or cut. */
	ck_assert_int_eq(mail_message(&b, &h, "one\n.\ntwo\n", why,
	    sizeof(why)), -1);
	ck_assert_int_eq(mail_message(&b, &h, "bell\a\n", why, sizeof(why)),
	    -1);
	ck_assert_int_eq(mail_message(&b, &h, "\xff\n", why, sizeof(why)), -1);
	ck_assert_ptr_null(b.p);
	/* A text without its last LF gets one. */
	ck_assert_int_eq(mail_message(&b, &h, "no newline", why, sizeof(why)),
	    0);
	ck_assert(b.len > 11 && strcmp(b.p + b.len - 12, "\nno newline\n") ==
	    0);
	lz_buf_free(&b);
	free(text);
}
END_TEST

START_TEST(test_seal)
{
	unsigned char	 key[MAIL_KEY_BYTES], other[MAIL_KEY_BYTES];
	unsigned char	*box;
	size_t		 len;
	char		*text;

	randombytes_buf(key, sizeof(key));
	randombytes_buf(other, sizeof(other));
	box = mail_seal(key, "Hello " URL, &len);
	ck_assert_ptr_null(memmem(box, len, "invite", 6));
	text = mail_open(key, box, len);
	ck_assert_str_eq(text, "Hello " URL);
	free(text);
	ck_assert_ptr_null(mail_open(other, box, len));
	box[len - 1] ^= 1;
	ck_assert_ptr_null(mail_open(key, box, len));
	ck_assert_ptr_null(mail_open(key, box, 10));
	ck_assert_ptr_null(mail_open(key, NULL, 0));
	free(box);
}
END_TEST

START_TEST(test_run)
{
	char	*out = xasprintf("%s/got", dir), *cat, *got, err[256];
	char	*argv[4] = { "/bin/sh", "-c", NULL, NULL };
	char	*big;
	size_t	 n = 300 * 1000;

	cat = xasprintf("cat > '%s'", out);
	argv[2] = cat;
	ck_assert_int_eq(mailer_run(argv, 5000, "To: a@b\n\nhi\n", 12, err,
	    sizeof(err)), 0);
	got = slurp(out);
	ck_assert_str_eq(got, "To: a@b\n\nhi\n");
	free(got);

	/* More than a pipe holds, read to its end. */
	big = xmalloc(n);
	memset(big, 'x', n);
	ck_assert_int_eq(mailer_run(argv, 5000, big, n, err, sizeof(err)), 0);
	got = slurp(out);
	ck_assert_uint_eq(strlen(got), n);
	free(got);

	/* A failure is its status and the start of what it said. */
	argv[2] = "cat > /dev/null; echo 'no such user here'; "
	    "echo second line; exit 3";
	ck_assert_int_eq(mailer_run(argv, 5000, "x\n", 2, err, sizeof(err)),
	    -1);
	ck_assert_str_eq(err, "/bin/sh: exit status 3: no such user here");
	/* One that stops reading at once: its status says. */
	argv[2] = "exit 0";
	ck_assert_int_eq(mailer_run(argv, 5000, big, n, err, sizeof(err)), 0);
	argv[2] = "exit 75";
	ck_assert_int_eq(mailer_run(argv, 5000, big, n, err, sizeof(err)),
	    -1);
	ck_assert_str_eq(err, "/bin/sh: exit status 75");
	/* Killed at the time-out, with what it started. */
	argv[2] = "sleep 30 & sleep 30";
	ck_assert_int_eq(mailer_run(argv, 300, "x", 1, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "/bin/sh: killed after 1 s");
	/* No such program. */
	argv[0] = "/nonexistent/sendmail";
	ck_assert_int_eq(mailer_run(argv, 5000, "x", 1, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "exit status 127: "
	    "/nonexistent/sendmail: No such file"));
	free(big);
	free(cat);
	free(out);
}
END_TEST

START_TEST(test_mailer)
{
	struct mailer	*m;
	char		*out = xasprintf("%s/got", dir), *body, *cmd, *got;
	char		*path, err[MAILER_ERR_LEN];

	body = xasprintf("cat > '%s'; grep -q fail '%s' && "
	    "{ echo refused; exit 1; }; exit 0", out, out);
	path = script("mail", body);
	cmd = xasprintf("%s -x", path);
	free(path);
	ck_assert_ptr_null(mailer_start("sendmail -t", 1000, err,
	    sizeof(err)));
	m = mailer_start(cmd, 5000, err, sizeof(err));
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(mailer_send(m, "one\n", 4, err, sizeof(err)), 0);
	got = slurp(out);
	ck_assert_str_eq(got, "one\n");
	free(got);
	ck_assert_int_eq(mailer_send(m, "fail\n", 5, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "exit status 1: refused"));
	ck_assert_int_eq(mailer_send(m, "two\n", 4, err, sizeof(err)), 0);
	mailer_stop(m);
	free(cmd);
	free(body);
	free(out);
}
END_TEST

/* ---- the outbox, sent ------------------------------------------------ */

static struct tdb	 t;

static void
db_setup(void)
{
	tmp_setup();
	tdb_open(&t);
}

static void
db_teardown(void)
{
	tdb_close(&t);
	tmp_teardown();
}

START_TEST(test_outbox)
{
	unsigned char		 key[MAIL_KEY_BYTES];
	volatile sig_atomic_t	 stop = 0;
	struct mailq_stats	 st;
	struct mailq_opts	 o;
	struct mail_invite	 m = invite;
	char			*out = xasprintf("%s/got", dir), *body, *cmd;
	char			*got, err[MAILER_ERR_LEN];
	int64_t			 acct, now = lz_now_ms();
	int			 i;

	randombytes_buf(key, sizeof(key));
	acct = tdb_account(&t, "boss@example.com");
	m.expires_at = now + 7 * 86400000LL;
	ck_assert_int_eq(mail_queue_invite(&t.db, key, acct, 0, &m, now), 0);
	/* The URL is sealed in the database. */
	ck_assert_int_eq(tdb_q1(t.db.h, "SELECT count(*) FROM mail_outbox "
	    "WHERE instr(body_box, CAST('invite' AS BLOB)) = 0 AND length(body_box) > 100 "
	    "AND state = 'queued'"), 1);

	body = xasprintf("cat > '%s'", out);
	cmd = script("mail", body);
	memset(&o, 0, sizeof(o));
	o.key = key;
	o.from = "lz@lz.example";
	o.mailer = mailer_start(cmd, 5000, err, sizeof(err));
	o.claim_ms = 10000;
	ck_assert_ptr_nonnull(o.mailer);
	memset(&st, 0, sizeof(st));
	ck_assert_int_eq(mailq_run(&t.db, &o, &stop, &st), 0);
	ck_assert_int_eq(st.sent, 1);
	got = slurp(out);
	ck_assert_ptr_nonnull(strstr(got, "To: new@example.com\n"));
	ck_assert_ptr_nonnull(strstr(got, "\n" URL "\n"));
	free(got);
	/* Sent: its text dropped; nothing more to send. */
	ck_assert_int_eq(tdb_q1(t.db.h, "SELECT count(*) FROM mail_outbox "
	    "WHERE state = 'sent' AND body_box IS NULL AND next_at IS NULL "
	    "AND attempts = 1 AND finished_at IS NOT NULL"), 1);
	memset(&st, 0, sizeof(st));
	ck_assert_int_eq(mailq_run(&t.db, &o, &stop, &st), 0);
	ck_assert_int_eq(st.sent, 0);
	mailer_stop(o.mailer);

	/* A command that fails: retried on the schedule, then given up. */
	free(cmd);
	cmd = script("fail", "echo 'mailbox unavailable'; exit 1");
	o.mailer = mailer_start(cmd, 5000, err, sizeof(err));
	ck_assert_ptr_nonnull(o.mailer);
	ck_assert_int_eq(mail_queue_invite(&t.db, key, acct, 0, &m, now), 0);
	for (i = 1; i <= MAILQ_ATTEMPTS; i++) {
		memset(&st, 0, sizeof(st));
		ck_assert_int_eq(mailq_run(&t.db, &o, &stop, &st), 0);
		if (i < MAILQ_ATTEMPTS) {
			ck_assert_int_eq(st.retrying, 1);
			ck_assert_int_eq(tdb_q1(t.db.h, "SELECT count(*) FROM "
			    "mail_outbox WHERE state = 'queued' AND "
			    "body_box IS NOT NULL AND last_error LIKE "
			    "'%exit status 1: mailbox unavailable'"), 1);
			/* Not due again before its time... */
			memset(&st, 0, sizeof(st));
			ck_assert_int_eq(mailq_run(&t.db, &o, &stop, &st), 0);
			ck_assert_int_eq(st.retrying + st.failed, 0);
			/* ...which the clock brings. */
			tdb_exec(t.db.h, "UPDATE mail_outbox SET next_at = 0 "
			    "WHERE state = 'queued'");
		} else
			ck_assert_int_eq(st.failed, 1);
	}
	ck_assert_int_eq(tdb_q1(t.db.h, "SELECT count(*) FROM mail_outbox "
	    "WHERE state = 'failed' AND body_box IS NULL AND attempts = 5 AND "
	    "next_at IS NULL"), 1);

	/* Queued past its invitation's end: given up unsent. */
	m.expires_at = now + 1;
	ck_assert_int_eq(mail_queue_invite(&t.db, key, acct, 0, &m, now), 0);
	memset(&st, 0, sizeof(st));
	ck_assert_int_eq(store_mail_expire(&t.db, now + 2), 1);
	ck_assert_int_eq(tdb_q1(t.db.h, "SELECT count(*) FROM mail_outbox "
	    "WHERE body_box IS NOT NULL"), 0);
	/* And the rows finished long ago purged. */
	ck_assert_int_eq(store_mail_purge(&t.db, now + 1000000, 100), 3);
	mailer_stop(o.mailer);
	free(cmd);
	free(body);
	free(out);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("mail");
	TCase	*tc;
	SRunner	*sr;
	int	 failed;

	if (sodium_init() < 0)
		return EXIT_FAILURE;
	tc = tcase_create("message");
	tcase_add_test(tc, test_addr);
	tcase_add_test(tc, test_argv);
	tcase_add_test(tc, test_invite_text);
	tcase_add_test(tc, test_message);
	tcase_add_test(tc, test_seal);
	suite_add_tcase(s, tc);
	tc = tcase_create("mailer");
	tcase_add_checked_fixture(tc, tmp_setup, tmp_teardown);
	tcase_add_test(tc, test_run);
	tcase_add_test(tc, test_mailer);
	suite_add_tcase(s, tc);
	tc = tcase_create("outbox");
	tcase_add_checked_fixture(tc, db_setup, db_teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_outbox);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
