"""pgcluster -- a private PostgreSQL server for the tests, benchmarks and
the demo (DESIGN 7).

A cluster made with initdb in a directory of its own: the server listens
on a unix socket in that directory and on 127.0.0.1, on a port of its
own, with trust authentication for the local user "postgres".  As root
the server runs as the system user postgres (through runuser: PostgreSQL
refuses to run as root); as anyone else, as that user.  Stopping it
removes the directory unless it was given.

    c = Cluster().start()
    uri = c.create_db("lz_test")      # postgresql://postgres@/lz_test?...
    c.query(uri, "SELECT 1")
    c.stop()

shared() is one cluster per process, started on first use and stopped at
exit: a test process makes one, each lzenv.Instance a database in it.
tools/demo.py keeps one in the demo's directory, and the benchmarks make
a durable one (fsync on).
"""

import atexit
import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile

try:
    import psycopg2
except ImportError:
    # Debian's python3-psycopg2, when the tests run under another python3.
    sys.path.append("/usr/lib/python3/dist-packages")
    try:
        import psycopg2
    except ImportError:
        psycopg2 = None


def bindir():
    """The directory of initdb and pg_ctl, or None."""
    try:
        d = subprocess.run(["pg_config", "--bindir"], capture_output=True,
                           text=True).stdout.strip()
        if d and os.path.exists(os.path.join(d, "initdb")):
            return d
    except OSError:
        pass
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(p.split("/")[4]))
    return os.path.dirname(found[-1]) if found else None


