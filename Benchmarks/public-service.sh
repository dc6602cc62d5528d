#!/usr/bin/env bash
# A public `uquiz serve` (release, static, SQLite, rate limits ON as people run it) under the floods of issue 27, from
# many loopback addresses: 1,000 rooms opened and never joined (twice), 2,000 publishes, 1,000 connections trickling
# request heads; what each flood got, the server's memory and descriptors, and whether a real user from another address
# was still served (Benchmarks/public-service-bench.py, standard library only; every wait is bounded).
# Usage: bash Benchmarks/public-service.sh [OUT.json]
#   Alone, the "A public service under floods (issue 27)" section of BENCHMARKS.md is rewritten in place; with OUT.json
#   the figures go there.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${1:-}

. "$root/Benchmarks/lib.sh"
servers_in_work
build_uquiz
export XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config"
# 1,000 trickling sockets on the clients' side, with their files.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

start public "$uquiz" serve --host 127.0.0.1 --port 0 --db "$work/public.sqlite"
python3 Benchmarks/public-service-bench.py "$started_url" "$started_pid" "$work/public.json"
stop_servers

python3 - "$work/public.json" "${out:-$work/public-out.json}" <<'PY'
import datetime, json, os, sys
figures = json.load(open(sys.argv[1]))
figures["date"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
figures["cores"] = os.cpu_count()
json.dump(figures, open(sys.argv[2], "w"), indent=1)
PY
if [ -z "$out" ]; then
  python3 Benchmarks/report.py --public-section "$work/public-out.json" BENCHMARKS.md
  echo "rewrote the public-service section of BENCHMARKS.md"
fi
