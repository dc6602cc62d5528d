"""A browser and a terminal in one live room (issue 17): the host on the web page `/r/{code}`, a friend in
`uquiz room join CODE --json` (the real binary, a bot's view of the terminal client), both on the real `uquiz serve`.

Every wait is for a condition with a timeout: a JSON line from the terminal, or an element on the page.
"""

import json
import queue
import re
import shutil
import subprocess
import tempfile
import threading
import unittest
from pathlib import Path

from playwright.sync_api import expect

from harness import ANSWER, DESKTOP, UQUIZ, WAIT_MS, Session, sandbox_environment

session = None


def setUpModule():
    global session
    session = Session()


def tearDownModule():
    if session:
        session.close()


class TerminalPlayer:
    """`uquiz room join CODE --json`: every server message is a JSON line on its standard output, read on a thread;
    lines written to its standard input are guesses or commands."""

    def __init__(self, code, name):
        self.folder = Path(tempfile.mkdtemp(prefix="uquiz-web-terminal-"))
        self.process = subprocess.Popen(
            [UQUIZ, "room", "join", code, "--server", session.server.base_url, "--name", name, "--json"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=sandbox_environment(self.folder))
        self.lines = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def wait_for(self, kind, match=lambda message: True):
        """The first message of type `kind` that `match` accepts, from what came and what comes within the wait."""
        for message in self.seen:
            if message.get("type") == kind and match(message):
                return message
        while True:
            line = self.lines.get(timeout=WAIT_MS / 1000)
            if line is None:
                raise AssertionError(f"the terminal ended before a {kind}: {self.process.stderr.read()}")
            message = json.loads(line)
            self.seen.append(message)
            if message.get("type") == kind and match(message):
                return message

    def type_line(self, text):
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            stream.close()
        shutil.rmtree(self.folder, ignore_errors=True)


class BrowserAndTerminalTests(unittest.TestCase):
    def test_a_browser_host_and_a_terminal_friend_play_one_room(self):
        host = session.new_page(self, DESKTOP)
        host.goto(f"/p/{session.share_code}")
        with host.expect_navigation(url=re.compile(r"/r/[2-9A-Z]{4}$")):
            host.get_by_role("button", name="Play with friends").click()
        expect(host.locator("#lobby-players li").first).to_contain_text("host")
        code = host.url.rsplit("/", 1)[1]

        terminal = TerminalPlayer(code, "Terminal friend")
        self.addCleanup(terminal.close)
        welcome = terminal.wait_for("welcome")
        self.assertEqual(welcome["code"], code)
        self.assertEqual(welcome["v"], 1)
        # The page's lobby shows the terminal's player, and the terminal's lobby shows both.
        expect(host.locator("#lobby-players li")).to_have_count(2)
        expect(host.locator("#lobby-players li").nth(1)).to_contain_text("Terminal friend")
        terminal.wait_for("lobby", lambda message: len(message["players"]) == 2)

        host.get_by_role("button", name="Start").click()
        # The terminal answers `loaded` by itself; the quiz starts for both at the server's word.
        started = terminal.wait_for("quizStarted")
        self.assertEqual((started["quiz"], started["stage"]), (1, 1))
        host.wait_for_selector('#poster[data-stage="1"], #poster[data-stage="2"], #poster[data-stage="3"]')

        # The terminal's friend solves it by typing the title; the page sees who solved it, never what was typed.
        terminal.type_line(ANSWER)
        judged = terminal.wait_for("guessJudged")
        self.assertEqual(judged["judgement"], "accepted")
        friend = welcome["player"]
        expect(host.locator("#solved-notices li")).to_have_text(re.compile(r"^Terminal friend solved it at stage \d\.$"))
        terminal.wait_for("solved", lambda message: message["player"] == friend)

        # The host solves it on the page: everyone has, so the quiz ends and the podium follows on both.
        host.get_by_label("Your guess").fill(ANSWER)
        host.get_by_label("Your guess").press("Enter")
        ended = terminal.wait_for("quizEnded")
        self.assertEqual(ended["answerTitle"], "Metropolis")
        self.assertEqual(ended["ending"], "everyoneSolved")
        podium = terminal.wait_for("podium")
        self.assertIn("Terminal friend", [place["name"] for place in podium["places"]])
        self.assertEqual(len(podium["places"]), 2)
        self.assertTrue(all(place["shareLine"].startswith(f"UQuiz {session.share_code} 1/1") for place in podium["places"]))
        expect(host.locator("#places li")).to_have_count(2)
        expect(host.locator("#places li", has_text="Terminal friend")).to_have_count(1)
        # The podium ends the terminal's room: it leaves with status 0.
        self.assertEqual(terminal.process.wait(timeout=WAIT_MS / 1000), 0)


if __name__ == "__main__":
    unittest.main()
