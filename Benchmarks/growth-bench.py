#!/usr/bin/env python3
"""The measurements of Benchmarks/growth.sh (issue 35, "Cost that does not grow with the data"): each route on a seed
server and on a grown one, interleaved, beside /healthz of both in the same run.

Usage: growth-bench.py measure STORE SEED_URL LARGE_URL SEED_DB LARGE_DB OUT.json

`measure` drives two running `uquiz serve --rate-limits off` (STORE names the store, "SQLite" or "PostgreSQL"). SEED_DB
and LARGE_DB are their databases (a SQLite path or a postgres:// URL), read once to build the deep cursors. Both
servers hold the fixed rows of Benchmarks/growth-*.sql (the hot package HQT234, the heavy player's and the maker's
tokens); the seed one at a minimal size. For every route, after a warm-up, each sample sends the route's request to
both servers, one after the other (which goes first alternates), then /healthz to both, each on its own keep-alive
connection, one request at a time: machine noise hits both servers alike, and /healthz gives the floor of the same
seconds. Every loop is bounded in count and in time; only 127.0.0.1.

Benchmarks/report.py --growth-section writes the "## Data growth (issue 35)" section of BENCHMARKS.md from the results.
"""
import base64
import datetime
import http.client
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import time
import urllib.parse

HEAVY_TOKEN = "growth-heavy-player-token-xxxxxxxxxxxxxxxxx"
MAKER_TOKEN = "growth-maker-token-xxxxxxxxxxxxxxxxxxxxxxxx"
HOT = "HQT234"
SAMPLES = int(os.environ.get("GROWTH_SAMPLES", "200"))
WARMUP = 10
ROUTE_SECONDS = 180  # the most one route's loop may take
DEEP = 40_000  # how deep the deep cursors are (clamped to what a server has)
SEARCH = "night"


class Client:
    """One keep-alive connection to one server."""

    def __init__(self, url):
        parts = urllib.parse.urlsplit(url)
        assert parts.hostname == "127.0.0.1", url
        self.host, self.port = parts.hostname, parts.port
        self.connection = http.client.HTTPConnection(self.host, self.port, timeout=15)

    def call(self, method, path, body=None, token=None, expect=(200,)):
        """(seconds, status, bytes) of one request; the time covers sending it and reading the whole answer."""
        headers = {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None
        if body is not None:
            headers["Content-Type"] = "application/json"
            data = json.dumps(body)
        for attempt in range(2):
            try:
                started = time.perf_counter()
                self.connection.request(method, path, body=data, headers=headers)
                response = self.connection.getresponse()
                payload = response.read()
                seconds = time.perf_counter() - started
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # The server closed an idle keep-alive connection; it read nothing of this request.
                self.connection.close()
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=15)
                if attempt == 1:
                    raise
        if expect and response.status not in expect:
            raise SystemExit(f"{method} {path}: {response.status} {payload[:300]!r}")
        return seconds, response.status, payload

    def json(self, method, path, body=None, token=None, expect=(200,)):
        return json.loads(self.call(method, path, body, token, expect)[2])


