"""Title suggestions on a catalog of the size a successful server holds: `fill` adds synthetic movies to a seeded
server database (titles in English and Korean, an alias for one in ten, made of a fixed vocabulary so that common
words match thousands of titles); `load` measures, against the release `uquiz serve` on that database, the first
look-up (which makes the index), the server's memory before and after, then bounded wrk runs of /healthz (the floor)
and of GET /v1/titles for texts of every kind: two letters that match tens of thousands of titles, a word's start,
a longer text, Hangul, and a text nothing matches (which a server without TMDB answers from the index alone).

Usage: titles-bench.py fill DB COUNT | titles-bench.py load URL PID LOG WORK OUT.json
"""

import importlib.util
import json
import os
import random
import sqlite3
import sys
import time
import urllib.parse

spec = importlib.util.spec_from_file_location("server_bench", os.path.join(os.path.dirname(__file__), "server-bench.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

WORDS = ("night day last first black red city love war man woman girl boy house dark star blue king queen dead "
         "life road river sea fire ice iron ghost story summer winter time world secret lost return rise fall "
         "shadow light moon sun heart blood game dream island town father mother brother sister child angel devil "
         "storm wolf dragon garden train letter song dance murder escape journey empire kingdom legend").split()
# Korean words, so that Hangul look-ups walk starts inside words too.
HANGUL = "밤 낮 마지막 처음 검은 붉은 도시 사랑 전쟁 남자 여자 소녀 소년 집 어둠 별 왕 여왕 죽음 인생 길 강 바다 불 얼음".split()
QUERIES = ["th", "ni", "dark", "the last", "summer of", "black sta", "사랑", "도시의", "zqxv"]


def fill(db, count):
    generator = random.Random(42)
    rows, aliases = [], []
    connection = sqlite3.connect(db)
    first = connection.execute("SELECT COALESCE(MAX(id), 0) FROM movie").fetchone()[0] + 1
    for index in range(count):
        words = [generator.choice(WORDS) for _ in range(generator.randint(1, 5))]
        english = " ".join(words).title()
        if generator.random() < 0.3:
            english = "The " + english
        korean = " ".join(generator.choice(HANGUL) for _ in range(generator.randint(1, 3)))
        year = generator.randint(1920, 2026)
        movie_id = first + index
        rows.append((movie_id, f"bench-{index}", 5_000_000 + index, english, korean, english, f"{year}-01-01"))
        if index % 10 == 0:
            aliases.append((movie_id, english.upper() + " " + str(year)))
    connection.executemany(
        "INSERT INTO movie (id, catalogKey, tmdbId, originalTitle, titleKo, titleEn, releaseDate) VALUES (?, ?, ?, ?, ?, ?, ?)",
        rows)
    connection.executemany("INSERT INTO movieAlias (movieId, title) VALUES (?, ?)", aliases)
    connection.commit()
    print(connection.execute("SELECT COUNT(*) FROM movie").fetchone()[0], "movies", file=sys.stderr)


def load(url, pid, log_path, work, out):
    client = bench.Client(url)
    # The first look-up may wait for the index being made.
    client.connection.timeout = 120
    token = bench.new_player(client, "Typist")
    results = {"wrk": " ".join(bench.WRK), "queries": QUERIES, "rss_before_kb": bench.rss(pid)}
    started = time.monotonic()
    first = json.loads(client.call("GET", "/v1/titles?q=ni", token=token))
    results["first_lookup_ms"] = round((time.monotonic() - started) * 1000)
    results["rss_after_index_kb"] = bench.rss(pid)
    results["answers"] = {}
    for query in QUERIES:
        answer = json.loads(client.call("GET", f"/v1/titles?q={urllib.parse.quote(query)}", token=token))
        results["answers"][query] = [line["title"] for line in answer["titles"]]
    assert first["available"] and len(first["titles"]) == 8, first
    rows = ",\n".join(f'  "/v1/titles?q={urllib.parse.quote(query)}&language=en"' for query in QUERIES)
    script = f"""
local paths = {{
{rows}
}}
local next_path = 0
request = function()
  next_path = next_path % #paths + 1
  return wrk.format("GET", paths[next_path], {{["Authorization"] = "Bearer {token}"}})
end
"""
    results["floor"] = bench.wrk("floor", f"{url}/healthz", work, log_path)
    results["titles"] = bench.wrk("titles", url, work, log_path, script)
    results["floor_after"] = bench.wrk("floor_after", f"{url}/healthz", work, log_path)
    results["rss_after_kb"] = bench.rss(pid)
    # A play's judge reads the whole catalog too (it tells another movie's title from a wrong guess): what a play start
    # answers on a catalog of this size.
    started = time.monotonic()
    try:
        client.call("POST", "/v1/packages/FE7NWW/plays", token=token, expect=(201,))
        results["play_start"] = {"status": 201}
    except SystemExit as refused:
        results["play_start"] = {"status": str(refused)[:120]}
    results["play_start"]["ms"] = round((time.monotonic() - started) * 1000)
    for run in ("floor", "titles", "floor_after"):
        results[run].pop("wrk_output", None)
    with open(out, "w") as f:
        json.dump(results, f, indent=1)


if __name__ == "__main__":
    if sys.argv[1] == "fill":
        fill(sys.argv[2], int(sys.argv[3]))
    else:
        load(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6])
