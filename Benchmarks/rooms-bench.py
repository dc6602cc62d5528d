#!/usr/bin/env python3
"""The load of Benchmarks/rooms.sh (issue 17): 1,000 players in 100 live rooms, and the spread between the first and
the last player of a room receiving each of the room's broadcasts.

Usage: rooms-bench.py uquiz NAME OUT.json PID[,PID...] URL [URL ...]
       rooms-bench.py floor OUT.json

`uquiz` drives running `uquiz serve --rate-limits off` instances (their process ids, for /proc, in the same order as
their URLs): it makes 1,000 guest players (POST /v1/players), opens 100 rooms on the Silent Classics (POST /v1/rooms,
each by its own host), and hands the players to WORKERS client processes. Each room's host joins first (with its
token), then its 9 others (with theirs); the hosts send `start` all at once, and every player answers `loaded` on
`quizLoading` and `pong` on the server's `ping`; in each quiz 3 players of a room guess wrong after stage 2 and 2 guess
right after stage 3 (the titles come from Seed/seed.json, read here only), so the judge runs and the quiz runs to its
time limit. Every player leaves 2 to 3 s after the end of quiz QUIZZES. With several URLs, rooms are opened and hosts
connected on the first and the others of a room alternate between the instances: those on another instance are
relayed by it to the first (README, "Live rooms", several instances).

`floor` is the same 1,000 clients, the same 100 x 10 rooms and the same messages against a trivial broadcast server (a
single asyncio process of the same `websockets` library, started here: `floor-server`), which sends each room's
messages to its 10 sockets in one synchronous loop on the same cadence (stages 2 s apart), doing nothing else.

Each receipt of `quizLoading`, `quizStarted`, `stageRevealed` and `quizEnded` is stamped twice: with the kernel's
receive timestamp of its bytes on the player's socket (SO_TIMESTAMPNS: on loopback within microseconds of the server's
write, whatever the client process is doing) and with time.monotonic_ns() when the client read it off the socket (in
the connection's `data_received`, before the player's coroutine gets it; CLOCK_MONOTONIC, one clock for every process).
A broadcast's spread is its last receipt in the room less its first, on each clock. Memory is VmRSS from /proc before
any room, with the 100 rooms opened, and with the 1,000 players connected; CPU is utime+stime of the server
process(es) over the play, and of the client processes beside it.
"""
import asyncio
import collections
import importlib.util
import json
import os
import random
import signal
import socket
import struct
import subprocess
import sys
import time

# The seed's "Silent Classics": 25 quizzes with bundled posters (no network), beginner: 5 stages 2 s apart, 20 s a
# quiz, 8 s between quizzes.
SHARE_CODE = "FE7NWW"
ROOMS = int(os.environ.get("ROOMS_BENCH_ROOMS", "100"))
# Players a room seats, the host included (a room over 50 is a large room: `uquiz serve --room-seats N`).
PER_ROOM = int(os.environ.get("ROOMS_BENCH_PER_ROOM", "10"))
# A big screen per room (1) or none (0): it opens with the host's token after the host joined, and its receipts are
# stamped like a player's but kept apart from the players' spread.
SCREENS = os.environ.get("ROOMS_BENCH_SCREENS", "1") == "1"
# Quizzes played per room: each is 7 broadcasts (loading, started, 4 stages, ended) and about 28 s.
QUIZZES = int(os.environ.get("ROOMS_BENCH_QUIZZES", "2"))
# Client processes: one asyncio loop reading 1,000 sockets would add spread of its own.
WORKERS = int(os.environ.get("ROOMS_BENCH_WORKERS", "4"))
# The client processes' nice value: at 19 they take only the CPU the server leaves, as clients on other machines
# would, so the spread at the sockets is the server's own fan-out.
CLIENT_NICE = int(os.environ.get("ROOMS_BENCH_CLIENT_NICE", "0"))
# Handshakes in flight per worker.
CONNECTING_AT_ONCE = 25
# Joins a second over all workers (0: as fast as the handshakes in flight go). People joining an event from a QR code
# arrive over a minute or so, not all in the same second.
JOINS_PER_SECOND = float(os.environ.get("ROOMS_BENCH_JOINS_PER_SECOND", "0"))
RECORDED = ("quizLoading", "quizStarted", "stageRevealed", "quizEnded")
WRONG_GUESS = "Not a movie of this package"
# Seats (0 is the host) that guess wrong after stage 2, and right after stage 3, by their place in each ten: 3 and 2
# players of ten.
WRONG_SEATS, RIGHT_SEATS = (1, 2, 3), (4, 5)
# The seat a room's big screen is recorded under.
SCREEN_SEAT = -1
# The floor server's cadence: the real stage spacing, shorter waits at a quiz's end and between quizzes.
FLOOR_STAGE_S, FLOOR_END_S, FLOOR_INTERLUDE_S = 2.0, 4.0, 3.0


