#!/usr/bin/env bash
# Regenerates ../BENCHMARKS.md on this machine: process start-up of `uquiz list` against a do-nothing binary linking the
# same libraries (hyperfine), first-run seeding and listing in process (ordo-one/benchmark), the server under wrk
# (Benchmarks/server.sh, which also runs alone).
# Usage: bash Benchmarks/run.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

missing=()
command -v hyperfine >/dev/null || missing+=(hyperfine)
command -v sqlite3 >/dev/null || missing+=(sqlite3)
[ -x /usr/bin/time ] || missing+=(time)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi

# The build README's install section ships links Swift's runtime and Foundation in (--static-swift-stdlib); every figure
# is for it, and its do-nothing binary is built the same way. The default dynamic build is measured beside it for start-up.
for product in uquiz fake-tmdb; do
  swift build -c release --product $product --static-swift-stdlib --scratch-path "$root/.build-static"
done
swift build -c release --product uquiz
for product in uquiz-noop uquiz-http-bench; do
  swift build -c release --package-path Benchmarks --product $product --static-swift-stdlib \
    --scratch-path "$root/Benchmarks/.build-static"
  swift build -c release --package-path Benchmarks --product $product
done
uquiz="$root/.build-static/release/uquiz"
noop="$root/Benchmarks/.build-static/release/uquiz-noop"
dynamic_uquiz="$root/.build/release/uquiz"
dynamic_noop="$root/Benchmarks/.build/release/uquiz-noop"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config"
"$uquiz" list --db "$work/seeded.sqlite" >/dev/null 2>&1
"$uquiz" list --db "$work/large.sqlite" >/dev/null 2>&1
sqlite3 "$work/large.sqlite" < Benchmarks/generate-packages.sql
[ "$(sqlite3 "$work/large.sqlite" 'SELECT COUNT(*) FROM package')" = 100000 ]

# Each run is a new process (the page cache stays warm: the machine cannot be made to drop it).
hyperfine -N --warmup 10 --runs 200 --export-json "$work/startup.json" \
  --command-name "do-nothing binary" "$noop" \
  --command-name "uquiz --version (start-up and argument parsing only)" "$uquiz --version" \
  --command-name "uquiz config (configuration only, no database)" "$uquiz config" \
  --command-name "uquiz list (8 packages)" "$uquiz list --db $work/seeded.sqlite" \
  --command-name "sqlite3 CLI: list's query on the same database" "sqlite3 $work/seeded.sqlite \"SELECT p.id, p.shareCode, p.title, p.level, p.language, p.maker, (SELECT COUNT(*) FROM quiz q WHERE q.packageId = p.id), (SELECT MAX(score) FROM play WHERE play.packageId = p.id) FROM package p ORDER BY p.id LIMIT 50\"" \
  --command-name "uquiz list (100,000 packages)" "$uquiz list --db $work/large.sqlite" \
  --command-name "do-nothing binary, dynamic build" "$dynamic_noop" \
  --command-name "uquiz list (8 packages), dynamic build" "$dynamic_uquiz list --db $work/seeded.sqlite"
hyperfine -N --warmup 3 --runs 50 --export-json "$work/seeding.json" \
  --prepare "rm -f $work/fresh.sqlite $work/fresh.sqlite-wal $work/fresh.sqlite-shm" \
  --command-name "uquiz list on first run (seeds)" "$uquiz list --db $work/fresh.sqlite"

# Network: the real client against fake-tmdb on loopback, side by side with the curl CLI on the same URLs.
"$root/.build-static/release/fake-tmdb" --seed Seed/seed.json --stand-in-poster Seed/posters/metropolis-1927.jpg > "$work/fake.out" &
fake_pid=$!
trap 'kill $fake_pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do grep -q listening "$work/fake.out" 2>/dev/null && break; sleep 0.1; done
port=$(sed -n 's/^listening on 127.0.0.1://p' "$work/fake.out")
api="http://127.0.0.1:$port/3"
images="http://127.0.0.1:$port/t/p"
for i in $(seq 0 199); do
  echo "url = \"$api/search/movie?include_adult=false&language=en-US&page=1&query=q$i\""
  echo "output = /dev/null"
done > "$work/searches.curl"
python3 -c "
import json, sys
paths = sorted({p for m in json.load(open('Seed/seed.json'))['movies'] if m['tmdbId'] for p in m['posters'].values()})
print('\n'.join((paths * 2)[:50]))" > "$work/posters.txt"
[ "$(wc -l < "$work/posters.txt")" -eq 50 ]
while read -r path; do echo "url = \"$images/w342$path\""; echo "output = /dev/null"; done < "$work/posters.txt" > "$work/posters.curl"
bench="$root/Benchmarks/.build-static/release/uquiz-http-bench"
dynamic_bench="$root/Benchmarks/.build/release/uquiz-http-bench"
hyperfine -N --warmup 5 --runs 60 --export-json "$work/network.json" \
  --command-name "uquiz client: start-up only (0 searches)" "$bench searches $api 0" \
  --command-name "uquiz client, dynamic build: start-up only (0 searches)" "$dynamic_bench searches $api 0" \
  --command-name "curl: start-up only (curl --version)" "curl --version" \
  --command-name "uquiz client: 200 sequential searches" "$bench searches $api 200" \
  --command-name "curl: the same 200 URLs in one invocation" "curl -s --config $work/searches.curl" \
  --command-name "uquiz client: 50 posters at once" "$bench posters $images $work/posters.txt" \
  --command-name "curl --parallel: the same 50 posters" "curl -s --parallel --parallel-max 20 --config $work/posters.curl"

# The player (issue 6): stage lateness at real speed, and CPU and peak memory of solve --plain waiting out one quiz.
"$uquiz" list --db "$work/play.sqlite" >/dev/null 2>&1
python3 Benchmarks/stage-timing.py "$uquiz" "$work/play.sqlite" 100 "$work/stages.json"
/usr/bin/time -f '{"cpu_seconds": %U + %S, "wall_seconds": %e, "max_rss_kb": %M}' -o "$work/wait.raw" \
  "$uquiz" solve en-silent --quiz 1 --plain --db "$work/play.sqlite" --player bench < /dev/null > /dev/null
python3 -c "
import json, re
text = open('$work/wait.raw').read()
user, system, wall, rss = map(float, re.findall(r'[0-9.]+', text)[:4])
json.dump({'cpu_seconds': user + system, 'wall_seconds': wall, 'max_rss_kb': rss}, open('$work/wait.json', 'w'))"

(cd Benchmarks && swift package --allow-writing-to-package-directory benchmark --format markdown --no-progress) \
  > "$work/inprocess.md"

# The server (issue 14): wrk against `uquiz serve` on loopback, and its memory with 10,000 open plays.
bash Benchmarks/server.sh "$work/server.json"

# Written aside first: the report keeps the sections of scaling.sh and rooms.sh from the BENCHMARKS.md it replaces.
python3 Benchmarks/report.py "$work" > "$work/BENCHMARKS.md"
mv "$work/BENCHMARKS.md" BENCHMARKS.md
echo "wrote BENCHMARKS.md"
