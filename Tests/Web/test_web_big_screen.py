"""A room's big screen (`/r/{code}/screen`) at a TV's sizes, phones that join by scanning its QR code (read back from a
screenshot with zbarimg, from Debian's zbar-tools), one of them an answer pad without the poster, two quizzes to the
podium; a screen that is neither the host's nor opened with the host's pass, refused; and a large room's phones,
answer pads from the start.

The package is two public-domain quizzes whose posters travel in the seed bundle (Metropolis, Nosferatu), beginner:
a stage every 2 s. Nothing sleeps; every wait is for a condition, with a timeout. Its pictures (the big screen's, in
README) go to .build-web/screenshots.
"""

import re
import unittest

from playwright.sync_api import expect

from harness import ANSWER, AREAS, PHONE, SCREENSHOTS, WRONG_GUESS, Server, Session, assert_seen, read_qr

TV = {"width": 1920, "height": 1080}
SMALL_TV = {"width": 1280, "height": 720}
SECOND_ANSWER = "Nosferatu"

session = None
share_code = None


def setUpModule():
    global session, share_code
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    session = Session()
    share_code = session.server.publish("Quiz night host", {
        "format": 1, "title": "Quiz night: two silent classics", "level": "beginner", "language": "en",
        "quizzes": [{"movie": 19, "areas": AREAS}, {"movie": 653, "areas": AREAS}],
    })


def tearDownModule():
    if session:
        session.close()


def text_in_view(page):
    """Everything the page shows, as one string."""
    return page.locator("main").inner_text()


