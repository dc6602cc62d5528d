"""The daily quiz per language and its archive, in a real browser against the real `uquiz serve`.

Before the tests, each language's daily is drawn and the server restarted with those days moved back one: they are
yesterday's, in the archive, and today's are each language's #2. Nothing sleeps: every wait is for what the page shows.
"""

import datetime
import json
import re
import sqlite3
import unittest

from playwright.sync_api import expect

from harness import DESKTOP, PHONE, SCREENSHOTS, Session, assert_seen

session = None
yesterday = (datetime.datetime.now(datetime.timezone.utc).date() - datetime.timedelta(days=1)).isoformat()


def daily(language):
    status, _, body = session.server.request("GET", f"/v1/daily?language={language}")
    assert status == 200, body
    return json.loads(body)


def move_days_back(database):
    with sqlite3.connect(database) as connection:
        connection.execute("UPDATE daily SET day = date(day, '-1 day')")


def setUpModule():
    global session
    session = Session()
    for language in ("en", "ko"):
        daily(language)
    session.server.restart(while_stopped=move_days_back)


def tearDownModule():
    if session:
        session.close()


class DailyTests(unittest.TestCase):
    def test_each_language_shows_its_own_daily_and_the_switch_shows_the_other(self):
        korean, english = daily("ko"), daily("en")
        self.assertEqual((korean["number"], english["number"]), (2, 2))
        self.assertNotEqual(korean["shareCode"], english["shareCode"])
        for viewport in (PHONE, DESKTOP):
            with self.subTest(viewport=viewport):
                page = session.new_page(self, viewport, locale="ko-KR")
                page.goto("/d")
                expect(page.locator("h1")).to_have_text("오늘의 퀴즈 #2")
                about = page.locator("main > p").first
                expect(about).to_contain_text(korean["packageTitle"])
                assert_seen(self, about, "the Korean daily's package")
                page.locator("#language-switch").click()
                expect(page.locator("h1")).to_have_text("Daily quiz #2")
                expect(about := page.locator("main > p").first).to_contain_text(english["packageTitle"])
                assert_seen(self, about, "the English daily's package, once switched")
                item = page.locator("#daily-archive li a").first
                expect(item).to_have_text(re.compile(rf"^#1 · {yesterday} · quiz \d+ of “.+”, (beginner|intermediate|expert)$"))
                if viewport is PHONE:
                    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(SCREENSHOTS / "phone-daily-archive.png"), full_page=True)

    def test_a_past_day_is_played_again_from_the_archive_unranked(self):
        for viewport in (DESKTOP, PHONE):
            with self.subTest(viewport=viewport):
                page = session.new_page(self, viewport)
                page.goto("/d")
                item = page.locator("#daily-archive li a").first
                item.scroll_into_view_if_needed()
                assert_seen(self, item, "yesterday's daily in the archive")
                item.click()
                expect(page).to_have_url(re.compile(rf"/d/{yesterday}$"))
                expect(page.locator("h1")).to_have_text(f"Daily quiz #1 of {yesterday}")
                about = page.locator("#archived-about")
                expect(about).to_contain_text("it is not ranked and does not count for your streak")
                assert_seen(self, about, "what playing a past day means")
                page.locator("#play-archived-daily").click()
                page.wait_for_selector('#poster[data-stage="1"],#poster[data-stage="2"]')
                page.keyboard.press("Alt+KeyS")
                page.wait_for_selector('#verdict[data-outcome="skipped"]')
                unranked = page.get_by_text("Not ranked: a past day\u2019s daily quiz, played from the archive.")
                unranked.scroll_into_view_if_needed()
                assert_seen(self, unranked, "why the play is not ranked")
                share = page.locator("#share-line")
                self.assertTrue(share.text_content().endswith(f"{session.server.base_url}/d/{yesterday}"))
                # Today's daily is still to play: a past day is no daily play.
                page.goto("/d")
                expect(page.locator("#play-daily")).to_be_visible()
                expect(page.locator("#streak")).to_have_text("Streak: 0 (best 0)")

    def test_a_day_not_in_the_archive_says_so(self):
        page = session.new_page(self, PHONE)
        page.goto("/d/2001-01-01")
        missing = page.locator("#daily-missing")
        expect(missing).to_have_text("There is no past daily quiz of 2001-01-01 in this language.")
        assert_seen(self, missing, "that the day has no daily")


if __name__ == "__main__":
    unittest.main()
