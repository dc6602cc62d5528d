"""What the browser tests share: the real `uquiz serve` in a sandbox, a one-quiz package published on it, and chromium.

The server runs on a free loopback port with a fresh database in a temporary folder. A one-quiz package is published
through the API first (Metropolis, whose public-domain poster travels in the seed bundle), so a whole play takes the
server's 3 s interlude and a few seconds of stages. Each test module opens one `Session` in setUpModule and closes it in
tearDownModule.
"""

import json
import os
import re
import select
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

REPOSITORY = Path(__file__).resolve().parents[2]
UQUIZ = os.environ.get("UQUIZ_BIN", str(REPOSITORY / ".build/debug/uquiz"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = REPOSITORY / ".build-web"
SCREENSHOTS = ARTIFACTS / "screenshots"

# The published quiz: beginner (5 stages of 2 s), areas stage by stage as (row, column) centres of 5 x 5 cell blocks on
# the 50 x 75 grid. They sit where Metropolis's poster is not black, so a revealed area is told from a hidden one.
AREAS = [[35, 9], [24, 38], [53, 26], [66, 14], [7, 22]]
STAGE_MS = 2000
COLUMNS, ROWS = 50, 75
ANSWER = "Metropolis"
WRONG_GUESS = "Not a film at all"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
WAIT_MS = 20_000


def sandbox_environment(folder):
    """The environment of a `uquiz` process whose home, configuration, data and cache are all under `folder`."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(folder),
        "XDG_CONFIG_HOME": str(folder / "config"),
        "XDG_DATA_HOME": str(folder / "data"),
        "XDG_CACHE_HOME": str(folder / "cache"),
        "LANG": "C.UTF-8",
    }


def first_line(process, name, timeout):
    """The first line a server process prints (where it listens), waited for at most `timeout` seconds."""
    deadline = time.monotonic() + timeout
    line = b""
    while not line.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([process.stdout], [], [], left)[0]:
            raise RuntimeError(f"{name} did not say where it listens")
        # Unbuffered: a buffered read could take more than the line, and select would not see it.
        byte = os.read(process.stdout.fileno(), 1)
        if not byte:
            raise RuntimeError(f"{name} exited before listening")
        line += byte
    return line.decode().strip()


class Server:
    """`uquiz serve --port 0` in a sandbox; the first line it prints says where it listens."""

    def __init__(self, arguments=(), environment_extra=None):
        self.folder = Path(tempfile.mkdtemp(prefix="uquiz-web-"))
        environment = sandbox_environment(self.folder)
        # TMDB is unreachable, whatever this machine's network (its image server is a port nothing listens on), unless
        # a test points the server at a fake TMDB.
        environment["UQUIZ_TMDB_IMAGE_URL"] = "http://127.0.0.1:9"
        environment.update(environment_extra or {})
        self.environment, self.arguments = environment, arguments
        self.log = open(self.folder / "server.log", "wb")
        self.start()

    def start(self):
        self.process = subprocess.Popen(
            [UQUIZ, "serve", "--host", "127.0.0.1", "--port", "0", "--db", str(self.folder / "uquiz.sqlite"),
             *self.arguments],
            stdout=subprocess.PIPE, stderr=self.log, stdin=subprocess.DEVNULL, env=self.environment)
        try:
            line = first_line(self.process, "uquiz serve", timeout=120)
        except Exception:
            self.stop()
            raise
        match = re.fullmatch(r"listening on (http://127\.0\.0\.1:\d+)", line)
        if not match:
            self.stop()
            raise RuntimeError(f"unexpected first line from uquiz serve: {line!r}")
        self.base_url = match.group(1)

    def request(self, method, path, body=None, token=None, headers=None):
        """One API request: (status, headers, bytes as sent: not decompressed)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base_url + path, data=data, method=method, headers=headers or {})
        if body is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read()

    def publish(self, maker, spec):
        """Publishes `spec` as a new player named `maker`: the package's share code."""
        status, _, body = self.request("POST", "/v1/players", {"name": maker})
        assert status == 201, body
        token = json.loads(body)["token"]
        status, _, body = self.request("POST", "/v1/packages", spec, token)
        assert status == 201, body
        return json.loads(body)["shareCode"]

    def restart(self, while_stopped=lambda database: None):
        """Stops the server, hands its SQLite file's path to `while_stopped`, and starts it again on the same file (on
        another port)."""
        self.process.terminate()
        self.process.wait(timeout=30)
        while_stopped(self.folder / "uquiz.sqlite")
        self.start()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)
        self.log.close()
        shutil.rmtree(self.folder, ignore_errors=True)


# What a person sees at an element's centre: "seen" when it is inside the viewport and not covered by anything (the
# topmost element there is it or inside it), else what is in the way.
SEEN_AT_CENTRE = """
(element) => {
  const box = element.getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  if (box.width === 0 || box.height === 0) return 'not laid out';
  if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return `outside the viewport at ${x},${y}`;
  const top = document.elementFromPoint(x, y);
  if (top && (top === element || element.contains(top))) return 'seen';
  return `covered by ${top ? top.tagName + '#' + top.id + '.' + top.className : 'nothing'}`;
}
"""


