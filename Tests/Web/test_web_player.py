"""The web player in a real browser (Debian's chromium through Playwright) against the real `uquiz serve`.

The server, its one-quiz package and the browser come from harness.py: nothing here sleeps; every wait is for a
condition, with a timeout.
"""

import gzip
import json
import re
import subprocess
import time
import unittest
from pathlib import Path

from playwright.sync_api import expect

from harness import (
    ANSWER, AREAS, ARTIFACTS, COLUMNS, DESKTOP, PHONE, REPOSITORY, ROWS, SCREENSHOTS, STAGE_MS, UQUIZ, WRONG_GUESS,
    Session, assert_poster_bottom_seen, assert_seen, read_qr, sandbox_environment)

session = None
server = None
share_code = None
metrics = {}


def setUpModule():
    global session, server, share_code
    session = Session()
    server = session.server
    share_code = session.share_code


def tearDownModule():
    if session:
        session.close()
    if metrics:
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "web-metrics.json").write_text(json.dumps(metrics, indent=2) + "\n")
        print("\nweb player figures:", json.dumps(metrics))


# Mean colour of the inner 3 x 3 cells of each area (their edges blur in JPEG), from the page's canvas.
AREA_MEANS = """
([areas, columns, rows]) => {
  const canvas = document.getElementById('poster');
  const context = canvas.getContext('2d');
  const cellWidth = canvas.width / columns, cellHeight = canvas.height / rows;
  return areas.map(([row, column]) => {
    const x = Math.ceil((column - 1) * cellWidth), y = Math.ceil((row - 1) * cellHeight);
    const width = Math.floor(3 * cellWidth) - 1, height = Math.floor(3 * cellHeight) - 1;
    const data = context.getImageData(x, y, width, height).data;
    const sum = [0, 0, 0];
    for (let i = 0; i < data.length; i += 4) { sum[0] += data[i]; sum[1] += data[i + 1]; sum[2] += data[i + 2]; }
    const count = data.length / 4;
    return sum.map((value) => value / count);
  });
}
"""

# Assets only one page loads, by a dynamic import: the live room's (`/r/{code}`), the player's (`/me`), the
# report form (a package's page, once "Report" is opened), the charts (where one is drawn: `/me`, the maker's
# packages, a leaderboard), the sound (a play's or a room's, once the person turns it on), "How to play" (before a
# browser's first play, or from a play's or a room's "?"), the daily quiz's page (`/d`) and a result's (`/s/{id}`).
LAZY_ASSETS = {
    "play.js": "play", "room.js": "room", "room.css": "room", "me.js": "me", "report.js": "report", "make.js": "make", "make.css": "make",
    "charts.js": "charts", "sound.js": "sound", "suggest.js": "suggest", "howto.js": "howto", "daily.js": "daily",
    "result.js": "result", "roomwire.js": "roomwire", "bigscreen.js": "screen", "bigscreen.css": "screen",
}

# Cells far from every area: never revealed before the end.
OUTSIDE = [[2, 2], [2, 47], [72, 47], [45, 46]]


def brightness(mean):
    return sum(mean) / 3


