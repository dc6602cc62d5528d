#!/usr/bin/env bash
# The data-growth benchmark (issue 35, "Cost that does not grow with the data"), on 127.0.0.1: each route of the server
# measured on a seed server and on a grown one (50,000 packages, 500,000 plays, ...) side by side, interleaved, with
# /healthz of both in the same run, for `uquiz serve` on SQLite and on PostgreSQL (a throw-away cluster, .ci/postgres).
#
# Usage: bash Benchmarks/growth.sh [OUT.json]
#   Alone, the results go to $GROWTH_DIR/growth-results.json and the "Data growth (issue 35)" section of BENCHMARKS.md
#   is rewritten in place; with OUT.json the results go there and BENCHMARKS.md is left alone.
# Environment:
#   GROWTH_SIZE=full|small   full (default): 50,000 packages, 5,000 makers, 50,000 players, 500,000 plays, 100,000 of
#                            the hot package, 5 warm ones of 10,000, a heavy player of 5,000, 365 daily quizzes;
#                            small: 2,000 / 200 / 2,000 / 20,000 / 5,000 / 3 x 1,000 / 500 / 60 (a check in minutes).
#                            Or the nine sizes themselves, "packages, makers, players, plays, hotPlays, warmPackages,
#                            warmPlays, heavyPlayerPlays, dailyDays".
#   GROWTH_DIR               where the databases stay for reuse (default /tmp/growth): seed.sqlite, large.sqlite
#                            (with the few plays and players the measurements add), and large-postgres.dump /
#                            seed-postgres.dump (pg_dump -Fc of the PostgreSQL ones as grown); each store's figures
#                            are also kept there as it finishes (growth-sqlite-run.json, growth-postgres-run.json).
#   GROWTH_REUSE=1           reuse the grown databases of an earlier run of the same size in GROWTH_DIR instead of
#                            growing them again (PostgreSQL's restored from the dumps).
#   GROWTH_STORES            "sqlite postgres" (default), or one of them.
#   GROWTH_SAMPLES           requests per route and server (default 200).
#   GROWTH_SKIP_BUILD=1      use the binaries already in .build-growth/release.
# Each database is made by starting the server on it once (it migrates and seeds), stopping it, and running
# Benchmarks/growth-sqlite.sql or growth-postgres.sql on it; Benchmarks/growth-check-*.sql then checks every kept
# tally against a recount. The seed server's database gets the same generator at a minimal size, so that both servers
# have the hot package HQT234 and the heavy player's and the maker's tokens.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${1:-}
dir=${GROWTH_DIR:-/tmp/growth}
stores=${GROWTH_STORES:-sqlite postgres}
case ${GROWTH_SIZE:-full} in
  full) sizes="50000, 5000, 50000, 500000, 100000, 5, 10000, 5000, 365" ;;
  small) sizes="2000, 200, 2000, 20000, 5000, 3, 1000, 500, 60" ;;
  *,*,*,*,*,*,*,*,*) sizes=$GROWTH_SIZE ;;
  *) echo "GROWTH_SIZE: full, small or nine sizes separated by commas" >&2; exit 2 ;;
esac
# The seed server's: the fixed rows (HQT234 with a few plays, the heavy player, the maker) and hardly anything else.
seed_sizes="6, 1, 10, 40, 10, 1, 4, 6, 3"
mkdir -p "$dir"

. "$root/Benchmarks/lib.sh"
install_missing sqlite3
[[ " $stores " == *" postgres "* ]] && install_postgres

servers_in_work
build_growth_uquiz "${GROWTH_SKIP_BUILD:-0}"
export XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config"

sqlite_sizes() {
  echo "CREATE TEMP TABLE growthSize (packages INTEGER, makers INTEGER, players INTEGER, plays INTEGER, hotPlays INTEGER,
        warmPackages INTEGER, warmPlays INTEGER, heavyPlayerPlays INTEGER, dailyDays INTEGER);"
  echo "INSERT INTO growthSize VALUES ($1);"
}
postgres_sizes() {
  echo "CREATE TEMP TABLE growth_size (packages integer, makers integer, players integer, plays integer, hot_plays integer,
        warm_packages integer, warm_plays integer, heavy_player_plays integer, daily_days integer);"
  echo "INSERT INTO growth_size VALUES ($1);"
}

