#!/usr/bin/env bash
# The live-room benchmarks, on 127.0.0.1: 1,000 players in 100 rooms of 10, each room with a big screen, playing 2
# quizzes of the Silent Classics on one `uquiz serve`, and the spread between the first and the last player of a room
# receiving each of its broadcasts (quizLoading, quizStarted, stageRevealed, quizEnded), the screen's receipt of each
# stage against its players', and how long a guess takes to be judged, beside the same fan-out from a trivial
# broadcast server (the floor, measured before and after in the same run); the server's memory per connected player
# and its CPU over the play. Then the same across two instances on one database file, half of each room's players
# relayed by the second instance to the first (which holds the rooms); then one room of 2,000 players with a screen,
# with the clients sharing the cores and then at nice 19. The clients (Benchmarks/rooms-bench.py, 4 processes) use `websockets`
# from PyPI in a virtual environment under .build-rooms/; every run is bounded (about 30 s of play each).
# Usage: bash Benchmarks/rooms.sh [OUT.json]
#   Alone, the "Live rooms (issue 17)" section of BENCHMARKS.md is rewritten in place; with OUT.json the figures go there.
# Environment: ROOMS_BENCH_ROOMS (100), ROOMS_BENCH_PER_ROOM (10), ROOMS_BENCH_SCREENS (1: a screen a room; 0: none),
#   ROOMS_BENCH_QUIZZES (2 per room), ROOMS_BENCH_JOINS_PER_SECOND (0: as fast as 100 handshakes in flight go),
#   ROOMS_BENCH_WORKERS (4 client processes) and ROOMS_BENCH_CLIENT_NICE (0: the clients' nice value) change the load, for trying things
#   out; the section's figures are for the defaults. ROOMS_BENCH_PERF=FILE records perf samples (with call graphs) of
#   the server over each uquiz play into FILE (the last run's stays).
# The two-instance part alone: two `uquiz serve --rate-limits off --db SAME.sqlite` and
#   .build-rooms/venv/bin/python Benchmarks/rooms-bench.py uquiz "2 instances" OUT.json PID_A,PID_B URL_A URL_B
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${1:-}

. "$root/Benchmarks/lib.sh"
venv=.build-rooms/venv
if ! "$venv/bin/python" -c 'import websockets' >/dev/null 2>&1; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r Benchmarks/rooms-requirements.txt
fi
python="$root/$venv/bin/python"

servers_in_work
build_uquiz
export XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config"
# 1,000 sockets on each side, with the files of the server and the clients.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

# serve (lib.sh) lifts the rate limits: 1,000 players are made from one address in a few seconds; their 1,000 sockets
# come from one address too, past the server's 64 connections per address.
one_address=(--max-connections-per-address 100000)
"$python" Benchmarks/rooms-bench.py floor "$work/floor.json"

serve one --db "$work/one.sqlite" "${one_address[@]}"
"$python" Benchmarks/rooms-bench.py uquiz "1 instance" "$work/one.json" "$started_pid" "$started_url"
stop_servers

# The floor again: how much the machine's load moved meanwhile.
"$python" Benchmarks/rooms-bench.py floor "$work/floor-after.json"

# Two instances on one database file (the players they share are rows in it); rooms are opened on the first.
serve two-a --db "$work/two.sqlite" "${one_address[@]}"
a_pid=$started_pid
a_url=$started_url
serve two-b --db "$work/two.sqlite" "${one_address[@]}"
"$python" Benchmarks/rooms-bench.py uquiz "2 instances" "$work/two.json" "$a_pid,$started_pid" "$a_url" "$started_url"
stop_servers

# One room of 2,000 players and its big screen: a large room (`--room-seats 2000`), 3 quizzes, beside the floor's
# same room; the players join as fast as 100 handshakes in flight go (ROOMS_BENCH_LARGE=0 skips it). Then the same
# with the client processes at nice 19, so that they take only the CPU the server leaves, as clients on other
# machines would: what the server's own fan-out spreads (the floor measured the same way).
if [ "${ROOMS_BENCH_LARGE:-1}" = 1 ]; then
  large=(env ROOMS_BENCH_ROOMS=1 ROOMS_BENCH_PER_ROOM=2000 ROOMS_BENCH_QUIZZES=3 ROOMS_BENCH_JOINS_PER_SECOND=0)
  for clients in shared niced; do
    run=("${large[@]}")
    suffix=""
    if [ "$clients" = niced ]; then run+=(ROOMS_BENCH_CLIENT_NICE=19); suffix="-niced"; fi
    "${run[@]}" "$python" Benchmarks/rooms-bench.py floor "$work/large-floor$suffix.json"
    serve "large$suffix" --db "$work/large$suffix.sqlite" "${one_address[@]}" --room-seats 2000
    "${run[@]}" "$python" Benchmarks/rooms-bench.py uquiz "2,000 in one room" "$work/large$suffix.json" "$started_pid" \
      "$started_url"
    stop_servers
  done
fi

python3 - "$work" "${out:-$work/rooms.json}" <<'PY'
import datetime, json, os, sys
work, out = sys.argv[1:3]
figures = {name: json.load(open(f"{work}/{name}.json"))
           for name in ("floor", "one", "floor-after", "two", "large-floor", "large", "large-floor-niced",
                        "large-niced")
           if os.path.exists(f"{work}/{name}.json")}
figures["date"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
figures["cores"] = os.cpu_count()
json.dump(figures, open(out, "w"), indent=1)
PY
if [ -z "$out" ]; then
  python3 Benchmarks/report.py --rooms-section "$work/rooms.json" BENCHMARKS.md
  echo "rewrote the live-rooms section of BENCHMARKS.md"
fi
