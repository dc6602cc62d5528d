"""The maker's stumbles a new person's walkthrough found on a phone and a desktop, each checked as a person sees it: a
draft that is not here, a tap at the edge or on another area, the preview's buttons on a narrow phone, the form's
boxes, a poster whose language nobody knows, a reload right after typing, the published state, the maker's name, and
a played package's edit (the movies' titles, what may change, and one sentence when a play comes meanwhile).

Movie search answers from the server's catalog (TMDB is unreachable here) and the posters are the bundled ones.
"""

import json
import re
import unittest

from playwright.sync_api import expect

from harness import AREAS, DESKTOP, PHONE, SCREENSHOTS, Session, assert_seen
from test_web_maker import cell_point

session = None
RIGHT = "rgb(91, 217, 138)"
WRONG = "rgb(255, 107, 91)"


def setUpModule():
    global session
    session = Session(arguments=["--limit", "publishes-per-player=30/60"])


def tearDownModule():
    if session:
        session.close()


def player(page):
    return json.loads(page.evaluate("localStorage.getItem('uquiz.player')"))


def api(page, method, path, body=None):
    """A request as the page's guest player: the answer's JSON."""
    status, _, answer = session.server.request(method, path, body, player(page)["token"])
    assert status < 300, (status, answer)
    return json.loads(answer) if answer else None


def spec(package_title, areas, **quiz):
    return {"format": 1, "title": package_title, "level": "beginner", "language": "en", "visibility": "unlisted",
            "quizzes": [{"movie": 19, "areas": areas, **quiz}]}