def log(text):
    print(text, file=sys.stderr, flush=True)


def answers():
    """Quiz number (1-based, as the room numbers them) -> the title the judge accepts, from the seed bundle."""
    seed = json.load(open(os.path.join(os.path.dirname(__file__), "..", "Seed", "seed.json")))
    titles = {movie["key"]: movie["titles"].get("en") or movie["originalTitle"] for movie in seed["movies"]}
    package = next(p for p in seed["packages"] if p["shareCode"] == SHARE_CODE)
    quizzes = [quiz for quiz in package["quizzes"] if quiz["areas"]]
    return {index + 1: titles[quiz["movie"]] for index, quiz in enumerate(quizzes)}


def ws_url(base, path):
    return base.replace("http://", "ws://", 1).replace("https://", "wss://", 1) + path


# MARK: - Worker: one client process, a share of the players

# Linux's SO_TIMESTAMPNS (Python's socket module does not name it): each read gets the instant the kernel received its
# last segment, on CLOCK_REALTIME.
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)


class StampingSocket(socket.socket):
    """A TCP socket whose reads (asyncio's transport calls `recv`) keep the kernel's receive timestamp of the data."""
    __slots__ = ("kernel_stamp",)

    def recv(self, size, flags=0):
        data, ancillary, _, _ = self.recvmsg(size, 64, flags)
        for level, kind, value in ancillary:
            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                seconds, nanoseconds = struct.unpack("qq", value[:16])
                self.kernel_stamp = seconds * 1_000_000_000 + nanoseconds
        return data


def stamping_connection():
    """A client connection that stamps each message, in arrival order, with two instants: when the kernel received it
    on the player's socket (SO_TIMESTAMPNS; on loopback that is within microseconds of the server's write, whatever the
    client process is doing), and when the client read it off the socket (CLOCK_MONOTONIC, in `data_received`, before
    any coroutine runs). What a player's coroutine then does with the message is in neither."""
    from websockets.asyncio.client import ClientConnection
    from websockets.frames import Frame, Opcode

    class StampingConnection(ClientConnection):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.stamps = collections.deque()
            self.read_at = self.kernel_at = 0

        def data_received(self, data):
            self.read_at = time.monotonic_ns()
            self.kernel_at = getattr(getattr(self.transport, "_sock", None), "kernel_stamp", 0)
            super().data_received(data)

        def process_event(self, event):
            if isinstance(event, Frame) and event.fin and event.opcode in (Opcode.TEXT, Opcode.BINARY, Opcode.CONT):
                self.stamps.append((self.kernel_at, self.read_at))
            super().process_event(event)

    return StampingConnection


