"""A public `uquiz serve` (rate limits on, as people run it) under the floods of issue 27, from many loopback addresses:
1,000 rooms opened and never joined, 2,000 publishes, 1,000 connections trickling request heads. For each: what the
flood got, what it cost the server (VmRSS, open descriptors), and whether a real user from another address was still
served. Standard library only; every wait is bounded.

Usage: public-service-bench.py URL PID OUT.json
"""

import asyncio
import json
import os
import statistics
import sys
import time

URL, PID, OUT = sys.argv[1], int(sys.argv[2]), sys.argv[3]
HOST, PORT = URL.removeprefix("http://").split(":")
PORT = int(PORT)
AREAS = [[35, 9], [24, 38], [53, 26], [66, 14], [7, 22]]
# Flooding addresses: 50 "guests' homes", each making players as fast as the per-address limit lets it.
FLOOD_ADDRESSES = [f"127.0.1.{n}" for n in range(1, 51)]
TRICKLE_ADDRESSES = [f"127.0.3.{n}" for n in range(1, 21)]


def rss_kib():
    with open(f"/proc/{PID}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def descriptors():
    return len(os.listdir(f"/proc/{PID}/fd"))


async def request(method, path, body=None, token=None, source="127.0.0.1", timeout=30):
    """One request on a connection of its own: (status, json or None, seconds)."""
    started = time.monotonic()
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(HOST, PORT, local_addr=(source, 0)), timeout)
    data = b"" if body is None else json.dumps(body).encode()
    head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\nContent-Length: {len(data)}\r\n"
    if body is not None:
        head += "Content-Type: application/json\r\n"
    if token:
        head += f"Authorization: Bearer {token}\r\n"
    writer.write(head.encode() + b"\r\n" + data)
    try:
        raw = await asyncio.wait_for(reader.read(), timeout)
    finally:
        writer.close()
    status = int(raw.split(b" ", 2)[1]) if raw.startswith(b"HTTP/") else 0
    payload = raw.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in raw else b""
    try:
        parsed = json.loads(payload) if payload else None
    except ValueError:
        parsed = None
    return status, parsed, time.monotonic() - started


async def guests(addresses, per_address):
    """Players made from each address, as many as it may make at once: {address: [token, ...]}."""
    async def make(address):
        tokens = []
        for n in range(per_address):
            status, body, _ = await request("POST", "/v1/players", {"name": f"Flood {n}"}, source=address)
            if status == 201:
                tokens.append(body["token"])
        return address, tokens
    return dict(await asyncio.gather(*(make(a) for a in addresses)))


def tally(statuses):
    counts = {}
    for status in statuses:
        counts[str(status)] = counts.get(str(status), 0) + 1
    return counts


async def room_flood(players, attempts):
    """`attempts` room openings spread over the flooding players, all at once."""
    pairs = [(address, token) for address, tokens in players.items() for token in tokens]
    started = time.monotonic()
    results = await asyncio.gather(*(
        request("POST", "/v1/rooms", {"shareCode": "FE7NWW"}, token=pairs[n % len(pairs)][1],
                source=pairs[n % len(pairs)][0])
        for n in range(attempts)))
    return tally(s for s, _, _ in results), time.monotonic() - started


async def publish_flood(players, attempts):
    pairs = [(address, token) for address, tokens in players.items() for token in tokens]
    started = time.monotonic()

    async def one(n):
        address, token = pairs[n % len(pairs)]
        spec = {"format": 1, "title": f"Flood {n}", "level": "beginner", "language": "en",
                "quizzes": [{"movie": 19, "areas": AREAS}]}
        return await request("POST", "/v1/packages", spec, token=token, source=address)
    # In waves of 200, as a script with a connection pool would send them.
    results = []
    for wave in range(0, attempts, 200):
        results += await asyncio.gather(*(one(n) for n in range(wave, min(attempts, wave + 200))))
    return tally(s for s, _, _ in results), time.monotonic() - started


async def real_user(action):
    """A player made from an address nobody flooded from, and what one action of theirs got."""
    source = "127.0.2.1"
    status, body, _ = await request("POST", "/v1/players", {"name": "Real person"}, source=source)
    if status != 201:
        return {"player": status}
    started = time.monotonic()
    status, answer, _ = await action(body["token"], source)
    return {"status": status, "ms": round((time.monotonic() - started) * 1000, 1),
            "code": (answer or {}).get("code") or ((answer or {}).get("error") or {}).get("code")}


