"""Play and room stumbles a new user's walkthrough found on the web, fixed, in a real browser against the real `uquiz
serve`: each test shows what a person sees on a phone (390 x 844), a desktop (1280 x 800) and a small phone with its
keyboard open (390 x 480, which the page's `interactive-widget=resizes-content` makes its whole viewport). Nothing sleeps:
every wait is for what the page shows.
"""

import json
import re
import unittest

from playwright.sync_api import expect

from harness import (
    ANSWER, AREAS, DESKTOP, PHONE, SCREENSHOTS, WAIT_MS, WRONG_GUESS, Session, assert_poster_bottom_seen, assert_seen)

SHORT_PHONE = {"width": 390, "height": 480}
SIZES = {"phone": PHONE, "desktop": DESKTOP, "short phone": SHORT_PHONE}
LONG_TITLE = "Silent Classics of the Twenties, Restored and Collected"
# Every API request of a play (its guesses, its stages' posters, its state): failed as a network error would.
PLAY_REQUESTS = "**/v1/plays/**"

session = None
long_title = None
two_quizzes = None


def setUpModule():
    global session, long_title, two_quizzes
    session = Session()
    long_title = session.server.publish("Web maker", {
        "format": 1, "title": LONG_TITLE, "level": "beginner", "language": "en",
        "quizzes": [{"movie": 19, "areas": AREAS}],
    })
    two_quizzes = session.server.publish("Web maker", {
        "format": 1, "title": f"{LONG_TITLE}: two", "level": "beginner", "language": "en",
        "quizzes": [{"movie": 19, "areas": AREAS}, {"movie": 653, "areas": AREAS}],
    })


def tearDownModule():
    if session:
        session.close()


def stage_shown(page, stage=1):
    """Waits until `page` has drawn stage `stage` of its quiz or a later one."""
    page.wait_for_selector(",".join(f'#poster[data-stage="{k}"]' for k in range(stage, len(AREAS) + 1)))


def start(test, code, viewport):
    page = session.new_page(test, viewport)
    page.goto(f"/p/{code}")
    page.get_by_role("button", name="Start").click()
    stage_shown(page)
    return page


# The text of an element whole on the screen: not cut by its box (no ellipsis, no overflow) and within the viewport.
WHOLE = """
(node) => {
  const range = document.createRange();
  range.selectNodeContents(node);
  const text = range.getBoundingClientRect(), box = node.getBoundingClientRect();
  if (node.scrollWidth > node.clientWidth + 1) return `overflows its box: ${node.scrollWidth} > ${node.clientWidth}`;
  if (text.right > box.right + 1 || text.bottom > box.bottom + 1) return 'cut by its box';
  if (text.left < 0 || text.right > innerWidth) return `outside the viewport: ${text.left}..${text.right}`;
  return 'whole';
}
"""


class GuessWhileTheServerIsAwayTests(unittest.TestCase):
    def cut(self, page):
        cut = lambda route: route.abort()
        page.route(PLAY_REQUESTS, cut)
        return lambda: page.unroute(PLAY_REQUESTS, cut)

    def test_a_guess_typed_while_the_server_is_away_is_sent_when_it_answers(self):
        for name, viewport in SIZES.items():
            with self.subTest(name):
                page = start(self, session.share_code, viewport)
                mend = self.cut(page)
                guess = page.get_by_label("Your guess")
                guess.fill(WRONG_GUESS)
                guess.press("Enter")
                verdict = page.locator("#verdict")
                expect(verdict).to_have_text(
                    f"The server cannot be reached: trying again\u2026 Your guess \u201c{WRONG_GUESS}\u201d goes when it answers.")
                assert_seen(self, verdict, f"the guess kept, on the {name}")
                self.assertEqual(guess.input_value(), WRONG_GUESS, "the guess stays in the box meanwhile")
                # The server answers again: the kept guess is sent, and judged.
                with page.expect_request(lambda request: request.url.endswith("/guesses") and request.method == "POST"):
                    mend()
                expect(verdict).to_have_text(f"\u201c{WRONG_GUESS}\u201d is not it.", timeout=WAIT_MS)
                assert_seen(self, verdict, f"the kept guess judged, on the {name}")
                guess.fill(ANSWER)
                guess.press("Enter")
                page.wait_for_selector('#verdict[data-outcome="solved"]')

    def test_a_guess_kept_for_a_quiz_that_ended_meanwhile_is_said_not_sent(self):
        for name, viewport in SIZES.items():
            with self.subTest(name):
                page = start(self, two_quizzes, viewport)
                mend = self.cut(page)
                guess = page.get_by_label("Your guess")
                guess.fill(ANSWER)
                guess.press("Enter")
                verdict = page.locator("#verdict")
                expect(verdict).to_have_text(re.compile(rf"Your guess \u201c{ANSWER}\u201d goes when it answers\.$"))
                # Quiz 1 ends on the server meanwhile (the same player skips it from elsewhere).
                token = json.loads(page.evaluate("localStorage.getItem('uquiz.player')"))["token"]
                play = page.evaluate(f"sessionStorage.getItem('uquiz.play.{two_quizzes}')")
                status, _, body = session.server.request("POST", f"/v1/plays/{play}/skips", {"quiz": 1}, token)
                self.assertEqual(status, 200, body)
                mend()
                expect(verdict).to_have_text(
                    f"Not sent: quiz 1 ended while the server was away (\u201c{ANSWER}\u201d).", timeout=WAIT_MS)
                assert_seen(self, verdict, f"the guess said not sent, on the {name}")
                self.assertEqual(guess.input_value(), ANSWER, "and still in the box")
                # Quiz 2 goes on; the line stays until something else is said.
                expect(page.locator("#quiz-label")).to_have_text("Quiz 2 of 2", timeout=WAIT_MS)
                stage_shown(page)
                expect(verdict).to_have_text(re.compile(r"^Not sent: quiz 1 ended"))


