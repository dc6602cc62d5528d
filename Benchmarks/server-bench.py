#!/usr/bin/env python3
"""The load of Benchmarks/server.sh against a running `uquiz serve --rate-limits off` (issue 14).

Usage: server-bench.py load URL PID SERVER_LOG STATIC_URL STATIC_FOLDER WORK OUT.json
       server-bench.py memory URL PID PLAYS OUT.json

`load` runs bounded wrk runs against one server: /healthz (the framework's floor), GET /v1/packages/{code}, a guess
(POST /v1/plays/{id}/guesses, spread over many plays and players by a Lua script), the cached stage poster, and a file
of the poster's exact bytes served by the same framework from disk (`uquiz-static-files`). Every figure is next to the
floor measured in the same run. Status codes come from the server's request log (one line per request), so wrk's Lua
does not have to look at every response (a `response()` hook costs the client CPU the server shares on this machine).

`memory` opens PLAYS plays on a fresh server and reads its VmRSS/VmHWM from /proc before and after.
"""
import http.client
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.parse

# The seed's "Silent Classics": bundled posters (no network), 5 stages of 2 s, 20 s a quiz, its first quiz 3 s after
# the play starts.
SHARE_CODE = "FE7NWW"
# wrk's shape: bounded (10 s each), 2 threads (the machine has 2 cores), 32 connections, a 5 s timeout that counts.
WRK = ["wrk", "-t2", "-c32", "-d10s", "--timeout", "5s", "--latency"]
# Far from any title of the package: a guess that is judged wrong keeps the quiz playing for the whole run.
WRONG_GUESS = "Not a movie of this package"
# Each wrk run starts on new plays whose first quiz is playing, so its 10 s end before the quiz's 20 s do.
PLAYS_PER_RUN = 64
POSTER_STAGE = 3

# Appended to every wrk script: one JSON line from wrk's own summary and latency histogram (microseconds).
REPORTER = r"""
function done(summary, latency, requests)
  -- Requests past the end of a script's list of fresh players (`wrk_threads`, when the script keeps them).
  local reused = 0
  for _, thread in ipairs(wrk_threads or {}) do reused = reused + (thread:get("reused") or 0) end
  io.write(string.format(
    'WRK_JSON {"requests": %d, "duration_us": %d, "bytes": %d, "non_2xx_3xx": %d, "connect_errors": %d, ' ..
    '"read_errors": %d, "write_errors": %d, "timeouts": %d, "p50_us": %d, "p90_us": %d, "p99_us": %d, ' ..
    '"max_us": %d, "mean_us": %.1f, "reused": %d}\n',
    summary.requests, summary.duration, summary.bytes, summary.errors.status, summary.errors.connect,
    summary.errors.read, summary.errors.write, summary.errors.timeout, latency:percentile(50),
    latency:percentile(90), latency:percentile(99), latency.max, latency.mean, reused))
end
"""


