#!/usr/bin/env python3
"""Writes BENCHMARKS.md from the files Benchmarks/run.sh leaves in its work folder (argv[1])."""
import datetime
import json
import os
import platform
import re
import subprocess
import sys

work = sys.argv[1]


def hyperfine(name):
    with open(os.path.join(work, name)) as f:
        return {r["command"]: r for r in json.load(f)["results"]}


def ms(seconds):
    return f"{seconds * 1000:.2f} ms"


def first_line(command):
    try:
        return subprocess.run(command, capture_output=True, text=True, shell=True).stdout.strip().splitlines()[0]
    except Exception:
        return "unknown"


startup = hyperfine("startup.json")
network = hyperfine("network.json")
searches = network["uquiz client: 200 sequential searches"]["median"]
curl_searches = network["curl: the same 200 URLs in one invocation"]["median"]
posters = network["uquiz client: 50 posters at once"]["median"]
curl_posters = network["curl --parallel: the same 50 posters"]["median"]
stages = json.load(open(os.path.join(work, "stages.json")))
waiting = json.load(open(os.path.join(work, "wait.json")))
client_start = network["uquiz client: start-up only (0 searches)"]["median"]
curl_start = network["curl: start-up only (curl --version)"]["median"]
seeding = hyperfine("seeding.json")
noop = startup["do-nothing binary"]["median"]
dynamic_noop = startup["do-nothing binary, dynamic build"]["median"]
dynamic_small = startup["uquiz list (8 packages), dynamic build"]["median"]
dynamic_client_start = network["uquiz client, dynamic build: start-up only (0 searches)"]["median"]
small = startup["uquiz list (8 packages)"]["median"]
large = startup["uquiz list (100,000 packages)"]["median"]
first = seeding["uquiz list on first run (seeds)"]["median"]
sqlite_cli = startup["sqlite3 CLI: list's query on the same database"]["median"]
# The benchmark tool colours its warnings; keep the file plain text.
inprocess = re.sub(r"\x1b\[[0-9;]*m", "", open(os.path.join(work, "inprocess.md")).read())
inprocess = "\n".join(l for l in inprocess.splitlines() if not l.startswith(("Warning:", "Note:")))
version = startup["uquiz --version (start-up and argument parsing only)"]["median"]
config = startup["uquiz config (configuration only, no database)"]["median"]


def inprocess_p50(benchmark):
    """p50 wall clock of one ordo-one benchmark, in ms, read from its markdown table."""
    section = inprocess.split(benchmark, 1)[1] if benchmark in inprocess else ""
    match = re.search(r"Time \(wall clock\) \((ns|us|μs|ms|s)\)[^|]*\|\s*([\d.,]+)\s*\|\s*([\d.,]+)\s*\|\s*([\d.,]+)", section)
    if not match:
        return None
    unit, p50 = match.group(1), float(match.group(4).replace(",", ""))
    return p50 * {"ns": 1e-6, "us": 1e-3, "μs": 1e-3, "ms": 1, "s": 1000}[unit]


seed_p50 = inprocess_p50("first-run seeding")
render_p50 = inprocess_p50("full-frame render, 50x75 poster")
stage_cut_p50 = inprocess_p50("stage poster cut cold, w342 (decode, mask, encode)")
stage_cached_p50 = inprocess_p50("stage poster from the cache, w342")
cpu_share = waiting["cpu_seconds"] / waiting["wall_seconds"] * 100
peak_mib = waiting["max_rss_kb"] / 1024


def verdict(ok):
    return "met" if ok else "**missed**"


# Said only when the target is missed: what stands between the figure and the target.
list_limit = "" if small / noop <= 1.3 else f"""**What limits the missed target:** 1.3x of the do-nothing binary leaves {ms(noop * 0.3)} for everything uquiz does,
less than its start-up and configuration alone take ({ms(config - noop)}) with the libraries the project is built on (ArgumentParser,
swift-configuration, GRDB). The dynamic build's ratio looks better only because its fixed cost (loading about twenty
shared Swift libraries and resolving their symbols) is larger; it is slower in every absolute figure."""
spread = (f"Both sides move between runs on this shared machine (σ {ms(network['uquiz client: 200 sequential searches']['stddev'])} "
          f"and {ms(network['curl: the same 200 URLs in one invocation']['stddev'])} for the searches, "
          f"{ms(network['uquiz client: 50 posters at once']['stddev'])} and "
          f"{ms(network['curl --parallel: the same 50 posters']['stddev'])} for the posters, over the runs below), "
          "so a ratio near its target can land on either side of it from one regeneration to the next.")