def percentile(values, fraction):
    """The nearest-rank percentile of `values` (fraction in (0, 1])."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, int(-(-fraction * len(ordered) // 1)) - 1))]


def summary(seconds):
    ms = [s * 1000 for s in seconds]
    return {"n": len(ms), "p50_ms": round(percentile(ms, 0.5), 3), "p99_ms": round(percentile(ms, 0.99), 3),
            "mean_ms": round(statistics.fmean(ms), 3), "max_ms": round(max(ms), 3)}


def route_row(name, note, times, floors):
    """A route's results: each server's latencies (`times`, seconds by side) and `/healthz`'s beside them (`floors`),
    with the large server's p50 over the seed's."""
    row = {"name": name, "note": note, "seed": summary(times["seed"]), "large": summary(times["large"]),
           "healthz": {"seed": summary(floors["seed"]), "large": summary(floors["large"])}}
    row["ratio_p50"] = round(row["large"]["p50_ms"] / max(row["seed"]["p50_ms"], 1e-6), 2)
    return row


class Pair:
    """The seed and the large server, measured side by side."""

    def __init__(self, seed_url, large_url):
        self.clients = {"seed": Client(seed_url), "large": Client(large_url)}
        self.floor = {"seed": Client(seed_url), "large": Client(large_url)}
        self.routes = []

    def measure(self, name, request, samples=SAMPLES, before_sample=None, note=""):
        """Measures `request(side, client, index) -> seconds` on both sides, interleaved with /healthz."""
        print(f"  {name} ...", end="", file=sys.stderr, flush=True)
        for index in range(WARMUP):
            for side in ("seed", "large"):
                request(side, self.clients[side], -1 - index)
        times = {"seed": [], "large": []}
        floors = {"seed": [], "large": []}
        deadline = time.monotonic() + ROUTE_SECONDS
        for index in range(samples):
            if time.monotonic() > deadline:
                break
            if before_sample:
                before_sample(index)
            order = ("seed", "large") if index % 2 == 0 else ("large", "seed")
            for side in order:
                times[side].append(request(side, self.clients[side], index))
            for side in order:
                floors[side].append(self.floor[side].call("GET", "/healthz")[0])
        row = route_row(name, note, times, floors)
        self.routes.append(row)
        print(f" seed {row['seed']['p50_ms']:.2f}/{row['seed']['p99_ms']:.2f} ms, large "
              f"{row['large']['p50_ms']:.2f}/{row['large']['p99_ms']:.2f} ms, x{row['ratio_p50']}, /healthz "
              f"{row['healthz']['large']['p50_ms']:.2f} ms ({row['seed']['n']} samples)", file=sys.stderr)
        return row

    def get(self, name, path, token=None, samples=SAMPLES, note="", paths=None):
        """A GET route; `paths` gives each side its own path."""
        def request(side, client, index):
            return client.call("GET", paths[side] if paths else path, token=token(side) if callable(token) else token)[0]
        return self.measure(name, request, samples, note=note)


def query_db(db, sql):
    """Rows of one query on a SQLite file or a PostgreSQL database (through psql)."""
    if db.startswith("postgres"):
        output = subprocess.run(["psql", "-X", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1", db, "-c", sql],
                                check=True, capture_output=True, text=True, timeout=120).stdout
        return [line.split("\t") for line in output.splitlines() if line]
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
        return [[str(v) for v in row] for row in connection.execute(sql).fetchall()]


def cursors(db, postgres):
    """The cursors DEEP packages into `new` and `popular` (or as deep as the server's public packages go, less a
    page), made as Packages makes them, and the depth."""
    if postgres:
        public = ("FROM package p LEFT JOIN publication pub ON pub.package_id = p.id "
                  "JOIN package_tally t ON t.package_id = p.id "
                  "WHERE (p.origin = 'seed' OR pub.visibility = 'public') "
                  "AND NOT EXISTS (SELECT 1 FROM hidden_package h WHERE h.package_id = p.id)")
        created, plays, ident = "p.created_at", "t.plays", "p.id"
        new_order = 'p.created_at COLLATE "C" DESC, p.id DESC'
    else:
        public = ("FROM package p LEFT JOIN publication pub ON pub.packageId = p.id "
                  "JOIN packageTally t ON t.packageId = p.id "
                  "WHERE (p.origin = 'seed' OR pub.visibility = 'public') "
                  "AND NOT EXISTS (SELECT 1 FROM hiddenPackage h WHERE h.packageId = p.id)")
        created, plays, ident = "p.createdAt", "t.plays", "p.id"
        new_order = "p.createdAt DESC, p.id DESC"
    count = int(query_db(db, f"SELECT COUNT(*) {public}")[0][0])
    depth = max(1, min(DEEP, count - 21))
    new = query_db(db, f"SELECT {created}, {ident} {public} ORDER BY {new_order} LIMIT 1 OFFSET {depth - 1}")[0]
    popular = query_db(db, f"SELECT {plays}, {ident} {public} ORDER BY {plays} DESC, {ident} DESC "
                           f"LIMIT 1 OFFSET {depth - 1}")[0]
    encode = lambda text: base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")
    return {"new": encode(f"{new[0]}|{new[1]}"), "popular": encode(f"popular|{popular[0]}|{popular[1]}"),
            "depth": depth, "public": count}


def new_players(client, prefix, count):
    return [client.json("POST", "/v1/players", {"name": f"{prefix} {index}"}, expect=(201,))["token"]
            for index in range(count)]


def ready_in(play):
    """Seconds until the play's current quiz can be skipped (0 when it is being played)."""
    current = play.get("currentQuiz")
    if current is None:
        return None
    quiz = play["quizzes"][current - 1]
    if quiz["status"] == "playing":
        return 0.0
    return quiz.get("startsInMs", 0) / 1000


