"""The maker on the web (`/make`): a person with only a browser makes a package on a phone and on a desktop (search a
movie, place the areas on its poster by tapping or with the keyboard, see a refused place and why, preview a stage,
publish), finds the draft again after a reload, and a second person plays what was published.

Movie search answers from the server's catalog (TMDB is unreachable here) and the posters are the bundled ones.
"""

import json
import re
import unittest

from playwright.sync_api import expect

from harness import ANSWER, AREAS, COLUMNS, DESKTOP, PHONE, REPOSITORY, ROWS, SCREENSHOTS, WRONG_GUESS, Session, assert_seen

session = None


def setUpModule():
    global session
    # One maker publishes more packages than a page of their list holds.
    session = Session(arguments=["--limit", "publishes-per-player=30/60"])


def tearDownModule():
    if session:
        session.close()


def cell_point(board, row, column):
    """Where on the poster `board` the centre of cell (row, column) is, as Playwright positions are given."""
    box = board.bounding_box()
    return {"x": (column + 0.5) / COLUMNS * box["width"], "y": (row + 0.5) / ROWS * box["height"]}


class WebMakerTests(unittest.TestCase):
    def make(self, viewport, name, title):
        """Makes and publishes a one-quiz package of Metropolis with three areas; the page and the share code."""
        page = session.new_page(self, viewport)
        page.goto("/")
        page.get_by_role("link", name="Make").click()
        expect(page.locator("h1")).to_have_text("Make a quiz")
        page.get_by_role("button", name="Start a new package").click()
        expect(page).to_have_url(re.compile(r"/make\?draft=\d+$"))
        page.get_by_label("Title", exact=True).fill(title)
        page.get_by_label("Who finds it").select_option("unlisted")
        page.get_by_label("Add a movie: title").fill("Metropolis")
        page.get_by_label("Add a movie: title").press("Enter")
        page.get_by_role("button", name=re.compile(r"^Metropolis \(1927\)")).click()
        quiz = page.locator("#quiz-1")
        expect(quiz.locator("h2")).to_have_text("Quiz 1: Metropolis")
        board = quiz.locator(".maker-board")
        expect(board.locator("img")).to_have_attribute("src", re.compile(r"^blob:"))
        tap = board.tap if viewport is PHONE else board.click

        # A place in the margin: refused before it is placed, said beside the quiz.
        tap(position=cell_point(board, 0, 0))
        note = quiz.locator(".problem")
        expect(note).to_contain_text("Too close to the edge")
        assert_seen(self, note, f"the refused place's reason at {viewport}")
        expect(quiz.locator(".maker-areas li")).to_have_count(0)

        for number, (row, column) in enumerate(AREAS[:3], start=1):
            tap(position=cell_point(board, row, column))
            expect(quiz.locator(".maker-areas li")).to_have_count(number)
        expect(quiz.locator(".maker-areas li").nth(2)).to_contain_text(f"Stage 3: row {AREAS[2][0]}, column {AREAS[2][1]}")
        expect(page.locator("#draft-problem")).to_have_text("Ready to publish.")
        expect(page.locator("#save-status")).to_have_text("Saved.")

        # The preview is the play's stage poster, cut by the server.
        quiz.get_by_role("button", name="Preview stage 2").click()
        expect(board.locator("img")).to_have_attribute("data-stage", "2")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        board.scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / f"{name}-maker.png"))

        # A reload finds the draft as it was left.
        page.reload()
        expect(page.get_by_label("Title", exact=True)).to_have_value(title)
        expect(page.locator("#quiz-1 .maker-areas li")).to_have_count(3)

        page.get_by_role("button", name="Publish").click()
        published = page.locator("#published")
        expect(published).to_contain_text("Published: ")
        assert_seen(self, published.locator("a"), f"the share link at {viewport}")
        code = published.locator("a").get_attribute("href").rsplit("/", 1)[1]
        return page, code

    def test_a_maker_with_more_packages_than_a_page_sees_the_rest_on_demand(self):
        page = session.new_page(self, PHONE)
        page.goto("/make")
        expect(page.locator("h1")).to_have_text("Make a quiz")
        token = json.loads(page.evaluate("localStorage.getItem('uquiz.player')"))["token"]
        for number in range(1, 22):
            status, _, body = session.server.request("POST", "/v1/packages", {
                "format": 1, "title": f"Paged {number}", "level": "beginner", "language": "en", "visibility": "unlisted",
                "quizzes": [{"movie": 19, "areas": AREAS}],
            }, token)
            self.assertEqual(status, 201, body)
        page.reload()
        mine = page.locator("#my-packages > li")
        expect(mine).to_have_count(20)
        expect(mine.first).to_contain_text("Paged 21")
        more = page.get_by_role("button", name="More of your packages")
        more.scroll_into_view_if_needed()
        assert_seen(self, more, "the button for the rest of a maker's packages on a phone")
        more.click()
        expect(mine).to_have_count(21)
        expect(mine.nth(20)).to_contain_text("Paged 1")
        expect(more).to_be_hidden()

    def test_a_phone_makes_and_publishes_a_package_another_person_plays(self):
        maker, code = self.make(PHONE, "phone", "Made on a phone")
        player = session.new_page(self, DESKTOP)
        player.goto(f"/p/{code}")
        expect(player.locator("#package-title")).to_have_text("Made on a phone")
        player.get_by_role("button", name="Start").click()
        guess = player.get_by_label("Your guess")
        # The quiz has started: stage 1 (or a later one) is drawn.
        player.wait_for_selector(",".join(f'#poster[data-stage="{k}"]' for k in range(1, 4)))
        guess.fill(WRONG_GUESS)
        guess.press("Enter")
        player.wait_for_selector('#verdict[data-outcome="rejected"]')
        guess.fill(ANSWER)
        guess.press("Enter")
        expect(player.locator("#verdict")).to_contain_text("Right!")
        expect(player.get_by_text("Play over")).to_be_visible()
        solved_at = int(re.search(r"solved at stage (\d)", player.locator("#recap li").first.text_content()).group(1))

        # A second person makes the same wrong guess in another spelling, then gives up.
        second = session.new_page(self, PHONE)
        second.goto(f"/p/{code}")
        second.get_by_role("button", name="Start").click()
        second.wait_for_selector(",".join(f'#poster[data-stage="{k}"]' for k in range(1, 4)))
        second.get_by_label("Your guess").fill(WRONG_GUESS.upper() + "!")
        second.get_by_label("Your guess").press("Enter")
        second.wait_for_selector('#verdict[data-outcome="rejected"]')
        second.get_by_role("button", name="Skip").click()
        expect(second.get_by_text("Play over")).to_be_visible()

        # The maker's page says how the package fares, as the two plays went.
        status, _, body = session.server.request("GET", f"/v1/packages/{code}")
        self.assertEqual(json.loads(body)["plays"], 2, body)
        maker.goto("/make")
        mine = maker.locator(f'#my-packages li[data-code="{code}"]')
        expect(mine.locator(".meta").first).to_have_text("2 plays · solved 50% · Only who has the link")
        mine.get_by_text("How each quiz fares").click()
        expect(mine.locator(".maker-stats li span").first).to_have_text(
            f"Metropolis (quiz 1): solved 1 of 2 (50%), at stage {solved_at}.0 on average, hint asked 0 times")
        assert_seen(self, mine.locator(".maker-stats li span").first, "a quiz's statistics on a phone")
        # The wrong guess the player made, as the judge reads it, with nobody named.
        wrong = mine.locator(".maker-stats li .meta")
        expect(wrong).to_have_text("Wrong guesses most made: not a film at all")
        assert_seen(self, wrong, "a quiz's most common wrong guesses on a phone")

        # Editing a played package says its rule before the maker tries; the title may change, under the same link.
        mine.get_by_role("button", name="Edit").click()
        expect(maker.locator("#editing")).to_have_text(f"Editing {code}: Save changes updates it under the same link.")
        rule = maker.locator("#played-rule")
        expect(rule).to_have_text("Already played (2 plays): its quizzes, level and language stay as they are; "
                                  "only its title, maker name and who finds it may change.")
        assert_seen(self, rule, "the rule of a played package's edit on a phone")
        maker.get_by_label("Title", exact=True).fill("Made on a phone, renamed")
        maker.get_by_role("button", name="Save changes").click()
        expect(maker.locator("#published")).to_contain_text(f"Saved: {session.server.base_url}/p/{code}")
        status, _, body = session.server.request("GET", f"/v1/packages/{code}")
        self.assertEqual(json.loads(body)["title"], "Made on a phone, renamed")

    def test_a_desktop_makes_a_package_and_its_draft_is_listed(self):
        page, code = self.make(DESKTOP, "desktop", "Made on a desktop")
        status, _, body = session.server.request("GET", f"/v1/packages/{code}")
        self.assertEqual(status, 200, body)
        self.assertEqual(json.loads(body)["quizCount"], 1)
        # The draft is gone once published: the maker's list no longer offers it.
        page.goto("/make")
        expect(page.get_by_role("button", name="Start a new package")).to_be_visible()
        self.assertEqual(page.locator("#drafts a", has_text="Made on a desktop").count(), 0)
        mine = page.locator(f'#my-packages li[data-code="{code}"]')
        # Listed or not, its link stays.
        expect(mine.locator(".meta")).to_have_text("0 plays · solved not played yet · Only who has the link")
        mine.get_by_role("button", name="List again").click()
        expect(mine.locator(".meta")).to_have_text("0 plays · solved not played yet · Everyone (listed)")
        self.assertIn(code, session.server.request("GET", "/v1/packages?q=Made%20on%20a%20desktop")[2].decode())
        mine.get_by_role("button", name="Unlist").click()
        expect(mine.get_by_role("button", name="List again")).to_be_visible()
        self.assertNotIn(code, session.server.request("GET", "/v1/packages?q=Made%20on%20a%20desktop")[2].decode())
        # Deleting it asks once more, naming it; then it is gone for everyone.
        mine.get_by_role("button", name="Delete").click()
        question = mine.get_by_role("status").filter(has_text="for good?")
        expect(question).to_have_text("Delete “Made on a desktop” for good? Its plays and leaderboard go with it.")
        assert_seen(self, question, "the question before deleting")
        mine.get_by_role("button", name="Keep it").click()
        expect(mine.get_by_role("button", name="Delete")).to_be_visible()
        mine.get_by_role("button", name="Delete").click()
        mine.get_by_role("button", name="Delete for good").click()
        expect(mine).to_have_count(0)
        self.assertEqual(session.server.request("GET", f"/v1/packages/{code}")[0], 404)

    def new_package_of_metropolis(self, viewport):
        """A page on a new draft with one quiz of Metropolis, its poster shown."""
        page = session.new_page(self, viewport)
        page.goto("/make")
        page.get_by_role("button", name="Start a new package").click()
        page.get_by_label("Add a movie: title").fill("Metropolis")
        page.get_by_label("Add a movie: title").press("Enter")
        page.get_by_role("button", name=re.compile(r"^Metropolis \(1927\)")).click()
        expect(page.locator("#quiz-1 .maker-board img")).to_have_attribute("src", re.compile(r"^blob:"))
        return page

    def test_the_keyboard_alone_places_an_area(self):
        page = self.new_package_of_metropolis(DESKTOP)
        board = page.locator("#quiz-1 .maker-board")
        board.focus()
        for _ in range(3):
            page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowUp")
        page.keyboard.press("Enter")
        expect(page.locator("#quiz-1 .maker-areas li")).to_have_count(1)
        expect(page.locator("#quiz-1 .maker-areas li").first).to_contain_text(f"row {ROWS // 2 - 1}, column {COLUMNS // 2 - 3}")
        expect(page.locator("#quiz-1 .maker-board")).to_be_focused()
        # Enter on a placed area picks it up; arrows and Enter put it elsewhere, its stage kept.
        page.keyboard.press("Enter")
        note = page.locator("#quiz-1 .problem")
        expect(note).to_have_text("Stage 1\u2019s area is picked up: tap (or press Enter) where it goes.")
        assert_seen(self, note, "the picked-up area's note")
        for _ in range(5):
            page.keyboard.press("ArrowDown")
        page.keyboard.press("Enter")
        expect(page.locator("#quiz-1 .maker-areas li")).to_have_count(1)
        expect(page.locator("#quiz-1 .maker-areas li").first).to_contain_text(
            f"Stage 1: row {ROWS // 2 - 1 + 5}, column {COLUMNS // 2 - 3}")
        expect(page.locator("#quiz-1 .maker-board")).to_be_focused()
        expect(note).to_have_text("")
        page.keyboard.press("Delete")
        expect(page.locator("#quiz-1 .maker-areas li")).to_have_count(0)
        expect(page.locator("#save-status")).to_have_text("Saved.")
        expect(page.locator("#draft-problem")).to_have_text("Before publishing: the title is empty")

        # The search takes a year: none of that title in 1950, Metropolis in 1927.
        page.get_by_label("Year (if you know it)").fill("1950")
        page.get_by_label("Add a movie: title").fill("Metropolis")
        page.get_by_label("Add a movie: title").press("Enter")
        expect(page.locator("#movie-results")).to_have_text("No movie by that title here.")
        page.get_by_label("Year (if you know it)").fill("1927")
        page.get_by_label("Add a movie: title").press("Enter")
        expect(page.get_by_role("button", name=re.compile(r"^Metropolis \(1927\)"))).to_be_visible()

    def test_a_quiz_takes_the_makers_own_poster_and_refuses_what_is_not_a_jpeg(self):
        page = self.new_package_of_metropolis(PHONE)
        quiz = page.locator("#quiz-1")
        image = quiz.locator(".maker-board img")
        bundled = image.get_attribute("src")
        field = quiz.get_by_label(re.compile(r"^Or your own poster: a JPEG of at most 2 MiB"))
        field.set_input_files(str(REPOSITORY / "README.md"))
        note = quiz.locator(".problem")
        expect(note).to_contain_text("The poster was not taken: ")
        assert_seen(self, note, "why the file was refused")
        quiz = page.locator("#quiz-1")
        quiz.get_by_label(re.compile(r"^Or your own poster")).set_input_files(
            str(REPOSITORY / "Seed/posters/carmen-1915.jpg"))
        expect(page.locator("#quiz-1")).to_contain_text("Your poster is used for this quiz.")
        expect(page.locator("#quiz-1 .maker-board img")).not_to_have_attribute("src", bundled)
        expect(page.locator("#quiz-1 .maker-board img")).to_have_attribute("src", re.compile(r"^blob:"))


    def test_a_draft_moves_to_a_second_device_with_a_link_code_that_works_once(self):
        desktop = self.new_package_of_metropolis(DESKTOP)
        desktop.get_by_label("Title", exact=True).fill("Begun on a desktop")
        expect(desktop.locator("#save-status")).to_have_text("Saved.")
        desktop.goto("/me")
        desktop.get_by_role("button", name="Use this player on another device").click()
        shown = desktop.locator("#link-code-value")
        expect(shown).to_have_text(re.compile(r"^\w{4}-\w{4}$"))
        code = shown.inner_text()

        phone = session.new_page(self, PHONE)
        phone.goto("/me")
        phone.get_by_label("A code from your other device").fill(code)
        phone.get_by_role("button", name="Become that player here").click()
        expect(phone.locator("#link-status")).to_contain_text("This browser now plays as")
        phone.goto("/make")
        phone.get_by_role("link", name="Begun on a desktop").click()
        expect(phone.locator("#quiz-1 h2")).to_have_text("Quiz 1: Metropolis")
        expect(phone.get_by_label("Title", exact=True)).to_have_value("Begun on a desktop")

        # The code is spent: a third browser is told so, and stays who it was.
        third = session.new_page(self, PHONE)
        third.goto("/me")
        third.get_by_label("A code from your other device").fill(code)
        third.get_by_role("button", name="Become that player here").click()
        refusal = third.locator("#link-status")
        expect(refusal).to_have_text("No such code: it lasts 10 minutes and works once. Make a new one on the other device.")
        assert_seen(self, refusal, "a spent code's refusal on a phone")
        third.goto("/make")
        expect(third.get_by_role("button", name="Start a new package")).to_be_visible()
        self.assertEqual(third.get_by_role("link", name="Begun on a desktop").count(), 0)

    def test_a_package_is_made_published_and_solved_with_the_keyboard_alone(self):
        page = session.new_page(self, DESKTOP)
        page.goto("/make")
        keys = page.keyboard

        def press(locator, key="Enter"):
            locator.focus()
            keys.press(key)

        press(page.get_by_role("button", name="Start a new package"))
        expect(page).to_have_url(re.compile(r"/make\?draft=\d+$"))
        page.get_by_label("Title", exact=True).focus()
        keys.type("Made with keys")
        page.get_by_label("Add a movie: title").focus()
        keys.type("Metropolis")
        keys.press("Enter")
        press(page.get_by_role("button", name=re.compile(r"^Metropolis \(1927\)")))
        expect(page.locator("#quiz-1 .maker-board img")).to_have_attribute("src", re.compile(r"^blob:"))
        # Three areas: the cursor starts at the centre; arrows move it, Enter places, and the focus stays on the poster.
        for moves in (["ArrowUp"] * 12, ["ArrowDown"] * 24, ["ArrowLeft"] * 8):
            page.locator("#quiz-1 .maker-board").focus()
            for key in moves:
                keys.press(key)
            keys.press("Enter")
            expect(page.locator("#quiz-1 .maker-board")).to_be_focused()
        expect(page.locator("#quiz-1 .maker-areas li")).to_have_count(3)
        expect(page.locator("#draft-problem")).to_have_text("Ready to publish.")
        press(page.get_by_role("button", name="Publish"))
        link = page.locator("#published a")
        expect(link).to_be_visible()
        code = link.get_attribute("href").rsplit("/", 1)[1]

        player = session.new_page(self, DESKTOP)
        player.goto(f"/p/{code}")
        expect(player.get_by_role("button", name="Start")).to_be_focused()
        player.keyboard.press("Enter")
        player.wait_for_selector(",".join(f'#poster[data-stage="{k}"]' for k in range(1, 4)))
        player.get_by_label("Your guess").focus()
        player.keyboard.type(WRONG_GUESS)
        player.keyboard.press("Enter")
        player.wait_for_selector('#verdict[data-outcome="rejected"]')
        player.keyboard.type(ANSWER)
        player.keyboard.press("Enter")
        expect(player.locator("#verdict")).to_contain_text("Right!")