class Player:
    def __init__(self, spec, titles, receipts, acks, counts):
        self.__dict__.update(spec)
        self.titles = titles
        self.receipts = receipts
        # Milliseconds from sending a guess (CLOCK_REALTIME) to the kernel's receipt of its `guessJudged`.
        self.acks = acks
        self.guesses_sent = collections.deque()
        self.counts = counts
        self.ws = None
        self.done = asyncio.get_running_loop().create_future()
        # A failure is reported by the worker; one left unread when the worker quits early is no error of its own.
        self.done.add_done_callback(lambda done: done.cancelled() or done.exception())
        self.random = random.Random(f"{self.room}/{self.seat}")
        self.gone = asyncio.get_running_loop().create_future()

    async def join(self, semaphore, pacer):
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidStatus
        await pacer()
        async with semaphore:
            try:
                host, port = self.url.split("/")[2].rsplit(":", 1)
                sock = StampingSocket(socket.AF_INET, socket.SOCK_STREAM)
                sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
                sock.setblocking(False)
                await asyncio.get_running_loop().sock_connect(sock, (host, int(port)))
                self.ws = await connect(self.url, compression=None, proxy=None, ping_interval=None, max_queue=None,
                                        open_timeout=30, create_connection=STAMPING, sock=sock)
            except InvalidStatus as error:
                return {"room": self.room, "seat": self.seat, "url": self.url,
                        "status": error.response.status_code,
                        "body": error.response.body[:200].decode("utf-8", "replace")}
            except Exception as error:
                return {"room": self.room, "seat": self.seat, "url": self.url, "error": repr(error)}
        if self.screen:
            await self.send({"type": "screen", "playerToken": self.token})
        else:
            await self.send({"type": "join", "name": self.name, "playerToken": self.token})
        try:
            while True:
                message = json.loads(await asyncio.wait_for(self.ws.recv(), 30))
                self.ws.stamps.popleft()
                if message["type"] in ("welcome", "screenWelcome"):
                    break
                if message["type"] == "error":
                    return {"room": self.room, "seat": self.seat, "url": self.url, "message": message}
        except Exception as error:
            code = getattr(getattr(error, "rcvd", None), "code", None)
            return {"room": self.room, "seat": self.seat, "url": self.url, "error": repr(error), "close": code}
        asyncio.get_running_loop().create_task(self.read())
        return None

    async def send(self, message):
        await self.ws.send(json.dumps({"v": 1, **message}))

    async def guess_later(self, quiz, text, delay):
        await asyncio.sleep(delay)
        if not self.done.done():
            self.guesses_sent.append(time.time_ns())
            await self.send({"type": "guess", "quiz": quiz, "text": text})

    async def leave_later(self, delay):
        await asyncio.sleep(delay)
        try:
            if self.screen:
                await self.ws.close()
            else:
                await self.send({"type": "leave"})
        except Exception:
            pass

    async def read(self):
        receipts, room, seat = self.receipts, self.room, self.seat
        try:
            async for raw in self.ws:
                kernel_at, read_at = self.ws.stamps.popleft()
                message = json.loads(raw)
                kind = message["type"]
                if kind in RECORDED:
                    quiz = message["quiz"]
                    receipts.append((room, quiz, kind, message.get("stage", 0), kernel_at, read_at, seat))
                    if kind == "quizLoading" and not self.screen:
                        await self.send({"type": "loaded", "quiz": quiz})
                    elif kind == "stageRevealed" and message["stage"] == 2 and seat % 10 in WRONG_SEATS:
                        asyncio.get_running_loop().create_task(
                            self.guess_later(quiz, WRONG_GUESS, self.random.uniform(0.2, 1.5)))
                    elif kind == "stageRevealed" and message["stage"] == 3 and seat % 10 in RIGHT_SEATS:
                        asyncio.get_running_loop().create_task(
                            self.guess_later(quiz, self.titles[quiz], self.random.uniform(0.2, 1.0)))
                    elif kind == "quizEnded" and quiz >= QUIZZES:
                        self.done.set_result(None)
                        # Later, and not all at the same instant: 1,000 leaves (each a lobby broadcast and a close)
                        # landing on the last quiz's end would be measured as that broadcast's spread.
                        asyncio.get_running_loop().create_task(self.leave_later(self.random.uniform(2.0, 3.0)))
                elif kind == "ping":
                    await self.send({"type": "pong", "serverTime": message["serverTime"]})
                elif kind == "guessJudged":
                    self.counts[f"guess {message['judgement']}"] += 1
                    if self.guesses_sent:
                        self.acks.append((kernel_at - self.guesses_sent.popleft()) / 1e6)
                elif kind == "error":
                    self.counts[f"error {message.get('code')}"] += 1
                elif kind in ("roomExpired", "kicked"):
                    self.counts[kind] += 1
        except Exception as error:
            self.counts[f"read failed: {type(error).__name__} {getattr(getattr(error, 'rcvd', None), 'code', '')}"] += 1
        if not self.done.done():
            self.done.set_exception(
                RuntimeError(f"room {room} seat {seat}: the connection ended before quiz {QUIZZES} did"))
        try:
            await asyncio.wait_for(self.ws.close(), 5)
        except Exception:
            pass
        self.gone.set_result(None)


