"""Live rooms in the browser (`/r/{code}`, issue 17): several pages, each its own browser context (another person), in
one room on the real `uquiz serve`, from the lobby to the podium.

The room plays harness.py's one-quiz package (beginner: a stage every 2 s), so a room lasts a few seconds once started:
the quiz starts as soon as every page has its first poster, and ends when everyone has solved it or the host skips it,
the podium at once after the last quiz. Nothing here sleeps; every wait is for a condition, with a timeout.
"""

import json
import re
import unittest

from playwright.sync_api import expect

from harness import (
    ANSWER, AREAS, DESKTOP, PHONE, SCREENSHOTS, WRONG_GUESS, Session, assert_poster_bottom_seen, assert_seen)

session = None


def setUpModule():
    global session
    session = Session()


def tearDownModule():
    if session:
        session.close()


def stage_shown(page, stage):
    """Waits until `page` has drawn stage `stage` of the quiz or a later one."""
    # Selectors, not wait_for_function: the page's Content-Security-Policy forbids the eval that one needs.
    page.wait_for_selector(",".join(f'#poster[data-stage="{k}"]' for k in range(stage, len(AREAS) + 1)))


def player_name(page):
    """The guest player's name kept by this page's browser."""
    return json.loads(page.evaluate("localStorage.getItem('uquiz.player')"))["name"]


