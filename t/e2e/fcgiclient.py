"""fcgiclient -- a FastCGI client for the tests that talk to a pool's
socket without nginx: requests on a connection the pool is asked to keep
(FCGI_KEEP_CONN), as nginx's fastcgi_keep_conn on sends them, and every
record of the answers, so a test sees what nginx would see.

    c = fcgiclient.Conn(inst.path("run", "links.sock"))
    c.send(fcgiclient.request({"REQUEST_METHOD": "GET",
                               "REQUEST_URI": "/x"}))
    records = c.answer()            # [(type, content), ...] to END_REQUEST
    fcgiclient.stdout(records)      # b"Status: 404 ...\\r\\n..."
"""

import socket
import struct

BEGIN_REQUEST, END_REQUEST, PARAMS, STDIN, STDOUT, STDERR = 1, 3, 4, 5, 6, 7
RESPONDER, KEEP_CONN = 1, 1


def record(rtype, content=b"", request_id=1):
    return struct.pack(">BBHHBx", 1, rtype, request_id, len(content),
                       0) + content


def pairs(params):
    out = b""
    for k, v in params.items():
        k, v = k.encode(), v.encode()
        for n in (len(k), len(v)):
            out += bytes([n]) if n < 128 else struct.pack(">I", n | 1 << 31)
        out += k + v
    return out


def request(params, body=b"", keep=True):
    """The records of one request, as nginx writes them."""
    p = dict(params)
    if body:
        p.setdefault("CONTENT_LENGTH", str(len(body)))
    return (record(BEGIN_REQUEST, struct.pack(
        ">HB5x", RESPONDER, KEEP_CONN if keep else 0)) +
        record(PARAMS, pairs(p)) + record(PARAMS) +
        (record(STDIN, body) if body else b"") + record(STDIN))


class Conn:
    def __init__(self, path, timeout=10):
        self.s = socket.socket(socket.AF_UNIX)
        self.s.settimeout(timeout)
        self.s.connect(path)
        self.buf = b""

    def send(self, data):
        self.s.sendall(data)

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.s.recv(65536)
            if not chunk:
                raise EOFError("the pool closed the connection")
            self.buf += chunk
        data, self.buf = self.buf[:n], self.buf[n:]
        return data

    def next_record(self):
        """(type, content) of the next record."""
        _, rtype, _, n, pad = struct.unpack(">BBHHBx", self._read(8))
        content = self._read(n)
        self._read(pad)
        return rtype, content

    def answer(self):
        """The records up to and including END_REQUEST."""
        out = []
        while not out or out[-1][0] != END_REQUEST:
            out.append(self.next_record())
        return out

    def closed(self):
        """True when the pool has closed the connection (and sent
        nothing more).  A pool that closes while the client is still
        sending leaves unread bytes behind, and the kernel answers them
        with a reset instead of an end: closed all the same."""
        if self.buf:
            return False
        try:
            return self.s.recv(1) == b""
        except ConnectionResetError:
            return True

    def close(self):
        self.s.close()


def stdout(records):
    return b"".join(c for t, c in records if t == STDOUT)
