"""The share card, in a real browser against the real `uquiz serve`: a finished play's share text links to its result
(`/s/{id}`), whose page shows the share line and a link to play the package, and whose HTML, as a link preview reads it
without running the script, carries Open Graph tags naming a card picture.
"""

import html
import re
import unittest
import urllib.request

from playwright.sync_api import expect

from harness import ANSWER, AREAS, DESKTOP, PHONE, SCREENSHOTS, Session, assert_seen

session = None

META = re.compile(r'<meta (?:property|name)="([^"]+)" content="([^"]*)">')


def setUpModule():
    global session
    session = Session()


def tearDownModule():
    if session:
        session.close()


class ShareCardTests(unittest.TestCase):
    def play_to_the_end(self, viewport):
        """Plays the one-quiz package to the end (solved): the page and its share text."""
        page = session.new_page(self, viewport)
        page.goto(f"/p/{session.share_code}")
        page.get_by_role("button", name="Start").click()
        page.wait_for_selector(",".join(f'#poster[data-stage="{k}"]' for k in range(1, len(AREAS) + 1)))
        guess = page.get_by_label("Your guess")
        guess.fill(ANSWER)
        guess.press("Enter")
        share = page.locator("#share-line")
        share.wait_for()
        return page, share.text_content()

    def check_result(self, viewport, name):
        page, text = self.play_to_the_end(viewport)
        line, link = text.split("\n")
        self.assertRegex(line, rf"^UQuiz {session.share_code} 1/1 🟩 \d+ pts$")
        base = session.server.base_url
        self.assertRegex(link, rf"^{re.escape(base)}/s/[A-Za-z0-9_-]{{22}}$")

        # What a link preview reads: the tags in the HTML as sent, with a card picture on this server.
        with urllib.request.urlopen(urllib.request.Request(link, headers={"Accept": "text/html"}), timeout=30) as response:
            self.assertEqual(response.status, 200)
            tags = {key: html.unescape(value) for key, value in META.findall(response.read().decode())}
        self.assertEqual(tags["og:title"], f"UQuiz: 1/1 in {session.package_title}")
        self.assertEqual(tags["og:description"], line)
        self.assertEqual(tags["og:url"], link)
        self.assertEqual(tags["twitter:card"], "summary_large_image")
        self.assertTrue(tags["og:image"].startswith(f"{base}/v1/cards/s/"), tags)
        status, headers, body = session.server.request("GET", tags["og:image"][len(base):])
        self.assertEqual((status, headers["Content-Type"]), (200, "image/jpeg"))
        self.assertTrue(body.startswith(b"\xff\xd8"))

        # What a person sees opening the link: the result's share line, and the way to play the package.
        page.goto(link)
        result_line = page.locator("#result-line")
        expect(result_line).to_have_text(line)
        assert_seen(self, result_line, f"the result's share line on a {name}")
        expect(page.locator("#result-title")).to_have_text(session.package_title)
        play = page.get_by_role("link", name="Play this package")
        self.assertEqual(play.get_attribute("href"), f"/p/{session.share_code}")
        assert_seen(self, play, f"Play this package on a {name}")
        self.assertNotIn(ANSWER, page.locator("main").text_content(), "the result tells no answer")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{name}-result.png"))
        play.click()
        page.wait_for_url(f"{base}/p/{session.share_code}")
        expect(page.get_by_role("button", name="Start")).to_be_visible()

    def test_a_phones_share_link_opens_the_result(self):
        self.check_result(PHONE, "phone")

    def test_a_desktops_share_link_opens_the_result(self):
        self.check_result(DESKTOP, "desktop")

    def test_a_result_link_that_names_no_finished_play_says_so(self):
        page = session.new_page(self, PHONE)
        response = page.goto("/s/AAAAAAAAAAAAAAAAAAAAAA")
        self.assertEqual(response.status, 404)
        expect(page.locator("#problem")).to_have_text("No finished play has this link here.")
        assert_seen(self, page.locator("#problem"), "the problem")


if __name__ == "__main__":
    unittest.main()
