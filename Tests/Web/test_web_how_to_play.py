""""How to play" (Web/assets/howto.js) in a real chromium against the real `uquiz serve`: shown once, before the first
play this browser starts (before the play is made, so reading it costs no time on the server's clock) or in a live
room's lobby, and again from the "?" of every play screen. At a phone's size and a desktop's, each part of it is in the
viewport and not covered once scrolled to, and Escape or Close closes it. Nothing sleeps: every wait is for what the
page shows.
"""

import re
import unittest
from urllib.parse import urlsplit

from playwright.sync_api import expect

from harness import ANSWER, AREAS, DESKTOP, PHONE, SCREENSHOTS, Session, assert_seen

session = None

SHORT_PHONE = {"width": 390, "height": 480}

# What the dialog says, word for word, after its heading "How to play": the rules as the server applies them.
SECTIONS = [
    ("The poster", "A black poster shows one area at a time: a new one every 2 s (3 s at expert), up to 5 areas at "
     "beginner, 4 at intermediate, 3 at expert. A quiz lasts 20 s on the server\u2019s clock, which never pauses."),
    ("Your guess", "Type the title and press Enter, or pick a suggested title. The server judges it: case, accents and "
     "punctuation do not matter, the original title and other accepted names count too, and a wrong guess costs "
     "nothing."),
    ("Points", "A right answer scores 100, plus 20 for each area still hidden and up to 100 for the time left. A quiz "
     "skipped or out of time scores 0."),
    ("Hint", "The hint shows the title\u2019s first letters (T__ S____ 2), or a Korean title\u2019s initial consonants "
     "(\u3131\u3145\u314a), and halves the quiz\u2019s points."),
    ("Skip", "Skipping gives the quiz up for 0 points and shows its answer. In a live room only the host skips, for "
     "everyone."),
    ("Ranking", "Only your first play of a package ranks on its leaderboard, and not if you made the package or saw one "
     "of its answers before (in a play, a daily quiz or a live room). The daily quiz counts for your streak instead."),
]


def setUpModule():
    global session
    session = Session()


def tearDownModule():
    if session:
        session.close()


def starts_a_play(request):
    """Whether `request` makes a play (a package's or a daily one: `POST .../plays`, whatever its query)."""
    return request.method == "POST" and urlsplit(request.url).path.endswith("/plays")


def stage_shown(page, stage):
    # Selectors, not wait_for_function: the page's Content-Security-Policy forbids the eval that one needs.
    page.wait_for_selector(",".join(f'#poster[data-stage="{k}"]' for k in range(stage, len(AREAS) + 1)))


