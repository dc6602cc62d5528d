# Sourced by Benchmarks/server.sh, scaling.sh and rooms.sh.

# install_missing COMMAND...: installs from Debian the packages of the same names whose commands are not found.
install_missing() {
  local missing=()
  for command in "$@"; do command -v "$command" >/dev/null || missing+=("$command"); done
  if [ ${#missing[@]} -gt 0 ]; then
    local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
  fi
}

# install_postgres: PostgreSQL's server and client from Debian when either is missing (for .ci/postgres's cluster).
install_postgres() {
  [ -x "$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)/initdb" ] && command -v psql >/dev/null || {
    local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends postgresql
  }
}

# build_growth_uquiz: the release build growth.sh and hot-package.sh run (in .build-growth, unless SKIP is 1); sets $uquiz.
build_growth_uquiz() {
  if [ "${1:-0}" != 1 ]; then
    swift build -c release --product uquiz --scratch-path "$root/.build-growth"
    swift build -c release --product uquiz-net --scratch-path "$root/.build-growth"
  fi
  uquiz="$root/.build-growth/release/uquiz"
}

# (start needs $work and a $pids array: servers_in_work below makes both.)
# start NAME COMMAND...: runs COMMAND with stdout to $work/NAME.out and stderr to $work/NAME.log; sets $started_pid and
# $started_url once it prints its listening line (polled: a first run seeds its database before it listens, and this
# machine is shared).
start() {
  local name=$1; shift
  # Made here, not by the background job's redirection, which may come after the first poll below.
  : > "$work/$name.out"
  "$@" > "$work/$name.out" 2> "$work/$name.log" &
  started_pid=$!
  pids+=("$started_pid")
  for _ in $(seq 300); do
    started_url=$(sed -n 's/^listening on \(http:\/\/[^ ]*\)$/\1/p' "$work/$name.out")
    [ -n "$started_url" ] && return 0
    kill -0 "$started_pid" 2>/dev/null || { cat "$work/$name.log" >&2; echo "$name exited before listening" >&2; exit 1; }
    sleep 0.1
  done
  echo "$name did not say it was listening within 30 s" >&2
  exit 1
}

# stop_servers: stops every process `start` started, and waits for them.
stop_servers() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do { wait "$pid"; } 2>/dev/null || true; done
  pids=()
}

# build_uquiz: the same build as every other figure of BENCHMARKS.md (release, Swift's runtime linked in); sets $uquiz.
# `uquiz serve` runs in uquiz-net beside it, so both are built.
build_uquiz() {
  swift build -c release --product uquiz --static-swift-stdlib --scratch-path "$root/.build-static"
  swift build -c release --product uquiz-net --static-swift-stdlib --scratch-path "$root/.build-static"
  uquiz="$root/.build-static/release/uquiz"
}

# serve NAME FLAGS...: `uquiz serve` on a free loopback port with rate limits off (one address drives thousands of
# requests a second: README, "The server"), through `start`.
serve() { local name=$1; shift; start "$name" "$uquiz" serve --host 127.0.0.1 --port 0 --rate-limits off "$@"; }

# servers_in_work: a new temporary folder $work for the servers' files; when the script ends, every server `start`
# started is stopped, the PostgreSQL cluster whose folder is in $postgres_dir (if one was started) is removed, and so
# is $work.
servers_in_work() {
  work=$(mktemp -d)
  pids=()
  postgres_dir=""
  trap remove_servers_and_work EXIT
  trap 'exit 130' INT TERM
}

remove_servers_and_work() {
  stop_servers
  [ -n "$postgres_dir" ] && bash .ci/postgres stop "$postgres_dir"
  rm -rf "$work"
}
