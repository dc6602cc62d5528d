"""The charts the web page draws (charts.js) in a real browser against the real `uquiz serve`: what a person sees (the
figure in view, uncovered, labels apart, no sideways scroll on a phone) and what a screen reader reads (the SVG's title
and description, the table of the numbers), compared with the plays made through the page.

Player's page (`/me`): the score of each play, the stage of the solves, the daily quiz calendar. The maker's packages:
solve rate, hint use and the stage of the solves, per quiz. A package's leaderboard (its page and the end of a play):
the scores in bins with "You are here".
"""

import json
import re
import unittest

from playwright.sync_api import expect

from harness import ANSWER, AREAS, DESKTOP, PHONE, SCREENSHOTS, Session, assert_seen

session = None
server = None

# The rendered boxes of a figure's SVG texts: pairs that overlap, the smallest height, any outside the drawing.
TEXT_BOXES = """
(figure) => {
  const svg = figure.querySelector('svg[role=img]').getBoundingClientRect();
  const boxes = [...figure.querySelectorAll('svg[role=img] text')].map((text) => [text.textContent, text.getBoundingClientRect()]);
  const overlapping = [];
  boxes.forEach(([a, one], i) => boxes.slice(i + 1).forEach(([b, other]) => {
    const x = Math.min(one.right, other.right) - Math.max(one.left, other.left);
    const y = Math.min(one.bottom, other.bottom) - Math.max(one.top, other.top);
    if (x > 1 && y > 1) overlapping.push(`${a} / ${b}`);
  }));
  return {
    overlapping, count: boxes.length, smallest: Math.min(...boxes.map(([, box]) => box.height)),
    outside: boxes.filter(([, box]) => box.left < svg.left - 1 || box.right > svg.right + 1).map(([text]) => text),
  };
}
"""

# How far the page scrolls sideways (0: not at all).
SIDEWAYS = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


def setUpModule():
    global session, server
    session = Session()
    server = session.server


def tearDownModule():
    if session:
        session.close()


def table_rows(figure):
    """The accessible table's rows under its header, each as its cells' texts."""
    return [[cell.strip() for cell in row.locator("th, td").all_text_contents()]
            for row in figure.locator("table tbody tr").all()]