# check NAME CHECK_OUTPUT_FILE: fails when the check printed anything.
check() {
  if [ -s "$2" ]; then
    head -20 "$2" >&2
    echo "$1: the grown database breaks an invariant ($(wc -l < "$2") lines above)" >&2
    exit 1
  fi
}

# grow_sqlite NAME SIZES: $dir/NAME.sqlite, made by the server, grown and checked; sets $grown_seconds.
grow_sqlite() {
  local name=$1 db="$dir/$1.sqlite" started
  rm -f "$db" "$db-wal" "$db-shm"
  serve "sqlite-$name-first" --db "$db"
  stop_servers
  started=$(date +%s.%N)
  { sqlite_sizes "$2"; cat Benchmarks/growth-sqlite.sql; } | sqlite3 -bail "$db"
  grown_seconds=$(python3 -c "import sys; print(round($(date +%s.%N) - $started, 1))")
  sqlite3 "$db" < Benchmarks/growth-check-sqlite.sql > "$work/check-sqlite-$name.txt"
  check "SQLite $name" "$work/check-sqlite-$name.txt"
  echo "$2" > "$db.sizes"
}

# grow_postgres NAME SIZES URL: the database at URL, made by the server, grown and checked; sets $grown_seconds.
grow_postgres() {
  local name=$1 url=$3 started
  serve "postgres-$name-first" --db "$url"
  stop_servers
  started=$(date +%s.%N)
  { postgres_sizes "$2"; cat Benchmarks/growth-postgres.sql; } | psql -X -q -v ON_ERROR_STOP=1 "$url" > /dev/null
  grown_seconds=$(python3 -c "import sys; print(round($(date +%s.%N) - $started, 1))")
  # What autovacuum would do soon after such a load: the visibility map for index-only scans.
  psql -X -q -v ON_ERROR_STOP=1 "$url" -c "VACUUM ANALYZE" > /dev/null
  psql -X -q -A -t -v ON_ERROR_STOP=1 "$url" -f Benchmarks/growth-check-postgres.sql > "$work/check-postgres-$name.txt"
  check "PostgreSQL $name" "$work/check-postgres-$name.txt"
}

runs=()
generation="{}"
if [[ " $stores " == *" sqlite "* ]]; then
  if [ "${GROWTH_REUSE:-0}" = 1 ] && [ -f "$dir/large.sqlite" ] && [ "$(cat "$dir/large.sqlite.sizes" 2>/dev/null)" = "$sizes" ] \
     && [ -f "$dir/seed.sqlite" ]; then
    echo "SQLite: reusing $dir/large.sqlite" >&2
    sqlite_seconds=null
  else
    grow_sqlite seed "$seed_sizes"
    grow_sqlite large "$sizes"
    sqlite_seconds=$grown_seconds
    echo "SQLite: grown in $sqlite_seconds s" >&2
  fi
  serve sqlite-seed --db "$dir/seed.sqlite"
  seed_url=$started_url
  serve sqlite-large --db "$dir/large.sqlite"
  python3 Benchmarks/growth-bench.py measure SQLite "$seed_url" "$started_url" "$dir/seed.sqlite" "$dir/large.sqlite" \
    "$work/sqlite.json"
  stop_servers
  cp "$work/sqlite.json" "$dir/growth-sqlite-run.json"
  generation=$(python3 -c 'import json, sys; g = json.loads(sys.argv[1]); g["SQLite"] = None if sys.argv[2] == "null" else float(sys.argv[2]); print(json.dumps(g))' "$generation" "$sqlite_seconds")
  runs+=("$work/sqlite.json")
fi