async def worker():
    global STAMPING
    STAMPING = stamping_connection()
    loop = asyncio.get_running_loop()
    readline = lambda: loop.run_in_executor(None, sys.stdin.readline)
    job = json.loads(await readline())
    receipts, acks, counts = [], [], collections.Counter()
    titles = {int(k): v for k, v in job["titles"].items()}
    players = [Player(spec, titles, receipts, acks, counts) for spec in job["players"]]
    semaphore = asyncio.Semaphore(CONNECTING_AT_ONCE)
    # This worker's share of JOINS_PER_SECOND: each join takes the next slot.
    slots = {"next": time.monotonic()}

    async def pacer():
        if JOINS_PER_SECOND <= 0:
            return
        slot = max(slots["next"], time.monotonic())
        slots["next"] = slot + WORKERS / JOINS_PER_SECOND
        await asyncio.sleep(slot - time.monotonic())
    reply = lambda value: print(json.dumps(value), flush=True)
    while True:
        command = (await readline()).strip()
        if command in ("hosts", "screens", "others"):
            group = [p for p in players if (p.host, p.screen) == (command == "hosts", command == "screens")]
            errors = [e for e in await asyncio.gather(*(p.join(semaphore, pacer) for p in group)) if e]
            reply({"joined": len(group) - len(errors), "errors": errors})
        elif command == "start":
            for player in players:
                if player.host:
                    await player.send({"type": "start"})
            failures = []
            try:
                await asyncio.wait_for(asyncio.gather(*(p.done for p in players), return_exceptions=True),
                                       QUIZZES * 45 + 60)
            except asyncio.TimeoutError:
                failures.append("timed out")
            failures += [str(p.done.exception()) for p in players if p.done.done() and p.done.exception()]
            failures += [f"room {p.room} seat {p.seat}: not done" for p in players if not p.done.done()]
            # The leaves, so that the play's CPU and the next run do not overlap them.
            try:
                await asyncio.wait_for(asyncio.gather(*(p.gone for p in players)), 15)
            except asyncio.TimeoutError:
                failures.append("did not leave within 15 s")
            path = job["receipts"]
            with open(path, "w") as f:
                json.dump({"receipts": receipts, "acks": acks}, f)
            reply({"receipts": path, "counts": counts, "failures": failures[:20], "failed": len(failures)})
        else:
            for player in players:
                if player.ws is not None:
                    try:
                        await asyncio.wait_for(player.ws.close(), 2)
                    except Exception:
                        pass
            return


# MARK: - The trivial broadcast server of the floor

