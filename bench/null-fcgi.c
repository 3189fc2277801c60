/*
 * null-fcgi.c -- the baseline of every benchmark: a FastCGI responder that
 * does nothing but answer, with the same libfcgi accept loop and the same
 * pool (N forked workers on one unix socket) as lz-links and lz-prompts.
 * A service's requests/s divided by this one's, measured in the same run,
 * tells what the service's own work costs.
 *
 * usage: null-fcgi SOCKET WORKERS [STATUS [CLOSE]]
 *   STATUS 302 answers a redirect (the shape of a short link), otherwise
 *   a small JSON body.  CLOSE "at-once" reads the request to its end and
 *   closes at once (FCGX_Detach), as lz-prompts does (close_at_once in
 *   src/core/pool.h); otherwise libfcgi's lingering close, as lz-links.
 *   Each benchmark compares a service with a baseline that closes the
 *   way the service does.
 */
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fcgiapp.h>

static void
serve(int fd, int redirect, int at_once)
{
	FCGX_Request	 r;
	char		 buf[4096];

	FCGX_Init();
	FCGX_InitRequest(&r, fd, 0);
	while (FCGX_Accept_r(&r) >= 0) {
		if (redirect)
			FCGX_PutS("Status: 302 Found\r\n"
			    "Location: https://example.com/\r\n"
			    "Content-Length: 0\r\n\r\n", r.out);
		else
			FCGX_PutS("Status: 200 OK\r\n"
			    "Content-Type: application/json\r\n"
			    "Content-Length: 12\r\n\r\n{\"ok\":true}\n", r.out);
		if (at_once) {
			while (FCGX_GetStr(buf, sizeof(buf), r.in) > 0)
				continue;
			if (FCGX_HasSeenEOF(r.in))
				FCGX_Detach(&r);
		}
		FCGX_Finish_r(&r);
	}
	_exit(0);
}

int
main(int argc, char *argv[])
{
	struct sockaddr_un	 sun;
	int			 fd, n, i;

	if (argc < 3) {
		fprintf(stderr, "usage: null-fcgi SOCKET WORKERS [STATUS "
		    "[CLOSE]]\n");
		return 2;
	}
	n = atoi(argv[2]);
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
	for (i = 0; i < n; i++)
		if (fork() == 0)
			serve(fd, argc > 3 && atoi(argv[3]) == 302,
			    argc > 4 && strcmp(argv[4], "at-once") == 0);
	while (wait(NULL) > 0)
		continue;
	return 0;
}
