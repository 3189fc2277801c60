"""Installs lz with "make install DESTDIR=..." as an unprivileged user,
runs the installed programs from there against a fresh nginx that
includes the installed snippets, speaks to each service once, then
uninstalls.  As root the test runs everything as "nobody"."""

import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import lzenv  # noqa: E402


def unprivileged():
    if os.geteuid() != 0:
        return None
    return pwd.getpwnam("nobody")


class Install(unittest.TestCase):
    def setUp(self):
        self.user = unprivileged()
        self.top = tempfile.mkdtemp(prefix="lz-install-")
        os.chmod(self.top, 0o755)
        if self.user:
            os.chown(self.top, self.user.pw_uid, self.user.pw_gid)
        self.procs = []

    def tearDown(self):
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(20)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        if not os.environ.get("LZ_KEEP"):
            shutil.rmtree(self.top, ignore_errors=True)

    def as_user(self):
        kw = {}
        if self.user:
            kw = {"user": self.user.pw_uid, "group": self.user.pw_gid,
                  "extra_groups": []}
        kw["env"] = dict(os.environ, HOME=self.top)
        return kw

    def run_user(self, *cmd, check=True):
        p = subprocess.run(list(cmd), capture_output=True, text=True,
                           timeout=300, **self.as_user())
        if check and p.returncode != 0:
            self.fail("%s failed (%d):\n%s%s" % (" ".join(cmd), p.returncode,
                                                p.stdout[-3000:],
                                                p.stderr[-3000:]))
        return p

    def spawn_user(self, log, *cmd):
        f = open(log, "ab")
        p = subprocess.Popen(list(cmd), stdout=f, stderr=f,
                             start_new_session=True, **self.as_user())
        f.close()
        self.procs.append(p)
        return p

    def test_install_run_uninstall(self):
        dest = os.path.join(self.top, "dest")
        self.run_user("make", "-s", "-C", lzenv.BUILDDIR, "install",
                      "DESTDIR=" + dest)
        found = {}
        for root, _, files in os.walk(dest):
            for f in files:
                found[f] = os.path.join(root, f)
        for f in ("lz-links", "lz-prompts", "lz-hooks", "lzctl",
                  "lz-prompts.8", "lz-hooks.8", "lz-prompts-data.5",
                  "prompts.json", "index.html", "lz.css",
                  "lz-links.8", "lzctl.8", "lz.conf.5",
                  "lz.conf.sample", "lz-links-locations.conf",
                  "lz-upstreams.conf", "0001-init.sql", "lz-links.service",
                  "lz-links.socket", "lz.crontab"):
            self.assertIn(f, found, "not installed: " + f)
        sbin = os.path.dirname(found["lzctl"])
        share = os.path.dirname(os.path.dirname(found["lz-upstreams.conf"]))
        # The installed sample names the installed paths.
        sample = open(found["lz.conf.sample"]).read()
        self.assertNotIn("@", sample.replace("@example", ""))

        # An instance run from the installed files, all as the user.
        inst = os.path.join(self.top, "inst")
        self.run_user("mkdir", "-p", inst + "/run", inst + "/nginx/tmp")
        port = lzenv.free_port()
        conf = os.path.join(inst, "lz.conf")
        with open(conf, "w") as f:
            f.write("base_url = http://127.0.0.1:%d\nlinks_db = data/links.db"
                    "\nkey_file = data/lz.key\nlinks_socket = run/links.sock"
                    "\nprompts_socket = run/prompts.sock\nlinks_workers = 2\n"
                    "prompts_db = data/prompts.db\nprompts_workers = 2\n"
                    "socket_mode = 0600\n" % port)
        pport = lzenv.free_port()
        lzctl = os.path.join(sbin, "lzctl")
        self.run_user(lzctl, "-f", conf, "init")
        acct = self.run_user(lzctl, "-f", conf, "account", "add",
                             "inst@example.com").stdout.strip()
        key = self.run_user(lzctl, "-f", conf, "key", "create",
                            acct).stdout.strip()
        self.run_user(lzctl, "-f", conf, "prompts", "import",
                      found["prompts.json"])
        pools = {}
        for name in ("lz-links", "lz-prompts"):
            log = os.path.join(inst, name + ".log")
            p = self.spawn_user(log, os.path.join(sbin, name), "-f", conf)
            sock = os.path.join(inst, "run", name[3:] + ".sock")
            lzenv.wait_for(lambda: lzenv.unix_connectable(sock) or
                           p.poll() is not None, what="installed " + name)
            self.assertIsNone(p.poll(), open(log).read())
            pools[name] = p
        links = pools["lz-links"]

        ndir = os.path.join(inst, "nginx")
        os.symlink(os.path.join(share, "nginx"), os.path.join(ndir, "lz"))
        shutil.copy("/etc/nginx/fastcgi_params", ndir)
        with open(os.path.join(ndir, "nginx.conf"), "w") as f:
            f.write("""pid %(n)s/nginx.pid;
error_log %(n)s/error.log;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path %(n)s/tmp; fastcgi_temp_path %(n)s/tmp;
    proxy_temp_path %(n)s/tmp; uwsgi_temp_path %(n)s/tmp;
    scgi_temp_path %(n)s/tmp;
    upstream lz_links { server unix:%(s)s max_fails=0;
                        server unix:%(s)s max_fails=0; }
    upstream lz_prompts { server unix:%(ps)s max_fails=0;
                          server unix:%(ps)s max_fails=0; }
    server {
        listen 127.0.0.1:%(p)d;
        set $lz_www %(www)s;
        include lz/lz-links-locations.conf;
    }
    server {
        listen 127.0.0.1:%(pp)d;
        include lz/lz-prompts-locations.conf;
    }
}
""" % {"n": ndir, "s": os.path.join(inst, "run", "links.sock"),
                "ps": os.path.join(inst, "run", "prompts.sock"),
                "p": port, "pp": pport, "www": os.path.join(share, "www")})
        if self.user:
            for root, dirs, files in os.walk(inst):
                for x in dirs + files:
                    os.lchown(os.path.join(root, x), self.user.pw_uid,
                              self.user.pw_gid)
        nginx = self.spawn_user(os.path.join(inst, "nginx.log"),
                                lzenv.NGINX, "-e", "stderr", "-p", ndir,
                                "-c", os.path.join(ndir, "nginx.conf"),
                                "-g", "daemon off;")
        for prt in (port, pport):
            lzenv.wait_for(lambda: lzenv.tcp_connectable(prt) or
                           nginx.poll() is not None, what="nginx")
        self.assertIsNone(nginx.poll(), open(os.path.join(
            inst, "nginx.log")).read())

        import http.client
        import json
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        c.request("POST", "/api/v1/links",
                  body=json.dumps({"target_url": "https://example.com/"}),
                  headers={"Authorization": "Bearer " + key,
                           "Content-Type": "application/json"})
        r = c.getresponse()
        body = r.read()
        self.assertEqual(r.status, 201, body)
        slug = json.loads(body)["slug"]
        c.close()
        # The short link, served with the installed page style.
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        c.request("GET", "/" + slug, headers={"User-Agent": "Mozilla/5.0 "
                  "(X11; Linux x86_64; rv:126.0) Gecko/20100101 "
                  "Firefox/126.0"})
        r = c.getresponse()
        r.read()
        self.assertEqual((r.status, r.getheader("Location")),
                         (302, "https://example.com/"))
        c.close()
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        c.request("GET", "/static/lz.css")
        r = c.getresponse()
        self.assertEqual(r.status, 200)
        r.read()
        c.close()
        # The prompt library, from the installed sample data.
        c = http.client.HTTPConnection("127.0.0.1", pport, timeout=10)
        c.request("GET", "/api/v1/prompts?limit=1")
        r = c.getresponse()
        body = r.read()
        self.assertEqual(r.status, 200, body)
        self.assertGreater(json.loads(body)["count"], 50)
        c.close()
        # One run of the installed webhook sender.
        self.run_user(os.path.join(sbin, "lz-hooks"), "-f", conf)
        # The pool runs as the unprivileged user and never had root.
        if self.user:
            st = lzenv.proc_status(links.pid)
            self.assertEqual(st["Uid"].split()[0], str(self.user.pw_uid))

        for p in (nginx, links, pools["lz-prompts"]):
            p.terminate()
            p.wait(20)
        self.run_user("make", "-s", "-C", lzenv.BUILDDIR, "uninstall",
                      "DESTDIR=" + dest)
        left = [os.path.join(r, f) for r, _, fs in os.walk(dest) for f in fs]
        self.assertEqual(left, [])


if __name__ == "__main__":
    lzenv.main()