class ShortScreenAndLongTitleTests(unittest.TestCase):
    def test_the_time_bar_and_the_poster_bottom_stay_above_the_dock_and_the_title_is_whole(self):
        for name, viewport in SIZES.items():
            with self.subTest(name):
                page = start(self, long_title, viewport)
                expect(page.locator("#play-title")).to_have_text(LONG_TITLE)
                self.assertEqual(page.locator("#play-title").evaluate(WHOLE), "whole", f"the title on the {name}")
                for part in ("#play-title", "#quiz-label", "#time-left", "#score-label", ".timebar", "#guess", "#poster"):
                    assert_seen(self, page.locator(part), f"{part} on the {name}")
                for part in ("#quiz-label", "#time-left", "#score-label"):
                    self.assertEqual(page.locator(part).evaluate(WHOLE), "whole", f"{part} on the {name}")
                assert_poster_bottom_seen(self, page, f"the poster's bottom edge on the {name}")
                # A wrong guess's verdict grows nothing over the poster.
                page.get_by_label("Your guess").fill(WRONG_GUESS)
                page.get_by_label("Your guess").press("Enter")
                page.wait_for_selector('#verdict[data-outcome="rejected"]')
                assert_seen(self, page.locator(".timebar"), f"the time bar after a verdict on the {name}")
                assert_poster_bottom_seen(self, page, f"the poster's bottom edge after a verdict on the {name}")
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SCREENSHOTS / f"play-long-title-{viewport['width']}x{viewport['height']}.png"))


class ChartWithNothingToDrawTests(unittest.TestCase):
    def play(self, page, code, how):
        page.goto(f"/p/{code}")
        page.get_by_role("button", name="Start").click()
        stage_shown(page)
        if how == "skip":
            page.get_by_role("button", name="Skip").click()
        else:
            page.get_by_label("Your guess").fill(ANSWER)
            page.get_by_label("Your guess").press("Enter")
        page.locator("#share-line").wait_for()

    def assert_line_of_text(self, page, figure, summary, what):
        expect(figure.locator(".chart-summary")).to_have_text(summary)
        for viewport in (PHONE, DESKTOP):
            page.set_viewport_size(viewport)
            figure.scroll_into_view_if_needed()
            self.assertEqual(figure.locator("svg").count(), 0, f"{what}: no empty drawing")
            assert_seen(self, figure.locator("figcaption strong"), f"{what}'s title at {viewport}")
            # (The caption as a block: the centre of a summary that wraps may fall between its two lines.)
            assert_seen(self, figure.locator("figcaption"), f"{what}'s line at {viewport}")
            self.assertLess(figure.bounding_box()["height"], 5 * 16, f"{what} is a short line, not a box, at {viewport}")
            self.assertEqual(figure.get_by_role("table").count(), 1, f"{what}'s numbers are still read out")

    def test_one_play_or_only_zeros_is_a_line_of_text(self):
        one = session.new_page(self, PHONE)
        self.play(one, long_title, "solve")
        one.goto("/me")
        scores = one.locator("#score-history")
        score = int(re.match(r"(\d+) points", one.locator("#recent-plays .meta").first.text_content()).group(1))
        self.assert_line_of_text(one, scores, f"Your play scored {score}.", "one play's score")

        zeros = session.new_page(self, DESKTOP)
        self.play(zeros, session.share_code, "skip")
        self.play(zeros, long_title, "skip")
        zeros.goto("/me")
        scores = zeros.locator("#score-history")
        self.assert_line_of_text(
            zeros, scores, "Your latest play scored 0; your best of these 2 plays scored 0.", "scores of only zeros")
        self.assertEqual(zeros.locator("#stage-chart").count(), 0, "no chart of solves without one")