if [[ " $stores " == *" postgres "* ]]; then
  eval "$(bash .ci/postgres start)"
  postgres_dir=$UQUIZ_TEST_POSTGRES_DIR
  base=${UQUIZ_TEST_POSTGRES_URL%/*}
  psql -X -q -v ON_ERROR_STOP=1 "$UQUIZ_TEST_POSTGRES_URL" -c "CREATE DATABASE uquiz_seed" -c "CREATE DATABASE uquiz_large"
  if [ "${GROWTH_REUSE:-0}" = 1 ] && [ -f "$dir/large-postgres.dump" ] && [ -f "$dir/seed-postgres.dump" ] \
     && [ "$(cat "$dir/large-postgres.dump.sizes" 2>/dev/null)" = "$sizes" ]; then
    echo "PostgreSQL: restoring $dir/large-postgres.dump" >&2
    pg_restore --no-owner -d "$base/uquiz_seed" "$dir/seed-postgres.dump"
    pg_restore --no-owner -j 2 -d "$base/uquiz_large" "$dir/large-postgres.dump"
    psql -X -q -v ON_ERROR_STOP=1 "$base/uquiz_large" -c "VACUUM ANALYZE"
    psql -X -q -v ON_ERROR_STOP=1 "$base/uquiz_seed" -c "VACUUM ANALYZE"
    postgres_seconds=null
  else
    grow_postgres seed "$seed_sizes" "$base/uquiz_seed"
    grow_postgres large "$sizes" "$base/uquiz_large"
    postgres_seconds=$grown_seconds
    echo "PostgreSQL: grown in $postgres_seconds s" >&2
    # Kept for reuse: pg_restore into any database (GROWTH_REUSE=1 does it).
    pg_dump -Fc -f "$dir/seed-postgres.dump" "$base/uquiz_seed"
    pg_dump -Fc -f "$dir/large-postgres.dump" "$base/uquiz_large"
    echo "$sizes" > "$dir/large-postgres.dump.sizes"
  fi
  serve postgres-seed --db "$base/uquiz_seed"
  seed_url=$started_url
  serve postgres-large --db "$base/uquiz_large"
  python3 Benchmarks/growth-bench.py measure PostgreSQL "$seed_url" "$started_url" "$base/uquiz_seed" \
    "$base/uquiz_large" "$work/postgres.json"
  stop_servers
  cp "$work/postgres.json" "$dir/growth-postgres-run.json"
  generation=$(python3 -c 'import json, sys; g = json.loads(sys.argv[1]); g["PostgreSQL"] = None if sys.argv[2] == "null" else float(sys.argv[2]); print(json.dumps(g))' "$generation" "$postgres_seconds")
  runs+=("$work/postgres.json")
fi

results=${out:-$dir/growth-results.json}
python3 - "$results" "$sizes" "$seed_sizes" "$generation" "${runs[@]}" <<'PY'
import datetime, json, sys
results, sizes, seed_sizes, generation = sys.argv[1:5]
names = ["packages", "makers", "players", "plays", "hotPlays", "warmPackages", "warmPlays", "heavyPlayerPlays",
         "dailyDays"]
generation = json.loads(generation)
runs = []
for path in sys.argv[5:]:
    run = json.load(open(path))
    seconds = generation.get(run["store"])
    if seconds is not None:
        what = ("sqlite3 running growth-sqlite.sql on the seeded database" if run["store"] == "SQLite" else
                "psql running growth-postgres.sql on the seeded database, its closing ANALYZE included")
        run["generation"] = {"seconds": seconds, "what": what}
    runs.append(run)
json.dump({"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
           "samples": runs[0]["samples"] if runs else 0,
           "sizes": dict(zip(names, (int(s) for s in sizes.split(",")))), "seed_sizes": seed_sizes, "runs": runs},
          open(results, "w"), indent=1)
PY
echo "results in $results" >&2
if [ -z "$out" ]; then
  python3 Benchmarks/report.py --growth-section "$results" BENCHMARKS.md
  echo "rewrote the data growth section of BENCHMARKS.md" >&2
fi