class BigScreenTests(unittest.TestCase):
    def open_room(self):
        """The host, on a phone: the package's page, then "Play with friends"."""
        host = session.new_page(self, PHONE)
        host.goto(f"/p/{share_code}")
        with host.expect_navigation(url=re.compile(r"/r/[2-9A-Z]{4}$")):
            host.get_by_role("button", name="Play with friends").click()
        expect(host.locator("#lobby-players li").first).to_contain_text("host")
        return host, host.url.rsplit("/", 1)[1]

    def join(self, url, name):
        page = session.new_page(self, PHONE)
        page.goto(url)
        page.get_by_label("Your name").fill(name)
        page.get_by_role("button", name="Join").click()
        expect(page.locator("#join-form")).to_be_hidden()
        return page

    def test_a_quiz_night_from_the_qr_code_to_the_podium(self):
        host, code = self.open_room()
        # "Show on a big screen": a new tab of the host's browser, which holds the host's token.
        with host.context.expect_page() as opened:
            host.get_by_role("button", name="Show on a big screen").click()
        screen = opened.value
        screen.set_default_timeout(20_000)
        screen.set_viewport_size(TV)
        screen.wait_for_url(re.compile(rf"/r/{code}/screen$"))
        expect(screen.locator("#screen-code")).to_have_text(code)
        assert_seen(self, screen.locator("#screen-code"), "the room code on the TV")
        assert_seen(self, screen.locator("#screen-qr"), "the QR code on the TV")
        expect(screen.locator("#screen-player-count")).to_have_text("Players: 1")

        # Two phones scan the screen's QR code and open what it says.
        link = read_qr(screen.locator("#screen-qr"))
        self.assertEqual(link, f"{session.server.base_url}/r/{code}")
        ada = self.join(link, "Ada")
        bo = self.join(link, "Bo")
        expect(screen.locator("#screen-players li")).to_have_count(3)
        expect(screen.locator("#screen-players")).to_contain_text("Ada")
        expect(screen.locator("#screen-players")).to_contain_text("Bo")

        # Teams: the host turns two on, Ada and Bo pick theirs; the host, who picks none, gets one at the start.
        host.get_by_label("Teams").select_option("2")
        ada.get_by_role("button", name="Team 1").click()
        bo.get_by_role("button", name="Team 2").click()
        expect(bo.get_by_role("button", name="Team 2")).to_have_attribute("aria-pressed", "true")
        columns = screen.locator("#screen-players .screen-team")
        expect(columns).to_have_count(3)
        expect(columns.nth(0)).to_contain_text("Team 1")
        expect(columns.nth(0)).to_contain_text("Ada")
        expect(columns.nth(1)).to_contain_text("Bo")
        screen.screenshot(path=str(SCREENSHOTS / "web-big-screen-lobby.png"))
        # The host's own lobby shows the QR code too.
        host.locator("#room-qr").scroll_into_view_if_needed()
        assert_seen(self, host.locator("#room-qr"), "the QR code on the host's phone")

        # Bo watches the big screen: his phone is an answer pad, and never fetches a poster.
        posters_fetched_by_bo = []
        bo.on("request", lambda request: "/poster" in request.url and posters_fetched_by_bo.append(request.url))
        bo.locator("#lobby .pad-toggle").click()
        expect(bo.locator("#lobby .pad-toggle")).to_have_attribute("aria-pressed", "true")

        host.get_by_role("button", name="Start").click()
        screen.wait_for_selector('#screen-poster[data-stage="1"], #screen-poster[data-stage="2"]')
        expect(screen.locator("#screen-quiz")).to_have_text("Quiz 1 of 2")
        expect(screen.locator("#screen-answered")).to_have_text("0 of 3 answered")
        assert_seen(self, screen.locator("#screen-poster"), "the poster on the TV")
        assert_seen(self, screen.locator("#screen-time"), "the seconds left on the TV")

        # A wrong guess counts as answered on the screen; what was typed is never shown there.
        ada.get_by_label("Your guess").fill(WRONG_GUESS)
        ada.get_by_label("Your guess").press("Enter")
        expect(screen.locator("#screen-answered")).to_have_text("1 of 3 answered")
        screen.screenshot(path=str(SCREENSHOTS / "web-big-screen-quiz.png"))

        # Bo solves on his answer pad: no poster there, the time and the box large and in view. He answers at stage 4
        # or later (at most 100 + 20 + 70 points), so that Ada, answering quiz 2 by its third stage (at least
        # 100 + 40 + 70), passes him however long this machine takes between steps.
        screen.wait_for_selector('#screen-poster[data-stage="4"], #screen-poster[data-stage="5"]')
        expect(bo.locator("#poster")).to_be_hidden()
        assert_seen(self, bo.locator("#time-left"), "the seconds left on the answer pad")
        bo.get_by_label("Your guess").fill(ANSWER)
        bo.get_by_label("Your guess").press("Enter")
        expect(bo.locator("#verdict")).to_contain_text("Right!")
        assert_seen(self, bo.locator("#verdict"), "the verdict on the answer pad")
        bo.screenshot(path=str(SCREENSHOTS / "web-answer-pad-phone.png"))
        expect(screen.locator("#screen-answered")).to_have_text("2 of 3 answered")
        expect(screen.locator("#screen-solved-count")).to_have_text("1 solved")
        expect(screen.locator("#screen-solved")).to_contain_text("Bo solved it at stage")
        shown = text_in_view(screen)
        self.assertNotIn(WRONG_GUESS, shown)
        self.assertNotIn(ANSWER, shown, "no answer on the screen before the quiz ends")

        # The host skips: the screen shows the answer, the whole poster, who solved it and the board.
        host.get_by_role("button", name="Skip for all").click()
        expect(screen.locator("#screen-answer")).to_contain_text(ANSWER)
        screen.wait_for_selector('#screen-poster[data-whole="true"]')
        expect(screen.locator("#screen-solvers")).to_contain_text("Bo: stage")
        expect(screen.locator("#screen-scoreboard tbody tr").first).to_contain_text("Bo")
        expect(screen.locator("#screen-scoreboard .screen-change")).to_have_text(["", "", ""], timeout=1000)
        # The teams' board: Bo's team first.
        expect(screen.locator("#screen-team-board tbody tr").first).to_contain_text("Team 2")
        expect(host.locator("#team-scoreboard tbody tr").first).to_contain_text("Team 2")
        assert_seen(self, screen.locator("#screen-answer"), "the answer on the TV")
        screen.set_viewport_size(SMALL_TV)
        assert_seen(self, screen.locator("#screen-scoreboard"), "the scoreboard on a 720p screen")
        assert_seen(self, screen.locator("#screen-poster"), "the whole poster on a 720p screen")
        screen.screenshot(path=str(SCREENSHOTS / "web-big-screen-answer-720p.png"))
        screen.set_viewport_size(TV)

        # Quiz 2: Ada solves it and moves up; the host skips to the podium.
        expect(screen.locator("#screen-quiz")).to_have_text("Quiz 2 of 2", timeout=30_000)
        screen.wait_for_selector('#screen-poster[data-stage="1"], #screen-poster[data-stage="2"], #screen-poster[data-stage="3"]')
        ada.get_by_label("Your guess").fill(SECOND_ANSWER)
        ada.get_by_label("Your guess").press("Enter")
        expect(ada.locator("#verdict")).to_contain_text("Right!")
        expect(screen.locator("#screen-solved")).to_contain_text("Ada solved it at stage")
        host.get_by_role("button", name="Skip for all").click()
        expect(screen.locator("#screen-answer")).to_contain_text(SECOND_ANSWER)
        # The last quiz's answer stays up a moment before the podium.
        assert_seen(self, screen.locator("#screen-answer"), "the last quiz's answer on the TV")
        # Ada passed Bo: the board says so; before the first quiz there were no places to change.
        expect(screen.locator("#screen-scoreboard tbody tr").first).to_contain_text("Ada")
        expect(screen.locator("#screen-scoreboard tbody tr").first.locator(".screen-change")).to_have_text("\u25b21")
        # The podium's steps are the two teams', each naming its players.
        steps = screen.locator("#screen-steps li")
        expect(steps).to_have_count(2, timeout=10_000)
        # The steps rise one after the other: the picture is taken once they stand.
        for index in range(2):
            steps.nth(index).evaluate("(step) => Promise.all(step.getAnimations().map((animation) => animation.finished))")
        expect(screen.locator("#screen-podium")).to_be_visible()
        for name in ("Ada", "Bo"):
            expect(screen.locator("#screen-steps")).to_contain_text(name)
        assert_seen(self, screen.locator("#screen-steps .step-1"), "the winner's step on the TV")
        screen.screenshot(path=str(SCREENSHOTS / "web-big-screen-podium.png"))
        self.assertEqual(posters_fetched_by_bo, [], "an answer pad fetches no poster")

    def test_a_screen_without_the_hosts_token_or_pass_is_refused(self):
        host, code = self.open_room()
        stranger = session.new_page(self, TV)
        stranger.goto(f"/r/{code}/screen")
        box = stranger.get_by_label(re.compile("Screen pass"))
        expect(box).to_be_visible()
        expect(stranger.locator("#screen-lobby")).to_be_hidden()
        box.fill("12345678")
        stranger.get_by_role("button", name="Open the screen").click()
        expect(stranger.locator("#screen-pass-problem")).to_contain_text("Not this room\u2019s screen pass")
        expect(stranger.locator("#screen-code")).to_be_hidden()

        # The host hands a pass for another device: the screen opens with it, once.
        host.get_by_role("button", name="Screen pass for another device").click()
        text = host.locator("#screen-pass-text")
        expect(text).to_contain_text(f"/r/{code}/screen")
        text.scroll_into_view_if_needed()
        assert_seen(self, text, "the screen pass on the host's phone")
        screen_pass = re.search(r"\b(\d{8})\b", text.inner_text()).group(1)
        box.fill(screen_pass)
        stranger.get_by_role("button", name="Open the screen").click()
        expect(stranger.locator("#screen-code")).to_have_text(code)
        # The QR code is an image the page asks for once it is in: seen once it has loaded.
        expect(stranger.locator("#screen-qr")).to_be_visible()
        assert_seen(self, stranger.locator("#screen-qr"), "the QR code on a screen opened with the pass")

        another = session.new_page(self, TV)
        another.goto(f"/r/{code}/screen")
        another.get_by_label(re.compile("Screen pass")).fill(screen_pass)
        another.get_by_role("button", name="Open the screen").click()
        expect(another.locator("#screen-pass-problem")).to_contain_text("Not this room\u2019s screen pass")