search_limit = "" if searches / curl_searches <= 1.0 else f"""**What limits the missed search target:** the two differ by
{ms(searches - curl_searches)}: start-up {ms(client_start)} vs {ms(curl_start)}, then {(searches - client_start) / 200 * 1e6:.0f} µs
vs {(curl_searches - curl_start) / 200 * 1e6:.0f} µs a search. Per search the client decodes every page into search
results and keeps its retry and rate-limit books, where the curl CLI writes the bytes to /dev/null; before its first
request it initialises Swift's runtime and Foundation and then loads the same libcurl. {spread}"""
poster_limit = "" if posters / curl_posters <= 1.2 else f"""**What limits the missed poster target:** after start-up the
client takes {ms(posters - client_start)} for the 50 posters vs curl's {ms(curl_posters - curl_start)}: it keeps every
body in memory and checks it is a JPEG where curl writes to /dev/null, on the same multi interface with 20 connections.
{spread}"""

cpu = first_line("lscpu | grep 'Model name' | sed 's/Model name: *//'")
rows = [
    ("cold `uquiz list` on the seeded database vs. a do-nothing binary linking the same libraries",
     f"{ms(small)} vs {ms(noop)}: **{small / noop:.2f}x**", "<= 1.3x", verdict(small / noop <= 1.3)),
    ("the same with the default dynamic build (`swift build -c release`) on both sides",
     f"{ms(dynamic_small)} vs {ms(dynamic_noop)}: **{dynamic_small / dynamic_noop:.2f}x**", "<= 1.3x",
     verdict(dynamic_small / dynamic_noop <= 1.3)),
    ("`uquiz list` with 100,000 packages vs. the seeded case (first page of 50)",
     f"{ms(large)} vs {ms(small)}: **{large / small:.2f}x**", "<= 1.5x", verdict(large / small <= 1.5)),
    ("first-run seeding in process (copy, fsync, verify, link, open, schema check), p50",
     f"**{seed_p50:.2f} ms**" if seed_p50 is not None else "see below", "< 50 ms",
     verdict(seed_p50 is not None and seed_p50 < 50)),
    ("`uquiz list` vs the `sqlite3` CLI running list's query on the same database (no target)",
     f"{ms(small)} vs {ms(sqlite_cli)}: {small / sqlite_cli:.2f}x", "-", "-"),
    ("whole first `uquiz list` process, seeding included",
     f"{ms(first)} (later runs {ms(small)})", "-", "-"),
]

print(f"""# Benchmarks

Regenerate everything on this page with one command: `bash Benchmarks/run.sh` (installs hyperfine and sqlite3 from
Debian if missing, builds release binaries, rewrites this file).

Every Swift binary measured here is the build README's install section ships: `swift build -c release
--static-swift-stdlib`, which links Swift's runtime and Foundation into the executable (the do-nothing binary, the HTTP
client and fake-tmdb are built the same way). The default dynamic build (`swift build -c release`) is measured beside it
for start-up: `uquiz list` {ms(dynamic_small)} dynamic vs {ms(small)} static.

- Date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}
- Machine: {os.cpu_count()} cores, {cpu}, {platform.system()} {platform.release()}
- Toolchain: {first_line('swift --version 2>&1')}
- Method: process figures are medians of hyperfine runs (`-N`, no shell; 200 runs, 10 warm-up; 60 for the network, 50 for first runs, each
  on a deleted database). Each run is a new process, with the page cache warm. In-process figures come from
  ordo-one/benchmark (`Benchmarks/Benchmarks/StoreBenchmarks`).

## Targets (issue 3)

| what | measured | target | |
|---|---|---|---|""")
for row in rows:
    print("| " + " | ".join(row) + " |")