class WebChartTests(unittest.TestCase):
    def play(self, page, path, how, answer=ANSWER):
        """Plays the one quiz at `path` (a package's page or `/d`): "solve", "hint" (the hint, then the answer) or
        "skip". The score, the stage it was solved at (None if not) and the verdict's last words."""
        page.goto(path)
        page.locator("#start-play, #play-daily").click()
        page.wait_for_selector(",".join(f'#poster[data-stage="{k}"]' for k in range(1, 11)))
        if how == "skip":
            page.get_by_role("button", name="Skip").click()
        else:
            if how == "hint":
                page.get_by_role("button", name="Hint").click()
                expect(page.locator("#hint")).to_have_text(re.compile(r"^Hint: \S"))
            page.get_by_label("Your guess").fill(answer)
            page.get_by_label("Your guess").press("Enter")
        page.locator("#share-line").wait_for()
        score = int(re.fullmatch(r"(\d+) points", page.locator("#end-score").text_content()).group(1))
        stage = re.search(r"solved at stage (\d+)", page.locator("#recap li").first.text_content())
        return score, stage and int(stage.group(1)), page.locator("#verdict").text_content()

    def assert_figure(self, page, figure, what, values=None, scale=None):
        """The figure is seen when scrolled to, its SVG named and described as its caption says, its labels apart and
        readable, its bars (if `values`, on a scale of `scale`, else of the largest) as tall as their values say, and
        the page does not scroll sideways."""
        if values is not None:
            bars = figure.locator("rect.column")
            heights = [bars.nth(i).bounding_box()["height"] for i in range(bars.count())]
            shown = [value for value in values if value > 0]
            self.assertEqual(len(heights), len(shown), f"{what}: a bar for each value above 0")
            for height, value in zip(heights, shown):
                self.assertAlmostEqual(height / max(heights), value / max(shown), delta=0.03, msg=f"{what}: {heights} {values}")
            svg_height = figure.locator("svg[role=img]").bounding_box()["height"]
            self.assertGreater(max(heights), svg_height / 2 * max(shown) / (scale or max(shown)),
                               f"{what}: the tallest bar fills the drawing's height as its value does the scale")
        figure.scroll_into_view_if_needed()
        assert_seen(self, figure.locator("svg[role=img]"), f"{what}'s drawing")
        assert_seen(self, figure.locator("figcaption"), f"{what}'s caption")
        svg = figure.locator("svg[role=img]")
        title, desc = svg.locator("title"), svg.locator("desc")
        self.assertEqual(svg.get_attribute("aria-labelledby"), title.get_attribute("id"))
        self.assertEqual(svg.get_attribute("aria-describedby"), desc.get_attribute("id"))
        self.assertEqual(title.text_content(), figure.locator("figcaption strong").text_content())
        self.assertEqual(desc.text_content(), figure.locator(".chart-summary").text_content())
        self.assertTrue(desc.text_content(), f"{what} has a summary")
        self.assertEqual(figure.locator("table caption").text_content(), title.text_content())
        self.assertGreater(figure.locator("table thead th[scope=col]").count(), 1)
        self.assertEqual(figure.locator("table tbody th[scope=row]").count(), figure.locator("table tbody tr").count())
        # The table is for screen readers: laid out (not display:none), in a box of no size to the eye.
        self.assertIsNotNone(figure.locator("table").bounding_box(), f"{what}'s table is rendered")
        box = figure.locator(".visually-hidden:has(> table)").bounding_box()
        self.assertLessEqual(box["width"] * box["height"], 1, f"{what}'s table is hidden from the eye")
        self.assertEqual(figure.get_by_role("table").count(), 1, f"{what}'s table is in the accessibility tree")
        texts = figure.evaluate(TEXT_BOXES)
        self.assertGreater(texts["count"], 0)
        self.assertEqual(texts["overlapping"], [], f"{what}: labels overlap at {page.viewport_size}")
        self.assertEqual(texts["outside"], [], f"{what}: labels outside the drawing at {page.viewport_size}")
        self.assertGreaterEqual(texts["smallest"], 10, f"{what}: labels too small at {page.viewport_size}")
        self.assertLessEqual(page.evaluate(SIDEWAYS), 0, f"the page scrolls sideways at {page.viewport_size}")

    def test_your_page_draws_your_plays_and_daily_quizzes(self):
        other_code = server.publish("Chart maker", {
            "format": 1, "title": "Chart test: a second classic", "level": "beginner", "language": "en",
            "quizzes": [{"movie": 653, "areas": AREAS}],
        })
        phone = session.new_page(self, PHONE)
        _, stage, _ = self.play(phone, f"/p/{session.share_code}", "solve")
        self.assertIsNotNone(stage)
        self.play(phone, f"/p/{other_code}", "skip")
        # Today's daily quiz, skipped: its answer is said, with which a second person solves it.
        daily_score, _, said = self.play(phone, "/d", "skip")
        self.assertEqual(daily_score, 0)
        # The verdict names the title, then in brackets its original title (when another) and its year.
        answer = re.fullmatch(r"Skipped: it was (.+?)(?: \((?:[^()]+, )?\d{4}\))?", said).group(1)
        desktop = session.new_page(self, DESKTOP)
        _, solver_stage, _ = self.play(desktop, "/d", "solve", answer=answer)
        self.assertIsNotNone(solver_stage, "the daily quiz solved with the answer it said")
        _, hint_stage, _ = self.play(desktop, f"/p/{other_code}", "hint", answer="Nosferatu")
        self.assertIsNotNone(hint_stage)
        status, _, body = server.request("GET", "/v1/daily")
        today = json.loads(body)["day"]

        for page, name in ((phone, "skipper"), (desktop, "solver")):
            page.goto("/me")
            page.locator("#recent-plays li").first.wait_for()
            # The score of each play, oldest first: the plays' list, newest first, read backwards.
            plays = page.locator("#recent-plays li")
            listed = [(plays.nth(i).locator(".package-title").text_content(),
                       int(re.match(r"(\d+) points", plays.nth(i).locator(".meta").text_content()).group(1)))
                      for i in range(plays.count())]
            scores = page.locator("#score-history")
            expect(scores.locator("figcaption strong")).to_have_text("Your score per play")
            rows = table_rows(scores)
            self.assertEqual([(row[1], int(row[3])) for row in rows], list(reversed(listed)), name)
            self.assertEqual([row[0] for row in rows], [str(n) for n in range(1, len(listed) + 1)])
            self.assertEqual(scores.locator("circle.point").count(), len(listed))
            expect(scores.locator(".chart-summary")).to_have_text(
                f"Your latest play scored {listed[0][1]}; your best of these {len(listed)} plays scored "
                f"{max(score for _, score in listed)}.")

            # The stage of the solves: the one solve of each, at the stage the end of its play said.
            stages = page.locator("#stage-chart")
            expect(stages.locator("figcaption strong")).to_have_text("The stage you solve at")
            solves = {}
            for at in {"skipper": [stage], "solver": [solver_stage, hint_stage]}[name]:
                solves[at] = solves.get(at, 0) + 1
            last = max(solves)
            self.assertEqual(table_rows(stages), [[str(k), str(solves.get(k, 0))] for k in range(1, last + 1)], name)
            self.assertEqual(stages.locator("rect.column").count(), len(solves))
            most = min(solves, key=lambda k: (-solves[k], k))
            expect(stages.locator("svg desc")).to_have_text(
                f"Most of your solves came at stage {most}: {solves[most]} of {sum(solves.values())}.")

            # The daily quiz calendar: 35 days, today last and marked, as the daily play went; the streak.
            calendar = page.locator("#daily-calendar")
            expect(calendar.locator("figcaption strong")).to_have_text("Daily quiz calendar")
            days = table_rows(calendar)
            self.assertEqual(len(days), 35)
            outcome = {"skipper": "played, not solved", "solver": "solved"}[name]
            streak = {"skipper": 0, "solver": 1}[name]
            self.assertEqual(days[-1][1], outcome, name)
            self.assertTrue(days[-1][0].endswith("(today)"), days[-1])
            self.assertEqual(calendar.locator("tr.today").count(), 1)
            self.assertEqual([row[1] for row in days[:-1]], ["no play"] * 34)
            # The 35 squares, then the ring around today's.
            squares = calendar.locator("svg[role=img] rect.day")
            self.assertEqual(squares.count(), 36)
            self.assertEqual(squares.nth(34).get_attribute("class"), {"skipper": "day played", "solver": "day solved"}[name])
            self.assertEqual(squares.nth(35).get_attribute("class"), "day today")
            expect(calendar.locator(".chart-summary")).to_have_text(
                f"In the last 35 days you played 1 daily quiz and solved {1 if name == 'solver' else 0}; "
                f"streak {streak} (best {streak}).")
            expect(page.locator("#my-streak")).to_have_text(f"Daily streak: {streak} (best {streak})")
            expect(calendar.locator(".chart-legend")).to_have_text(re.compile("solved.*played, not solved.*no play.*today"))
            self.assertEqual(today, page.evaluate("new Date().toISOString().slice(0, 10)"), "the server's day is the page's")

            for viewport in (PHONE, DESKTOP):
                page.set_viewport_size(viewport)
                self.assert_figure(page, scores, f"{name}'s scores")
                self.assert_figure(page, stages, f"{name}'s stages", values=[solves.get(k, 0) for k in range(1, last + 1)])
                self.assert_figure(page, calendar, f"{name}'s calendar")
            if name == "solver":
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                # The phone's screen at the charts; the desktop's section of plays, charts and all.
                page.set_viewport_size(PHONE)
                page.locator("#score-history").evaluate("(figure) => figure.scrollIntoView({block: 'start'})")
                page.screenshot(path=str(SCREENSHOTS / "me-charts-phone.png"))
                page.set_viewport_size(DESKTOP)
                page.locator("#my-plays").screenshot(path=str(SCREENSHOTS / "me-charts-desktop.png"))

    def test_a_makers_packages_chart_how_each_quiz_fares(self):
        maker = session.new_page(self, PHONE)
        maker.goto("/me")
        maker.get_by_label("Your name on leaderboards and podiums").fill("Chart maker")
        maker.get_by_role("button", name="Save").click()
        expect(maker.locator("#name-status")).to_have_text("Saved: your name is now \u201cChart maker\u201d.")
        token = json.loads(maker.evaluate("localStorage.getItem('uquiz.player')"))["token"]
        status, _, body = server.request("POST", "/v1/packages", {
            "format": 1, "title": "Chart test: the maker's", "level": "beginner", "language": "en", "visibility": "unlisted",
            "quizzes": [{"movie": 19, "areas": AREAS}],
        }, token)
        self.assertEqual(status, 201, body)
        code = json.loads(body)["shareCode"]
        # One person solves it with the hint, another gives up.
        _, stage, _ = self.play(session.new_page(self, DESKTOP), f"/p/{code}", "hint")
        self.assertIsNotNone(stage)
        self.play(session.new_page(self, PHONE), f"/p/{code}", "skip")

        maker.goto("/make")
        mine = maker.locator(f'#my-packages li[data-code="{code}"]')
        mine.get_by_text("How each quiz fares").click()
        expect(mine.locator(".maker-stats li span").first).to_have_text(
            f"Metropolis (quiz 1): solved 1 of 2 (50%), at stage {stage}.0 on average, hint asked 1 times")
        rate = mine.locator("figure.solve-rate")
        expect(rate.locator("figcaption strong")).to_have_text("Solve rate per quiz")
        self.assertEqual(table_rows(rate), [["Metropolis (quiz 1)", "50%", "1 of 2"]])
        expect(rate.locator("svg text.value")).to_have_text("50%")
        expect(rate.locator(".chart-summary")).to_have_text("Quiz 1 is solved in 50% of its attempts.")
        hints = mine.locator("figure.hints")
        expect(hints.locator("figcaption strong")).to_have_text("Hint use per quiz")
        self.assertEqual(table_rows(hints), [["Metropolis (quiz 1)", "1 of 2"]])
        expect(hints.locator(".chart-summary")).to_have_text("The hint was asked in 1 of 2 attempts.")
        stages = mine.locator("figure.quiz-stages")
        expect(stages).to_have_count(1)
        expect(stages.locator("figcaption strong")).to_have_text("Quiz 1: the stage players solve at")
        # From stage 1 to the quiz's last, the one solve at the stage its play said.
        self.assertEqual(table_rows(stages), [[str(k), "1" if k == stage else "0"] for k in range(1, len(AREAS) + 1)])
        expect(stages.locator("svg desc")).to_have_text(f"Most solves came at stage {stage}: 1 of 1.")
        expect(mine.get_by_role("heading", name="The stage players solve each quiz at")).to_be_visible()
        for viewport in (PHONE, DESKTOP):
            maker.set_viewport_size(viewport)
            self.assert_figure(maker, rate, "the solve rate", values=[50], scale=100)
            self.assert_figure(maker, hints, "the hint use", values=[50], scale=100)
            self.assert_figure(maker, stages, "quiz 1's stages", values=[int(k == stage) for k in range(1, len(AREAS) + 1)])
            mine.screenshot(path=str(SCREENSHOTS / f"maker-charts-{viewport['width']}.png"))

    def test_a_leaderboard_says_where_you_are_among_the_scores(self):
        code = server.publish("Board maker", {
            "format": 1, "title": "Chart test: ranked", "level": "beginner", "language": "en",
            "quizzes": [{"movie": 19, "areas": AREAS}],
        })
        players = [session.new_page(self, PHONE), session.new_page(self, DESKTOP), session.new_page(self, PHONE)]
        scores = [self.play(page, f"/p/{code}", how)[0] for page, how in zip(players, ("solve", "hint", "skip"))]
        self.assertEqual(scores[2], 0)

        # The end of the last play: the scores' chart under the leaderboard, this play's bin marked.
        end = players[2].locator("#leaderboard #score-chart")
        expect(end.locator("text.here")).to_have_text("You are here")
        self.assert_here(players[2], end, 0, 3)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        players[2].screenshot(path=str(SCREENSHOTS / "play-end-scores-chart-phone.png"))

        for page, score in zip(players, scores):
            page.goto(f"/p/{code}")
            chart = page.locator("#best #score-chart")
            expect(chart.locator("figcaption strong")).to_have_text("Scores of the ranked plays")
            for viewport in (PHONE, DESKTOP):
                page.set_viewport_size(viewport)
                self.assert_figure(page, chart, f"the scores' chart of a player who scored {score}",
                                   values=[int(row[1]) for row in table_rows(chart)])
                self.assert_here(page, chart, score, 3)
                chart.screenshot(path=str(SCREENSHOTS / f"scores-chart-{score}-{viewport['width']}.png"))
            rows = table_rows(chart)
            ranges = [tuple(int(n) for n in re.match(r"(\d+)–(\d+)", row[0]).groups()) for row in rows]
            low, high = next((low, high) for low, high in ranges if low <= score <= high)
            holding = sum(int(row[1]) for row, (first, _) in zip(rows, ranges) if first == low)
            expect(chart.locator(".chart-summary")).to_have_text(
                f"3 ranked plays, scoring 0 to {ranges[-1][1]}. You scored {score}, in {low}–{high}: {holding} of 3.")
        # The chart's words follow the language switch, the drawing's too.
        page.locator("#language-switch").click()
        expect(chart.locator("figcaption strong")).to_have_text("순위에 든 플레이의 점수")
        expect(chart.locator("svg[role=img] title")).to_have_text("순위에 든 플레이의 점수")
        expect(chart.locator("text.here")).to_have_text("나는 여기")
        expect(chart.locator("tr.here th")).to_have_text(re.compile(r"\(나는 여기\)$"))
        # Someone who has not played sees the scores without a mark.
        stranger = session.new_page(self, PHONE)
        stranger.goto(f"/p/{code}")
        chart = stranger.locator("#best #score-chart")
        expect(chart.locator(".chart-summary")).to_have_text(f"3 ranked plays, scoring 0 to {ranges[-1][1]}.")
        self.assertEqual(sum(int(row[1]) for row in table_rows(chart)), 3)
        self.assertEqual(chart.locator("text.here, tr.here").count(), 0)

    def assert_here(self, page, chart, score, ranked):
        """The bins' plays add up to the ranked plays; the one bin holding `score` is marked, in the table and in the
        drawing, where "You are here" stands over its bar and is seen."""
        rows = table_rows(chart)
        self.assertEqual(sum(int(row[1]) for row in rows), ranked, rows)
        bins = [tuple(int(n) for n in re.match(r"(\d+)–(\d+)", row[0]).groups()) for row in rows]
        holding = [i for i, (low, high) in enumerate(bins) if low <= score <= high]
        self.assertEqual(len(holding), 1, bins)
        marked = chart.locator("table tbody tr")
        self.assertEqual([i for i in range(marked.count()) if marked.nth(i).get_attribute("class") == "here"], holding)
        self.assertTrue(rows[holding[0]][0].endswith("(you are here)"), rows[holding[0]])
        self.assertEqual(marked.nth(holding[0]).get_attribute("aria-current"), "true")
        label = chart.locator("text.here")
        expect(label).to_have_text("You are here")
        label.scroll_into_view_if_needed()
        assert_seen(self, label, f"'You are here' at {page.viewport_size}")
        # Over the right bar: the bars are drawn in the bins' order, the marked one among them.
        bar = chart.locator("rect.column.here")
        expect(bar).to_have_count(1)
        drawn = chart.locator("rect.column")
        lows = [low for (low, _), row in zip(bins, rows) if int(row[1]) > 0]
        self.assertEqual(lows.index(bins[holding[0]][0]),
                         [drawn.nth(i).get_attribute("class") for i in range(drawn.count())].index("column here"))
        mark, over = chart.locator("path.here").bounding_box(), bar.bounding_box()
        self.assertAlmostEqual(mark["x"] + mark["width"] / 2, over["x"] + over["width"] / 2, delta=1)


if __name__ == "__main__":
    unittest.main()