def measure_plays(pair, results):
    """Play starts, guesses and the ends of plays (the last skip, which stores the play), on the hot package."""
    clients = pair.clients
    # Players made through the API, on each server: a start is measured round them; each finished play is a new
    # player's, so every finish is a first, ranked play (the costliest end).
    # A player plays a package once at a time (a second start goes on with the open play), so each start measured,
    # and each play guessed in below, is a new player's.
    starters = {side: new_players(clients[side], "Growth starter", WARMUP + SAMPLES) for side in clients}
    tokens = {side: new_players(clients[side], "Growth guesser", 50) for side in clients}

    def start(side, client, index):
        token = starters[side][index + WARMUP]
        return client.call("POST", f"/v1/packages/{HOT}/plays", token=token, expect=(201,))[0]

    pair.measure("start a play of the hot package (`POST /v1/packages/HQT234/plays`)", start)

    # Guesses: new plays whose first quiz is being played; each guess a new wrong one (stored as an event).
    plays = {side: [] for side in clients}
    for index in range(50):
        for side in clients:
            token = tokens[side][index]
            play = clients[side].json("POST", f"/v1/packages/{HOT}/plays", token=token, expect=(201,))
            plays[side].append((token, play["id"]))
    time.sleep(3.2)
    for side in clients:
        for token, play_id in plays[side]:
            deadline = time.monotonic() + 10
            while clients[side].json("GET", f"/v1/plays/{play_id}", token=token)["quizzes"][0]["status"] != "playing":
                if time.monotonic() > deadline:
                    raise SystemExit(f"play {play_id} never reached its first quiz")
                time.sleep(0.05)

    def guess(side, client, index):
        token, play_id = plays[side][index % 50]
        text = f"Not a movie {index}" if index >= 0 else f"Warm-up guess {-index}"
        return client.call("POST", f"/v1/plays/{play_id}/guesses", {"quiz": 1, "text": text}, token=token)[0]

    pair.measure("a wrong guess (`POST /v1/plays/{id}/guesses`)", guess)

    # Ends: batches of plays by new players, skipped quiz by quiz as each starts; the last skip ends and stores the
    # play. Skips and ends alternate between the servers.
    skips = {"seed": [], "large": []}
    ends = {"seed": [], "large": []}
    floors = {"seed": [], "large": []}
    deadline = time.monotonic() + 240
    batch = 25
    for round_index in range(4):
        players = {side: new_players(clients[side], f"Growth finisher {round_index}", batch) for side in clients}
        open_plays = []
        for index in range(batch):
            for side in ("seed", "large") if index % 2 == 0 else ("large", "seed"):
                token = players[side][index]
                play = clients[side].json("POST", f"/v1/packages/{HOT}/plays", token=token, expect=(201,))
                open_plays.append({"side": side, "token": token, "id": play["id"],
                                   "at": time.monotonic() + (ready_in(play) or 0), "quiz": play.get("currentQuiz", 1)})
        while open_plays:
            if time.monotonic() > deadline:
                raise SystemExit("the plays to end took longer than 240 s")
            ready = [p for p in open_plays if p["at"] <= time.monotonic()]
            if not ready:
                time.sleep(max(0.0, min(p["at"] for p in open_plays) - time.monotonic()))
                continue
            for play in ready:
                side = play["side"]
                seconds, status, payload = clients[side].call(
                    "POST", f"/v1/plays/{play['id']}/skips", {"quiz": play["quiz"]}, token=play["token"],
                    expect=(200, 409))
                state = json.loads(payload)
                if status == 409:
                    # Its quiz ended meanwhile (time up): read where the play is and go on from there.
                    state = clients[side].json("GET", f"/v1/plays/{play['id']}", token=play["token"])
                elif state["finished"]:
                    ends[side].append(seconds)
                else:
                    skips[side].append(seconds)
                floors[side].append(pair.floor[side].call("GET", "/healthz")[0])
                if state["finished"]:
                    open_plays.remove(play)
                    continue
                play["quiz"] = state["currentQuiz"]
                play["at"] = time.monotonic() + (ready_in(state) or 0) + 0.02
    for name, times, key in (("skip a quiz, not the last (`POST /v1/plays/{id}/skips`)", skips, "skip"),
                             ("end a play: its last skip, which stores it (`POST /v1/plays/{id}/skips`)", ends, "end")):
        row = route_row(name, "25 plays a server at a time, skips of the two servers interleaved", times, floors)
        pair.routes.append(row)
        print(f"  {name}: seed {row['seed']['p50_ms']:.2f}/{row['seed']['p99_ms']:.2f} ms, large "
              f"{row['large']['p50_ms']:.2f}/{row['large']['p99_ms']:.2f} ms, x{row['ratio_p50']} "
              f"({row['seed']['n']}/{row['large']['n']} samples)", file=sys.stderr)


