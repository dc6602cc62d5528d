#!/usr/bin/env bash
# A burst of maker searches while TMDB is stalled or slow (issue 36), on 127.0.0.1: a release `uquiz serve` on SQLite
# whose TMDB is `fake-tmdb` holding every search 25 s (120 searches, --tmdb-deadline 3000) or answering each in 200 ms
# (100 searches); a prober from another address reads /healthz and a package page meanwhile. Every run is bounded.
# Usage: bash Benchmarks/tmdb-burst.sh [OUT.json]   (the figures, for BENCHMARKS.md's "TMDB under a burst" section)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${1:-/dev/stdout}

. "$root/Benchmarks/lib.sh"
servers_in_work
build_uquiz
swift build -c release --product fake-tmdb --static-swift-stdlib --scratch-path "$root/.build-static"
fake_tmdb="$root/.build-static/release/fake-tmdb"
export XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache"

run() {
  local name=$1 delay=$2 count=$3
  # fake-tmdb says `listening on 127.0.0.1:PORT`, without the scheme `start` looks for.
  "$fake_tmdb" --port 0 --api-key bench-key --log "$work/tmdb-$name.requests" \
    --fault "/3/search/movie;delay-ms=$delay" > "$work/tmdb-$name.out" 2>&1 &
  pids+=($!)
  local tmdb_url=""
  for _ in $(seq 100); do
    tmdb_url=$(sed -n 's/^listening on \(127\.0\.0\.1:[0-9]*\)$/http:\/\/\1/p' "$work/tmdb-$name.out")
    [ -n "$tmdb_url" ] && break
    sleep 0.1
  done
  [ -n "$tmdb_url" ] || { echo "fake-tmdb did not start" >&2; exit 1; }
  TMDB_API_KEY=bench-key UQUIZ_TMDB_API_URL="$tmdb_url/3" UQUIZ_TMDB_IMAGE_URL="$tmdb_url/t/p" \
    serve "serve-$name" --db "$work/$name.sqlite"
  python3 Benchmarks/tmdb-burst-bench.py "$name" "$started_url" "$work/tmdb-$name.requests" "$count" 3000 \
    "$work/$name.json"
  stop_servers
}

run stalled 25000 120
run slow 200 100
python3 - "$work" > "$out" <<'PY'
import datetime, json, sys
work = sys.argv[1]
runs = [json.load(open(f"{work}/{name}.json")) for name in ("stalled", "slow")]
print(json.dumps({"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "runs": runs},
                 indent=1))
PY