class LargeRoomTests(unittest.TestCase):
    """A server whose rooms seat 60 (over the 50 of a small room): phones are answer pads unless turned off."""

    @classmethod
    def setUpClass(cls):
        cls.server = Server(arguments=("--room-seats", "60"))
        cls.addClassCleanup(cls.server.stop)
        cls.share_code = cls.server.publish("Large room host", {
            "format": 1, "title": "A large room", "level": "beginner", "language": "en",
            "quizzes": [{"movie": 19, "areas": AREAS}],
        })

    def new_page(self):
        """A phone of its own on the large server, in the module's browser (one Playwright a process)."""
        context = session.browser.new_context(
            viewport=PHONE, base_url=self.server.base_url, is_mobile=True, has_touch=True)
        self.addCleanup(context.close)
        context.add_init_script("try { localStorage.setItem('uquiz.howto.seen', '1'); } catch {}")
        page = context.new_page()
        page.set_default_timeout(20_000)
        return page

    def test_a_large_rooms_phones_are_answer_pads_and_its_lobby_counts(self):
        host = self.new_page()
        host.goto(f"/p/{self.share_code}")
        with host.expect_navigation(url=re.compile(r"/r/[2-9A-Z]{4}$")):
            host.get_by_role("button", name="Play with friends").click()
        code = host.url.rsplit("/", 1)[1]
        guest = self.new_page()
        posters = []
        guest.on("request", lambda request: "/poster" in request.url and posters.append(request.url))
        guest.goto(f"/r/{code}")
        guest.get_by_label("Your name").fill("Cy")
        guest.get_by_role("button", name="Join").click()
        expect(guest.locator("#lobby-heading")).to_have_text("Players (2)")
        assert_seen(self, guest.locator("#lobby-heading"), "how many are in")
        expect(guest.locator("#lobby .pad-toggle")).to_have_attribute("aria-pressed", "true")
        host.get_by_role("button", name="Start").click()
        expect(guest.locator("#quiz-label")).to_have_text("Quiz 1 of 1")
        expect(guest.locator("#poster")).to_be_hidden()
        guest.get_by_label("Your guess").fill(ANSWER)
        guest.get_by_label("Your guess").press("Enter")
        expect(guest.locator("#verdict")).to_contain_text("Right!")
        self.assertEqual(posters, [], "an answer pad fetches no poster")
        # Turned off, the poster comes back: the person's choice is kept.
        guest.locator("#answer .pad-toggle").click()
        expect(guest.locator("#poster")).to_be_visible()


if __name__ == "__main__":
    unittest.main()
