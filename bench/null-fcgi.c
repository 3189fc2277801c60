/*
 * null-fcgi.c -- the baseline of every benchmark: a FastCGI responder that
 * does nothing but answer, with libfcgi and N forked workers on one unix
 * socket, as lz-links and lz-prompts.  A service's requests/s divided by
 * this one's, measured in the same run, tells what the service's own work
 * costs.
 *
 * usage: null-fcgi SOCKET WORKERS [STATUS [MODE]]
 *   STATUS 302 answers a redirect (the shape of a short link), otherwise
 *   a small JSON body.  MODE:
 *   kept     nginx keeps the connections (fastcgi_keep_conn on, upstream
 *            keepalive): each worker waits in poll() on every connection
 *            it holds and on the non-blocking listening socket, one
 *            FCGX_Request per connection, and reads a request from the
 *            connection that has one -- what the pools do (DESIGN 1).
 *            The baseline of every benchmark.
 *   linger   one connection per request (fastcgi_keep_conn off), closed
 *            with libfcgi's lingering close; the old baseline.
 *   at-once  one connection per request, read to its end and closed at
 *            once (FCGX_Detach); the old baseline of bench/search.
 */
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fcgiapp.h>

#define SLOTS	128

static int	redirect;

static void
answer(FCGX_Request *r)
{
	if (redirect)
		FCGX_PutS("Status: 302 Found\r\n"
		    "Location: https://example.com/\r\n"
		    "Content-Length: 0\r\n\r\n", r->out);
	else
		FCGX_PutS("Status: 200 OK\r\n"
		    "Content-Type: application/json\r\n"
		    "Content-Length: 12\r\n\r\n{\"ok\":true}\n", r->out);
}

/* Reads the rest of stdin; 1 at its end. */
static int
read_to_end(FCGX_Request *r)
{
	char	 buf[4096];

	while (FCGX_GetStr(buf, sizeof(buf), r->in) > 0)
		continue;
	return FCGX_HasSeenEOF(r->in);
}

static void
serve_once(int fd, int at_once)
{
	FCGX_Request	 r;

	FCGX_InitRequest(&r, fd, 0);
	while (FCGX_Accept_r(&r) >= 0) {
		answer(&r);
		if (at_once && read_to_end(&r))
			FCGX_Detach(&r);
		FCGX_Finish_r(&r);
	}
}

static void
serve_kept(int fd)
{
	static FCGX_Request	 r[SLOTS];
	struct pollfd		 pfd[SLOTS + 1];
	FCGX_Request		*who[SLOTS + 1], *s;
	int			 i, n;

	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	for (i = 0; i < SLOTS; i++)
		FCGX_InitRequest(&r[i], fd, 0);
	for (;;) {
		n = 0;
		for (i = 0; i < SLOTS && r[i].ipcFd >= 0; i++)
			continue;
		if (i < SLOTS) {
			pfd[n].fd = fd;
			pfd[n].events = POLLIN;
			who[n++] = &r[i];
		}
		for (i = 0; i < SLOTS; i++)
			if (r[i].ipcFd >= 0) {
				pfd[n].fd = r[i].ipcFd;
				pfd[n].events = POLLIN;
				who[n++] = &r[i];
			}
		if (poll(pfd, (nfds_t)n, -1) == -1)
			return;		/* a signal: SIGTERM stops */
		for (i = 0; i < n; i++) {
			if (pfd[i].revents == 0)
				continue;
			s = who[i];
			if (FCGX_Accept_r(s) < 0)
				continue;
			answer(s);
			read_to_end(s);
			FCGX_Finish_r(s);
		}
	}
}

int
main(int argc, char *argv[])
{
	struct sockaddr_un	 sun;
	const char		*mode;
	int			 fd, n, i;

	if (argc < 3) {
		fprintf(stderr, "usage: null-fcgi SOCKET WORKERS [STATUS "
		    "[kept|linger|at-once]]\n");
		return 2;
	}
	n = atoi(argv[2]);
	redirect = argc > 3 && atoi(argv[3]) == 302;
	mode = argc > 4 ? argv[4] : "kept";
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", argv[1]);
	unlink(argv[1]);
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1 ||
	    bind(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1 ||
	    listen(fd, 1024) == -1) {
		perror(argv[1]);
		return 1;
	}
	chmod(argv[1], 0666);
	signal(SIGPIPE, SIG_IGN);
	FCGX_Init();
	for (i = 0; i < n; i++)
		if (fork() == 0) {
			if (strcmp(mode, "kept") == 0)
				serve_kept(fd);
			else
				serve_once(fd, strcmp(mode, "at-once") == 0);
			_exit(0);
		}
	while (wait(NULL) > 0)
		continue;
	return 0;
}
