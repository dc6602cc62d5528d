"""Many makers searching at once while TMDB is stalled or slow (issue 36): run by Benchmarks/tmdb-burst.sh against a
release `uquiz serve` whose TMDB is a `fake-tmdb` with a delay on every search.

Usage: python3 tmdb-burst-bench.py NAME SERVER_URL FAKE_TMDB_LOG SEARCHES DEADLINE_MS OUT.json

SEARCHES searches of different titles go at once from 12 makers (each a player of its own at an address of its own,
127.0.0.10-21, within the per-player limit of 10 at once); meanwhile a prober at 127.0.0.2 reads /healthz and a package
page one after the other. Then the same searches again, which the server answers without asking TMDB."""
import http.client, json, statistics, sys, threading, time, urllib.parse

name, url, tmdb_log, count, deadline_ms, out = sys.argv[1:7]
count, deadline_ms = int(count), int(deadline_ms)
parts = urllib.parse.urlparse(url)
HOST, PORT = parts.hostname, parts.port


def request(method, path, source="127.0.0.1", headers=None, body=None):
    connection = http.client.HTTPConnection(HOST, PORT, timeout=60, source_address=(source, 0))
    started = time.monotonic()
    try:
        connection.request(method, path, body=body, headers=headers or {})
        reply = connection.getresponse()
        data = reply.read()
        return reply.status, data, time.monotonic() - started
    except OSError:
        return 0, b"", time.monotonic() - started
    finally:
        connection.close()


def maker_address(index):
    return f"127.0.0.{10 + index % 12}"


tokens = []
for index in range(12):
    status, body, _ = request("POST", "/v1/players", maker_address(index), {"Content-Type": "application/json"},
                              json.dumps({"name": f"maker{index}"}))
    assert status == 201, (status, body)
    tokens.append(json.loads(body)["token"])


def tmdb_searches():
    with open(tmdb_log) as log:
        return sum(1 for line in log if line.startswith("GET /3/search/movie"))


def burst(prefix):
    results = [None] * count
    probes = {"/healthz": [], "/v1/packages/FE7NWW": []}
    probe_failures = [0]
    stop = threading.Event()

    def search(index):
        path = f"/v1/movies?q={prefix}{index}"
        status, body, seconds = request("GET", path, maker_address(index), {"Authorization": f"Bearer {tokens[index % 12]}"})
        source = json.loads(body).get("source") if status == 200 else None
        results[index] = (status, source, seconds)

    def probe():
        while not stop.is_set():
            for path in probes:
                status, _, seconds = request("GET", path, "127.0.0.2")
                probes[path].append(seconds)
                if status != 200:
                    probe_failures[0] += 1
            time.sleep(0.01)

    prober = threading.Thread(target=probe)
    prober.start()
    asked_before = tmdb_searches()
    started = time.monotonic()
    threads = [threading.Thread(target=search, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    stop.set()
    prober.join()
    seconds = sorted(result[2] for result in results)

    def percentile(values, p):
        values = sorted(values)
        return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else None

    return {
        "searches": count,
        "answered": sum(1 for status, _, _ in results if status == 200),
        "from_tmdb": sum(1 for _, source, _ in results if source == "tmdb"),
        "from_catalog": sum(1 for _, source, _ in results if source == "catalog"),
        "slowest_s": round(seconds[-1], 3),
        "p50_s": round(percentile(seconds, 50), 3),
        "within_deadline_plus_1s": sum(1 for value in seconds if value <= deadline_ms / 1000 + 1),
        "elapsed_s": round(elapsed, 3),
        "searches_per_s": round(count / elapsed, 1),
        "asked_tmdb": tmdb_searches() - asked_before,
        "probes": {path: {"count": len(values), "p50_ms": round(percentile(values, 50) * 1000, 1),
                          "p99_ms": round(percentile(values, 99) * 1000, 1), "max_ms": round(max(values) * 1000, 1)}
                   for path, values in probes.items()},
        "probe_failures": probe_failures[0],
    }


first = burst("burst")
again = burst("burst")
json.dump({"name": name, "deadline_ms": deadline_ms, "first": first, "again": again}, open(out, "w"), indent=1)
print(json.dumps({"name": name, "first": first, "again": again}, indent=1))
