#!/usr/bin/env python3
"""The load of Benchmarks/scaling.sh (issue 16): one configuration of servers, all on one database.

Usage: scaling-bench.py NAME WORK OUT.json URL [URL ...]

Runs bounded wrk runs against every URL at once (one wrk per instance, the connections split between them, so the
client load is the same whatever the number of instances): /healthz (the framework's floor), GET /v1/packages/{code},
POST /v1/packages/{code}/plays (a play start: a write of a new open play) and POST /v1/plays/{id}/guesses (a wrong
guess: the play's record read and replayed, the guess judged; nothing is written but a play's first making of a wrong
guess, which its maker's statistics count). Starts and guesses are run twice:
as fast as they go, then paced at half that rate, for the latency of a busy server that is not saturated. Plays are
started on the first instance and guessed on all of them, so a guess often reaches an instance the play was not started
on. Requests per second are summed over the instances; p50 and p99 are the worst of the instances' own.
"""
import importlib.util
import json
import os
import signal
import subprocess
import sys
import time

spec = importlib.util.spec_from_file_location("server_bench", os.path.join(os.path.dirname(__file__), "server-bench.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

# The same client load as server.sh's wrk (2 threads, 32 connections, 10 s), split between the instances.
THREADS, CONNECTIONS, SECONDS = 2, 32, 10


def cpu_times():
    """The machine's CPU time so far (/proc/stat, in ticks): (all, stolen by the hypervisor)."""
    fields = [int(x) for x in open("/proc/stat").readline().split()[1:]]
    return sum(fields[:8]), fields[7]


def wrk_all(name, urls, work, script_body=""):
    """One bounded wrk per instance, at the same time; their summed rate and worst percentiles, and the share of the
    machine's CPU time the hypervisor took meanwhile (steal: a neighbour's load, which no ratio in the run corrects).
    `script_body` is the Lua of every instance's wrk, or a function of the instance's index and wrk's thread count
    giving each its own."""
    per = max(1, THREADS // len(urls))
    before = cpu_times()
    procs = []
    for index, url in enumerate(urls):
        script = os.path.join(work, f"{name}-{index}.lua")
        with open(script, "w") as f:
            f.write((script_body(index, per) if callable(script_body) else script_body) + bench.REPORTER)
        command = ["wrk", f"-t{per}", f"-c{CONNECTIONS // len(urls)}", f"-d{SECONDS}s", "--timeout", "5s", "--latency",
                   "-s", script, url]
        procs.append(subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    runs = []
    for proc in procs:
        output, _ = proc.communicate(timeout=60)
        line = next(l for l in output.splitlines() if l.startswith("WRK_JSON "))
        run = json.loads(line[len("WRK_JSON "):])
        run["rps"] = run["requests"] / (run["duration_us"] / 1e6)
        runs.append(run)
    result = {"rps": sum(r["rps"] for r in runs), "p50_us": max(r["p50_us"] for r in runs),
              "p99_us": max(r["p99_us"] for r in runs), "requests": sum(r["requests"] for r in runs),
              "non_2xx_3xx": sum(r["non_2xx_3xx"] for r in runs),
              "errors": sum(r["connect_errors"] + r["read_errors"] + r["write_errors"] + r["timeouts"] for r in runs),
              "reused": sum(r.get("reused", 0) for r in runs),
              "per_instance_rps": [round(r["rps"]) for r in runs]}
    after = cpu_times()
    result["steal"] = (after[1] - before[1]) / max(1, after[0] - before[0])
    print(f"{name}: {result['rps']:.0f} requests/s {result['per_instance_rps']}, p50 {result['p50_us']} µs, "
          f"p99 {result['p99_us']} µs, non-2xx/3xx {result['non_2xx_3xx']}, errors {result['errors']}, "
          f"steal {result['steal']:.0%}", file=sys.stderr)
    return result


def fresh_tokens_script(tokens, method, path, threads):
    """Lua sending `method path` with a token of `tokens` no request has used yet, each of wrk's `threads` threads
    taking every `threads`-th one; past the end it starts again, and such requests are counted (`reused`)."""
    rows = ",\n".join(f'  "{token}"' for token in tokens)
    return f"""
local tokens = {{
{rows}
}}
wrk_threads = {{}}
function setup(thread)
  thread:set("first", #wrk_threads + 1)
  table.insert(wrk_threads, thread)
end
local sent = 0
reused = 0
request = function()
  local index = first + sent * {threads}
  sent = sent + 1
  if index > #tokens then reused = reused + 1 end
  return wrk.format("{method}", "{path}", {{["Authorization"] = "Bearer " .. tokens[(index - 1) % #tokens + 1]}}, nil)
end
"""


def paced(script_body, rps):
    """`script_body` sending at about `rps` requests a second in all: each connection waits between its requests
    (wrk's `delay`) so that together they ask for that rate; the time waited is not counted in the latencies."""
    delay_ms = 1000.0 * CONNECTIONS / max(rps, 1.0)
    pace = f"\ndelay = function() return {delay_ms:.3f} end\n"
    if callable(script_body):
        return lambda index, threads: script_body(index, threads) + pace
    return script_body + pace


def starts_script(url, rps, name):
    """The Lua of a run of play starts at up to `rps` a second for SECONDS: each start a new player's (a player's
    second start of a package goes on with their open play, which is not what is measured), with players made for it
    now, a share for each instance (`wrk_all`'s function of the instance's index)."""
    count = int(rps * SECONDS * 1.5) + 1000
    tokens = bench.new_players(url, f"Scale {name}", count)

    def script(index, threads):
        share = tokens[index::INSTANCES]
        return fresh_tokens_script(share, "POST", f"/v1/packages/{bench.SHARE_CODE}/plays", threads)
    return script, count


def profiled(name, path, run):
    """`run()`; with SCALING_PROFILE naming a folder, perf samples every process of the machine meanwhile (`perf record
    -a -g` at 499 Hz: the servers, PostgreSQL, wrk and the kernel) into FOLDER/NAME-PATH.data (Benchmarks/profile.sh)."""
    folder = os.environ.get("SCALING_PROFILE")
    if not folder:
        return run()
    slug = "-".join("".join(c if c.isalnum() else " " for c in name.lower()).split())
    data = os.path.join(folder, f"{slug}-{path}.data")
    perf = subprocess.Popen(["perf", "record", "-a", "-g", "-F", "499", "-o", data],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        return run()
    finally:
        perf.send_signal(signal.SIGINT)
        _, errors = perf.communicate(timeout=120)
        if perf.returncode not in (0, -signal.SIGINT):
            raise SystemExit(f"perf record failed: {errors.strip()}")


def main(name, work, out, urls):
    global INSTANCES
    INSTANCES = len(urls)
    client = bench.Client(urls[0])
    for url in urls:
        subprocess.run(["wrk", "-t1", "-c4", "-d2s", f"{url}/v1/packages/{bench.SHARE_CODE}"], capture_output=True,
                       timeout=30)
    results = {"name": name, "instances": len(urls), "loadavg_before": open("/proc/loadavg").read().split()[:3]}
    results["floor"] = wrk_all(f"{name} floor", [f"{u}/healthz" for u in urls], work)
    results["package"] = wrk_all(f"{name} package", [f"{u}/v1/packages/{bench.SHARE_CODE}" for u in urls], work)
    # Enough players for starts at up to 3 times the package fetch's rate (a start is far slower than a fetch).
    start_script, players = starts_script(urls[0], results["package"]["rps"] / 3, "start")
    results["start"] = profiled(name, "start", lambda: wrk_all(f"{name} start", urls, work, start_script))
    results["start"]["players"] = players
    # The latency a user sees when the server is busy but not saturated: half the rate just measured.
    half_script, players = starts_script(urls[0], results["start"]["rps"] / 2, "start at half rate")
    results["start_half"] = wrk_all(f"{name} start at half rate", urls, work,
                                    paced(half_script, results["start"]["rps"] / 2))
    results["start_half"]["players"] = players
    for run in ("start", "start_half"):
        if results[run]["reused"]:
            raise SystemExit(f"{name} {run}: {results[run]['reused']} starts had no new player left; make more")
    # Guesses on plays started just now, so their first quiz plays through the whole run (20 s a quiz); each play
    # another player's.
    tokens = bench.new_players(urls[0], "Scale guesser", 2 * bench.PLAYS_PER_RUN)
    plays = bench.start_plays(client, tokens[:bench.PLAYS_PER_RUN], bench.PLAYS_PER_RUN)
    bench.wait_until_playing(client, plays)
    guess_script = bench.request_script(plays, "POST", lambda play: f"/v1/plays/{play}/guesses",
                                        {"quiz": 1, "text": bench.WRONG_GUESS})
    results["guess"] = profiled(name, "guess", lambda: wrk_all(f"{name} guess", urls, work, guess_script))
    # New plays again: the first ones' quiz 1 would time out during this run.
    plays = bench.start_plays(client, tokens[bench.PLAYS_PER_RUN:], bench.PLAYS_PER_RUN)
    bench.wait_until_playing(client, plays)
    guess_script = bench.request_script(plays, "POST", lambda play: f"/v1/plays/{play}/guesses",
                                        {"quiz": 1, "text": bench.WRONG_GUESS})
    results["guess_half"] = wrk_all(f"{name} guess at half rate", urls, work,
                                    paced(guess_script, results["guess"]["rps"] / 2))
    results["loadavg_after"] = open("/proc/loadavg").read().split()[:3]
    with open(out, "w") as f:
        json.dump(results, f, indent=1)


if __name__ == "__main__":
    if len(sys.argv) < 5:
        raise SystemExit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:])