class HowToPlayTests(unittest.TestCase):
    def new_page(self, viewport, locale="en-US"):
        """A person who has not seen "How to play" yet, with the play starts (POSTs to .../plays) their page made."""
        page = session.new_page(self, viewport, locale, how_to_seen=False)
        page.play_starts = []
        page.on("request", lambda request: starts_a_play(request) and page.play_starts.append(request.url))
        return page

    def dialog(self, page, name="How to play"):
        return page.get_by_role("dialog", name=name)

    def assert_read(self, page, what):
        """The dialog is open, says what SECTIONS say, and each of its parts (the heading, each section's title and
        text, Close) is in the viewport and not covered once scrolled to, in order from the top."""
        dialog = self.dialog(page)
        expect(dialog).to_be_visible()
        heading = dialog.get_by_role("heading", name="How to play", exact=True)
        # It opens at its top: the heading is seen without scrolling.
        assert_seen(self, heading, f"{what}: the heading")
        parts = dialog.locator("section")
        expect(parts).to_have_count(len(SECTIONS))
        for index, (title, text) in enumerate(SECTIONS):
            for locator, expected in ((parts.nth(index).locator("h3"), title), (parts.nth(index).locator("p"), text)):
                expect(locator).to_have_text(expected)
                locator.scroll_into_view_if_needed()
                assert_seen(self, locator, f"{what}: {expected[:30]}")
        close = dialog.get_by_role("button", name="Close")
        close.scroll_into_view_if_needed()
        assert_seen(self, close, f"{what}: Close")

    def question_mark(self, page, name="How to play"):
        return page.get_by_role("button", name=name, exact=True)

    def test_the_first_play_says_how_to_play_once_and_the_question_mark_again(self):
        for viewport, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
            with self.subTest(viewport=name):
                page = self.new_page(viewport)
                howto_loads = []
                page.on("request", lambda request: request.url.endswith("/howto.js") and howto_loads.append(request.url))
                page.goto(f"/p/{session.share_code}")
                expect(page.locator("#package-title")).to_have_text(session.package_title)
                # How long it takes, before Start: one quiz, 3 s of pause and 20 s at most.
                length = page.locator("#package-length")
                expect(length).to_have_text(
                    "A play takes at most 1 min: each quiz lasts 20 s at most, after a 3 s pause.")
                assert_seen(self, length, f"how long a play takes, on a {name}")
                self.assertEqual(howto_loads, [], "the package's page does not load howto.js")
                page.get_by_role("button", name="Start").click()

                # Shown before the play is made: the server's clock has not started for it.
                self.assert_read(page, f"the first play at {name}")
                self.assertEqual(page.play_starts, [], "no play is made while the dialog is open")
                if viewport is PHONE:
                    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                    self.dialog(page).evaluate("(dialog) => { dialog.scrollTop = 0; }")
                    page.screenshot(path=str(SCREENSHOTS / "phone-how-to-play.png"))
                # Closing it makes the play, and the answer box has focus for the first quiz.
                with page.expect_request(starts_a_play):
                    self.dialog(page).get_by_role("button", name="Close").click()
                expect(self.dialog(page)).to_be_hidden()
                stage_shown(page, 1)
                expect(page.get_by_label("Your guess")).to_be_focused()

                # During the play, the "?" at the top opens it again; Escape closes it, focus back on the "?".
                question = self.question_mark(page)
                assert_seen(self, question, f"the ? during a play at {name}")
                question.click()
                self.assert_read(page, f"the ? during a play at {name}")
                page.keyboard.press("Escape")
                expect(self.dialog(page)).to_be_hidden()
                expect(question).to_be_focused()

                # The quiz solved, the next play starts at once: no dialog, and howto.js is not even loaded.
                guess = page.get_by_label("Your guess")
                guess.fill(ANSWER)
                guess.press("Enter")
                page.wait_for_selector('#verdict[data-outcome="solved"]')
                with page.expect_navigation():
                    page.get_by_role("button", name="Play again").click()
                howto_loads.clear()
                with page.expect_request(starts_a_play):
                    page.get_by_role("button", name="Start").click()
                stage_shown(page, 1)
                expect(page.locator("dialog")).to_have_count(0)
                self.assertEqual(howto_loads, [], "a later play does not load howto.js")
                assert_seen(self, self.question_mark(page), f"the ? of the second play at {name}")

    def test_on_a_short_phone_the_dialog_scrolls_and_the_question_mark_stays_seen(self):
        page = self.new_page(SHORT_PHONE)
        page.goto(f"/p/{session.share_code}")
        page.get_by_role("button", name="Start").click()
        self.assert_read(page, "the first play at 390 x 480")
        self.dialog(page).get_by_role("button", name="Close").click()
        stage_shown(page, 1)
        assert_seen(self, self.question_mark(page), "the ? at 390 x 480")
        assert_seen(self, page.get_by_label("Your guess"), "the answer box at 390 x 480")
        self.question_mark(page).click()
        self.assert_read(page, "the ? at 390 x 480")
        page.keyboard.press("Escape")
        expect(self.dialog(page)).to_be_hidden()

    def test_the_daily_play_says_it_first_and_has_the_question_mark(self):
        page = self.new_page(PHONE)
        page.goto("/d")
        page.locator("#play-daily").click()
        expect(self.dialog(page)).to_be_visible()
        self.assertEqual(page.play_starts, [], "no daily play is made while the dialog is open")
        # Escape closes it as Close does: the play is made then.
        with page.expect_request(lambda request: starts_a_play(request) and "/v1/daily/" in request.url):
            page.keyboard.press("Escape")
        expect(self.dialog(page)).to_be_hidden()
        stage_shown(page, 1)
        question = self.question_mark(page)
        assert_seen(self, question, "the ? of the daily play")
        question.click()
        self.assert_read(page, "the ? of the daily play")
        self.dialog(page).get_by_role("button", name="Close").click()
        expect(self.dialog(page)).to_be_hidden()
        expect(question).to_be_focused()

    def test_a_live_room_says_it_in_the_lobby_and_never_over_a_quiz(self):
        # The host opens a room from the package's page: the first time, in the lobby.
        host = self.new_page(DESKTOP)
        host.goto(f"/p/{session.share_code}")
        with host.expect_navigation(url=re.compile(r"/r/[2-9A-Z]{4}$")):
            host.get_by_role("button", name="Play with friends").click()
        code = host.url.rsplit("/", 1)[1]
        self.assert_read(host, "the host's lobby")
        host.keyboard.press("Escape")
        expect(self.dialog(host)).to_be_hidden()
        assert_seen(self, host.get_by_role("button", name="Start"), "the host's Start")

        # A friend opening the link sees it over the lobby; closed, focus goes back to the name box.
        friend = self.new_page(PHONE)
        friend.goto(f"/r/{code}")
        self.assert_read(friend, "a friend's lobby on a phone")
        friend.keyboard.press("Escape")
        expect(self.dialog(friend)).to_be_hidden()
        expect(friend.get_by_label("Your name")).to_be_focused()
        friend.get_by_label("Your name").fill("Reader")
        friend.get_by_role("button", name="Join").click()
        expect(friend.locator("#lobby-note")).to_have_text("Waiting for the host to start.")
        expect(self.dialog(friend)).to_be_hidden()

        # The "?" beside the room's heading opens it again in the lobby; left open, it gives way to the quiz.
        question = self.question_mark(friend)
        assert_seen(self, question, "the ? in the lobby on a phone")
        question.click()
        self.assert_read(friend, "the ? in the lobby on a phone")
        host.get_by_role("button", name="Start").click()
        expect(self.dialog(friend)).to_be_hidden()
        stage_shown(friend, 1)
        stage_shown(host, 1)
        self.assertEqual(host.play_starts + friend.play_starts, [], "a room makes no solo play")

        # During the quiz the "?" is still there, on both pages, and opens it when asked.
        assert_seen(self, self.question_mark(host), "the host's ? during the quiz")
        question = self.question_mark(friend)
        assert_seen(self, question, "the friend's ? during the quiz")
        question.click()
        self.assert_read(friend, "the ? during a room's quiz on a phone")
        friend.keyboard.press("Escape")
        expect(self.dialog(friend)).to_be_hidden()
        expect(question).to_be_focused()

    def test_it_speaks_korean_on_a_korean_page(self):
        page = self.new_page(PHONE, locale="ko-KR")
        page.goto(f"/p/{session.share_code}")
        page.get_by_role("button", name="시작").click()
        dialog = self.dialog(page, "게임 방법")
        expect(dialog).to_be_visible()
        expect(dialog.locator("h3")).to_have_text(["포스터", "정답 입력", "점수", "힌트", "건너뛰기", "순위"])
        dialog.get_by_role("button", name="닫기").click()
        expect(dialog).to_be_hidden()
        stage_shown(page, 1)
        assert_seen(self, self.question_mark(page, "게임 방법"), "the ? on a Korean page")


if __name__ == "__main__":
    unittest.main()
