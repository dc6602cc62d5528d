#!/usr/bin/env bash
# The scaling benchmarks of issue 16, on 127.0.0.1: requests per second and p50/p99 of a package fetch, a play start
# and a guess beside the framework's floor (/healthz, same run), for `uquiz serve` on SQLite (1 instance) and on
# PostgreSQL with 1 and 2 instances. A throw-away PostgreSQL cluster (.ci/postgres) is started and removed; wrk comes
# from Debian; every run is bounded (10 s each).
# Usage: bash Benchmarks/scaling.sh [OUT.json]
#   Alone, the "Scaling (issue 16)" section of BENCHMARKS.md is rewritten in place; with OUT.json the figures go there.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${1:-}

. "$root/Benchmarks/lib.sh"
install_missing wrk curl
# PostgreSQL's server, for the throw-away cluster.
[ -x "$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)/initdb" ] || {
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends postgresql
}

servers_in_work
build_uquiz
export XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config"

serve sqlite --db "$work/server.sqlite"
python3 Benchmarks/scaling-bench.py "SQLite, 1 instance" "$work" "$work/sqlite-1.json" "$started_url"
stop_servers

eval "$(bash .ci/postgres start)"
postgres_dir=$UQUIZ_TEST_POSTGRES_DIR
serve postgres-a --db "$UQUIZ_TEST_POSTGRES_URL"
python3 Benchmarks/scaling-bench.py "PostgreSQL, 1 instance" "$work" "$work/postgres-1.json" "$started_url"
a_url=$started_url
serve postgres-b --db "$UQUIZ_TEST_POSTGRES_URL"
python3 Benchmarks/scaling-bench.py "PostgreSQL, 2 instances" "$work" "$work/postgres-2.json" "$a_url" "$started_url"
stop_servers

python3 - "$work" "${out:-$work/scaling.json}" <<'PY'
import datetime, json, sys
work, out = sys.argv[1:3]
runs = [json.load(open(f"{work}/{name}.json")) for name in ("sqlite-1", "postgres-1", "postgres-2")]
json.dump({"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "runs": runs},
          open(out, "w"), indent=1)
PY
if [ -z "$out" ]; then
  python3 Benchmarks/report.py --scaling-section "$work/scaling.json" BENCHMARKS.md
  echo "rewrote the scaling section of BENCHMARKS.md"
fi