print(f"""
Where `uquiz list`'s {ms(small)} go, from the process runs below: {ms(noop)} is what any binary linking the same
libraries pays (the do-nothing binary); {ms(version - noop)} is uquiz's own start-up (`uquiz --version`: an async main,
ArgumentParser building the tree of 16 commands); {ms(config - version)} is `uquiz config` beyond that (the five
configuration layers through swift-configuration: two JSON files and the environment, plus printing 13 settings); the
last {ms(small - config)} opens the database (one WAL connection, schema check), runs the query and prints the table.
{list_limit}

The 100,000-package database is the seeded one grown by `Benchmarks/generate-packages.sql` (one quiz and three areas per
package). `list` shows the first 50 rows by default (`--all` for every row), so its cost is the count plus one page.

## Targets (issue 4), against fake-tmdb on 127.0.0.1

| what | measured | target | |
|---|---|---|---|
| 200 sequential searches through the TMDB client vs the `curl` CLI fetching the same 200 URLs in one invocation | {ms(searches)} vs {ms(curl_searches)}: **{searches / curl_searches:.2f}x** | <= 1.0 | {verdict(searches / curl_searches <= 1.0)} |
| 50 poster downloads at once vs `curl --parallel --parallel-max 20` | {ms(posters)} vs {ms(curl_posters)}: **{posters / curl_posters:.2f}x** | <= 1.2 | {verdict(posters / curl_posters <= 1.2)} |

Per request, without each side's process start-up ({ms(client_start)} for the Swift client, which also loads libcurl
on first use, vs {ms(curl_start)} for `curl --version`; the client's dynamic build starts in {ms(dynamic_client_start)}): {(searches - client_start) / 200 * 1e6:.0f} µs vs
{(curl_searches - curl_start) / 200 * 1e6:.0f} µs a search (**{(searches - client_start) / (curl_searches - curl_start):.2f}x**); the 50 posters take
{ms(posters - client_start)} vs {ms(curl_posters - curl_start)} (**{(posters - client_start) / (curl_posters - curl_start):.2f}x**).

{search_limit}

{poster_limit}

Both sides are whole processes (the client runs in `Benchmarks/Sources/uquiz-http-bench`), on one reused connection for the
searches and up to 20 connections for the posters. The client's rate limit (TMDB's 40 requests a second) is lifted for
this run: it is a courtesy to TMDB, not a cost of the client, and would make 200 searches last 5 s on any machine.

## Targets (issue 6)

| what | measured | target | |
|---|---|---|---|
| stage-boundary lateness (`at_ms - scheduled_ms`) over {stages["stages"]} stages of `solve --json` at real speed | p50 {stages["p50"]} ms, **p99 {stages["p99"]} ms**, max {stages["max"]} ms | p99 <= 5 ms | {verdict(stages["p99"] <= 5)} |
| one full-frame render of a 50x75 poster (fade, half-block layout for 98x39, every character written), p50 | **{render_p50:.3f} ms** | <= 4 ms | {verdict(render_p50 is not None and render_p50 <= 4)} |
| CPU while a quiz waits for input (`solve --plain`, one 20 s quiz, no input) | **{cpu_share:.2f}%** of one core ({waiting["cpu_seconds"]:.2f} s CPU in {waiting["wall_seconds"]:.1f} s) | < 5% | {verdict(cpu_share < 5)} |
| peak memory of that `solve --plain` | **{peak_mib:.1f} MiB** (max RSS) | <= 40 MiB | {verdict(peak_mib <= 40)} |

## Targets (issue 14), stage posters in process

| what | measured | target | |
|---|---|---|---|
| cut a w342 poster for a stage, cold (TurboJPEG decode, black out all but the revealed areas, encode at quality 85), p50 | {f"**{stage_cut_p50:.3f} ms**" if stage_cut_p50 is not None else "see below"} | <= 5 ms | {verdict(stage_cut_p50 is not None and stage_cut_p50 <= 5)} |
| the same stage poster from the process's cache (a `StagePosterCache` lookup), p50 | {f"**{stage_cached_p50 * 1000:.2f} µs**" if stage_cached_p50 is not None else "see below"} | - | - |

Both run in process (`Benchmarks/Benchmarks/StagePosterBenchmarks`), on Metropolis at stage 3 of 5. The cached figure is the
lookup alone: its ratio to serving a static file of the same size is a figure of the server, measured with it.

## Process runs (hyperfine)

| command | median | mean ± σ | min | max |
|---|---|---|---|---|""")
for results in (startup, seeding, network):
    for name, r in results.items():
        print(f"| {name} | {ms(r['median'])} | {ms(r['mean'])} ± {ms(r['stddev'] or 0)} | {ms(r['min'])} | {ms(r['max'])} |")
print("""
## In process (ordo-one/benchmark)
""")
print(inprocess.strip())