async def floor_server():
    from websockets.asyncio.server import broadcast, serve
    titles = answers()
    rooms = collections.defaultdict(lambda: {"players": [], "screens": [], "loaded": collections.Counter(),
                                             "all_loaded": collections.defaultdict(asyncio.Event)})

    def lobby(room):
        """The latest 100 names, as a large room's lobby carries."""
        first = max(0, len(room["players"]) - 100)
        return {"v": 1, "type": "lobby", "host": 1, "playerCount": len(room["players"]), "players": [
            {"player": first + i + 1, "name": name, "connected": True, "watching": False}
            for i, (_, name) in enumerate(room["players"][first:])]}

    def clock(kind, quiz, stage):
        return json.dumps({"v": 1, "type": kind, "quiz": quiz, "stage": stage, "stageCount": 5,
                           "nextStageInMs": 2000 if stage < 5 else None, "endsInMs": 20000 - 2000 * (stage - 1),
                           "serverTime": int(time.monotonic() * 1000),
                           "posterURL": f"/v1/rooms/FLOR/quizzes/{quiz}/poster?stage={stage}"})

    async def run(code):
        room = rooms[code]
        sockets = lambda: [ws for ws, _ in room["players"]] + room["screens"]
        for quiz in range(1, QUIZZES + 1):
            broadcast(sockets(), json.dumps({
                "v": 1, "type": "quizLoading", "quiz": quiz, "quizCount": 25, "stageCount": 5,
                "startsWithinMs": 10000, "serverTime": int(time.monotonic() * 1000),
                "posterURL": f"/v1/rooms/{code}/quizzes/{quiz}/poster?stage=1"}))
            try:
                await asyncio.wait_for(room["all_loaded"][quiz].wait(), 10)
            except asyncio.TimeoutError:
                pass
            broadcast(sockets(), clock("quizStarted", quiz, 1))
            for stage in range(2, 6):
                await asyncio.sleep(FLOOR_STAGE_S)
                broadcast(sockets(), clock("stageRevealed", quiz, stage))
            await asyncio.sleep(FLOOR_END_S)
            # The first ten lines, as a large room sends (a room of 10 has no more).
            scoreboard = [{"player": i + 1, "name": name, "score": 0}
                          for i, (_, name) in enumerate(room["players"][:10])]
            broadcast(sockets(), json.dumps({
                "v": 1, "type": "quizEnded", "quiz": quiz, "quizCount": 25, "answerTitle": titles[quiz],
                "answerYear": "1927", "ending": "timeUp", "solvers": [], "scoreboard": scoreboard,
                "nextQuizInMs": 8000, "serverTime": int(time.monotonic() * 1000),
                "posterURL": f"/v1/rooms/{code}/quizzes/{quiz}/poster"}))
            await asyncio.sleep(FLOOR_INTERLUDE_S)

    async def handler(ws):
        code = ws.request.path.split("/")[3]
        room = rooms[code]
        async for raw in ws:
            message = json.loads(raw)
            kind = message["type"]
            if kind == "join":
                room["players"].append((ws, message["name"]))
                await ws.send(json.dumps({"v": 1, "type": "welcome", "code": code, "player": len(room["players"]),
                                          "resumeToken": "x" * 43, "seatHoldMs": 90000}))
                # A large room's lobby is not the measure: the joiner alone hears it (not a square of messages).
                lobby_to = [w for w, _ in room["players"]] if len(room["players"]) <= 50 else [ws]
                broadcast(lobby_to, json.dumps(lobby(room)))
            elif kind == "screen":
                room["screens"].append(ws)
                await ws.send(json.dumps({"v": 1, "type": "screenWelcome", "code": code, "token": "x" * 43}))
            elif kind == "start":
                asyncio.get_running_loop().create_task(run(code))
            elif kind == "loaded":
                room["loaded"][message["quiz"]] += 1
                if room["loaded"][message["quiz"]] >= len(room["players"]):
                    room["all_loaded"][message["quiz"]].set()
            elif kind == "guess":
                right = message["text"] == titles[message["quiz"]]
                await ws.send(json.dumps({"v": 1, "type": "guessJudged", "quiz": message["quiz"],
                                          "judgement": "accepted" if right else "wrong"}))
                if right:
                    # A large room tells who solved only to the screens and the solver, as uquiz does.
                    to = [w for w, _ in room["players"]] if len(room["players"]) <= 50 else [ws]
                    broadcast(to + room["screens"], json.dumps(
                        {"v": 1, "type": "solved", "quiz": message["quiz"], "player": 1, "stage": 3}))
            elif kind == "leave":
                await ws.close(1000, "left the room")
                return

    async with serve(handler, "127.0.0.1", 0, compression=None, ping_interval=None, max_queue=None) as server:
        port = server.sockets[0].getsockname()[1]
        print(f"listening on ws://127.0.0.1:{port}", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)


# MARK: - The driver

