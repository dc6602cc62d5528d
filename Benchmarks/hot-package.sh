#!/usr/bin/env bash
# Many players finishing plays of one package at the same moment, on PostgreSQL: what the package's kept counts
# (`package_tally`, `quiz_stage_tally`: the play's added at commit, its attempts' once for their statement) cost when
# every finish meets the same rows.
# pgbench runs the transaction the server's `recordServerPlay` runs to store a finished play (the play's row, then its
# attempts in one statement), from many clients at once, on a cluster that writes durably (fsync and synchronous commit on, as a
# server's would), in three ways:
#   - every finish on one package (the hot row);
#   - the same, spread over 8 packages (what a server with several popular packages sees);
#   - every finish on one package with the tally triggers disabled (the floor: the same writes without kept counts).
#
# Usage: bash Benchmarks/hot-package.sh [OUT.json]
#   Alone, the results go to $GROWTH_DIR/hot-package.json (default /tmp/growth) and the "Many finishes of one package
#   (PostgreSQL)" section of BENCHMARKS.md is rewritten in place; with OUT.json the results go there and BENCHMARKS.md
#   is left alone.
# Environment:
#   HOT_CLIENTS       pgbench clients (default 16)
#   HOT_SECONDS       seconds per run (default 10)
#   HOT_RUNS          runs of each way, interleaved (default 3)
#   HOT_SKIP_BUILD=1  use the uquiz already built in .build-growth/release (growth.sh builds it there).
# The plays are unranked: a ranked play is one per player and package, which a repeated transaction cannot keep; a
# ranked one also adds to `leaderboard_score`'s row of its score (spread over the scores, not one row).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${1:-}
clients=${HOT_CLIENTS:-16}
seconds=${HOT_SECONDS:-10}
runs=${HOT_RUNS:-3}

. "$root/Benchmarks/lib.sh"
install_postgres
pgbench=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)/pgbench

servers_in_work
build_growth_uquiz "${HOT_SKIP_BUILD:-0}"
export XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config"

eval "$(bash .ci/postgres start)"
postgres_dir=$UQUIZ_TEST_POSTGRES_DIR
url=$UQUIZ_TEST_POSTGRES_URL
# The throw-away cluster runs without fsync for tests; a server's writes to disk, and so do these.
psql -X -q -v ON_ERROR_STOP=1 "$url" -c "ALTER SYSTEM SET fsync = on" -c "ALTER SYSTEM SET synchronous_commit = on" \
  -c "ALTER SYSTEM SET full_page_writes = on" -c "SELECT pg_reload_conf()" > /dev/null
# The server migrates and seeds the database; then 1,000 players, and 8 packages of at least 5 quizzes to finish.
serve hot-first --db "$url"
stop_servers
psql -X -q -v ON_ERROR_STOP=1 "$url" > /dev/null <<'SQL'
INSERT INTO player (name, token_hash, created_at)
SELECT 'bench ' || n, decode(md5('bench ' || n), 'hex'), '2026-01-01T00:00:00Z' FROM generate_series(1, 1000) n;
CREATE TABLE bench_player AS
  SELECT id, row_number() OVER (ORDER BY id) AS n FROM player WHERE name LIKE 'bench %';
CREATE TABLE bench_package AS
  SELECT package_id AS id, row_number() OVER (ORDER BY package_id) AS n
  FROM quiz GROUP BY package_id HAVING COUNT(*) >= 5 ORDER BY package_id LIMIT 8;
CREATE TABLE bench_quiz AS
  SELECT p.n AS package, q.id, row_number() OVER (PARTITION BY q.package_id ORDER BY q.position) - 1 AS k
  FROM quiz q JOIN bench_package p ON p.id = q.package_id;
DELETE FROM bench_quiz WHERE k >= 5;
SQL
packages=$(psql -X -A -t -v ON_ERROR_STOP=1 "$url" -c "SELECT COUNT(*) FROM bench_package")
[ "$packages" -ge 8 ] || { echo "hot-package: the seed has $packages packages of 5 quizzes or more, not 8" >&2; exit 1; }