def available():
    """Why a cluster cannot be made here, or None when it can."""
    if bindir() is None:
        return "no initdb (install postgresql)"
    if psycopg2 is None:
        return "no psycopg2 (install python3-psycopg2)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "as root, the user postgres is needed to run the server"
    return None


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Cluster:
    def __init__(self, directory=None, port=None, durable=False):
        """durable: fsync as a real server would (benchmarks); the tests
        run without, as nothing kills the server itself."""
        self.keep = directory is not None
        self.dir = os.path.abspath(directory) if directory else \
            tempfile.mkdtemp(prefix="lz-pg-")
        self.data = os.path.join(self.dir, "data")
        self.port = port or free_port()
        self.durable = durable
        self.bin = bindir()
        self.user = None
        if os.geteuid() == 0:
            self.user = "postgres"
        self.started = False

    def _run(self, args, **kw):
        if self.user:
            args = ["runuser", "-u", self.user, "--"] + args
        return subprocess.run(args, capture_output=True, text=True, **kw)

    def _check(self, p, what):
        if p.returncode != 0:
            raise RuntimeError("%s failed (%d): %s%s" % (
                what, p.returncode, p.stdout[-2000:], p.stderr[-2000:]))

    def start(self):
        os.makedirs(self.dir, exist_ok=True)
        # The socket directory: reachable by pools running as anyone.
        os.chmod(self.dir, 0o755)
        if self.user:
            pw = pwd.getpwnam(self.user)
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
        if not os.path.exists(os.path.join(self.data, "PG_VERSION")):
            self._check(self._run([
                os.path.join(self.bin, "initdb"), "-D", self.data,
                "-U", "postgres", "-A", "trust", "-E", "UTF8",
                "--locale=C", "--no-sync"]), "initdb")
        opts = ["-k", self.dir, "-p", str(self.port),
                "-c", "listen_addresses=127.0.0.1",
                "-c", "max_connections=300",
                "-c", "shared_buffers=64MB"]
        # LZ_PG_OPTS: more server options, for a look inside (e.g.
        # "-c shared_preload_libraries=pg_stat_statements" with LZ_KEEP=1
        # to see a benchmark's statements after it).
        opts += os.environ.get("LZ_PG_OPTS", "").split()
        if not self.durable:
            opts += ["-c", "fsync=off", "-c", "synchronous_commit=off",
                     "-c", "full_page_writes=off"]
        self._check(self._run([
            os.path.join(self.bin, "pg_ctl"), "-D", self.data, "-w",
            "-t", "60", "-l", os.path.join(self.dir, "server.log"),
            "-o", " ".join(opts), "start"]), "pg_ctl start")
        self.started = True
        return self

    def stop(self):
        if self.started:
            self._run([os.path.join(self.bin, "pg_ctl"), "-D", self.data,
                       "-m", "immediate" if not self.durable else "fast",
                       "-w", "stop"])
            self.started = False
        if not self.keep:
            shutil.rmtree(self.dir, ignore_errors=True)

    def halt(self):
        """Stops the server, keeping its directory: start() again."""
        self._check(self._run([
            os.path.join(self.bin, "pg_ctl"), "-D", self.data, "-m",
            "fast", "-w", "stop"]), "pg_ctl stop")
        self.started = False

    def restart(self):
        """Stops the server and starts it again (connections are cut)."""
        # With its log, as at the start: else the new server would hold
        # pg_ctl's output, and run() would wait for it to end.
        self._check(self._run([
            os.path.join(self.bin, "pg_ctl"), "-D", self.data, "-m",
            "fast", "-w", "-l", os.path.join(self.dir, "server.log"),
            "restart"]), "pg_ctl restart")

    def log(self):
        try:
            with open(os.path.join(self.dir, "server.log"),
                      errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    # -- databases -----------------------------------------------------

    def uri(self, dbname, tcp=False):
        """libpq URI of dbname: over the unix socket, or tcp."""
        if tcp:
            return "postgresql://postgres@127.0.0.1:%d/%s" % (self.port,
                                                              dbname)
        return "postgresql://postgres@/%s?host=%s&port=%d" % (
            dbname, self.dir, self.port)

    def connect(self, dbname="postgres"):
        return psycopg2.connect(host=self.dir, port=self.port,
                                user="postgres", dbname=dbname)

    def has_db(self, dbname):
        return bool(self.query("postgres", "SELECT 1 FROM pg_database "
                               "WHERE datname = %s", (dbname,)))

    def create_db(self, dbname):
        """A new, empty database (UTF-8, collation C); returns its URI."""
        c = self.connect()
        try:
            c.autocommit = True
            with c.cursor() as cur:
                cur.execute('DROP DATABASE IF EXISTS "%s"' % dbname)
                cur.execute('CREATE DATABASE "%s" TEMPLATE template0 '
                            "ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'" %
                            dbname)
        finally:
            c.close()
        return self.uri(dbname)

    def drop_db(self, dbname):
        c = self.connect()
        try:
            c.autocommit = True
            with c.cursor() as cur:
                cur.execute('DROP DATABASE IF EXISTS "%s" WITH (FORCE)' %
                            dbname)
        finally:
            c.close()

    def dump(self, dbname):
        """pg_dump of dbname, as bytes (plain SQL), without the random
        key of its \\restrict lines (the same data dumps the same)."""
        p = subprocess.run([os.path.join(self.bin, "pg_dump"), "-h",
                            self.dir, "-p", str(self.port), "-U", "postgres",
                            dbname], capture_output=True)
        self._check(p, "pg_dump")
        return b"".join(ln for ln in p.stdout.splitlines(True)
                        if not ln.startswith((b"\\restrict ",
                                              b"\\unrestrict ")))

    def query(self, dbname, sql, args=None):
        """Runs sql in dbname; returns its rows as tuples (bytea as bytes,
        numeric as int when whole), [] when it returns none."""
        c = self.connect(dbname)
        try:
            with c.cursor() as cur:
                cur.execute(sql, args)
                rows = cur.fetchall() if cur.description else []
            c.commit()
        finally:
            c.close()
        return [tuple(plain(v) for v in row) for row in rows]


def plain(v):
    """A value as the sqlite3 module gives it."""
    if isinstance(v, memoryview):
        return bytes(v)
    if v.__class__.__name__ == "Decimal":
        return int(v) if v == int(v) else float(v)
    if isinstance(v, bool):
        return int(v)
    return v


_shared = None


def shared():
    """The cluster of this process, started on first use."""
    global _shared
    if _shared is None:
        why = available()
        if why:
            raise RuntimeError("LZ_DB=postgresql: " + why)
        _shared = Cluster().start()
        atexit.register(_shared.stop)
    return _shared
