"""mariadb -- a private MariaDB server for the tests and benchmarks of
lzctl import yourls (lzctl(8) import).

A server made with mariadb-install-db in a directory of its own, on a
unix socket there and no TCP port; as root it runs as the system user
mysql (mariadbd refuses root), as anyone else as that user.  Its root
user signs in over the socket without a password; a test makes the
databases and users it needs with sql().  Stopping it removes the
directory.

    s = Server().start()
    s.sql("CREATE DATABASE y")
    url = s.url("y", "yourls", "secret")  # mysql://yourls:secret@...
    s.stop()
"""

import os
import pwd
import shutil
import subprocess
import tempfile
import time


def available():
    """Why a server cannot be made here, or None when it can."""
    for prog in ("mariadb-install-db", "mariadbd", "mariadb"):
        if shutil.which(prog) is None and not os.path.exists(
                "/usr/sbin/" + prog):
            return "no %s (install mariadb-server)" % prog
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("mysql")
        except KeyError:
            return "as root, the user mysql is needed to run the server"
    return None


def _prog(name):
    return shutil.which(name) or "/usr/sbin/" + name


class Server:
    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="lz-mariadb-")
        self.sock = os.path.join(self.dir, "sock")
        self.proc = None
        self.user = []
        if os.geteuid() == 0:
            self.user = ["--user=mysql"]
            pw = pwd.getpwnam("mysql")
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
        os.chmod(self.dir, 0o755)

    def start(self):
        data = os.path.join(self.dir, "data")
        p = subprocess.run(
            [_prog("mariadb-install-db"), "--no-defaults",
             "--datadir=" + data, "--auth-root-authentication-method=normal",
             "--skip-test-db"] + self.user,
            capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            raise RuntimeError("mariadb-install-db: " + p.stdout + p.stderr)
        self.log = open(os.path.join(self.dir, "server.log"), "w")
        self.proc = subprocess.Popen(
            [_prog("mariadbd"), "--no-defaults", "--datadir=" + data,
             "--socket=" + self.sock, "--skip-networking",
             "--pid-file=" + os.path.join(self.dir, "pid"),
             "--innodb-buffer-pool-size=256M",
             "--innodb-flush-log-at-trx-commit=2",
             "--log-error=" + os.path.join(self.dir, "error.log")] +
            self.user, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("mariadbd exited: " + self.errors())
            if os.path.exists(self.sock) and self._ping():
                return self
            time.sleep(0.2)
        raise RuntimeError("mariadbd did not start: " + self.errors())

    def errors(self):
        try:
            with open(os.path.join(self.dir, "error.log")) as f:
                return f.read()[-2000:]
        except OSError:
            return ""

    def _ping(self):
        return subprocess.run(
            ["mariadb", "--no-defaults", "-S", self.sock, "-u", "root",
             "-e", "SELECT 1"], capture_output=True).returncode == 0

    def sql(self, text, db=None, timeout=600):
        """Runs SQL text as root (in db); returns its rows as lists of
        strings (tab-separated output, NULL as "NULL")."""
        args = ["mariadb", "--no-defaults", "-S", self.sock, "-u", "root",
                "--batch", "--skip-column-names", "--raw",
                "--default-character-set=utf8mb4"]
        if db:
            args.append(db)
        p = subprocess.run(args, input=text.encode(), capture_output=True,
                           timeout=timeout)
        if p.returncode != 0:
            raise RuntimeError("mariadb: " + p.stderr.decode())
        return [line.split("\t") for line in
                p.stdout.decode().splitlines()]

    def load(self, path, db):
        """Runs the SQL file path in db (a big fixture: no copy in
        memory)."""
        with open(path, "rb") as f:
            p = subprocess.run(
                ["mariadb", "--no-defaults", "-S", self.sock, "-u", "root",
                 "--default-character-set=utf8mb4", db], stdin=f,
                capture_output=True, timeout=1800)
        if p.returncode != 0:
            raise RuntimeError("mariadb: " + p.stderr.decode())

    def url(self, db, user, password):
        from urllib.parse import quote
        return "mysql://%s:%s@localhost/%s?socket=%s" % (
            quote(user, safe=""), quote(password, safe=""), db,
            quote(self.sock, safe="/"))

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None
        if getattr(self, "log", None) is not None:
            self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


# YOURLS's tables as its installer makes them (includes/functions-install.php
# of YOURLS 1.9), PREFIX for its table prefix.
YOURLS_SCHEMA = """
CREATE TABLE IF NOT EXISTS `PREFIXurl` (
 `keyword` varchar(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL
  DEFAULT '',
 `url` text CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
 `title` text COLLATE utf8mb4_unicode_ci DEFAULT NULL,
 `timestamp` timestamp NOT NULL DEFAULT current_timestamp(),
 `ip` varchar(41) COLLATE utf8mb4_unicode_ci NOT NULL,
 `clicks` int(10) unsigned NOT NULL,
 PRIMARY KEY (`keyword`),
 KEY `ip` (`ip`),
 KEY `timestamp` (`timestamp`),
 KEY `url_idx` (`url`(30))
) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE IF NOT EXISTS `PREFIXoptions` (
 `option_id` bigint(20) unsigned NOT NULL auto_increment,
 `option_name` varchar(64) COLLATE utf8mb4_unicode_ci NOT NULL default '',
 `option_value` longtext COLLATE utf8mb4_unicode_ci NOT NULL,
 PRIMARY KEY  (`option_id`,`option_name`),
 KEY `option_name` (`option_name`)
) AUTO_INCREMENT=1 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
CREATE TABLE IF NOT EXISTS `PREFIXlog` (
 `click_id` int(11) NOT NULL auto_increment,
 `click_time` datetime NOT NULL,
 `shorturl` varchar(100) BINARY NOT NULL,
 `referrer` varchar(200) NOT NULL,
 `user_agent` varchar(255) NOT NULL,
 `ip_address` varchar(41) NOT NULL,
 `country_code` char(2) NOT NULL,
 PRIMARY KEY  (`click_id`),
 KEY `shorturl` (`shorturl`)
) AUTO_INCREMENT=1 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
INSERT INTO `PREFIXoptions` (option_name, option_value) VALUES
 ('version', '1.9.2'), ('db_version', '506'), ('next_id', '1'),
 ('active_plugins', 'a:0:{}');
"""


def yourls_schema(prefix="yourls_"):
    return YOURLS_SCHEMA.replace("PREFIX", prefix)