# finish_script FIRST_PACKAGE LAST_PACKAGE: the transaction of a finished play of one of those bench packages, as
# `recordServerPlay` writes it: the play, then its attempts in one statement (quiz 3 missed, a hint on quiz 4).
finish_script() {
  cat <<SQL
\\set n random($1, $2)
\\set p random(1, 1000)
BEGIN;
INSERT INTO play (package_id, player, started_at, finished_at, score, public_id, player_id, ranked, elapsed_seconds)
  SELECT (SELECT id FROM bench_package WHERE n = :n), 'bench', '2026-11-27T12:00:00Z', '2026-11-27T12:01:00Z', 400,
         gen_random_uuid()::text, (SELECT id FROM bench_player WHERE n = :p), false, 48
  RETURNING id AS play_id \\gset
INSERT INTO attempt (play_id, quiz_id, player, started_at, correct, seconds, stage_reached, hints_used, outcome, score)
  SELECT :play_id, id, 'bench', '2026-11-27T12:00:30Z', k <> 2, CASE WHEN k = 2 THEN 12 ELSE 9 END,
         CASE WHEN k = 2 THEN 5 ELSE k % 3 + 1 END, CASE WHEN k = 3 THEN 1 ELSE 0 END,
         CASE WHEN k = 2 THEN 'missed' ELSE 'solved' END, CASE WHEN k = 2 THEN 0 ELSE 100 END
  FROM bench_quiz WHERE package = :n ORDER BY k;
COMMIT;
SQL
}
finish_script 1 1 > "$work/one.sql"
finish_script 1 8 > "$work/spread.sql"

# The floor's database: a copy of the same rows whose tally triggers are off.
floor_url=${url%/*}/uquiz_floor
psql -X -q -v ON_ERROR_STOP=1 "$url" -c "CREATE DATABASE uquiz_floor TEMPLATE uquiz_test" > /dev/null
psql -X -q -v ON_ERROR_STOP=1 "$floor_url" -c "ALTER TABLE play DISABLE TRIGGER play_tally_insert" \
  -c "ALTER TABLE attempt DISABLE TRIGGER attempt_tally_insert" > /dev/null

# run WAY SCRIPT URL: one pgbench run; appends "WAY TPS LATENCY FAILED" to $work/runs.txt.
run() {
  "$pgbench" -n -c "$clients" -j 2 -T "$seconds" -f "$2" "$3" > "$work/pgbench.txt" 2>&1 || {
    cat "$work/pgbench.txt" >&2; exit 1; }
  tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$work/pgbench.txt" | head -1)
  latency=$(sed -n 's/^latency average = \([0-9.]*\) ms/\1/p' "$work/pgbench.txt")
  failed=$(sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p' "$work/pgbench.txt")
  echo "$1 $tps $latency ${failed:-0}" >> "$work/runs.txt"
  echo "$1: $tps tps, $latency ms mean" >&2
}

: > "$work/runs.txt"
for _ in $(seq "$runs"); do
  run one "$work/one.sql" "$url"
  run spread "$work/spread.sql" "$url"
  run untallied "$work/one.sql" "$floor_url"
done
# Every count the triggers kept under that load equals a recount.
psql -X -q -A -t -v ON_ERROR_STOP=1 "$url" -f Benchmarks/growth-check-postgres.sql > "$work/check.txt"
if [ -s "$work/check.txt" ]; then
  head -20 "$work/check.txt" >&2
  echo "hot-package: a kept count differs from its recount after the runs" >&2
  exit 1
fi
plays=$(psql -X -A -t -v ON_ERROR_STOP=1 "$url" -c "SELECT COUNT(*) FROM play WHERE player = 'bench'")

# Kept beside growth.sh's results, to be read again (notes added by hand, say) with report.py --hot-package-section.
mkdir -p "${GROWTH_DIR:-/tmp/growth}"
results=${out:-${GROWTH_DIR:-/tmp/growth}/hot-package.json}
python3 - "$results" "$clients" "$seconds" "$runs" "$work/runs.txt" "$(uname -m)" "$(nproc)" \
  "$(psql -X -A -t "$url" -c 'SHOW server_version')" "$plays" <<'PY'
import datetime, json, sys
results, clients, seconds, runs, runs_file, machine, cores, version, plays = sys.argv[1:10]
ways = {}
for line in open(runs_file):
    way, tps, latency, failed = line.split()
    ways.setdefault(way, []).append({"tps": float(tps), "latency_ms": float(latency), "failed": int(failed)})
json.dump({"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
           "clients": int(clients), "seconds": int(seconds), "runs": int(runs), "machine": f"{machine}, {cores} cores",
           "postgres": version, "tallied_plays": int(plays), "ways": ways}, open(results, "w"), indent=1)
PY
if [ -z "$out" ]; then
  python3 Benchmarks/report.py --hot-package-section "$results" BENCHMARKS.md
  echo "rewrote the hot package section of BENCHMARKS.md" >&2
fi
