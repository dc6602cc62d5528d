"""The maker on the web against a server that reaches TMDB (the repository's fake TMDB, serving two silent films with
several posters each): a person picks another poster of the movie, adds an answer of their own, places areas by tapping
on one quiz and with the keyboard alone on the other, plays the preview at the level's timing, publishes a two-quiz
package, and another person solves it with the maker's answer.
"""

import re
import unittest

from playwright.sync_api import expect

from harness import AREAS, COLUMNS, DESKTOP, PHONE, ROWS, WRONG_GUESS, FakeTMDB, Session, assert_seen
from test_web_maker import cell_point

session = None
tmdb = None

MOVIES = [
    {
        "id": 19, "original_title": "Metropolis", "titles": {"en": "Metropolis", "ko": "메트로폴리스"},
        "release_date": "1927-01-10", "genre_ids": [878], "alternative_titles": [], "overview": "",
        "posters": [
            {"file_path": "/metropolis-english.jpg", "language": "en", "vote_average": 6.0, "vote_count": 9},
            {"file_path": "/metropolis-textless.jpg", "language": None, "vote_average": 5.5, "vote_count": 4},
        ],
    },
    {
        "id": 653, "original_title": "Nosferatu", "titles": {"en": "Nosferatu", "ko": "노스페라투"},
        "release_date": "1922-03-04", "genre_ids": [27], "alternative_titles": [], "overview": "",
        "posters": [{"file_path": "/nosferatu-english.jpg", "language": "en", "vote_average": 6.2, "vote_count": 7}],
    },
]
ALIAS = "The city of the machines"


def setUpModule():
    global session, tmdb
    tmdb = FakeTMDB(MOVIES)
    session = Session(environment_extra=tmdb.environment)


def tearDownModule():
    if session:
        session.close()
    if tmdb:
        tmdb.stop()


class WebMakerOnTMDBTests(unittest.TestCase):
    def add_movie(self, page, title):
        page.get_by_label("Add a movie: title").fill(title)
        page.get_by_label("Add a movie: title").press("Enter")
        result = page.get_by_role("button", name=re.compile(rf"^{title} \(19\d\d\)"))
        # Each result shows its movie's poster.
        expect(result.locator("img")).to_have_attribute("src", re.compile(r"^blob:"))
        result.click()

    def test_a_maker_picks_another_poster_adds_an_answer_previews_and_publishes_two_quizzes(self):
        page = session.new_page(self, PHONE)
        page.goto("/make")
        page.get_by_role("button", name="Start a new package").click()
        page.get_by_label("Title", exact=True).fill("Two silent films")
        self.add_movie(page, "Metropolis")
        quiz = page.locator("#quiz-1")
        expect(quiz.locator("h2")).to_have_text("Quiz 1: Metropolis")
        default = quiz.locator(".maker-board img")
        expect(default).to_have_attribute("src", re.compile(r"^blob:"))
        first_poster = default.get_attribute("src")

        # The movie's posters: TMDB's English one (the default), its textless one, and the server's bundled one.
        quiz.get_by_role("button", name="Choose another poster").click()
        choices = quiz.locator(".maker-choice")
        expect(choices).to_have_count(3)
        expect(choices.nth(0)).to_have_attribute("aria-label", "Poster 1: English")
        expect(choices.nth(0)).to_have_attribute("aria-pressed", "true")
        expect(choices.nth(1)).to_have_attribute("aria-label", "Poster 2: no text")
        expect(choices.nth(1).locator("img")).to_have_attribute("src", re.compile(r"^blob:"))
        choices.nth(1).tap()
        expect(page.locator("#quiz-1 .maker-choice").nth(1)).to_have_attribute("aria-pressed", "true")
        expect(page.locator("#quiz-1 .maker-board img")).not_to_have_attribute("src", first_poster)
        expect(page.locator("#save-status")).to_have_text("Saved.")

        board = page.locator("#quiz-1 .maker-board")
        for number, (row, column) in enumerate(AREAS[:3], start=1):
            board.tap(position=cell_point(board, row, column))
            expect(page.locator("#quiz-1 .maker-areas li")).to_have_count(number)
        page.get_by_label(re.compile(r"^Also accepted")).first.fill(ALIAS)

        # The second quiz with the keyboard alone: arrows move the cursor, Enter places.
        self.add_movie(page, "Nosferatu")
        second = page.locator("#quiz-2 .maker-board")
        expect(page.locator("#quiz-2 h2")).to_have_text("Quiz 2: Nosferatu")
        for moves in (["ArrowUp"] * 12, ["ArrowDown"] * 24, ["ArrowLeft"] * 8):
            page.locator("#quiz-2 .maker-board").focus()
            for key in moves:
                page.keyboard.press(key)
            page.keyboard.press("Enter")
        expect(page.locator("#quiz-2 .maker-areas li")).to_have_count(3)
        expect(second).to_be_focused()
        expect(page.locator("#draft-problem")).to_have_text("Ready to publish.")

        # The preview plays the stages at the level's pace (beginner: a stage every 2 s) from the server's cuts.
        quiz = page.locator("#quiz-1")
        quiz.get_by_role("button", name="Play the preview").click()
        image = quiz.locator(".maker-board img")
        expect(image).to_have_attribute("data-stage", "1")
        timing = quiz.locator("p.meta[role=status]")
        expect(timing).to_have_text("Stage 3 of 3, 4 s into the quiz")
        expect(image).to_have_attribute("data-stage", "3")
        # Under the poster on a phone: seen once scrolled to, as a person scrolls to it (the poster's own height comes
        # with its picture, which a loaded machine may draw after the line was placed).
        timing.scroll_into_view_if_needed()
        assert_seen(self, timing, "the preview's stage and time")

        # A reload keeps everything: the chosen poster, the answer, both quizzes.
        page.reload()
        expect(page.get_by_label(re.compile(r"^Also accepted")).first).to_have_value(ALIAS)
        page.locator("#quiz-1").get_by_role("button", name="Choose another poster").click()
        expect(page.locator("#quiz-1 .maker-choice").nth(1)).to_have_attribute("aria-pressed", "true")
        expect(page.locator(".maker-quiz")).to_have_count(2)

        page.get_by_role("button", name="Publish").click()
        link = page.locator("#published a")
        expect(link).to_be_visible()
        code = link.get_attribute("href").rsplit("/", 1)[1]

        # Another person solves quiz 1 with the maker's answer, after a wrong guess.
        player = session.new_page(self, DESKTOP)
        player.goto(f"/p/{code}")
        expect(player.locator("#package-title")).to_have_text("Two silent films")
        player.get_by_role("button", name="Start").click()
        player.wait_for_selector(",".join(f'#poster[data-stage="{k}"]' for k in range(1, 4)))
        guess = player.get_by_label("Your guess")
        guess.fill(WRONG_GUESS)
        guess.press("Enter")
        player.wait_for_selector('#verdict[data-outcome="rejected"]')
        guess.fill(ALIAS.lower())
        guess.press("Enter")
        expect(player.locator("#verdict")).to_contain_text("Right!")
        assert_seen(self, player.locator("#verdict"), "the verdict of the maker's answer")


if __name__ == "__main__":
    unittest.main()