class WebMakerStumbleTests(unittest.TestCase):
    def maker_page(self, viewport):
        page = session.new_page(self, viewport)
        page.goto("/make")
        expect(page.get_by_role("button", name="Start a new package")).to_be_visible()
        return page

    def open_draft(self, viewport, title="A draft", areas=(), **quiz):
        """A page on a draft of one quiz of Metropolis made through the API as the page's player."""
        page = self.maker_page(viewport)
        draft = api(page, "POST", "/v1/drafts", spec(title, [list(area) for area in areas], title="Metropolis", **quiz))
        page.goto(f"/make?draft={draft['id']}")
        expect(page.locator("#quiz-1 .maker-board img")).to_have_attribute("src", re.compile(r"^blob:"))
        return page, draft["id"]

    def make_on_the_page(self, page, title, maker=None):
        """Makes a one-quiz package of Metropolis with three areas by tapping or clicking, and publishes it: its code."""
        page.get_by_role("button", name="Start a new package").click()
        expect(page).to_have_url(re.compile(r"/make\?draft=\d+$"))
        page.get_by_label("Title", exact=True).fill(title)
        if maker:
            page.get_by_label("Maker name (shown on the package)").fill(maker)
        page.get_by_label("Add a movie: title").fill("Metropolis")
        page.get_by_label("Add a movie: title").press("Enter")
        page.get_by_role("button", name=re.compile(r"^Metropolis \(1927\)")).click()
        board = page.locator("#quiz-1 .maker-board")
        expect(board.locator("img")).to_have_attribute("src", re.compile(r"^blob:"))
        for number, (row, column) in enumerate(AREAS[:3], start=1):
            board.click(position=cell_point(board, row, column))
            expect(page.locator("#quiz-1 .maker-areas li")).to_have_count(number)
        expect(page.locator("#draft-problem")).to_have_text("Ready to publish.")
        page.get_by_role("button", name="Publish").click()
        link = page.locator("#published a")
        expect(link).to_be_visible()
        return link.get_attribute("href").rsplit("/", 1)[1]

    def play_and_skip(self, code, finish=True):
        """Another person starts a play of `code` and, when `finish`, skips its quiz to the end."""
        other = session.new_page(self, DESKTOP)
        other.goto(f"/p/{code}")
        other.get_by_role("button", name="Start").click()
        other.wait_for_selector(",".join(f'#poster[data-stage="{k}"]' for k in range(1, 4)))
        if finish:
            other.get_by_role("button", name="Skip").click()
            expect(other.get_by_text("Play over")).to_be_visible()

    def test_a_draft_that_is_not_here_says_so_with_the_ways_on(self):
        for viewport in (PHONE, DESKTOP):
            page = self.maker_page(viewport)
            # One published already (its draft is gone), and one that never was.
            draft = api(page, "POST", "/v1/drafts", spec("Published before the reload", AREAS[:3]))
            api(page, "POST", f"/v1/drafts/{draft['id']}/publish")
            for wanted in (draft["id"], 987654):
                page.goto(f"/make?draft={wanted}")
                said = page.locator("#make-missing")
                expect(said).to_have_text(
                    "This draft is not here: it was published or deleted, or it is another player\u2019s.")
                assert_seen(self, said, f"why the draft is not shown at {viewport}")
                assert_seen(self, page.get_by_role("link", name="Your packages"), f"the way to one's packages at {viewport}")
            # The way on: a new package.
            start = page.get_by_role("button", name="Start a new package")
            assert_seen(self, start, f"the way to a new package at {viewport}")
            start.click()
            expect(page).to_have_url(re.compile(r"/make\?draft=\d+$"))
            expect(page.get_by_label("Title", exact=True)).to_be_visible()

    def test_the_list_of_drafts_says_until_when_each_is_kept(self):
        for viewport in (PHONE, DESKTOP):
            page = self.maker_page(viewport)
            draft = api(page, "POST", "/v1/drafts", spec("Left for later", AREAS[:1]))
            page.goto("/make")
            item = page.locator("#drafts li", has_text="Left for later")
            until = page.evaluate("(at) => new Date(at).toLocaleDateString('en')", draft["expiresAt"])
            kept = item.locator(".draft-expiry")
            expect(kept).to_have_text(f"kept until {until} unless you change it")
            assert_seen(self, kept, f"until when a draft is kept at {viewport}")

    def test_a_tap_at_the_edge_or_on_another_area_is_refused_before_placing(self):
        for viewport in (PHONE, DESKTOP):
            page, _ = self.open_draft(viewport)
            quiz = page.locator("#quiz-1")
            board = quiz.locator(".maker-board")
            tap = board.tap if viewport is PHONE else board.click
            note = quiz.locator(".problem")
            for row, column in ((0, 25), (37, 48), (73, 2)):
                tap(position=cell_point(board, row, column))
                expect(note).to_have_text("Too close to the edge: an area\u2019s centre stays 4 cells inside it.")
                assert_seen(self, note, f"the edge's refusal at {viewport}")
            expect(quiz.locator(".maker-areas li")).to_have_count(0)
            tap(position=cell_point(board, 37, 25))
            expect(quiz.locator(".maker-areas li")).to_have_count(1)
            # Beside the first area, sharing cells with it (not on it, which picks it up).
            tap(position=cell_point(board, 40, 28))
            expect(note).to_have_text("Too close to stage 1\u2019s area: areas may not share cells.")
            assert_seen(self, note, f"the overlap's refusal at {viewport}")
            expect(quiz.locator(".maker-areas li")).to_have_count(1)
            tap(position=cell_point(board, 37, 30))
            expect(quiz.locator(".maker-areas li")).to_have_count(2)
            # Ready is said as a success, not as a problem.
            ready = page.locator("#draft-problem")
            expect(ready).to_have_text("Ready to publish.")
            expect(ready).to_have_css("color", RIGHT)
            ready.scroll_into_view_if_needed()
            assert_seen(self, ready, f"ready to publish at {viewport}")

    def test_the_preview_buttons_fit_a_phone(self):
        page, _ = self.open_draft(PHONE, areas=AREAS)
        previews = page.locator("#quiz-1 .maker-previews button")
        expect(previews).to_have_count(len(AREAS) + 1)
        for viewport in ({"width": 390, "height": 844}, {"width": 320, "height": 640}, DESKTOP):
            page.set_viewport_size(viewport)
            self.assertLessEqual(page.evaluate("document.documentElement.scrollWidth"), viewport["width"],
                                 f"the page does not scroll sideways at {viewport}")
            rights = previews.evaluate_all("(buttons) => buttons.map((button) => button.getBoundingClientRect().right)")
            self.assertLessEqual(max(rights), viewport["width"], f"every preview button fits at {viewport}")
            play = page.get_by_role("button", name="Play the preview")
            play.scroll_into_view_if_needed()
            assert_seen(self, play, f"Play the preview at {viewport}")

    def test_the_year_the_file_picker_and_the_answers_look_like_the_rest_of_the_form(self):
        page, _ = self.open_draft(PHONE, areas=AREAS[:1])
        style = """([node, pseudo]) => { const s = getComputedStyle(node, pseudo);
          return [s.backgroundColor, s.color, s.borderTopColor, s.borderTopLeftRadius, s.minHeight]; }"""
        for viewport in (PHONE, DESKTOP):
            page.set_viewport_size(viewport)
            year = page.get_by_label("Year (if you know it)")
            title = page.get_by_label("Title", exact=True)
            self.assertEqual(year.evaluate(f"(node) => ({style})([node, null])"),
                             title.evaluate(f"(node) => ({style})([node, null])"), f"the year box is a text box at {viewport}")
            year.scroll_into_view_if_needed()
            assert_seen(self, year, f"the year box at {viewport}")
            picker = page.get_by_label(re.compile(r"^Or your own poster"))
            search = page.get_by_role("button", name="Search", exact=True)
            self.assertEqual(picker.evaluate(f"(node) => ({style})([node, '::file-selector-button'])")[:4],
                             search.evaluate(f"(node) => ({style})([node, null])")[:4],
                             f"the file picker's button is a button at {viewport}")
            answers = page.get_by_label(re.compile(r"^Also accepted"))
            label = page.locator("#quiz-1 label[for='aliases-1']")
            answers.scroll_into_view_if_needed()
            assert_seen(self, label, f"Also accepted's label at {viewport}")
            self.assertLessEqual(label.bounding_box()["y"] + label.bounding_box()["height"],
                                 answers.bounding_box()["y"] + 1, f"Also accepted's label is above its box at {viewport}")

    def test_a_poster_whose_language_nobody_knows_is_not_called_textless(self):
        for viewport in (PHONE, DESKTOP):
            page, _ = self.open_draft(viewport)
            page.get_by_role("button", name="Choose another poster").click()
            choice = page.locator("#quiz-1 .maker-choice")
            expect(choice).to_have_count(1)
            expect(choice).to_have_attribute("aria-label", "Poster 1: language unknown")
            caption = choice.get_by_text("language unknown")
            caption.scroll_into_view_if_needed()
            assert_seen(self, caption, f"the poster's language at {viewport}")

    def test_a_reload_right_after_typing_keeps_the_edit(self):
        for viewport in (PHONE, DESKTOP):
            page, draft = self.open_draft(viewport)
            typed = f"Typed then reloaded at {viewport['width']}"
            page.get_by_label("Title", exact=True).fill(typed)
            page.get_by_label(re.compile(r"^Also accepted")).fill("The machine city")
            page.reload()
            expect(page.get_by_label("Title", exact=True)).to_have_value(typed)
            expect(page.get_by_label(re.compile(r"^Also accepted"))).to_have_value("The machine city")
            assert_seen(self, page.get_by_label("Title", exact=True), f"the title typed before the reload at {viewport}")
            # And the server has it (sent as the page was left, or again once it was back).
            page.wait_for_function("""async ([id, title]) => {
              const token = JSON.parse(localStorage.getItem('uquiz.player')).token;
              const answer = await fetch(`/v1/drafts/${id}`, { headers: { Authorization: `Bearer ${token}` } });
              return (await answer.json()).document.title === title;
            }""", arg=[draft, typed])

    def test_publishing_shows_one_published_state_with_the_makers_name(self):
        for viewport in (PHONE, DESKTOP):
            page = self.maker_page(viewport)
            page.get_by_role("button", name="Start a new package").click()
            name = page.get_by_label("Maker name (shown on the package)")
            expect(name).to_have_value(player(page)["name"])
            assert_seen(self, name, f"the maker's name at {viewport}")
            page.goto("/make")
            code = self.make_on_the_page(page, f"Published at {viewport['width']}", maker="Ana Lee")
            link = f"{session.server.base_url}/p/{code}"
            published = page.locator("#published")
            expect(published.locator("p").first).to_have_text(f"Published: {link}")
            self.assertEqual(page.locator("main").inner_text().count(link), 1, "the link is said once")
            expect(page.locator("#quizzes")).to_have_count(0)
            expect(page.get_by_role("button", name="Publish")).to_have_count(0)
            for name_ in ("Copy the link", "Play it", "Make another"):
                assert_seen(self, published.get_by_role("button", name=name_), f"{name_} once published at {viewport}")
            assert_seen(self, published.get_by_role("link", name=link), f"the link at {viewport}")
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / f"maker-published-{viewport['width']}.png"))
            page.get_by_role("button", name="Play it").click()
            expect(page.locator("#package-title")).to_have_text(f"Published at {viewport['width']}")
            meta = page.locator("#intro .meta").first
            expect(meta).to_contain_text("Ana Lee")
            assert_seen(self, meta, f"the maker's name on the package at {viewport}")

    def test_a_played_package_shows_its_movies_and_offers_only_what_may_change(self):
        page = self.maker_page(PHONE)
        code = self.make_on_the_page(page, "Played then edited")
        self.play_and_skip(code)
        page.goto("/make")
        mine = page.locator(f'#my-packages li[data-code="{code}"]')
        mine.get_by_text("How each quiz fares").click()
        line = mine.locator(".maker-stats li span").first
        expect(line).to_contain_text("Metropolis (quiz 1): solved 0 of 1 (0%)")
        assert_seen(self, line, "a quiz's statistics by its movie on a phone")
        expect(mine.locator("figure.solve-rate tbody th").first).to_have_text("Metropolis (quiz 1)")

        mine.get_by_role("button", name="Edit").click()
        heading = page.locator("#quiz-1 h2")
        expect(heading).to_have_text("Quiz 1: Metropolis")
        expect(page.locator("#played-rule")).to_contain_text("Already played (1 play)")
        locked = "Played packages keep their areas, posters and answers: delete it and publish anew to change them."
        expect(page.locator("#quiz-1 .lead")).to_have_text(locked)
        # Nothing the server would refuse is offered: no movie to add, no area to place, move or remove.
        expect(page.get_by_label("Add a movie: title")).to_have_count(0)
        expect(page.locator("#quiz-1").get_by_role("button", name="Remove")).to_have_count(0)
        expect(page.get_by_role("button", name="Choose another poster")).to_have_count(0)
        expect(page.get_by_label("Level")).to_be_disabled()
        expect(page.get_by_label("Language")).to_be_disabled()
        expect(page.get_by_label(re.compile(r"^Also accepted"))).to_be_disabled()
        # A tap places nothing; the line above the poster says why.
        board = page.locator("#quiz-1 .maker-board")
        board.tap(position=cell_point(board, 37, 25))
        expect(page.locator("#quiz-1 .maker-areas li")).to_have_count(3)
        why = page.locator("#quiz-1 .lead")
        assert_seen(self, why, "why the areas stay, after a tap on the poster")
        for viewport in (PHONE, DESKTOP):
            page.set_viewport_size(viewport)
            heading.scroll_into_view_if_needed()
            assert_seen(self, heading, f"the quiz's movie at {viewport}")
            why.scroll_into_view_if_needed()
            assert_seen(self, why, f"why the areas stay at {viewport}")
        expect(page.locator("#draft-problem")).to_have_text("Ready to save.")
        page.set_viewport_size(PHONE)
        heading.scroll_into_view_if_needed()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "maker-played-edit-390.png"))
        page.get_by_label("Title", exact=True).fill("Played then renamed")
        page.get_by_label("Maker name (shown on the package)").fill("Renamed maker")
        page.get_by_role("button", name="Save changes").click()
        expect(page.locator("#published")).to_contain_text(f"Saved: {session.server.base_url}/p/{code}")
        metadata = api(page, "GET", f"/v1/packages/{code}")
        self.assertEqual((metadata["title"], metadata["maker"]), ("Played then renamed", "Renamed maker"))
        # The next package is a new one: everything may be chosen again.
        page.get_by_role("button", name="Make another").click()
        expect(page.get_by_label("Add a movie: title")).to_be_visible()
        expect(page.get_by_label("Level")).to_be_enabled()

    def test_a_play_that_comes_while_editing_is_said_in_one_sentence(self):
        page = self.maker_page(DESKTOP)
        code = self.make_on_the_page(page, "Played while edited")
        page.goto("/make")
        page.locator(f'#my-packages li[data-code="{code}"]').get_by_role("button", name="Edit").click()
        areas = page.locator("#quiz-1 .maker-areas li")
        expect(areas).to_have_count(3)
        areas.nth(2).get_by_role("button", name="Remove").click()
        expect(areas).to_have_count(2)
        expect(page.locator("#save-status")).to_have_text("Saved.")
        # Someone starts playing it meanwhile: its quizzes can no longer change.
        self.play_and_skip(code, finish=False)
        page.get_by_role("button", name="Save changes").click()
        said = page.locator("#draft-problem")
        expect(said).to_have_text(
            "Not saved: it has just been played, so only its title, maker name and who finds it may change.")
        assert_seen(self, said, "the conflict's sentence")
        # The quizzes are back as published, and what may change is saved.
        expect(areas).to_have_count(3)
        expect(page.locator("#quiz-1").get_by_role("button", name="Remove")).to_have_count(0)
        page.get_by_label("Title", exact=True).fill("Played while edited, renamed")
        page.get_by_role("button", name="Save changes").click()
        expect(page.locator("#published")).to_contain_text(f"Saved: {session.server.base_url}/p/{code}")
        self.assertEqual(api(page, "GET", f"/v1/packages/{code}")["title"], "Played while edited, renamed")


if __name__ == "__main__":
    unittest.main()
