#!/usr/bin/env python3
"""Runs the shell commands docs/operating.md gives an operator, as they are written there, with the paths and the
database URL of the example put where this machine has them: the SQLite backup taken while `uquiz serve` runs and
writes, its restore, the metrics read with the token, and PostgreSQL's dump and restore on the throw-away cluster.
What needs a machine of its own (systemd, nginx, Prometheus) is left to the reader.

Usage: python3 Tests/Docs/operating.py (from the checkout, after the build; UQUIZ_TEST_POSTGRES_URL names a cluster)."""
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
BINARIES = REPOSITORY / ".build" / "debug"
DOC = (REPOSITORY / "docs" / "operating.md").read_text()


def blocks(after_heading):
    """The ```sh blocks of the section that starts at `after_heading`."""
    section = DOC.split(after_heading, 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.*?)```", section, re.S)


def run(command, env, what):
    print(f"$ {command.strip()}", flush=True)
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", command], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"operating.md: {what} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")
    return done.stdout


def serve(env, database):
    server = subprocess.Popen(
        [str(BINARIES / "uquiz"), "serve", "--db", database, "--port", "0"], env=env,
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = server.stdout.readline()
    if not line.startswith("listening on "):
        sys.exit(f"operating.md: uquiz serve did not start: {line!r}")
    return server, line.split()[-1]


def request(url, token=None, body=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers), timeout=30) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def stop(server):
    server.send_signal(signal.SIGTERM)
    if server.wait(timeout=60) != 0:
        sys.exit("operating.md: uquiz serve did not stop cleanly on SIGTERM")


def main():
    work = pathlib.Path(tempfile.mkdtemp(prefix="uquiz-operating-"))
    env = dict(os.environ, PATH=f"{BINARIES}:{os.environ['PATH']}", HOME=str(work / "home"),
               UQUIZ_METRICS_TOKEN="operating-doc-metrics-token")
    (work / "home").mkdir()
    (work / "backups").mkdir()
    database = str(work / "server.sqlite")

    def local(command):
        return command.replace("/var/lib/uquiz/server.sqlite", database).replace("/backups/", f"{work}/backups/")

    backup, restore, dump = blocks("## Backups")

    # A backup while the server runs and writes.
    server, base = serve(env, database)
    players = [json.loads(request(f"{base}/v1/players", body={"name": f"Player {n}"})[1]) for n in range(8)]
    run(local(backup), env, "the SQLite backup")
    copies = list((work / "backups").glob("uquiz-*.sqlite"))
    if len(copies) != 1:
        sys.exit(f"operating.md: the backup made {copies}")

    # The metrics as the section says: with the token only.
    status, text = request(f"{base}/metrics", token=env["UQUIZ_METRICS_TOKEN"])
    if status != 200 or "uquiz_open_rooms" not in text or "uquiz_room_takeovers_total" not in DOC:
        sys.exit(f"operating.md: /metrics with the token answered {status}")
    if request(f"{base}/metrics")[0] != 401:
        sys.exit("operating.md: /metrics without the token is not a 401")
    stop(server)

    # The restore: the server stopped, its database moved away, a new one made from the backup.
    shutil.move(database, database + ".old")
    restored = local(restore.replace("/backups/uquiz-2026-11-26.sqlite", "@BACKUP@")).replace("@BACKUP@", str(copies[0]))
    run(restored, env, "the SQLite restore")
    server, base = serve(env, database)
    status, _ = request(f"{base}/v1/players/me", token=players[-1]["token"])
    stop(server)
    if status != 200:
        sys.exit(f"operating.md: a player made before the backup is not in the restored database ({status})")

    # PostgreSQL: a migrated database dumped and restored with PostgreSQL's tools.
    cluster = os.environ.get("UQUIZ_TEST_POSTGRES_URL")
    if not cluster:
        print("operating.md: no UQUIZ_TEST_POSTGRES_URL, PostgreSQL's commands not run")
        return
    parts = urllib.parse.urlsplit(cluster)
    source = parts._replace(path="/uquiz_docs").geturl()
    target = parts._replace(path="/uquiz_restored").geturl()
    pg = dict(env, PGHOST=parts.hostname, PGPORT=str(parts.port), PGUSER=parts.username or "postgres")
    run("dropdb --if-exists uquiz_docs && dropdb --if-exists uquiz_restored && createdb uquiz_docs", pg, "a database")
    run(f"uquiz admin reports --db '{source}' --json", pg, "migrating the database")
    commands = dump.replace("postgres://uquiz@db.internal/uquiz_restored", target).replace(
        "postgres://uquiz@db.internal/uquiz", source).replace("uquiz.dump", f"{work}/uquiz.dump")
    run(commands, pg, "pg_dump and pg_restore")
    tables = run("psql --tuples-only --no-align --dbname uquiz_restored -c 'SELECT COUNT(*) FROM package'", pg,
                 "reading the restored database")
    run("dropdb uquiz_docs && dropdb uquiz_restored", pg, "cleaning up")
    if int(tables.strip() or 0) < 1:
        sys.exit("operating.md: the restored PostgreSQL database has no packages")
    shutil.rmtree(work)
    print("operating.md: every command ran as written")


if __name__ == "__main__":
    main()
