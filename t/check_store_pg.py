"""check_store_pg -- t/check_store again with a PostgreSQL server: the
statement API and every statement of the link service on the second
engine (DESIGN 7).  Starts a private server (t/e2e/pgcluster.py) for it;
skipped (77) where none can be started or lz was built without libpq.
"""

import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "e2e"))
import pgcluster  # noqa: E402

BUILDDIR = os.environ.get("LZ_BUILDDIR", ".")


def built_with_pg():
    with open(os.path.join(BUILDDIR, "config.h")) as f:
        return "#define HAVE_POSTGRESQL 1" in f.read()


def main():
    why = None if built_with_pg() else "built without libpq"
    why = why or pgcluster.available()
    if why:
        print("SKIP: " + why)
        sys.exit(77)
    c = pgcluster.Cluster().start()
    try:
        env = dict(os.environ, LZ_TEST_PG=c.create_db("check_store"))
        rc = subprocess.run([os.path.join(BUILDDIR, "t", "check_store")],
                            env=env, timeout=600).returncode
        if rc != 0:
            sys.stderr.write(c.log()[-4000:])
    finally:
        c.stop()
    sys.exit(rc)


if __name__ == "__main__":
    main()
