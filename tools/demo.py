#!/usr/bin/env python3
"""tools/demo.py DIR -- a demo instance of lz on 127.0.0.1, in the foreground.

Sets up DIR (config, key file, databases), loads the sample prompt data,
makes a demo account with a fresh API key and a fresh dashboard password,
starts lz-links, lz-prompts and nginx, prints where everything is, and runs
until Ctrl-C.  Run through
"tools/quickstart run", which builds everything first.

Run as root, the demo runs as a real installation does (README): the
pools as the unprivileged system user "lz" (made when missing), nginx's
workers as www-data, and the pools' sockets mode 0660 with the group
www-data, so that no other local user can speak FastCGI to the pools
and name any REMOTE_ADDR.  When the user lz cannot reach DIR (a
checkout in /root, mode 0700), the instance lives in /var/tmp under a
name that stays the same for the same DIR, and the banner says where.

Ports: LZ_DEMO_LINKS_PORT (default 8080), LZ_DEMO_PROMPTS_PORT (8081).
LZ_DB=postgresql: the link service on a PostgreSQL server of the demo's
own, made with initdb in DIR/pg (a unix socket there, a port of its own),
started with the demo and stopped with it; its data stays for the next.
"""

import hashlib
import os
import pwd
import secrets
import shutil
import signal
import subprocess
import sys
import time

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(TOP, "t", "e2e"))
os.environ.setdefault("LZ_BUILDDIR", os.path.join(TOP, "build"))
os.environ.setdefault("LZ_SRCDIR", TOP)

import lzenv  # noqa: E402
import pgcluster  # noqa: E402


POOL_USER = "lz"           # the pools' user, as README's installation
NGINX_USER = "www-data"     # Debian's nginx


def reachable(directory, user, what, sub):
    """directory/sub when user can reach directory, else (a checkout in
    /root, whose mode is 0700) a place in /var/tmp, under a name that
    stays the same for the same directory, so that its data lasts from
    run to run."""
    directory = os.path.abspath(directory)
    os.makedirs(directory, exist_ok=True)
    os.chmod(directory, 0o755)
    if os.geteuid() != 0 or subprocess.run(
            ["runuser", "-u", user, "--", "test", "-x", directory],
            stdin=subprocess.DEVNULL).returncode == 0:
        return os.path.join(directory, sub) if sub else directory
    name = hashlib.sha256(directory.encode()).hexdigest()[:12]
    where = os.path.join("/var/tmp", "lz-demo-%s%s" % (
        sub + "-" if sub else "", name))
    print("demo: the user %s cannot reach %s; %s is in %s" % (
        user, directory, what, where), flush=True)
    return where


def pool_user():
    """As root, the pools' unprivileged user, made when missing (as the
    README's installation makes it); else nothing to change."""
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam(POOL_USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--home", "/var/lib/lz",
                        "--no-create-home", "--shell", "/usr/sbin/nologin",
                        POOL_USER], check=True)
    return POOL_USER


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else os.path.join(TOP, "demo")
    links_port = int(os.environ.get("LZ_DEMO_LINKS_PORT", "8080"))
    prompts_port = int(os.environ.get("LZ_DEMO_PROMPTS_PORT", "8081"))
    have_prompts = os.path.exists(os.path.join(lzenv.BUILDDIR, "src",
                                               "prompts", "lz-prompts"))
    cluster = None
    if lzenv.PG:
        why = pgcluster.available()
        if why:
            sys.exit("demo: LZ_DB=postgresql: " + why)
        os.makedirs(directory, exist_ok=True)
        os.chmod(directory, 0o755)
        cluster = pgcluster.Cluster(reachable(
            directory, "postgres", "the PostgreSQL cluster", "pg"),
            durable=True).start()
        if not cluster.has_db("lz"):
            cluster.create_db("lz")
    try:
        run(directory, links_port, prompts_port, have_prompts, cluster)
    finally:
        if cluster:
            cluster.stop()


def run(directory, links_port, prompts_port, have_prompts, cluster):
    user = pool_user()
    root = user is not None
    if root:
        directory = reachable(directory, user, "the instance", "")
        os.makedirs(directory, exist_ok=True)
        os.chmod(directory, 0o755)
        # nginx's workers serve the dashboard's files: a copy they can
        # read, whatever the checkout's modes.
        www = os.path.join(directory, "www")
        shutil.rmtree(www, ignore_errors=True)
        shutil.copytree(os.path.join(TOP, "www"), www)
        for d, _, files in os.walk(www):
            os.chmod(d, 0o755)
            for f in files:
                os.chmod(os.path.join(d, f), 0o644)
    inst = lzenv.Instance("demo", directory=directory, links_port=links_port,
                          prompts_port=prompts_port, prompts=have_prompts,
                          pg=(cluster, "lz") if cluster else None,
                          user=user, socket_group=NGINX_USER if root else
                          None, nginx_user=NGINX_USER if root else None,
                          www=www if root else None)
    sample = os.path.join(TOP, "data", "prompts.json")
    if have_prompts and os.path.exists(sample):
        inst.ctl("prompts", "import", sample)
    email = "demo@example.com"
    rc, out, _ = inst.ctl("account", "add", email, "--plan", "pro",
                          check=False)
    key = inst.key(email)
    # Sign-up is closed (signup = closed in lz.conf): the demo account gets a
    # password, a new one at each run, set as an admin would.
    password = secrets.token_urlsafe(12)
    inst.ctl("account", "password", email, input=password + "\n")
    inst.start()
    r = inst.api("POST", "/api/v1/links", key,
                 {"target_url": "https://www.debian.org/",
                  "title": "Debian"})
    slug = r.json().get("slug") if r.status == 201 else None

    print("""
lz demo is running (Ctrl-C stops it).

  link service    http://127.0.0.1:%(lp)d/
    API           http://127.0.0.1:%(lp)d/api/v1/links
    dashboard     http://127.0.0.1:%(lp)d/dashboard/
    a short link  http://127.0.0.1:%(lp)d/%(slug)s
  prompt library  http://127.0.0.1:%(pp)d/api/v1/prompts%(noprompts)s

  demo account    %(email)s (plan pro)
  demo API key    %(key)s
  dashboard password  %(password)s
    (sign in at the dashboard with the account's e-mail and this)

  try: curl -H 'Authorization: Bearer %(key)s' \\
            http://127.0.0.1:%(lp)d/api/v1/links

  instance files  %(dir)s (lz.conf, data/, *.log)
  links database  %(db)s
  admin CLI       build/src/lzctl/lzctl -f %(dir)s/lz.conf account list
""" % {"lp": links_port, "pp": prompts_port, "slug": slug or "",
       "email": email, "key": key, "password": password, "dir": inst.dir,
       "db": inst.links_db if cluster else "SQLite, data/links.db",
       "noprompts": "" if have_prompts else " (not built)"})
    sys.stdout.flush()

    stop = []
    signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
    try:
        while not stop:
            time.sleep(0.5)
            for name, p in list(inst.procs.items()):
                if p.poll() is not None:
                    print("%s exited (%d); stopping" % (name, p.returncode))
                    stop.append(1)
    except KeyboardInterrupt:
        pass
    inst.stop()


if __name__ == "__main__":
    main()