def measure(store, seed_url, large_url, seed_db, large_db, out):
    postgres = large_db.startswith("postgres")
    pair = Pair(seed_url, large_url)
    deep = {"seed": cursors(seed_db, postgres), "large": cursors(large_db, postgres)}
    print(f"{store}: deep cursors {deep['seed']['depth']:,} (seed) and {deep['large']['depth']:,} (large) packages in",
          file=sys.stderr)
    results = {"store": store, "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
               "samples": SAMPLES, "loadavg_before": open("/proc/loadavg").read().split()[:3],
               "public_packages": {side: deep[side]["public"] for side in deep},
               "cursor_depth": {side: deep[side]["depth"] for side in deep}}
    heavy, maker = HEAVY_TOKEN, MAKER_TOKEN
    pair.get("`GET /healthz` (the floor itself)", "/healthz")
    pair.get("the hot package's metadata, from the 1 s cache (`GET /v1/packages/HQT234`)", f"/v1/packages/{HOT}")

    def after_cache(index):
        time.sleep(1.05)

    def metadata(side, client, index):
        return client.call("GET", f"/v1/packages/{HOT}")[0]

    pair.measure("the hot package's metadata past its cache (`GET /v1/packages/HQT234`, 1.05 s apart)", metadata,
                 samples=min(SAMPLES, 40), before_sample=after_cache, note="40 samples: p99 is the maximum")
    pair.get("the hot package's leaderboard, anonymous (`GET /v1/packages/HQT234/leaderboard`)",
             f"/v1/packages/{HOT}/leaderboard")
    pair.get("the hot package's leaderboard around the heavy player (`?around=me`)",
             f"/v1/packages/{HOT}/leaderboard?around=me", token=heavy)
    pair.get("the hot package's leaderboard as its maker, with per-quiz statistics",
             f"/v1/packages/{HOT}/leaderboard", token=maker)
    pair.get("browse, popular (`GET /v1/packages?sort=popular`)", "/v1/packages?sort=popular")
    pair.get("browse, new (`GET /v1/packages`)", "/v1/packages")
    pair.get(f"search a common word (`GET /v1/packages?q={SEARCH}`)", f"/v1/packages?q={SEARCH}")
    pair.get(f"search a common word, popular (`?q={SEARCH}&sort=popular`)", f"/v1/packages?q={SEARCH}&sort=popular")
    pair.get(f"browse new from a cursor {DEEP:,} deep", None,
             paths={side: f"/v1/packages?cursor={deep[side]['new']}" for side in deep})
    pair.get(f"browse popular from a cursor {DEEP:,} deep", None,
             paths={side: f"/v1/packages?sort=popular&cursor={deep[side]['popular']}" for side in deep})
    pair.get("the heavy player's stats and history (`GET /v1/players/me`)", "/v1/players/me", token=heavy)
    pair.get("a maker's packages (`GET /v1/players/me/packages`)", "/v1/players/me/packages", token=maker)
    pair.get("today's daily, anonymous (`GET /v1/daily`)", "/v1/daily")
    pair.get("today's daily with the heavy player's streak (`GET /v1/daily`)", "/v1/daily", token=heavy)
    measure_plays(pair, results)
    results["routes"] = pair.routes
    results["loadavg_after"] = open("/proc/loadavg").read().split()[:3]
    with open(out, "w") as f:
        json.dump(results, f, indent=1)


# MARK: - The section of BENCHMARKS.md

if __name__ == "__main__":
    if len(sys.argv) == 8 and sys.argv[1] == "measure":
        measure(*sys.argv[2:8])
    else:
        raise SystemExit(__doc__)