class WebRoomTests(unittest.TestCase):
    def open_room(self, viewport=DESKTOP):
        """The host: a package's page, then "Play with friends", which lands on the room's page as its host."""
        page = session.new_page(self, viewport)
        plays = []
        page.on("request", lambda request: request.url.endswith("/plays") and plays.append(request.url))
        page.goto(f"/p/{session.share_code}")
        with page.expect_navigation(url=re.compile(r"/r/[2-9A-Z]{4}$")):
            page.get_by_role("button", name="Play with friends").click()
        host = page.locator("#lobby-players li").first
        expect(host).to_contain_text("host")
        expect(host).to_contain_text("you")
        self.assertEqual(plays, [], "opening a room starts no solo play")
        return page, page.url.rsplit("/", 1)[1]

    def join(self, code, name, viewport=PHONE, locale="en-US", name_label="Your name", join_label="Join", sockets=None):
        """A friend opening the room's link; with `sockets`, its WebSockets go through Playwright, which appends each
        one's page side to the list (to cut it as a network would)."""
        page = session.new_page(self, viewport, locale)
        if sockets is not None:
            def relay(socket):
                socket.connect_to_server()
                sockets.append(socket)
            page.route_web_socket(re.compile(r"/v1/rooms/\w+/ws$"), relay)
        page.goto(f"/r/{code}")
        page.get_by_label(name_label).fill(name)
        page.get_by_role("button", name=join_label).click()
        expect(page.locator("#join-form")).to_be_hidden()
        return page

    def everyone_in(self, pages, count):
        for page in pages:
            expect(page.locator("#lobby-players li")).to_have_count(count)

    def test_the_lobby_hands_the_invite_to_the_systems_share_sheet_where_there_is_one(self):
        page = session.new_page(self, PHONE)
        # Headless chromium has no share sheet: a stand-in records what the page hands it.
        page.add_init_script("navigator.share = (data) => { window.sharedInvite = data; return Promise.resolve(); };")
        page.goto(f"/p/{session.share_code}")
        with page.expect_navigation(url=re.compile(r"/r/[2-9A-Z]{4}$")):
            page.get_by_role("button", name="Play with friends").click()
        code = page.url.rsplit("/", 1)[1]
        share = page.get_by_role("button", name="Share", exact=True)
        assert_seen(self, share, "the Share button on a phone")
        share.click()
        shared = page.evaluate("window.sharedInvite")
        self.assertEqual(shared["url"], f"{session.server.base_url}/r/{code}")
        self.assertIn(code, shared["text"])

    def test_a_room_is_joined_by_its_code_on_the_home_page_and_its_link_copied(self):
        host, code = self.open_room(DESKTOP)
        # The host copies the invite link from the lobby.
        host.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=session.server.base_url)
        expect(host.locator("#lobby")).to_contain_text(f"or with the code {code} on the home page")
        host.get_by_role("button", name="Copy link").click()
        expect(host.locator("#lobby .copy-status")).to_have_text("Copied.")
        self.assertEqual(host.evaluate("navigator.clipboard.readText()"), f"{session.server.base_url}/r/{code}")
        # A friend types the code, in lower case with a space, into the home page's one box.
        friend = session.new_page(self, PHONE)
        friend.goto("/")
        box = friend.get_by_label("Share code or room code")
        box.fill(f"{code[:2].lower()} {code[2:].lower()}")
        with friend.expect_navigation(url=re.compile(rf"/r/{code}$")):
            box.press("Enter")
        friend.get_by_label("Your name").fill("Coder")
        friend.get_by_role("button", name="Join").click()
        self.everyone_in([host, friend], 2)
        expect(host.locator("#lobby-players")).to_contain_text("Coder")

    def test_two_pages_play_a_room_from_the_lobby_to_the_podium(self):
        host, code = self.open_room(DESKTOP)
        host_name = player_name(host)
        guest = self.join(code, "Phone friend", PHONE)
        console_errors = []
        for page in (host, guest):
            page.on("console", lambda message: message.type == "error" and console_errors.append(message.text))
        self.everyone_in([host, guest], 2)

        # The lobby: who is in, the host marked; only the host can start, kick and pass the role on.
        for page in (host, guest):
            expect(page.locator("#lobby-players li").first).to_contain_text(host_name)
            expect(page.locator("#lobby-players li").nth(1)).to_contain_text("Phone friend")
        expect(guest.locator("#lobby-note")).to_have_text("Waiting for the host to start.")
        self.assertTrue(guest.locator("#start-room").is_hidden())
        self.assertEqual(guest.locator("#lobby-players button").count(), 0)
        expect(host.locator("#lobby-players li").nth(1).get_by_role("button", name="Kick")).to_be_visible()
        expect(host.locator("#lobby-players li").nth(1).get_by_role("button", name="Make host")).to_be_visible()
        self.assertEqual(host.locator("#room-link").text_content(), f"{session.server.base_url}/r/{code}")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        guest.screenshot(path=str(SCREENSHOTS / "room-lobby-phone.png"))
        host.get_by_role("button", name="Start").click()

        # The same quiz, the same stages, on both pages at the server's pace.
        for page in (host, guest):
            stage_shown(page, 2)
            expect(page.locator("#quiz-label")).to_have_text("Quiz 1 of 1")
            expect(page.locator("#time-left")).to_have_text(re.compile(r"^\d+ s left$"))
        self.assertTrue(host.locator("#skip-button").is_visible())
        self.assertTrue(guest.locator("#skip-button").is_hidden())

        guess = guest.get_by_label("Your guess")
        guess.fill(WRONG_GUESS)
        guess.press("Enter")
        guest.wait_for_selector('#verdict[data-outcome="rejected"]')
        self.assertIn(f"\u201c{WRONG_GUESS}\u201d is not it", guest.locator("#verdict").text_content())
        assert_seen(self, guest.locator("#verdict"), "the wrong guess's verdict on the phone")

        # The host solves it: they are told their points, and everyone sees who solved it (never what they typed).
        host.get_by_label("Your guess").fill(ANSWER)
        host.get_by_label("Your guess").press("Enter")
        host.wait_for_selector('#verdict[data-outcome="solved"]')
        self.assertRegex(host.locator("#verdict").text_content(), r"^Right! \+\d+ points at stage \d$")
        assert_seen(self, host.locator("#verdict"), "the right guess's verdict on the desktop")
        for page in (host, guest):
            expect(page.locator("#solved-notices li")).to_have_text(
                re.compile(rf"^{re.escape(host_name)} solved it at stage \d\.$"))
            assert_seen(self, page.locator("#solved-notices li"), "who solved it")
            assert_seen(self, page.locator("#time-left"), "the time left")
            # The package's title beside the quiz's number and time; the poster whole and its time bar, uncovered.
            expect(page.locator("#room-package")).to_have_text(session.package_title)
            assert_seen(self, page.locator("#room-package"), "the package's title")
            assert_seen(self, page.locator("#room-game .timebar"), "the time bar")
            assert_poster_bottom_seen(self, page, "the poster's bottom edge")
        guest.screenshot(path=str(SCREENSHOTS / "room-playing-phone.png"))

        # The guest solves it too: everyone has, so the quiz ends for all, with the answer, the whole poster, the
        # solvers and the scoreboard; it was the last, so the podium follows with each player's share line.
        guess.fill(ANSWER)
        guess.press("Enter")
        guest.wait_for_selector('#verdict[data-outcome="solved"]')
        for page in (host, guest):
            expect(page.locator("#answer-title")).to_have_text("It was Metropolis (1927)")
            expect(page.locator("#quiz-end")).to_contain_text("Everyone solved it.")
            expect(page.locator("#solvers li")).to_have_count(2)
            expect(page.locator("#scoreboard tbody tr")).to_have_count(2)
            self.assertEqual(page.locator("#scoreboard tr.me").count(), 1)
            page.wait_for_selector('#poster[data-whole="true"]')
            places = page.locator("#places li")
            expect(places).to_have_count(2)
            for index in range(2):
                self.assertRegex(places.nth(index).locator(".share-line").text_content(),
                                 rf"^UQuiz {session.share_code} 1/1 \S+ \d+ pts")
            self.assertTrue(page.locator("#answer").is_hidden())
        self.assertRegex(host.locator("#places li.me .place-line").text_content(), rf"^#[12] {re.escape(host_name)}: \d+ points$")
        for page in (host, guest):
            assert_seen(self, page.locator("#podium h2"), "the podium")
            self.assertEqual(page.evaluate("document.activeElement.id"), "podium", "the podium takes the focus")
        # After the podium nobody is kicked or handed the room.
        self.assertEqual(host.locator("#lobby-players button").count(), 0)
        guest.screenshot(path=str(SCREENSHOTS / "room-podium-phone.png"), full_page=True)
        # Another round: a new room on the same package, hosted by whoever asked for it.
        assert_seen(self, guest.get_by_role("button", name="Another round in a new room"), "another round")
        self.assertEqual(guest.locator("#podium").get_by_role("link", name="Make your own").get_attribute("href"), "/make")
        with guest.expect_navigation():
            guest.get_by_role("button", name="Another round in a new room").click()
        new_code = re.fullmatch(r".*/r/([A-Z0-9]{4})", guest.url).group(1)
        self.assertNotEqual(new_code, code)
        expect(guest.locator("#start-room")).to_be_visible()
        status, _, body = session.server.request("GET", f"/v1/rooms/{new_code}")
        self.assertEqual(json.loads(body)["shareCode"], session.share_code)
        self.assertEqual(console_errors, [])

    def test_a_reload_in_a_room_takes_the_seat_back(self):
        host, code = self.open_room(DESKTOP)
        sockets = []
        guest = self.join(code, "Reloader", PHONE, sockets=sockets)
        self.everyone_in([host, guest], 2)
        host.get_by_role("button", name="Start").click()
        stage_shown(guest, 1)

        guest.reload()
        # The same seat (no third player), the running quiz drawn again from the snapshot, and still playing.
        stage_shown(guest, 1)
        self.everyone_in([host, guest], 2)
        me = guest.locator("#lobby-players li", has_text="Reloader")
        expect(me).to_contain_text("you")
        expect(guest.locator("#lobby-players li", has_text="disconnected")).to_have_count(0)
        # A connection cut under the page (not by the server): it takes the seat back on a new one by itself.
        self.assertEqual(len(sockets), 2)
        sockets[-1].close(code=4999, reason="cut by the test")
        expect(guest.locator("#room-notice")).to_have_text("Back in the room.")
        self.assertEqual(len(sockets), 3)
        self.everyone_in([host, guest], 2)
        stage_shown(guest, 1)

        # A hint by its shortcut (to the asker only), then the answer.
        guest.keyboard.press("Alt+KeyH")
        expect(guest.locator("#hint")).to_have_text(re.compile(r"^Hint: \S"))
        self.assertEqual(host.locator("#hint").text_content(), "")
        guess = guest.get_by_label("Your guess")
        guess.fill(ANSWER)
        guess.press("Enter")
        guest.wait_for_selector('#verdict[data-outcome="solved"]')
        expect(host.locator("#solved-notices li")).to_have_text(re.compile(r"^Reloader solved it at stage \d\.$"))

        # The host skips the rest of the quiz for everyone.
        host.get_by_role("button", name="Skip for all Alt+S", exact=True).click()
        for page in (host, guest):
            expect(page.locator("#quiz-end")).to_contain_text("The host skipped it.")
            expect(page.locator("#places li")).to_have_count(2)
        expect(guest.locator("#places li").first).to_contain_text("Reloader")

    def test_an_unknown_room_code_says_so(self):
        page = session.new_page(self, PHONE)
        page.goto("/r/ZZZZ")
        expect(page.locator("#room-notice")).to_have_text("No room with this code here.")
        self.assertTrue(page.locator("#join-form").is_hidden())
        self.assertTrue(page.locator("#answer").is_hidden())

    def test_a_name_with_html_in_it_is_shown_as_text(self):
        host, code = self.open_room(DESKTOP)
        hostile = "<b>b</b><img src=x>"
        # In Korean, by the browser's language.
        guest = self.join(code, hostile, PHONE, locale="ko-KR", name_label="이름", join_label="참가")
        self.everyone_in([host, guest], 2)
        for page in (host, guest):
            expect(page.locator("#lobby-players .player-name").nth(1)).to_have_text(hostile)
            self.assertEqual(page.locator("#lobby-players b, #lobby-players img").count(), 0)
        expect(guest.locator("#lobby-note")).to_have_text("방장이 시작하기를 기다리는 중입니다.")

        # A refused join is said on the form, and the name can be changed.
        third = session.new_page(self, DESKTOP)
        third.goto(f"/r/{code}")
        third.get_by_label("Your name").fill(hostile.upper())
        third.get_by_role("button", name="Join").click()
        expect(third.locator("#join-problem")).to_have_text("Someone in the room has this name, or one that looks the same.")
        third.get_by_label("Your name").fill("Third")
        third.get_by_role("button", name="Join").click()
        self.everyone_in([host, guest, third], 3)

        # The host removes them: the page says so and keeps nothing to come back with.
        host.locator("#lobby-players li").nth(1).get_by_role("button", name="Kick").click()
        expect(guest.locator("#room-notice")).to_have_text("방장이 당신을 방에서 내보냈습니다.")
        self.everyone_in([host, third], 2)
        self.assertIsNone(guest.evaluate(f"sessionStorage.getItem('uquiz.room.{code}')"))


if __name__ == "__main__":
    unittest.main()