class WebPlayerTests(unittest.TestCase):
    def new_page(self, viewport, locale="en-US"):
        return session.new_page(self, viewport, locale)

    def stage_shown(self, page, stage):
        # Selectors, not wait_for_function: the page's Content-Security-Policy forbids the eval that one needs.
        shown = ",".join(f'#poster[data-stage="{k}"]' for k in range(stage, len(AREAS) + 1))
        page.wait_for_selector(shown)

    def play_through(self, viewport, name):
        page = self.new_page(viewport)
        requested = []
        page.on("request", lambda request: requested.append(request.url))
        console_errors = []
        page.on("console", lambda message: message.type == "error" and console_errors.append(message.text))
        # The package's page: what it is and Start; looking at it starts no play.
        page.goto(f"/p/{share_code}")
        expect(page.locator("#package-title")).to_have_text(session.package_title)
        self.assertRegex(page.locator("#intro .meta").text_content(),
                         r"^Web maker · beginner · 1 quiz · (1 play|([02-9]|\d{2,}) plays)$")
        assert_seen(self, page.get_by_role("button", name="Start"), "the Start button")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{name}-package.png"))
        self.assertEqual([url for url in requested if url.endswith("/plays")], [], "no play before Start")
        with page.expect_response(lambda r: r.url.endswith(f"/v1/packages/{share_code}/plays")) as started:
            page.get_by_role("button", name="Start").click()
        start = started.value.json()
        self.assertEqual(start["quizzes"][0]["status"], "waiting")
        starts_in_ms = start["quizzes"][0]["startsInMs"]

        # Stage 1 has faded in: its area shows the poster, the later areas and the cells outside every area are black.
        self.stage_shown(page, 1)
        at_stage_one = page.evaluate(AREA_MEANS, [AREAS + OUTSIDE, COLUMNS, ROWS])
        self.assertGreater(brightness(at_stage_one[0]), 25, f"area 1 is revealed: {at_stage_one[0]}")
        for index in range(2, len(AREAS)):
            self.assertLess(brightness(at_stage_one[index]), 6, f"area {index + 1} is still black: {at_stage_one}")
        for mean in at_stage_one[len(AREAS):]:
            self.assertLess(brightness(mean), 6, f"cells outside the areas are black: {mean}")

        # A wrong guess: rejected, said in the live region, the form shakes; the answer box stays in view.
        guess = page.get_by_label("Your guess")
        self.assertTrue(guess.is_visible())
        guess.fill(WRONG_GUESS)
        guess.press("Enter")
        verdict = page.locator("#verdict")
        self.assertEqual(verdict.get_attribute("aria-live"), "polite")
        page.wait_for_selector('#verdict[data-outcome="rejected"]')
        self.assertIn(f"\u201c{WRONG_GUESS}\u201d is not it", verdict.text_content())
        self.assertIn("shake", page.locator("#answer").get_attribute("class"))
        assert_seen(self, verdict, "the wrong guess's verdict")
        # Each quiz shows its package's title, its number and its time left together.
        expect(page.locator("#time-left")).to_have_text(re.compile(r"^\d+ s left$"))
        for part in ("#play-title", "#quiz-label", "#time-left", "#poster"):
            assert_seen(self, page.locator(part), part)
        self.assertEqual(page.locator("#play-title").text_content(), session.package_title)

        # Stage 2 on the server's schedule: its area now shows too, the last ones are still black.
        self.stage_shown(page, 2)
        at_stage_two = page.evaluate(AREA_MEANS, [AREAS, COLUMNS, ROWS])
        self.assertGreater(brightness(at_stage_two[1]), 25, f"area 2 is revealed: {at_stage_two[1]}")
        for index in range(3, len(AREAS)):
            self.assertLess(brightness(at_stage_two[index]), 6, f"area {index + 1} is still black: {at_stage_two}")

        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{name}-playing.png"))

        # A hint by its keyboard shortcut, then the right answer.
        page.keyboard.press("Alt+KeyH")
        expect(page.locator("#hint")).to_have_text(re.compile(r"^Hint: \S"))
        self.assertTrue(page.locator("#hint-button").is_disabled())
        guess.fill(ANSWER)
        guess.press("Enter")
        page.wait_for_selector('#verdict[data-outcome="solved"]')
        self.assertRegex(verdict.text_content(), r"^Right! Metropolis \(1927\) \+\d+ points$")
        assert_seen(self, verdict, "the right guess's verdict")

        # The end: score, "1 of 1", the share line with the code and link, the leaderboard with the player's rank.
        share = page.locator("#share-line")
        share.wait_for()
        self.assertRegex(share.text_content(), rf"UQuiz {share_code} 1/1 🟨 \d+ pts")
        # The link is the play's result (`/s/{id}`), whose preview shows its squares (test_web_share_card.py).
        self.assertRegex(share.text_content(), rf"\n{re.escape(server.base_url)}/s/[A-Za-z0-9_-]{{22}}$")
        self.assertEqual(page.locator("#end-solved").text_content(), "1 of 1 solved")
        # The end is brought into view and has the focus; its recap says how each quiz went.
        assert_seen(self, page.locator("#end h2"), "the end's heading")
        self.assertEqual(page.evaluate("document.activeElement.id"), "end")
        self.assertRegex(page.locator("#recap li").first.text_content(),
                         r"^1\. Metropolis \(1927\) solved at stage \d, \+\d+ points$")
        # From the end, the way to make a quiz of one's own.
        make_own = page.get_by_role("link", name="Make your own")
        self.assertEqual(make_own.get_attribute("href"), "/make")
        make_own.scroll_into_view_if_needed()
        assert_seen(self, make_own, "Make your own at the end")
        page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.base_url)
        page.locator("#copy-share").click()
        expect(page.locator(".copy-status")).to_have_text("Copied.")
        self.assertEqual(page.evaluate("navigator.clipboard.readText()"), share.text_content())
        page.locator("#my-rank").wait_for()
        self.assertRegex(page.locator("#my-rank").text_content(), r"^You are #\d+ of \d+\.$")
        self.assertEqual(page.locator("#leaderboard tr.me").count(), 1)
        self.assertTrue(page.locator("#answer").is_hidden())

        # The whole poster once the quiz has ended: area 1 looked then as it does now, and the areas that were
        # black at stage 1 are not black in the poster (so black meant hidden).
        page.wait_for_selector('#poster[data-whole="true"]')
        whole = page.evaluate(AREA_MEANS, [AREAS, COLUMNS, ROWS])
        for channel in range(3):
            self.assertAlmostEqual(at_stage_one[0][channel], whole[0][channel], delta=12)
        for index in range(2, len(AREAS)):
            self.assertGreater(brightness(whole[index]), 20, f"area {index + 1} of the poster is not black: {whole}")

        # The network: nothing outside the server, and no stage asked for before the server's schedule reached it.
        for url in requested:
            self.assertTrue(url.startswith(server.base_url + "/"), f"a request left the server's origin: {url}")
        entries = page.evaluate(
            "performance.getEntriesByType('resource').map(e => ({name: e.name, start: e.startTime, end: e.responseEnd}))")
        start_entry = next(e for e in entries if e["name"].endswith(f"/packages/{share_code}/plays"))
        stage_requests = []
        for entry in entries:
            found = re.search(r"/quizzes/1/poster\?stage=(\d+)$", entry["name"])
            if found:
                stage = int(found.group(1))
                stage_requests.append(stage)
                # The server's clock reached the stage no earlier than this (the play was made after the request
                # to start it left).
                earliest = start_entry["start"] + starts_in_ms + (stage - 1) * STAGE_MS
                self.assertGreaterEqual(entry["start"], earliest, f"stage {stage} was asked for early")
        self.assertIn(1, stage_requests)
        self.assertIn(2, stage_requests)
        last_guess = [e for e in entries if e["name"].endswith("/guesses")][-1]
        whole = [entry for entry in entries if entry["name"].endswith("/quizzes/1/poster")]
        # Asked for once: the quiz's last frame and the end's recap share it.
        self.assertEqual(len(whole), 1, whole)
        self.assertGreaterEqual(whole[0]["start"], last_guess["end"], "the whole poster was asked for before the end")
        self.assertEqual(console_errors, [])
        # The guest player made for this play is kept for the next.
        kept = json.loads(page.evaluate("localStorage.getItem('uquiz.player')"))
        self.assertRegex(kept["name"], r"^Guest \d{4}$")
        self.assertEqual(len(kept["token"]), 43)

        # Time to first poster: from navigation to the first stage drawn, and how much of it is beyond the server's
        # interlude before quiz 1.
        first = page.evaluate("performance.getEntriesByName('uquiz:first-poster')[0].startTime")
        metrics[f"{name}.firstPosterMs"] = round(first)
        metrics[f"{name}.firstPosterAfterStageMs"] = round(first - (start_entry["end"] + starts_in_ms))
        metrics[f"{name}.interludeMs"] = starts_in_ms
        page.screenshot(path=str(SCREENSHOTS / f"{name}-end.png"), full_page=True)

    def test_a_phone_plays_a_package_to_the_end(self):
        self.play_through(PHONE, "phone")

    def test_a_desktop_plays_a_package_to_the_end(self):
        self.play_through(DESKTOP, "desktop")

    def test_nothing_the_game_says_is_covered_at_the_narrowest_and_widest_screens(self):
        for viewport in ({"width": 320, "height": 568}, {"width": 1920, "height": 1080}):
            with self.subTest(viewport=viewport):
                page = session.new_page(self, viewport)
                page.goto(f"/p/{session.share_code}")
                page.get_by_role("button", name="Start").click()
                self.stage_shown(page, 1)
                guess = page.get_by_label("Your guess")
                guess.fill(WRONG_GUESS)
                guess.press("Enter")
                page.wait_for_selector('#verdict[data-outcome="rejected"]')
                for part in ("#verdict", "#play-title", "#quiz-label", "#time-left", "#poster", ".timebar", "#guess"):
                    assert_seen(self, page.locator(part).first, f"{part} at {viewport['width']} px")
                assert_poster_bottom_seen(self, page, f"the poster's bottom edge at {viewport['width']} px")

    def test_the_page_is_served_with_strict_headers_and_versioned_assets(self):
        status, headers, body = server.request("GET", "/")
        self.assertEqual(status, 200)
        self.assertEqual(headers["Content-Type"], "text/html; charset=utf-8")
        self.assertEqual(headers["Cache-Control"], "no-cache")
        policy = headers["Content-Security-Policy"]
        for directive in ["default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'",
                          "frame-ancestors 'none'"]:
            self.assertIn(directive, policy)
        self.assertNotIn("unsafe-inline", policy)
        self.assertEqual(headers["X-Content-Type-Options"], "nosniff")
        html = body.decode()
        self.assertNotRegex(html, r"<script(?![^>]*\bsrc=)", "no inline script")
        self.assertNotRegex(html, r"<style|\sstyle=", "no inline style")
        assets = re.findall(r'(?:href|src)="(/assets/[0-9a-f]{16}/[^"]+)"', html)
        self.assertGreaterEqual(len(assets), 4)
        # Each page's weight as a phone downloads it (gzip, which browsers ask for) and whole (what it parses).
        _, _, gzip_body = server.request("GET", "/", headers={"Accept-Encoding": "gzip"})
        weight = {"whole": len(body), "gzip": len(gzip_body)}
        lazy_weight = {"whole": {}, "gzip": {}}
        version = assets[0].split("/")[2]
        for name in sorted(p.name for p in (REPOSITORY / "Web/assets").iterdir()):
            status, headers, asset = server.request("GET", f"/assets/{version}/{name}")
            self.assertEqual(status, 200, name)
            self.assertIn("immutable", headers["Cache-Control"])
            self.assertIn("max-age=31536000", headers["Cache-Control"])
            expected = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
                        ".svg": "image/svg+xml; charset=utf-8"}[Path(name).suffix]
            self.assertEqual(headers["Content-Type"], expected, name)
            status, headers, compressed = server.request(
                "GET", f"/assets/{version}/{name}", headers={"Accept-Encoding": "gzip"})
            self.assertEqual((status, headers["Content-Encoding"]), (200, "gzip"), name)
            self.assertEqual(gzip.decompress(compressed), asset, name)
            for encoding, size in (("whole", len(asset)), ("gzip", len(compressed))):
                if name in LAZY_ASSETS:
                    page = LAZY_ASSETS[name]
                    lazy_weight[encoding][page] = lazy_weight[encoding].get(page, 0) + size
                else:
                    weight[encoding] += size
        # Another version's assets are not served (a stale page must reload the page, not mix versions).
        status, _, _ = server.request("GET", f"/assets/0000000000000000/{Path(assets[-1]).name}")
        self.assertEqual(status, 404)
        status, _, _ = server.request("GET", f"/assets/{version}/../index.html")
        self.assertIn(status, (400, 404))
        # The pages that draw charts load charts.js too: /me, the maker's, and a package's (its scores' chart); a
        # play's and a room's load the title suggestions.
        pages = {
            "page": [], "playPage": ["play", "suggest"], "roomPage": ["room", "roomwire", "suggest"], "mePage": ["me", "charts"],
            "makerPage": ["make", "charts"], "packagePageWithChart": ["charts"], "dailyPage": ["daily", "play", "suggest"],
            "resultPage": ["result"], "screenPage": ["screen", "roomwire", "sound"],
        }
        for encoding, suffix in (("whole", ""), ("gzip", "Gzip")):
            for page, lazy in pages.items():
                metrics[f"{page}WeightBytes{suffix}"] = weight[encoding] + sum(lazy_weight[encoding][name] for name in lazy)
        metrics["chartsBytes"] = lazy_weight["whole"]["charts"]
        # "How to play": loaded before a browser's first play and by the "?", not with the page.
        metrics["howToBytes"], metrics["howToBytesGzip"] = lazy_weight["whole"]["howto"], lazy_weight["gzip"]["howto"]
        # What a phone downloads: gzip. A room's page holds the big screen's tools, teams and the answer pad.
        budgets = {
            "page": 20, "packagePageWithChart": 24, "playPage": 28, "roomPage": 37, "mePage": 30, "makerPage": 40,
            "dailyPage": 32, "resultPage": 22, "screenPage": 40,
        }
        for page, kilobytes in budgets.items():
            self.assertLess(metrics[f"{page}WeightBytesGzip"], kilobytes * 1024, f"{page} stays under {kilobytes} KB gzipped")
        # What the browser parses: the whole files.
        budgets = {
            # The maker parses more than the rest: the editor, its rules and drafts (phones download it gzipped).
            "page": 60, "packagePageWithChart": 60, "playPage": 80, "roomPage": 110, "mePage": 80, "makerPage": 120,
            "dailyPage": 90, "resultPage": 64,
            # A room's big screen, with its sound: the bound for a TV's browser.
            "screenPage": 120,
        }
        for page, kilobytes in budgets.items():
            self.assertLess(metrics[f"{page}WeightBytes"], kilobytes * 1024, f"{page} stays under {kilobytes} KB whole")

    def test_home_lists_packages_and_opens_a_share_code(self):
        page = self.new_page(DESKTOP)
        page.goto("/")
        page.locator("#packages li").first.wait_for()
        titles = page.locator("#packages .package-title").all_text_contents()
        self.assertIn("Web test: one silent classic", titles)
        self.assertIn(page.locator("h2").first.text_content(), ["Popular packages", "New packages"])
        page.locator("#daily-card a").wait_for()
        # The list follows the filters: the page's language at first, then words of a title and a level.
        self.assertEqual(page.get_by_label("Language").input_value(), "en")
        page.get_by_label("Title or maker").fill("one silent")
        page.get_by_label("Title or maker").press("Enter")
        expect(page.locator("#packages .package-title")).to_have_text(["Web test: one silent classic"])
        page.get_by_label("Level").select_option("expert")
        expect(page.locator("#packages li")).to_have_text(
            ["No package matches: try other words, or any language or level."])
        page.get_by_label("Level").select_option("beginner")
        expect(page.locator("#packages .package-title")).to_have_text(["Web test: one silent classic"])
        page.get_by_label("Share code").fill("nope")
        page.get_by_label("Share code").press("Enter")
        self.assertEqual(page.locator(".problem").text_content(),
                         "A share code is 6 letters and digits, like FE7NWW; a room code is 4, like K7QF.")
        page.get_by_label("Share code").fill(share_code.lower())
        with page.expect_navigation():
            page.get_by_label("Share code").press("Enter")
        self.assertTrue(page.url.endswith(f"/p/{share_code}"))

    def test_the_home_lists_only_packages_whose_posters_the_server_can_show(self):
        # The server's first probe of TMDB's image server (unreachable here) is over before the list is looked at.
        deadline = time.monotonic() + 20
        while json.loads(server.request("GET", "/readyz")[2])["tmdbImages"] == "unknown":
            self.assertLess(time.monotonic(), deadline, "the server never probed TMDB's image server")
            time.sleep(0.05)
        self.assertEqual(json.loads(server.request("GET", "/readyz")[2])["tmdbImages"], "unreachable")
        # The seed says which of its packages have TMDB posters (which cannot be shown now) and which bundled ones.
        seed = json.loads((REPOSITORY / "Seed/seed.json").read_text())
        bundled = {p["title"] for p in seed["packages"] if all(q["poster"] == "bundled" for q in p["quizzes"])}
        tmdb = {p["title"] for p in seed["packages"]} - bundled
        self.assertEqual((len(bundled), len(tmdb)), (2, 6))
        for viewport in (PHONE, DESKTOP):
            page = self.new_page(viewport)
            page.goto("/")
            page.get_by_label("Language").select_option("")
            # The list is marked busy from the change until the list for any language replaced the page's language's.
            expect(page.locator("#packages")).to_have_attribute("aria-busy", "false")
            expect(page.locator("#packages .package-title").first).to_be_visible()
            listed = set(page.locator("#packages .package-title").all_text_contents())
            self.assertTrue(bundled <= listed, listed)
            self.assertEqual(listed & tmdb, set(), "packages with TMDB posters are not offered")
            self.assertIn(session.package_title, listed)
            assert_seen(self, page.locator("#packages .package-title").first, f"the first package at {viewport}")

    def test_a_play_goes_from_one_quiz_to_the_next(self):
        status, _, body = server.request("POST", "/v1/players", {"name": "Two-quiz maker"})
        token = json.loads(body)["token"]
        spec = {"format": 1, "title": "Web test: two silent classics", "level": "beginner", "language": "en",
                "visibility": "unlisted",
                "quizzes": [{"movie": 19, "areas": AREAS}, {"movie": 653, "areas": [[27, 24], [41, 12], [64, 32]]}]}
        status, _, body = server.request("POST", "/v1/packages", spec, token)
        self.assertEqual(status, 201, body)
        code = json.loads(body)["shareCode"]
        page = self.new_page(PHONE)
        page.goto(f"/p/{code}")
        page.get_by_role("button", name="Start").click()
        expect(page.locator("#countdown")).to_have_text(re.compile(r"^Quiz 1 starts in [123] s$"))
        self.stage_shown(page, 1)
        expect(page.locator("#quiz-label")).to_have_text("Quiz 1 of 2")
        guess = page.get_by_label("Your guess")
        box = guess.bounding_box()
        self.assertLessEqual(box["y"] + box["height"], PHONE["height"], "the answer box is in view")
        # An on-screen keyboard shrinks the visual viewport (headless chromium has none, so its height is set as a
        # phone's would be): the answer box is lifted above it, and comes back down when it closes.
        keyboard_top = 500
        page.evaluate(f"""() => {{
          Object.defineProperty(visualViewport, 'height', {{ value: {keyboard_top}, configurable: true }});
          visualViewport.dispatchEvent(new Event('resize'));
        }}""")
        lifted = guess.bounding_box()
        self.assertLessEqual(lifted["y"] + lifted["height"], keyboard_top, "the answer box is above the keyboard")
        self.assertGreater(lifted["y"], keyboard_top - 200, "and just above it")
        page.evaluate("() => { delete visualViewport.height; visualViewport.dispatchEvent(new Event('resize')); }")
        self.assertEqual(guess.bounding_box(), box)
        guess.fill(ANSWER)
        guess.press("Enter")
        page.wait_for_selector('#verdict[data-outcome="solved"]')
        # Between quizzes: quiz 1's whole poster and a countdown, then quiz 2 from black.
        page.wait_for_selector('#poster[data-whole="true"]')
        expect(page.locator("#countdown")).to_have_text(re.compile(r"^Quiz 2 starts in [123] s$"))
        # Over quiz 1's poster the header still says quiz 1; it turns to quiz 2 with quiz 2's poster.
        self.assertEqual(page.locator("#quiz-label").text_content(), "Quiz 1 of 2")
        expect(page.locator("#quiz-label")).to_have_text("Quiz 2 of 2")
        page.wait_for_selector('#poster[data-stage="1"]:not([data-whole])')
        at_quiz_two = page.evaluate(AREA_MEANS, [AREAS[2:], COLUMNS, ROWS])
        for mean in at_quiz_two:
            self.assertLess(brightness(mean), 6, "quiz 1's poster is gone")
        # A phone's buttons say what they do, without the keyboard shortcut.
        page.get_by_role("button", name="Skip", exact=True).click()
        page.wait_for_selector('#verdict[data-outcome="skipped"]')
        self.assertEqual(
            page.locator("#verdict").text_content(), "Skipped: it was Nosferatu (Nosferatu, eine Symphonie des Grauens, 1922)")
        page.locator("#share-line").wait_for()
        self.assertEqual(page.locator("#end-solved").text_content(), "1 of 2 solved")
        self.assertRegex(page.locator("#share-line").text_content(), rf"^UQuiz {code} 1/2 🟩🟥 \d+ pts")

    def test_a_play_goes_on_when_the_server_comes_back(self):
        page = self.new_page(PHONE)
        page.goto(f"/p/{share_code}")
        page.get_by_role("button", name="Start").click()
        self.stage_shown(page, 1)
        # The server cannot be reached (every API request fails as a network error would): the page says so, in view.
        api = re.compile(r"/v1/")
        cut = lambda route: route.abort()
        page.route(api, cut)
        guess = page.get_by_label("Your guess")
        guess.fill(WRONG_GUESS)
        guess.press("Enter")
        verdict = page.locator("#verdict")
        expect(verdict).to_have_text(re.compile(r"^The server cannot be reached: trying again"))
        assert_seen(self, verdict, "the notice of a lost server")
        # It comes back: the page finds it by itself, sends the guess it kept (test_web_play_stumbles.py), and the play
        # goes on on the server's clock.
        page.unroute(api, cut)
        expect(verdict).to_have_text(f"\u201c{WRONG_GUESS}\u201d is not it.")
        self.stage_shown(page, 2)
        guess.fill(ANSWER)
        guess.press("Enter")
        page.wait_for_selector('#verdict[data-outcome="solved"]')

    def test_a_reload_goes_on_with_the_same_play(self):
        page = self.new_page(DESKTOP)
        started = []
        page.on("request", lambda r: r.method == "POST" and r.url.endswith("/plays") and started.append(r.url))
        page.goto(f"/p/{share_code}")
        page.get_by_role("button", name="Start").click()
        self.stage_shown(page, 1)
        page.reload()
        # The play goes on where the server's clock is: the stages reached so far are asked for at once.
        self.stage_shown(page, 1)
        self.assertEqual(len(started), 1, "no second play was started")
        guess = page.get_by_label("Your guess")
        guess.fill(ANSWER)
        guess.press("Enter")
        page.wait_for_selector('#verdict[data-outcome="solved"]')

    def test_an_unknown_code_says_so(self):
        page = self.new_page(PHONE)
        page.goto("/p/ZZZZZZ")
        expect(page.locator("#problem")).to_have_text("No package with this code here.")
        assert_seen(self, page.locator("#problem"), "the problem")
        self.assertEqual(page.get_by_role("button", name="Start").count(), 0)

    def test_a_package_is_reported_once_and_a_removed_one_says_so(self):
        page = self.new_page(PHONE)
        page.goto(f"/p/{share_code}")
        page.get_by_text("Report this package").click()
        page.get_by_label("What is wrong with it?").select_option("wrong_answer")
        page.get_by_label("Anything to add (optional)").fill("<b>the answer is another film</b>")
        page.get_by_role("button", name="Send the report").click()
        outcome = page.locator("#report-outcome")
        expect(outcome).to_have_text("Thank you: the moderators will look at it.")
        assert_seen(self, outcome, "the report's outcome")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "phone-report.png"))
        # The same browser's player again: one report per player and package.
        page.reload()
        page.get_by_text("Report this package").click()
        page.get_by_role("button", name="Send the report").click()
        expect(outcome).to_have_text("You reported this package already.")
        assert_seen(self, outcome, "the refusal")

        # A package a moderator removed: its link says so, at both sizes, and offers no Start.
        removed = session.server.publish("Removed maker", {
            "format": 1, "title": "Soon removed", "level": "beginner", "language": "en",
            "quizzes": [{"movie": 19, "areas": AREAS}],
        })
        hidden = subprocess.run(
            [UQUIZ, "admin", "hide", removed, "--reason", "browser test", "--db", str(session.server.folder / "uquiz.sqlite")],
            capture_output=True, text=True, env=sandbox_environment(session.server.folder), timeout=60)
        self.assertEqual(hidden.returncode, 0, hidden.stderr)
        for viewport in (PHONE, DESKTOP):
            page = self.new_page(viewport)
            page.goto(f"/p/{removed}")
            problem = page.locator("#problem")
            expect(problem).to_have_text("This package was removed by the moderators.")
            assert_seen(self, problem, "the removal")
            self.assertEqual(page.get_by_role("button", name="Start").count(), 0)

    def test_a_typed_path_with_no_page_is_a_page_that_says_so(self):
        page = self.new_page(PHONE)
        response = page.goto("/no/such/page")
        self.assertEqual(response.status, 404)
        heading = page.locator("h1")
        expect(heading).to_have_text("No page here.")
        assert_seen(self, heading, "the not-found heading")
        with page.expect_navigation():
            page.get_by_role("link", name="Go to the home page").click()
        page.locator("#packages li").first.wait_for()

    def test_korean_by_accept_language_and_the_switch(self):
        page = self.new_page(PHONE, locale="ko-KR")
        page.goto("/d")
        self.assertEqual(page.evaluate("document.documentElement.lang"), "ko")
        page.locator("#streak").wait_for()
        self.assertRegex(page.locator("h1").text_content(), r"^오늘의 퀴즈 #\d+$")
        self.assertEqual(page.locator("#streak").text_content(), "연속 0일 (최고 0일)")
        self.assertRegex(page.locator("main p").first.text_content(), r"(초급|중급|고급)")
        page.locator("#language-switch").click()
        self.assertEqual(page.evaluate("document.documentElement.lang"), "en")
        # The switch shows the English daily, drawn again from the server.
        expect(page.locator("#streak")).to_have_text("Streak: 0 (best 0)")
        expect(page.locator("h1")).to_have_text(re.compile(r"^Daily quiz #\d+$"))
        self.assertRegex(page.locator("main p").first.text_content(), r"(beginner|intermediate|expert)\.")

    def test_the_daily_quiz_is_played_once_with_the_streak(self):
        page = self.new_page(PHONE)
        page.goto("/d")
        expect(page.locator("h1")).to_have_text(re.compile(r"^Daily quiz #\d+$"))
        self.assertEqual(page.locator("#streak").text_content(), "Streak: 0 (best 0)")
        page.locator("#play-daily").click()
        # Skipped by its shortcut once the quiz has started (the shortcut does nothing before).
        page.wait_for_selector('#poster[data-stage="1"],#poster[data-stage="2"]')
        page.keyboard.press("Alt+KeyS")
        page.wait_for_selector('#verdict[data-outcome="skipped"]')
        self.assertRegex(page.locator("#verdict").text_content(), r"^Skipped: it was \S")
        share = page.locator("#share-line")
        share.wait_for()
        self.assertRegex(share.text_content(), r"^UQuiz daily #\d+ 0/1 🟥")
        self.assertTrue(share.text_content().endswith(f"{server.base_url}/d"))
        expect(page.locator("#end #streak")).to_have_text("Streak: 0 (best 0)")
        # Once a day: coming back shows the result, not a second play.
        page.goto("/d")
        expect(page.locator("main")).to_contain_text("You have played today\u2019s quiz: 0 points.")
        self.assertEqual(page.locator("#play-daily").count(), 0)

    def test_a_name_set_on_the_page_is_on_the_leaderboard_and_the_players_page(self):
        page = self.new_page(PHONE)
        page.goto("/me")
        expect(page.locator("#me-new")).to_contain_text("You have not played on this server yet.")
        name_box = page.get_by_label("Your name on leaderboards and podiums")
        name_box.fill("   ")
        name_box.press("Enter")
        expect(page.locator("#name-status")).to_have_text("A name is 1 to 24 characters.")
        name_box.fill("Ada Lovelace")
        page.get_by_role("button", name="Save").click()
        expect(page.locator("#name-status")).to_have_text("Saved: your name is now \u201cAda Lovelace\u201d.")
        for viewport in (PHONE, DESKTOP):
            page.set_viewport_size(viewport)
            assert_seen(self, page.locator("#name-status"), f"the saved name's status at {viewport}")
        expect(page.locator("#plays-summary")).to_have_text("0 plays · 0 points · 0 of 0 quizzes solved")

        # The package's page says who plays; the play's leaderboard shows the name.
        page.set_viewport_size(PHONE)
        page.goto(f"/p/{share_code}")
        expect(page.locator("#playing-as")).to_have_text("You play as \u201cAda Lovelace\u201d. Change your name")
        page.get_by_role("button", name="Start").click()
        self.stage_shown(page, 1)
        page.get_by_label("Your guess").fill(ANSWER)
        page.get_by_label("Your guess").press("Enter")
        expect(page.locator("#leaderboard tr.me")).to_contain_text("Ada Lovelace")

        # Renamed: the board says the new name for the play already made, and the player's page lists that play.
        page.goto("/me")
        expect(page.get_by_label("Your name on leaderboards and podiums")).to_have_value("Ada Lovelace")
        page.get_by_label("Your name on leaderboards and podiums").fill("Ada L.")
        page.get_by_role("button", name="Save").click()
        expect(page.locator("#name-status")).to_have_text("Saved: your name is now \u201cAda L.\u201d.")
        expect(page.locator("#plays-summary")).to_have_text(re.compile(r"^1 play · \d+ points · 1 of 1 quizzes solved$"))
        first = page.locator("#recent-plays li").first
        expect(first.locator("a")).to_have_text(session.package_title)
        expect(first).to_contain_text("1 of 1 solved, ranked")
        assert_seen(self, first, "the latest play on the player's page")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "me-phone.png"))
        token = json.loads(page.evaluate("localStorage.getItem('uquiz.player')"))["token"]
        status, _, body = server.request("GET", f"/v1/packages/{share_code}/leaderboard?around=me", token=token)
        self.assertEqual(json.loads(body)["me"]["player"], "Ada L.", body)
        page.goto(f"/p/{share_code}")
        expect(page.locator("#playing-as")).to_have_text("You play as \u201cAda L.\u201d. Change your name")
        # The package's page lists its best players (at most three), the new name among them.
        best = page.locator("#best-players li")
        expect(best.filter(has_text="Ada L.")).to_have_count(1)
        self.assertLessEqual(best.count(), 3)

    def test_a_player_moves_to_another_device_with_a_one_time_code(self):
        phone = self.new_page(PHONE)
        phone.goto("/me")
        phone.get_by_label("Your name on leaderboards and podiums").fill("Linker")
        phone.get_by_role("button", name="Save").click()
        expect(phone.locator("#name-status")).to_have_text("Saved: your name is now \u201cLinker\u201d.")
        phone.get_by_role("button", name="Use this player on another device").click()
        expect(phone.locator("#link-code")).to_contain_text("Type this code on your other device\u2019s \u201cYou\u201d page. It works once, for 10 minutes.")
        shown = phone.locator("#link-code-value")
        expect(shown).to_have_text(re.compile(r"^\w{4}-\w{4}$"))
        assert_seen(self, shown, "the link code")
        box = shown.bounding_box()
        self.assertLess(box["height"], 2 * 1.6 * 16, "the code on one line, never broken")
        self.assertLessEqual(box["x"] + box["width"], PHONE["width"], "the code within the phone's width")
        assert_seen(self, phone.locator("#copy-link-code"), "its Copy button")
        self.assertNotIn("uquiz login", phone.locator("#link-code").text_content(), "a web user is not sent to the terminal")
        code = shown.text_content()

        # The other device scans the code's QR code: the page opens there with the code filled in.
        qr = phone.locator("#link-code-qr")
        qr.scroll_into_view_if_needed()
        assert_seen(self, qr, "the link code's QR code")
        link = read_qr(qr)
        self.assertEqual(link, f"{server.base_url}/me?link={code}")
        desktop = self.new_page(DESKTOP)
        desktop.goto(link)
        expect(desktop.get_by_label("A code from your other device")).to_have_value(code)
        self.assertTrue(desktop.url.endswith("/me"), "the code is gone from the address")
        desktop.get_by_role("button", name="Become that player here").click()
        status = desktop.locator("#link-status")
        expect(status).to_have_text("This browser now plays as \u201cLinker\u201d.")
        assert_seen(self, status, "the linked player")
        expect(desktop.get_by_label("Your name on leaderboards and podiums")).to_have_value("Linker")
        stored = lambda page: json.loads(page.evaluate("localStorage.getItem('uquiz.player')"))
        self.assertEqual(stored(desktop)["id"], stored(phone)["id"], "the same player")
        self.assertNotEqual(stored(desktop)["token"], stored(phone)["token"], "with a token of this browser's own")

        third = self.new_page(PHONE)
        third.goto("/me")
        third.get_by_label("A code from your other device").fill(code)
        third.get_by_role("button", name="Become that player here").click()
        refused = third.locator("#link-status")
        expect(refused).to_have_text(re.compile("^No such code: it lasts 10 minutes and works once."))
        assert_seen(self, refused, "the spent code's refusal")

    def test_text_from_the_api_is_never_html(self):
        status, _, body = server.request("POST", "/v1/players", {"name": "Html maker"})
        token = json.loads(body)["token"]
        hostile = "<img src=x onerror=alert(1)><b>bold</b>"
        spec = {"format": 1, "title": hostile, "level": "beginner", "language": "en",
                "quizzes": [{"movie": 19, "areas": AREAS[:1]}]}
        status, _, body = server.request("POST", "/v1/packages", spec, token)
        self.assertEqual(status, 201, body)
        page = self.new_page(DESKTOP)
        page.goto("/")
        page.locator("#packages li").first.wait_for()
        self.assertIn(hostile, page.locator("#packages .package-title").all_text_contents())
        self.assertEqual(page.locator("#packages img, #packages b").count(), 0)


if __name__ == "__main__":
    unittest.main()