def cpu_seconds(pid):
    """utime + stime of `pid` so far."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kb(pids):
    """The summed VmRSS and VmHWM of `pids`, in kB."""
    total = collections.Counter()
    for pid in pids:
        with open(f"/proc/{pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
        for key in ("VmRSS", "VmHWM"):
            total[key] += int(fields[key].split()[0])
    return dict(total)


def loadavg():
    return open("/proc/loadavg").read().split()[:3]


def percentile(sorted_values, p):
    """Nearest rank."""
    if not sorted_values:
        return None
    return sorted_values[min(len(sorted_values) - 1, max(0, -(-len(sorted_values) * p // 100) - 1))]


class Workers:
    def __init__(self, players, work, tag):
        self.procs = []
        titles = answers()
        for index in range(WORKERS):
            share = players[index::WORKERS]
            proc = subprocess.Popen([sys.executable, __file__, "worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    text=True, preexec_fn=(lambda: os.nice(CLIENT_NICE)) if CLIENT_NICE else None)
            proc.stdin.write(json.dumps({"players": share, "titles": titles,
                                         "receipts": os.path.join(work, f"{tag}-receipts-{index}.json")}) + "\n")
            proc.stdin.flush()
            self.procs.append(proc)

    @property
    def pids(self):
        return [proc.pid for proc in self.procs]

    def command(self, command):
        for proc in self.procs:
            proc.stdin.write(command + "\n")
            proc.stdin.flush()
        replies = []
        for proc in self.procs:
            line = proc.stdout.readline()
            if not line:
                raise SystemExit(f"a client process ended during {command!r} (exit {proc.wait()})")
            replies.append(json.loads(line))
        return replies

    def stop(self):
        for proc in self.procs:
            try:
                proc.stdin.write("quit\n")
                proc.stdin.close()
            except BrokenPipeError:
                pass
        for proc in self.procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()


def spread_figures(groups):
    """p50/p99/max of last - first over the broadcasts that every player of the room received, in ms; per type too."""
    complete = {key: (max(ts) - min(ts)) / 1e6 for key, ts in groups.items() if len(ts) == PER_ROOM}
    values = sorted(complete.values())
    result = {"p50_ms": percentile(values, 50), "p99_ms": percentile(values, 99),
              "max_ms": values[-1] if values else None, "by_type": {}}
    for kind in RECORDED:
        of_kind = sorted(v for (room, quiz, k, stage), v in complete.items() if k == kind)
        result["by_type"][kind] = {"broadcasts": len(of_kind), "p50_ms": percentile(of_kind, 50),
                                   "p99_ms": percentile(of_kind, 99), "max_ms": of_kind[-1] if of_kind else None}
    # The measure: a stage reaching every player (stage 1 comes with quizStarted, the others with
    # stageRevealed), apart from the announcements around it.
    stages = sorted(v for (room, quiz, k, stage), v in complete.items() if k in ("quizStarted", "stageRevealed"))
    result["stages"] = {"broadcasts": len(stages), "p50_ms": percentile(stages, 50), "p99_ms": percentile(stages, 99),
                        "max_ms": stages[-1] if stages else None}
    # How bunched the rooms' fan-outs of one step were: first receipts of the rooms, last less first.
    firsts = collections.defaultdict(list)
    for (room, quiz, kind, stage), ts in groups.items():
        firsts[(quiz, kind, stage)].append(min(ts))
    result["rooms_within_ms_p50"] = percentile(sorted((max(ts) - min(ts)) / 1e6 for ts in firsts.values()), 50)
    return result


def screen_figures(socket_groups, screen_stamps):
    """Where each room's big screen received a stage (`quizStarted`, `stageRevealed`), against its players' receipts
    at the sockets: the stage's spread with the screen counted as one more receiver, the screen's receipt less the
    room's first, and how often the screen was not within the players' first and last."""
    with_screen, after_first, outside = [], [], 0
    for key, screen_at in screen_stamps.items():
        ts = socket_groups.get(key, [])
        if key[2] not in ("quizStarted", "stageRevealed") or len(ts) != PER_ROOM:
            continue
        first, last = min(ts), max(ts)
        with_screen.append((max(last, screen_at) - min(first, screen_at)) / 1e6)
        after_first.append((screen_at - first) / 1e6)
        outside += not first <= screen_at <= last
    with_screen.sort()
    after_first.sort()
    return {"stages": len(with_screen), "outside_players": outside,
            "spread_with_screen": {"p50_ms": percentile(with_screen, 50), "p99_ms": percentile(with_screen, 99),
                                   "max_ms": with_screen[-1] if with_screen else None},
            "screen_after_first": {"p50_ms": percentile(after_first, 50), "p99_ms": percentile(after_first, 99),
                                   "max_ms": after_first[-1] if after_first else None}}


def spreads(receipt_files):
    """Per broadcast (room, quiz, type, stage): last receipt - first among the room's players, on the kernel's receive
    timestamps ("socket") and on the client's reads ("read"); how many broadcasts were not received by all; where the
    big screens received the stages; and how long each guess took to be judged."""
    socket_groups, read_groups = collections.defaultdict(list), collections.defaultdict(list)
    screen_stamps, acks = {}, []
    for path in receipt_files:
        recorded = json.load(open(path))
        acks += recorded["acks"]
        for room, quiz, kind, stage, kernel_at, read_at, seat in recorded["receipts"]:
            if kernel_at == 0:
                raise SystemExit("a receipt has no kernel timestamp (SO_TIMESTAMPNS)")
            if seat == SCREEN_SEAT:
                screen_stamps[(room, quiz, kind, stage)] = kernel_at
                continue
            socket_groups[(room, quiz, kind, stage)].append(kernel_at)
            read_groups[(room, quiz, kind, stage)].append(read_at)
    acks.sort()
    return {"broadcasts": sum(1 for ts in read_groups.values() if len(ts) == PER_ROOM),
            "incomplete": sum(1 for ts in read_groups.values() if len(ts) != PER_ROOM),
            "receipts": sum(len(ts) for ts in read_groups.values()),
            "socket": spread_figures(socket_groups), "read": spread_figures(read_groups),
            "screens": screen_figures(socket_groups, screen_stamps) if screen_stamps else None,
            "guess_acks": {"guesses": len(acks), "p50_ms": percentile(acks, 50), "p99_ms": percentile(acks, 99),
                           "max_ms": acks[-1] if acks else None}}


def drive(name, players, server_pids, work, tag, out):
    """Runs the players through their rooms; the figures."""
    results = {"name": name, "rooms": ROOMS, "players": sum(1 for p in players if not p["screen"]),
               "screens": sum(1 for p in players if p["screen"]), "quizzes": QUIZZES, "workers": WORKERS,
               "loadavg_before": loadavg()}
    workers = Workers(players, work, tag)
    try:
        started = time.monotonic()
        replies = workers.command("hosts")
        errors = [e for r in replies for e in r["errors"]]
        if errors:
            raise SystemExit(f"{name}: hosts could not join: {errors[:3]}")
        if SCREENS:
            replies = workers.command("screens")
            errors = [e for r in replies for e in r["errors"]]
            if errors:
                raise SystemExit(f"{name}: screens could not open: {errors[:3]}")
        replies = workers.command("others")
        errors = [e for r in replies for e in r["errors"]]
        if errors:
            raise SystemExit(f"{name}: players could not join: {errors[:3]}")
        results["connected_in_seconds"] = time.monotonic() - started
        # The lobby messages of the last joins settle.
        time.sleep(2)
        results["rss_connected_kb"] = rss_kb(server_pids)
        server_cpu = sum(cpu_seconds(pid) for pid in server_pids)
        client_cpu = sum(cpu_seconds(pid) for pid in workers.pids)
        profiler = None
        if os.environ.get("ROOMS_BENCH_PERF") and tag != "floor":
            # Where the server's CPU of the play goes: perf samples of its processes, with call graphs.
            profiler = subprocess.Popen(["perf", "record", "-F", "499", "-g", "-o", os.environ["ROOMS_BENCH_PERF"],
                                         "-p", ",".join(map(str, server_pids))],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        started = time.monotonic()
        replies = workers.command("start")
        wall = time.monotonic() - started
        if profiler:
            profiler.send_signal(signal.SIGINT)
            profiler.wait()
        results["play_seconds"] = wall
        results["server_cpu_seconds"] = sum(cpu_seconds(pid) for pid in server_pids) - server_cpu
        results["client_cpu_seconds"] = sum(cpu_seconds(pid) for pid in workers.pids) - client_cpu
        results["rss_after_kb"] = rss_kb(server_pids)
        results["loadavg_after"] = loadavg()
        failed = sum(r["failed"] for r in replies)
        counts = collections.Counter()
        for r in replies:
            counts.update(r["counts"])
        results["client_counts"] = dict(sorted(counts.items()))
        if failed:
            failures = [f for r in replies for f in r["failures"]]
            raise SystemExit(f"{name}: {failed} players did not finish: {failures[:5]}")
        results["spread"] = spreads([r["receipts"] for r in replies])
    finally:
        workers.stop()
    s = results["spread"]
    figures = lambda f: f"p50 {f['p50_ms']:.3f} ms, p99 {f['p99_ms']:.3f} ms, max {f['max_ms']:.3f} ms"
    screens = s["screens"]
    screen_text = (f"; stages with the screen {figures(screens['spread_with_screen'])}, screen after the first "
                   f"{figures(screens['screen_after_first'])}, {screens['outside_players']} of {screens['stages']} "
                   "outside the players'") if screens else ""
    acks = s["guess_acks"]
    log(f"{name}: {s['broadcasts']} broadcasts ({s['incomplete']} not received by all), spread at the sockets "
        f"{figures(s['socket'])}, of a stage {figures(s['socket']['stages'])}, at the client's reads "
        f"{figures(s['read'])}{screen_text}; {acks['guesses']} guesses judged in "
        + (figures(acks) if acks["guesses"] else "-") + "; "
        f"server CPU {results['server_cpu_seconds']:.1f} s in "
        f"{results['play_seconds']:.1f} s; clients {results['client_cpu_seconds']:.1f} s; {results['client_counts']}")
    return results


def uquiz(name, out, pids, urls):
    spec = importlib.util.spec_from_file_location(
        "server_bench", os.path.join(os.path.dirname(__file__), "server-bench.py"))
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    client = bench.Client(urls[0])
    idle = rss_kb(pids)
    started = time.monotonic()
    tokens = [bench.new_player(client, f"R{room} P{seat}") for room in range(ROOMS) for seat in range(PER_ROOM)]
    made_players_in = time.monotonic() - started
    # Before any room: the players exist (in the database) and the server has answered 1,000 requests.
    before = rss_kb(pids)
    codes = []
    for room in range(ROOMS):
        opened = json.loads(client.call("POST", "/v1/rooms", {"shareCode": SHARE_CODE}, token=tokens[room * PER_ROOM],
                                        expect=(201,)))
        codes.append(opened["code"])
    rooms_opened = rss_kb(pids)
    players = []
    for room, code in enumerate(codes):
        for seat in range(PER_ROOM):
            # The host on the first instance, the others alternating between all of them.
            base = urls[0] if seat == 0 else urls[seat % len(urls)]
            players.append({"room": room, "seat": seat, "host": seat == 0, "screen": False, "name": f"R{room} P{seat}",
                            "token": tokens[room * PER_ROOM + seat], "url": ws_url(base, f"/v1/rooms/{code}/ws")})
        if SCREENS:
            # On the instance holding the room, with the host's token.
            players.append({"room": room, "seat": SCREEN_SEAT, "host": False, "screen": True, "name": None,
                            "token": tokens[room * PER_ROOM], "url": ws_url(urls[0], f"/v1/rooms/{code}/ws")})

    work = os.path.dirname(os.path.abspath(out))
    results = drive(name, players, pids, work, "uquiz", out)
    results.update({"instances": len(urls), "share_code": SHARE_CODE, "rss_idle_kb": idle,
                    "rss_before_rooms_kb": before,
                    "rss_rooms_opened_kb": rooms_opened, "players_made_in_seconds": made_players_in})
    json.dump(results, open(out, "w"), indent=1)


def floor(out):
    server = subprocess.Popen([sys.executable, __file__, "floor-server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)
    try:
        line = server.stdout.readline()
        if not line.startswith("listening on "):
            raise SystemExit(f"the floor server did not start: {line!r}")
        base = line.split()[-1]
        seats = list(range(PER_ROOM)) + ([SCREEN_SEAT] if SCREENS else [])
        players = [{"room": room, "seat": seat, "host": seat == 0, "screen": seat == SCREEN_SEAT,
                    "name": f"R{room} P{seat}", "token": None, "url": f"{base}/v1/rooms/F{room:03d}/ws"}
                   for room in range(ROOMS) for seat in seats]
        before = rss_kb([server.pid])
        results = drive("floor", players, [server.pid], os.path.dirname(os.path.abspath(out)), "floor", out)
        results["rss_before_rooms_kb"] = before
        results["cadence_s"] = {"stage": FLOOR_STAGE_S, "end": FLOOR_END_S, "interlude": FLOOR_INTERLUDE_S}
        json.dump(results, open(out, "w"), indent=1)
    finally:
        server.stdin.close()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "worker":
        asyncio.run(worker())
    elif mode == "floor-server":
        asyncio.run(floor_server())
    elif mode == "floor" and len(sys.argv) == 3:
        floor(sys.argv[2])
    elif mode == "uquiz" and len(sys.argv) >= 6:
        uquiz(sys.argv[2], sys.argv[3], [int(pid) for pid in sys.argv[4].split(",")], sys.argv[5:])
    else:
        raise SystemExit(__doc__)
