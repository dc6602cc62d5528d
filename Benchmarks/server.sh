#!/usr/bin/env bash
# The server benchmarks of issue 14, on 127.0.0.1: requests per second and p50/p99 of a package fetch, a guess and a
# cached stage poster next to the framework's floor (/healthz of the same server, same run) and a static file of the
# poster's size; then the memory of a server holding 10,000 open plays. wrk comes from Debian; every run is bounded.
# Usage: bash Benchmarks/server.sh [OUT.json]
#   With OUT.json (what run.sh does) the figures go there for report.py; alone, the "Server (issue 14)" section of
#   BENCHMARKS.md is rewritten in place and the rest of the file is left as it is.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${1:-}

. "$root/Benchmarks/lib.sh"
install_missing wrk curl

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do { wait "$pid"; } 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# The same build as every other figure of BENCHMARKS.md: release, Swift's runtime linked in (README's install section).
# `uquiz serve` runs in uquiz-net beside uquiz.
swift build -c release --product uquiz --static-swift-stdlib --scratch-path "$root/.build-static"
swift build -c release --product uquiz-net --static-swift-stdlib --scratch-path "$root/.build-static"
swift build -c release --package-path Benchmarks --product uquiz-static-files --static-swift-stdlib \
  --scratch-path "$root/Benchmarks/.build-static"
# Alone, the section's cold stage-poster cut comes from its in-process benchmark (run.sh runs all of them anyway).
if [ -z "$out" ]; then
  (cd Benchmarks && swift package --allow-writing-to-package-directory benchmark --target StagePosterBenchmarks \
    --format markdown --no-progress) > "$work/stage-posters.md"
fi
uquiz="$root/.build-static/release/uquiz"
static_files="$root/Benchmarks/.build-static/release/uquiz-static-files"

# Nothing of the user's: configuration and data live in the work folder.
export XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config"


mkdir -p "$work/static"
start static "$static_files" "$work/static"
static_url=$started_url
# Rate limits off: one address and a few players drive thousands of guesses a second (see README, "The server").
start server "$uquiz" serve --host 127.0.0.1 --port 0 --db "$work/server.sqlite" --rate-limits off
server_pid=$started_pid
server_url=$started_url
python3 Benchmarks/server-bench.py load "$server_url" "$server_pid" "$work/server.log" "$static_url" "$work/static" \
  "$work" "$work/load.json"
kill "$server_pid"

# Memory: a fresh server, so that the plays and caches of the load above are not counted.
start memory "$uquiz" serve --host 127.0.0.1 --port 0 --db "$work/memory.sqlite" --rate-limits off
python3 Benchmarks/server-bench.py memory "$started_url" "$started_pid" 10000 "$work/memory.json"

python3 - "$work" "${out:-$work/server.json}" <<'EOF'
import datetime, json, subprocess, sys
work, out = sys.argv[1:3]
figures = {"load": json.load(open(f"{work}/load.json")), "memory": json.load(open(f"{work}/memory.json")),
           "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
           "wrk_version": subprocess.run(["wrk", "-v"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout.splitlines()[0]}
json.dump(figures, open(out, "w"), indent=1)
EOF
if [ -z "$out" ]; then
  python3 Benchmarks/report.py --server-section "$work/server.json" BENCHMARKS.md "$work/stage-posters.md"
  echo "rewrote the server section of BENCHMARKS.md"
fi
