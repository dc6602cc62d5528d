"""What a new user stumbled on in a play, fixed, in a real browser against the real `uquiz serve`: each test shows what a
person sees at a phone's and a desktop's size. Nothing sleeps: every wait is for what the page shows.
"""

import re
import unittest

from playwright.sync_api import expect

from harness import AREAS, DESKTOP, PHONE, Session, assert_seen

session = None
two_quizzes = None


def setUpModule():
    global session, two_quizzes
    session = Session()
    two_quizzes = session.server.publish("Web maker", {
        "format": 1, "title": "Two silent classics", "level": "beginner", "language": "en",
        "quizzes": [{"movie": 653, "areas": AREAS}, {"movie": 19, "areas": AREAS}],
    })


def tearDownModule():
    if session:
        session.close()


class PlayStumbleTests(unittest.TestCase):
    def test_the_last_quizs_verdict_goes_when_the_next_quiz_starts(self):
        for viewport in (PHONE, DESKTOP):
            with self.subTest(viewport=viewport):
                page = session.new_page(self, viewport)
                page.goto(f"/p/{two_quizzes}")
                page.get_by_role("button", name="Start").click()
                page.wait_for_selector('#poster[data-stage="1"],#poster[data-stage="2"]')
                page.keyboard.press("Alt+KeyS")
                verdict = page.locator("#verdict")
                expect(verdict).to_have_text("Skipped: it was Nosferatu (Nosferatu, eine Symphonie des Grauens, 1922)")
                assert_seen(self, verdict, "the skipped quiz's answer, with its original title")
                expect(page.locator("#quiz-label")).to_have_text("Quiz 2 of 2")
                page.wait_for_selector('#poster[data-stage="1"],#poster[data-stage="2"]')
                expect(verdict).to_have_text("")
                self.assertIsNone(verdict.get_attribute("data-outcome"))



class NameStumbleTests(unittest.TestCase):
    def test_a_long_or_refused_name_says_why_and_is_never_cut(self):
        for viewport in (PHONE, DESKTOP):
            with self.subTest(viewport=viewport):
                page = session.new_page(self, viewport)
                page.goto("/me")
                name = page.get_by_label("Your name on leaderboards and podiums")
                long_name = "A name of twenty-eight chars"
                name.fill(long_name)
                self.assertEqual(name.input_value(), long_name, "nothing cut as it is typed or pasted")
                page.get_by_role("button", name="Save").click()
                status = page.locator("#name-status")
                expect(status).to_have_text("A name is at most 24 characters: this one has 28.")
                assert_seen(self, status, "why a long name is refused")
                name.fill("Zero\u200bwidth")
                page.get_by_role("button", name="Save").click()
                expect(status).to_have_text(re.compile(r"^The server refused this name: the name contains U\+200B, a character readers do not see"))
                self.assertNotIn("$.name", status.text_content())
                name.fill("Ada Lovelace")
                page.get_by_role("button", name="Save").click()
                expect(status).to_have_text("Saved: your name is now \u201cAda Lovelace\u201d.")

if __name__ == "__main__":
    unittest.main()
