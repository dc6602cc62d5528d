#!/usr/bin/env bash
# Where the time of a play start and of a guess goes: the scaling benchmark's runs (Benchmarks/scaling-bench.py) on
# SQLite and on PostgreSQL (1 instance), each of the two paths sampled by perf over the whole machine (the server,
# PostgreSQL, wrk, the kernel) at 499 Hz with call graphs. For each, prints the share of the samples by process and the
# hottest symbols; BENCHMARKS.md ("Where the time goes") reads these. perf comes from Debian (linux-perf); on a machine
# without hardware counters it samples the CPU clock.
# Usage: bash Benchmarks/profile.sh [FOLDER]   (the perf data and the reports are kept in FOLDER, a new one by default)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

. "$root/Benchmarks/lib.sh"
install_missing wrk curl
command -v perf >/dev/null || {
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends linux-perf
}
# Samples of every process, kernel included.
[ "$(id -u)" -eq 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le -1 ] || {
  echo "profile: perf needs root or kernel.perf_event_paranoid = -1 to sample every process" >&2
  exit 1
}

profiles=${1:-$(mktemp -d "${TMPDIR:-/tmp}/uquiz-profile.XXXXXX")}
mkdir -p "$profiles"
servers_in_work
build_uquiz
export XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config" SCALING_PROFILE="$profiles"

serve sqlite --db "$work/server.sqlite"
python3 Benchmarks/scaling-bench.py "SQLite, 1 instance" "$work" "$work/sqlite-1.json" "$started_url"
stop_servers

eval "$(bash .ci/postgres start)"
postgres_dir=$UQUIZ_TEST_POSTGRES_DIR
serve postgres --db "$UQUIZ_TEST_POSTGRES_URL"
python3 Benchmarks/scaling-bench.py "PostgreSQL, 1 instance" "$work" "$work/postgres-1.json" "$started_url"
stop_servers

# The lines of a perf report with a share, the first $2 of them (read whole, so perf never writes to a closed pipe).
shares() { perf report -i "$1" --no-children --stdio -g none "${@:3}" 2>/dev/null | awk -v n="$2" '/^ +[0-9]/ && n-- > 0'; }
for data in "$profiles"/*.data; do
  report=${data%.data}.txt
  {
    echo "== $(basename "${data%.data}"): samples by process"
    shares "$data" 8 --sort comm
    echo "== hottest symbols (self)"
    shares "$data" 30 --sort comm,dso,sym
  } > "$report"
  cat "$report"
done
echo "profiles and reports in $profiles"
