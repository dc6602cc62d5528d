"""Title suggestions while a guess is typed, in a real browser against the real `uquiz serve`.

The server suggests from its catalog alone here (`--suggest-min-titles 10`: the seed's 70 movies), so the list is the
catalog's; nothing sleeps: every wait is for what the page shows.
"""

import re
import unittest

from playwright.sync_api import expect

from harness import ANSWER, AREAS, DESKTOP, PHONE, SCREENSHOTS, Session, assert_seen

session = None


def setUpModule():
    global session
    session = Session(arguments=["--suggest-min-titles", "10"])


def tearDownModule():
    if session:
        session.close()


class TitleSuggestionTests(unittest.TestCase):
    def start_play(self, viewport):
        page = session.new_page(self, viewport)
        page.goto(f"/p/{session.share_code}")
        page.get_by_role("button", name="Start").click()
        shown = ",".join(f'#poster[data-stage="{k}"]' for k in range(1, len(AREAS) + 1))
        page.wait_for_selector(shown)
        return page

    def assert_options_seen(self, page, what):
        options = page.locator("#guess-titles [role=option]")
        options.first.wait_for()
        # Each is seen, once the list (scrolled where it is longer than the room above the box) shows it.
        for index in range(options.count()):
            options.nth(index).scroll_into_view_if_needed()
            assert_seen(self, options.nth(index), f"{what}: suggestion {index + 1}")
        return options

    def test_a_tapped_suggestion_is_the_guess_on_a_phone(self):
        page = self.start_play(PHONE)
        guess = page.get_by_label("Your guess")
        guess.click()
        guess.press_sequentially("metro")
        options = self.assert_options_seen(page, "on a phone")
        expect(options.first).to_have_text("Metropolis (1927)")
        self.assertEqual(guess.get_attribute("aria-expanded"), "true")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "phone-title-suggestions.png"))
        options.first.tap()
        page.wait_for_selector('#verdict[data-outcome="solved"]')
        self.assertRegex(page.locator("#verdict").text_content(), r"^Right! Metropolis \(1927\) \+\d+ points$")
        self.assertTrue(page.locator("#guess-titles").is_hidden())

    def test_arrows_and_enter_pick_a_suggestion_judged_like_typing_on_a_desktop(self):
        page = self.start_play(DESKTOP)
        guess = page.get_by_label("Your guess")
        guess.press_sequentially("nosfe")
        options = self.assert_options_seen(page, "on a desktop")
        expect(options.first).to_contain_text("Nosferatu")
        picked = options.first.get_attribute("data-title")
        guess.press("ArrowDown")
        expect(options.first).to_have_attribute("aria-selected", "true")
        self.assertEqual(guess.get_attribute("aria-activedescendant"), options.first.get_attribute("id"))
        guess.press("Enter")
        page.wait_for_selector('#verdict[data-outcome="rejected"]')
        # The catalog knows the movie: the verdict says so, as for the typed title.
        self.assertEqual(f"\u201c{picked}\u201d is another movie.", page.locator("#verdict").text_content())

        # Escape closes the list and leaves what was typed; Enter then sends the typed text.
        guess.fill("")
        guess.press_sequentially("metrop")
        self.assert_options_seen(page, "typed again")
        guess.press("Escape")
        self.assertTrue(page.locator("#guess-titles").is_hidden())
        self.assertEqual(guess.input_value(), "metrop")
        guess.fill("")
        guess.press_sequentially(ANSWER[:5])
        self.assert_options_seen(page, "the answer's start")
        guess.press("ArrowDown")
        guess.press("Enter")
        page.wait_for_selector('#verdict[data-outcome="solved"]')

    def test_the_list_is_seen_whole_above_a_phones_keyboard(self):
        page = self.start_play({"width": 390, "height": 480})
        guess = page.get_by_label("Your guess")
        guess.click()
        guess.press_sequentially("th")
        options = self.assert_options_seen(page, "at 390 x 480")
        self.assertGreaterEqual(options.count(), 3)
        assert_seen(self, guess, "the answer box under the list")

    def test_a_suggestion_picked_in_a_live_room_solves_the_quiz(self):
        page = session.new_page(self, PHONE)
        page.goto(f"/p/{session.share_code}")
        with page.expect_navigation(url=re.compile(r"/r/[2-9A-Z]{4}$")):
            page.get_by_role("button", name="Play with friends").click()
        page.get_by_role("button", name="Start").click()
        page.wait_for_selector(",".join(f'#poster[data-stage="{k}"]' for k in range(1, len(AREAS) + 1)))
        guess = page.get_by_label("Your guess")
        guess.click()
        guess.press_sequentially("metrop")
        options = self.assert_options_seen(page, "in a room on a phone")
        expect(options.first).to_have_text("Metropolis (1927)")
        options.first.tap()
        page.wait_for_selector('#verdict[data-outcome="solved"]')
        self.assertRegex(page.locator("#verdict").text_content(), r"^Right! \+\d+ points at stage \d$")

    def test_the_list_closes_below_two_letters(self):
        page = self.start_play(DESKTOP)
        guess = page.get_by_label("Your guess")
        guess.press_sequentially("me")
        self.assert_options_seen(page, "two letters")
        guess.press("Backspace")
        expect(page.locator("#guess-titles")).to_be_hidden()
        self.assertEqual(guess.get_attribute("aria-expanded"), "false")

if __name__ == "__main__":
    unittest.main()