def assert_seen(test, locator, what):
    test.assertEqual(locator.evaluate(SEEN_AT_CENTRE), "seen", what)


def assert_poster_bottom_seen(test, page, what):
    """The poster's bottom edge is not covered (by the dock, above all): the last row of cells is seen."""
    test.assertEqual(page.locator("#poster").evaluate("""(poster) => {
      const box = poster.getBoundingClientRect();
      const top = document.elementFromPoint(box.left + box.width / 2, box.bottom - 2);
      return top === poster || poster.parentNode.contains(top) ? 'seen' : `covered by ${top?.id}`;
    }"""), "seen", what)


def read_qr(locator):
    """The text of the QR code `locator` shows, read from a screenshot of it by zbarimg (Debian's zbar-tools), as a
    phone's camera would."""
    folder = Path(tempfile.mkdtemp(prefix="uquiz-qr-"))
    try:
        picture = folder / "qr.png"
        # Its picture decoded first: an image in the page may be laid out before it is drawn.
        locator.evaluate("(image) => image.decode()")
        # A camera looks again when a frame does not read; so does this, for up to about 3 s, with the page's CSS
        # animations finished (a screen's entrance moves what is around the code; on a loaded machine the page may
        # still be settling when the first frames are taken).
        for _ in range(12):
            locator.screenshot(path=str(picture), animations="disabled")
            result = subprocess.run(
                ["zbarimg", "--quiet", "--raw", str(picture)], capture_output=True, text=True, timeout=30)
            text = result.stdout.strip()
            if text:
                return text
            locator.evaluate("() => new Promise((done) => setTimeout(() => requestAnimationFrame(done), 250))")
        # Kept for whoever looks into it: the last picture that did not read, and what zbarimg said.
        kept = Path(__file__).resolve().parents[2] / ".build-web" / "qr-unread.png"
        kept.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(picture, kept)
        raise AssertionError(
            f"no QR code read from {kept} (zbarimg exit {result.returncode}: {result.stderr.strip() or 'nothing said'})")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class FakeTMDB:
    """The repository's `fake-tmdb` on a free loopback port, serving `movies` (TMDB's JSON shape, snake case) with one
    bundled poster's JPEG standing in for all their images; `environment` points a `uquiz serve` at it."""

    def __init__(self, movies):
        self.folder = Path(tempfile.mkdtemp(prefix="uquiz-fake-tmdb-"))
        catalog = self.folder / "movies.json"
        catalog.write_text(json.dumps(movies))
        self.process = subprocess.Popen(
            [str(Path(UQUIZ).with_name("fake-tmdb")), "--port", "0", "--catalog", str(catalog),
             "--stand-in-poster", str(REPOSITORY / "Seed/posters/metropolis-1927.jpg")],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        try:
            line = first_line(self.process, "fake-tmdb", timeout=60)
        except Exception:
            self.stop()
            raise
        match = re.fullmatch(r"listening on (127\.0\.0\.1:\d+)", line)
        if not match:
            self.stop()
            raise RuntimeError(f"unexpected first line from fake-tmdb: {line!r}")
        address = match.group(1)
        self.environment = {
            "UQUIZ_TMDB_API_URL": f"http://{address}/3", "UQUIZ_TMDB_IMAGE_URL": f"http://{address}/t/p",
            "TMDB_API_KEY": "fake-key-for-tests",
        }

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)
        shutil.rmtree(self.folder, ignore_errors=True)


class Session:
    """The server with the one-quiz package published, and chromium."""

    def __init__(self, environment_extra=None, arguments=()):
        # Every page is another person whose guest player is made from this one address, more of them, and faster,
        # than the default `players-per-address` (10, then one every 6 s) lets one address make.
        self.server = Server(
            arguments=["--limit", "players-per-address=1000/1", *arguments], environment_extra=environment_extra)
        self.playwright = None
        self.browser = None
        self.package_title = "Web test: one silent classic"
        try:
            self.share_code = self.server.publish("Web maker", {
                "format": 1, "title": self.package_title, "level": "beginner", "language": "en",
                "quizzes": [{"movie": 19, "areas": AREAS}],
            })
            self.playwright = sync_playwright().start()
            # Root (a CI container) cannot use chromium's sandbox.
            arguments = ["--no-sandbox"] if os.geteuid() == 0 else []
            self.browser = self.playwright.chromium.launch(executable_path=CHROMIUM, args=arguments)
        except Exception:
            self.close()
            raise

    def new_page(self, test, viewport, locale="en-US", how_to_seen=True):
        """A page in a browser context of its own (its own storage: another person), closed when `test` ends. Unless
        `how_to_seen` is false, the person has seen "How to play" already, so that the first play does not open it."""
        context = self.browser.new_context(
            viewport=viewport, locale=locale, base_url=self.server.base_url,
            is_mobile=viewport is PHONE, has_touch=viewport is PHONE)
        test.addCleanup(context.close)
        if how_to_seen:
            # Before the page's scripts, in every page of the context (about:blank has no storage to set).
            context.add_init_script("try { localStorage.setItem('uquiz.howto.seen', '1'); } catch {}")
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        return page

    def close(self):
        if self.browser:
            self.browser.close()
        if self.playwright:
            self.playwright.stop()
        self.server.stop()