async def trickle(count, head_timeout):
    """`count` connections sending a header line a second and never ending the head; meanwhile `GET /healthz` from
    another address every 100 ms. How long each trickler was held, and how /healthz fared."""
    closed_after = []
    answered = []
    stop = asyncio.Event()
    peak = {"fds": descriptors(), "rss": rss_kib()}

    async def trickler(n):
        address = TRICKLE_ADDRESSES[n % len(TRICKLE_ADDRESSES)]
        started = time.monotonic()
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(HOST, PORT, local_addr=(address, 0)), 30)
        except (OSError, asyncio.TimeoutError):
            closed_after.append(("refused", time.monotonic() - started))
            return
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        reading = asyncio.ensure_future(reader.read(4096))
        line = 0
        while time.monotonic() - started < head_timeout * 6:
            done, _ = await asyncio.wait({reading}, timeout=1)
            if done:
                data = reading.result()
                closed_after.append(("408" if b" 408 " in data[:20] else "closed", time.monotonic() - started))
                writer.close()
                return
            try:
                writer.write(f"X-Trickle-{line}: 1\r\n".encode())
                line += 1
            except (ConnectionError, RuntimeError):
                break
        reading.cancel()
        writer.close()
        closed_after.append(("held", time.monotonic() - started))

    async def prober():
        while not stop.is_set():
            try:
                status, _, seconds = await request("GET", "/healthz", source="127.0.4.1", timeout=30)
            except (OSError, asyncio.TimeoutError):
                status, seconds = 0, 30.0
            answered.append((status, seconds))
            peak["fds"] = max(peak["fds"], descriptors())
            peak["rss"] = max(peak["rss"], rss_kib())
            await asyncio.sleep(0.1)

    probing = asyncio.ensure_future(prober())
    await asyncio.gather(*(trickler(n) for n in range(count)))
    stop.set()
    await probing
    held = sorted(seconds for _, seconds in closed_after)
    latencies = sorted(seconds * 1000 for status, seconds in answered if status == 200)
    kinds = {}
    for kind, _ in closed_after:
        kinds[kind] = kinds.get(kind, 0) + 1
    return {
        "connections": count, "outcomes": kinds,
        "heldP50S": round(statistics.median(held), 2), "heldMaxS": round(held[-1], 2),
        "healthzAnswered": len(latencies), "healthzFailed": len(answered) - len(latencies),
        "healthzP50Ms": round(statistics.median(latencies), 2) if latencies else None,
        "healthzP99Ms": round(latencies[int(len(latencies) * 0.99) - 1], 2) if latencies else None,
        "healthzMaxMs": round(latencies[-1], 2) if latencies else None,
        "peakDescriptors": peak["fds"], "peakRssKiB": peak["rss"],
    }


async def healthz_baseline(count=100):
    latencies = []
    for _ in range(count):
        status, _, seconds = await request("GET", "/healthz", source="127.0.4.1")
        if status == 200:
            latencies.append(seconds * 1000)
    latencies.sort()
    return {"p50Ms": round(statistics.median(latencies), 2), "p99Ms": round(latencies[int(len(latencies) * 0.99) - 1], 2)}


async def main():
    figures = {"rssStartKiB": rss_kib(), "descriptorsStart": descriptors()}
    figures["healthzBaseline"] = await healthz_baseline()

    players = await guests(FLOOD_ADDRESSES, 12)
    figures["floodPlayers"] = sum(len(tokens) for tokens in players.values())
    figures["rssPlayersKiB"] = rss_kib()

    statuses, seconds = await room_flood(players, 1000)
    figures["rooms"] = {"attempts": 1000, "statuses": statuses, "seconds": round(seconds, 2), "rssKiB": rss_kib()}
    figures["rooms"]["realHost"] = await real_user(
        lambda token, source: request("POST", "/v1/rooms", {"shareCode": "FE7NWW"}, token=token, source=source))
    statuses, seconds = await room_flood(players, 1000)
    figures["roomsAgain"] = {"attempts": 1000, "statuses": statuses, "seconds": round(seconds, 2), "rssKiB": rss_kib()}

    statuses, seconds = await publish_flood(players, 2000)
    figures["publishes"] = {"attempts": 2000, "statuses": statuses, "seconds": round(seconds, 2), "rssKiB": rss_kib()}
    figures["publishes"]["realMaker"] = await real_user(lambda token, source: request(
        "POST", "/v1/packages", {"format": 1, "title": "A real package", "level": "beginner", "language": "en",
                                 "quizzes": [{"movie": 19, "areas": AREAS}]}, token=token, source=source))

    head_timeout = float(os.environ.get("HEAD_TIMEOUT", "10"))
    figures["trickle"] = await trickle(1000, head_timeout)
    figures["trickle"]["headTimeoutS"] = head_timeout
    figures["rssEndKiB"] = rss_kib()
    json.dump(figures, open(OUT, "w"), indent=1)


asyncio.run(main())