class RoomStumbleTests(unittest.TestCase):
    def join(self, code, name, viewport):
        page = session.new_page(self, viewport)
        page.goto(f"/r/{code}")
        page.get_by_label("Your name").fill(name)
        page.get_by_role("button", name="Join").click()
        expect(page.locator("#join-form")).to_be_hidden()
        return page

    def assert_you(self, page, what):
        """The player's own score and rank, seen, as the scoreboard (when one is shown) says them: (score, rank)."""
        you = page.locator("#room-you")
        expect(you).to_have_text(re.compile(r"^You: \d+ points \(#\d+\)$"))
        assert_seen(self, you, what)
        score, rank = (int(n) for n in re.fullmatch(r"You: (\d+) points \(#(\d+)\)", you.text_content()).groups())
        return score, rank

    def test_between_quizzes_the_answer_and_scores_are_above_an_opaque_dock_with_your_score(self):
        host = session.new_page(self, DESKTOP)
        host.goto(f"/p/{two_quizzes}")
        with host.expect_navigation(url=re.compile(r"/r/[2-9A-Z]{4}$")):
            host.get_by_role("button", name="Play with friends").click()
        code = host.url.rsplit("/", 1)[1]
        phone = self.join(code, "Phone friend", PHONE)
        short = self.join(code, "Short friend", SHORT_PHONE)
        pages = {"desktop": host, "phone": phone, "short phone": short}
        for page in pages.values():
            expect(page.locator("#lobby-players li")).to_have_count(3)
        host.get_by_role("button", name="Start").click()

        for name, page in pages.items():
            stage_shown(page)
            expect(page.locator("#room-package")).to_have_text(f"{LONG_TITLE}: two")
            self.assertEqual(page.locator("#room-package").evaluate(WHOLE), "whole", f"the title on the {name}")
            assert_seen(self, page.locator("#quiz-label"), f"the quiz's number on the {name}")
            self.assertEqual(self.assert_you(page, f"your score at the start on the {name}"), (0, 1))
            # Nothing shows through the dock: its background is opaque.
            background = page.locator("#dock").evaluate("(dock) => getComputedStyle(dock).backgroundColor")
            self.assertRegex(background, r"^rgb\(\d+, \d+, \d+\)$", f"an opaque dock on the {name}")
            assert_seen(self, page.locator("#room-game .timebar"), f"the time bar on the {name}")
            assert_poster_bottom_seen(self, page, f"the poster's bottom edge on the {name}")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        phone.screenshot(path=str(SCREENSHOTS / "room-you-playing-phone.png"))

        # The phone solves it: its points count in its line at once.
        phone.get_by_label("Your guess").fill(ANSWER)
        phone.get_by_label("Your guess").press("Enter")
        phone.wait_for_selector('#verdict[data-outcome="solved"]')
        points = int(re.match(r"Right! \+(\d+) points", phone.locator("#verdict").text_content()).group(1))
        self.assertEqual(self.assert_you(phone, "your score once solved")[0], points)

        # The host skips the rest: between quizzes, the answer, who solved it and the scoreboard are seen above the
        # dock, with each player's own line, as the scoreboard says it.
        host.get_by_role("button", name="Skip for all Alt+S", exact=True).click()
        for name, page in pages.items():
            expect(page.locator("#answer-title")).to_have_text("It was Metropolis (1927)")
            expect(page.locator("#countdown")).to_have_text(re.compile(r"^Quiz 2 starts in \d+ s$"))
            assert_seen(self, page.locator("#answer-title"), f"the answer between quizzes on the {name}")
            mine = page.locator("#scoreboard tr.me")
            assert_seen(self, mine, f"your scoreboard line between quizzes on the {name}")
            score, rank = self.assert_you(page, f"your score between quizzes on the {name}")
            cells = mine.locator("td").all_text_contents()
            self.assertEqual((rank, score), (int(cells[0]), int(cells[2])), f"your line is the scoreboard's on the {name}")
            page.screenshot(path=str(SCREENSHOTS / f"room-between-quizzes-{name.replace(' ', '-')}.png"))
        self.assertEqual(self.assert_you(phone, "the phone's score")[:1], (points,))
        self.assertEqual(self.assert_you(host, "the host's score"), (0, 2))

        # Quiz 2 from the top: its poster and time bar in view again, the score still there.
        for name, page in pages.items():
            # After the interlude (8 s) and the loading of quiz 2.
            expect(page.locator("#quiz-label")).to_have_text("Quiz 2 of 2", timeout=WAIT_MS)
            # Any stage of it: the pages are looked at one after another, and a later one may be past stage 1.
            page.wait_for_selector(",".join(
                f'#poster[data-stage="{stage}"]:not([data-whole])' for stage in range(1, len(AREAS) + 1)))
            assert_seen(self, page.locator("#room-game .timebar"), f"quiz 2's time bar on the {name}")
            assert_poster_bottom_seen(self, page, f"quiz 2's poster bottom on the {name}")
            assert_seen(self, page.locator("#quiz-label"), f"quiz 2's number on the {name}")
            self.assert_you(page, f"your score in quiz 2 on the {name}")
        host.get_by_role("button", name="Skip for all Alt+S", exact=True).click()
        for page in pages.values():
            expect(page.locator("#places li")).to_have_count(3)
        self.assertEqual(self.assert_you(phone, "the phone's score at the podium"), (points, 1))


if __name__ == "__main__":
    unittest.main()
