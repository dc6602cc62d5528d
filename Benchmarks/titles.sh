#!/usr/bin/env bash
# Title suggestions while typing (issue 38) on a catalog of 200,000 movies, on 127.0.0.1: a release `uquiz serve` on
# SQLite without TMDB; the first look-up (which makes the index), memory, and GET /v1/titles under wrk beside /healthz
# of the same server in the same run. Every run is bounded.
# Usage: bash Benchmarks/titles.sh [OUT.json] [MOVIES]   (the figures, for BENCHMARKS.md's "Title suggestions" section)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${1:-/dev/stdout}
movies=${2:-200000}

. "$root/Benchmarks/lib.sh"
install_missing wrk
servers_in_work
build_uquiz
export XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache"

# The first start seeds the database; the movies go in while no server holds it.
serve seed --db "$work/titles.sqlite"
stop_servers
python3 Benchmarks/titles-bench.py fill "$work/titles.sqlite" "$movies"
serve titles --db "$work/titles.sqlite"
python3 Benchmarks/titles-bench.py load "$started_url" "$started_pid" "$work/titles.log" "$work" "$work/titles.json"
python3 - "$work/titles.json" "$movies" > "$out" <<'PY'
import datetime, json, sys
results = json.load(open(sys.argv[1]))
results["movies"] = int(sys.argv[2])
results["date"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
print(json.dumps(results, indent=1))
PY
