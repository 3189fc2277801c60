"""receiver -- a real HTTPS webhook receiver for the end-to-end tests.

A certificate authority made for the test run with the openssl command-line
tool signs a certificate for localhost, 127.0.0.1 and ::1; lz-hooks trusts
the authority through webhook_ca_file.  The receiver (http.server with ssl,
one thread per connection) listens on 127.0.0.1, records every request it
gets (headers and raw body) and answers as the test tells it: a status and
a delay per request, per path.

    ca = receiver.CA(directory)
    rx = receiver.Receiver(ca).start()
    rx.respond("/hook", 500, (200, 0.5))   # then 200 for ever
    ...
    rx.wait(3)
    rx.requests[0].verify(secret)
    rx.stop()
"""

import hashlib
import hmac
import http.server
import json
import os
import ssl
import subprocess
import threading
import time


def openssl(*args, cwd):
    subprocess.run(["openssl"] + list(args), cwd=cwd, check=True,
                   capture_output=True, timeout=60)


class CA:
    """A throw-away certificate authority and a leaf for localhost."""

    def __init__(self, directory):
        self.dir = directory
        os.makedirs(directory, exist_ok=True)
        self.ca = os.path.join(directory, "ca.pem")
        self.cert = os.path.join(directory, "leaf.pem")
        self.key = os.path.join(directory, "leaf.key")
        if not os.path.exists(self.cert):
            self._make()

    def _make(self):
        d = self.dir
        with open(os.path.join(d, "leaf.ext"), "w") as f:
            f.write("basicConstraints = critical, CA:FALSE\n"
                    "keyUsage = critical, digitalSignature\n"
                    "extendedKeyUsage = serverAuth\n"
                    "subjectAltName = DNS:localhost, IP:127.0.0.1, "
                    "IP:::1\n")
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt",
                "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                "-subj", "/CN=lz test CA", "-keyout", "ca.key",
                "-out", "ca.pem",
                "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign", cwd=d)
        openssl("req", "-newkey", "ec", "-pkeyopt",
                "ec_paramgen_curve:P-256", "-nodes", "-subj",
                "/CN=localhost", "-keyout", "leaf.key", "-out", "leaf.csr",
                cwd=d)
        openssl("x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem",
                "-CAkey", "ca.key", "-CAcreateserial", "-days", "2",
                "-extfile", "leaf.ext", "-out", "leaf.pem", cwd=d)


class Request:
    """One request as the receiver got it."""

    def __init__(self, method, path, headers, body):
        self.method = method
        self.path = path
        self.headers = headers          # lower-case name -> value
        self.body = body                # the raw bytes
        self.t = time.monotonic()
        self.status = None              # what the receiver answered
        self.answered = None            # monotonic time of the answer

    def header(self, name):
        return self.headers.get(name.lower())

    def json(self):
        return json.loads(self.body.decode("utf-8"))

    def delivery(self):
        return self.header("X-Lz-Delivery")

    def verify(self, secret):
        """True when X-Lz-Signature is HMAC-SHA256 of the raw body."""
        want = "sha256=" + hmac.new(secret.encode(), self.body,
                                    hashlib.sha256).hexdigest()
        return hmac.compare_digest(want, self.header("X-Lz-Signature") or "")


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        rx = self.server.receiver
        n = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(n)
        req = Request("POST", self.path,
                      {k.lower(): v for k, v in self.headers.items()}, body)
        status, delay, location = rx._action(self.path, req)
        if delay:
            time.sleep(delay)
        try:
            self.send_response(status)
            if location:
                self.send_header("Location", location)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", "3")
            self.end_headers()
            self.wfile.write(b"ok\n")
            self.wfile.flush()
            req.status = status
            req.answered = time.monotonic()
        except OSError:
            pass            # the sender gave up (time-out)
        finally:
            with rx.cond:
                rx.cond.notify_all()

    do_GET = do_POST
    do_PUT = do_POST


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        pass                # failed handshakes and resets are expected


class Receiver:
    """An HTTPS (or, with tls=False, plain HTTP) receiver on 127.0.0.1."""

    def __init__(self, ca=None, tls=True):
        self.ca = ca
        self.tls = tls
        self.requests = []
        self.cond = threading.Condition()
        self.plans = {}
        self.default = (200, 0.0, None)
        self.server = None
        self.port = None

    def start(self):
        self.server = _Server(("127.0.0.1", 0), _Handler)
        self.server.receiver = self
        if self.tls:
            ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            ctx.load_cert_chain(self.ca.cert, self.ca.key)
            self.server.socket = ctx.wrap_socket(self.server.socket,
                                                 server_side=True)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever,
                                       kwargs={"poll_interval": 0.05},
                                       daemon=True)
        self.thread.start()
        return self

    def stop(self):
        if self.server:
            self.server.shutdown()
            self.server.server_close()
            self.server = None

    def url(self, path="/hook", host="127.0.0.1"):
        return "%s://%s:%d%s" % ("https" if self.tls else "http", host,
                                 self.port, path)

    def respond(self, path, *actions):
        """Answers the next requests to path with these actions in turn:
        a status, or (status, delay seconds[, Location])."""
        with self.cond:
            plan = self.plans.setdefault(path, [])
            for a in actions:
                if isinstance(a, int):
                    a = (a, 0.0)
                plan.append((a[0], a[1], a[2] if len(a) > 2 else None))

    def always(self, path, status, delay=0.0):
        """Answers every request to path this way from now on."""
        with self.cond:
            self.plans[path] = ("always", (status, delay, None))

    def _action(self, path, req):
        with self.cond:
            self.requests.append(req)
            self.cond.notify_all()
            plan = self.plans.get(path)
            if isinstance(plan, tuple):
                return plan[1]
            if plan:
                return plan.pop(0)
            return self.default

    def wait(self, n, timeout=10.0, path=None):
        """Waits until n requests (to path) have come; returns them."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                got = self.got(path)
                if len(got) >= n:
                    return got
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("%d of %d requests" % (len(got), n))
                self.cond.wait(left)

    def got(self, path=None):
        with self.cond:
            return [r for r in self.requests
                    if path is None or r.path == path]