class Client:
    """One keep-alive connection to the server under test."""

    def __init__(self, url):
        parts = urllib.parse.urlsplit(url)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)

    def call(self, method, path, body=None, token=None, expect=(200,)):
        headers = {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if body is not None:
            headers["Content-Type"] = "application/json"
            body = json.dumps(body)
        try:
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            # The server closed this keep-alive connection after its idle timeout (the wrk runs between two calls
            # can be longer); it read nothing of this request, so sending it again on a new connection is safe.
            self.connection.close()
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
        data = response.read()
        if response.status not in expect:
            raise SystemExit(f"{method} {path}: {response.status} {data[:300]!r}")
        return data


def new_player(client, name):
    return json.loads(client.call("POST", "/v1/players", {"name": name}, expect=(201,)))["token"]


def new_players(url, prefix, count, connections=4):
    """`count` new players' tokens, made over `connections` connections at once."""
    tokens = [None] * count
    errors = []

    def make(share):
        try:
            client = Client(url)
            for index in range(share, count, connections):
                tokens[index] = new_player(client, f"{prefix} {index}")
        except BaseException as error:  # a player not made is a failed run, not a smaller one
            errors.append(repr(error))

    threads = [threading.Thread(target=make, args=(share,)) for share in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise SystemExit(f"making players: {errors[0]}")
    return tokens


def start_plays(client, tokens, count):
    """A play of the package for each of the first `count` of `tokens`: [(token, play id)]. A player plays a package
    once at a time (a second start goes on with the open play), so each play is another player's."""
    if len(tokens) < count:
        raise SystemExit(f"{count} plays need {count} players, not {len(tokens)}")
    plays = []
    for token in tokens[:count]:
        play = json.loads(client.call("POST", f"/v1/packages/{SHARE_CODE}/plays", token=token, expect=(201,)))
        plays.append((token, play["id"]))
    return plays


def wait_until_playing(client, plays, stage=1, limit_s=15):
    """Polls each play until its first quiz is being played with `stage` revealed (the quiz starts 3 s after the play,
    then a stage every 2 s, on the server's clock)."""
    deadline = time.monotonic() + limit_s
    for token, play_id in plays:
        while True:
            quiz = json.loads(client.call("GET", f"/v1/plays/{play_id}", token=token))["quizzes"][0]
            if quiz["status"] == "playing" and quiz["stage"] >= stage:
                break
            if time.monotonic() > deadline:
                raise SystemExit(f"play {play_id}: quiz 1 {quiz['status']} at stage {quiz['stage']} after {limit_s} s")
            time.sleep(0.05)


def statuses_since(log_path, offset):
    """Status codes the server logged after byte `offset` of its request log: {"200": n, ...}."""
    with open(log_path, "rb") as log:
        log.seek(offset)
        text = log.read().decode("utf-8", "replace")
    counts = {}
    for status in re.findall(r"http\.status=(\d{3})", text):
        counts[status] = counts.get(status, 0) + 1
    return dict(sorted(counts.items()))


def wrk(name, url, work, log_path, script_body="", wait_for_log=True):
    """One bounded wrk run; its summary, plus the statuses the server logged for it when `log_path` is given."""
    script = os.path.join(work, f"{name}.lua")
    with open(script, "w") as f:
        f.write(script_body + REPORTER)
    offset = os.path.getsize(log_path) if log_path else 0
    started = time.monotonic()
    output = subprocess.run(WRK + ["-s", script, url], capture_output=True, text=True, timeout=60, check=True).stdout
    elapsed = time.monotonic() - started
    line = next(l for l in output.splitlines() if l.startswith("WRK_JSON "))
    result = json.loads(line[len("WRK_JSON "):])
    result["rps"] = result["requests"] / (result["duration_us"] / 1e6)
    result["wall_seconds"] = elapsed
    result["wrk_output"] = output.replace(line + "\n", "")
    if log_path:
        # Log lines of the last responses may still be on their way to the file; wait until their count settles.
        counts, settled_at = statuses_since(log_path, offset), time.monotonic()
        while wait_for_log and time.monotonic() - settled_at < 0.3:
            time.sleep(0.1)
            again = statuses_since(log_path, offset)
            if again != counts:
                counts, settled_at = again, time.monotonic()
        result["statuses"] = counts
    print(f"{name}: {result['rps']:.0f} requests/s, p50 {result['p50_us']} µs, p99 {result['p99_us']} µs, "
          f"non-2xx/3xx {result['non_2xx_3xx']}, statuses {result.get('statuses')}", file=sys.stderr)
    return result


def request_script(plays, method, path_of, body=None):
    """Lua that sends each request to the next of `plays`, with its player's bearer token."""
    rows = ",\n".join(f'  {{path = "{path_of(play_id)}", token = "{token}"}}' for token, play_id in plays)
    body_lua = "nil" if body is None else json.dumps(json.dumps(body))
    return f"""
local targets = {{
{rows}
}}
local body = {body_lua}
local next_target = 0
request = function()
  next_target = next_target % #targets + 1
  local target = targets[next_target]
  local headers = {{["Authorization"] = "Bearer " .. target.token}}
  if body then headers["Content-Type"] = "application/json" end
  return wrk.format("{method}", target.path, headers, body)
end
"""


def load(url, pid, log_path, static_url, static_folder, work, out):
    client = Client(url)
    # Two batches of plays, each play another player's.
    tokens = new_players(url, "Bench", 2 * PLAYS_PER_RUN)
    results = {"share_code": SHARE_CODE, "wrk": " ".join(WRK), "plays_per_run": PLAYS_PER_RUN,
               "players_per_run": PLAYS_PER_RUN}

    # Warm-up: the first requests of a process pay for lazily built state (the store's statements, the poster cache).
    subprocess.run(["wrk", "-t1", "-c4", "-d2s", f"{url}/v1/packages/{SHARE_CODE}"], capture_output=True, timeout=30)

    # The machine's load (1, 5 and 15 minute averages) around the runs: other builds share these cores.
    results["loadavg_before"] = open("/proc/loadavg").read().split()[:3]
    results["floor"] = wrk("floor", f"{url}/healthz", work, log_path)
    results["package"] = wrk("package", f"{url}/v1/packages/{SHARE_CODE}", work, log_path)

    plays = start_plays(client, tokens[:PLAYS_PER_RUN], PLAYS_PER_RUN)
    wait_until_playing(client, plays)
    results["guess"] = wrk(
        "guess", url, work, log_path,
        request_script(plays, "POST", lambda play: f"/v1/plays/{play}/guesses", {"quiz": 1, "text": WRONG_GUESS}))
    results["guess"]["body"] = {"quiz": 1, "text": WRONG_GUESS}

    # The stage poster: stage 3 of 5 of quiz 1, as in StagePosterBenchmarks; cut by the first request, then every
    # request of the run is answered from the cache (stage 3 is revealed 4 s into the quiz, the run ends before 20 s).
    plays = start_plays(client, tokens[PLAYS_PER_RUN:], PLAYS_PER_RUN)
    wait_until_playing(client, plays, stage=POSTER_STAGE)
    poster_path = lambda play: f"/v1/plays/{play}/quizzes/1/poster?stage={POSTER_STAGE}"
    token, play_id = plays[0]
    jpeg = client.call("GET", poster_path(play_id), token=token)
    assert jpeg[:3] == b"\xff\xd8\xff", "the stage poster is a JPEG"
    with open(os.path.join(static_folder, "poster.jpg"), "wb") as f:
        f.write(jpeg)
    results["poster_bytes"] = len(jpeg)
    results["poster_stage"] = POSTER_STAGE
    results["poster"] = wrk("poster", url, work, log_path, request_script(plays, "GET", poster_path))
    results["static_file"] = wrk("static_file", f"{static_url}/poster.jpg", work, None)
    # The floor again, after the heavier runs: how much the machine's load moved while this ran.
    results["floor_after"] = wrk("floor_after", f"{url}/healthz", work, log_path)
    # What the server holds after the runs: its 128 plays, the poster cache, the store's caches.
    results["rss_after_kb"] = rss(pid)
    results["loadavg_after"] = open("/proc/loadavg").read().split()[:3]
    with open(out, "w") as f:
        json.dump(results, f, indent=1)


def rss(pid):
    """VmRSS and VmHWM of `pid`, in kB."""
    with open(f"/proc/{pid}/status") as f:
        fields = dict(line.split(":", 1) for line in f if ":" in line)
    return {key: int(fields[key].split()[0]) for key in ("VmRSS", "VmHWM")}


def memory(url, pid, count, out):
    client = Client(url)
    idle = rss(pid)
    # A player for each play (a player plays a package once at a time), all made before the plays are measured.
    tokens = new_players(url, "Memory", count)
    # One play first, so that what any first play loads once (the package's plan, the store's statements) is not
    # counted per play.
    start_plays(client, tokens[:1], 1)
    one_play = rss(pid)
    started = time.monotonic()
    errors = []

    def opener(share):
        try:
            start_plays(Client(url), tokens[1:][share::4], count_for[share])
        except BaseException as error:  # a failed start is a failed run, not a smaller figure
            errors.append(repr(error))

    # Four connections at once: 10,000 sequential starts would take most of a minute on this machine.
    rest = count - 1
    count_for = [rest // 4 + (1 if share < rest % 4 else 0) for share in range(4)]
    threads = [threading.Thread(target=opener, args=(share,)) for share in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    if errors or any(thread.is_alive() for thread in threads):
        raise SystemExit(f"opening {count} plays failed: {errors[:3]}")
    opened_in = time.monotonic() - started
    held = rss(pid)
    with open(out, "w") as f:
        json.dump({"plays": count, "players": len(tokens), "idle_kb": idle, "one_play_kb": one_play,
                   "held_kb": held, "opened_in_seconds": opened_in}, f, indent=1)
    print(f"memory: {idle} idle, {one_play} with 1 play, {held} with {count} plays ({opened_in:.1f} s to open)",
          file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1] == "load":
        load(sys.argv[2], int(sys.argv[3]), *sys.argv[4:9])
    elif sys.argv[1] == "memory":
        memory(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
    else:
        raise SystemExit(__doc__)
