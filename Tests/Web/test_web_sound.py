"""Sound while solving (Web/assets/sound.js) in a real chromium, its autoplay policy as it ships (no flag turns it off),
against the real `uquiz serve` of harness.py with its one-quiz package (beginner: a stage every 2 s, 10 s in all).

Before any script of the page runs, a probe (AUDIO_PROBE) wraps `AudioContext` to count the contexts made and keep
them, wraps `OscillatorNode.prototype.start` to record every note started (its start on the audio clock, when it was
scheduled on the page's clock and what the time bar said then, and whether it goes straight to the master gain, as a
cue's notes do, or through the loop's bus), and notes the node connected to the destination (the master gain). The page's own note of its cues
(`data-cues`: a name and a start on the audio clock each) is only believed where the probe saw a cue's note start at
that very time. Nothing here sleeps but to poll a condition, with a deadline.

Playwright's own calls into the page count as a user gesture for the browser, so "no context before a gesture" is
checked on what the page does (the probe's count), not on what the browser would allow.
"""

import re
import time
import unittest

from playwright.sync_api import expect

from harness import (
    ANSWER, AREAS, DESKTOP, PHONE, SCREENSHOTS, WAIT_MS, WRONG_GUESS, Session, assert_poster_bottom_seen, assert_seen)

session = None

# The autoplay policy itself: a context made as the page opens, before any gesture, stays suspended (were the policy
# off, it would run). Made before the probe wraps AudioContext, so not counted.
POLICY_PROBE = """
(() => {
  const early = new AudioContext();
  setTimeout(() => { window.earlyAudioState = early.state; early.close(); }, 500);
})();
"""

AUDIO_PROBE = """
(() => {
  const Real = window.AudioContext;
  const probe = { made: 0, contexts: [], starts: [], master: null };
  window.audioProbe = probe;
  window.AudioContext = class extends Real {
    constructor(...options) {
      super(...options);
      probe.made += 1;
      probe.contexts.push(this);
    }
  };
  // What each node was connected to last: a note's oscillator feeds its envelope, which feeds the master gain (a cue)
  // or another node (the loop's bus).
  const targets = new WeakMap();
  const connect = AudioNode.prototype.connect;
  AudioNode.prototype.connect = function (target, ...rest) {
    if (target instanceof AudioDestinationNode) probe.master = this;
    targets.set(this, target);
    return connect.call(this, target, ...rest);
  };
  // Notes started in one run of the page's script share a batch: a cue's notes are started together.
  let batch = 0;
  let batchOpen = false;
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (when = 0) {
    if (!batchOpen) {
      batchOpen = true;
      batch += 1;
      queueMicrotask(() => { batchOpen = false; });
    }
    probe.starts.push({
      when, now: performance.now(), frequency: this.frequency.value, type: this.type, batch,
      toMaster: probe.master !== null && targets.get(targets.get(this)) === probe.master,
      // What the time bar's label says as the note is scheduled.
      timeLeft: document.getElementById('time-left')?.textContent ?? null,
    });
    return start.call(this, when);
  };
})();
"""

TOGGLE = "button.sound-toggle"


def setUpModule():
    global session
    session = Session()


def tearDownModule():
    if session:
        session.close()


def probe(page, expression):
    """`expression` evaluated in the page with `probe` the audio probe."""
    return page.evaluate(f"() => {{ const probe = window.audioProbe; return {expression}; }}")


def cues(page):
    """The cues the page says it scheduled: [(name, start on the audio clock)]."""
    log = page.evaluate("document.documentElement.dataset.cues ?? ''")
    return [(name, float(at)) for name, at in (entry.split("@") for entry in log.split())]


class WebSoundTests(unittest.TestCase):
    def new_page(self, viewport, locale="en-US", policy_probe=False):
        """A page whose browser context (its tabs) has the audio probe."""
        page = session.new_page(self, viewport, locale)
        if policy_probe:
            page.context.add_init_script(POLICY_PROBE)
        page.context.add_init_script(AUDIO_PROBE)
        return page

    def eventually(self, read, expected, what):
        """Polls `read()` until it returns `expected`, for at most WAIT_MS."""
        deadline = time.monotonic() + WAIT_MS / 1000
        while True:
            value = read()
            if value == expected:
                return value
            if time.monotonic() > deadline:
                self.fail(f"{what}: {value!r}, not {expected!r}")
            time.sleep(0.05)

    def wait_for_cue(self, page, name):
        """Waits until the page noted cue `name`: its start on the audio clock, and its notes as the probe saw them
        start: into the master gain, in the run of script that started one at that very time, from then until the
        start of another cue started in that run (the end's fanfare follows a right guess's cue so)."""
        page.wait_for_selector(f'html[data-cues*="{name}@"]', state="attached")
        log = cues(page)
        at = [at for cue, at in log if cue == name][-1]
        to_master = probe(page, "probe.starts.filter((start) => start.toMaster)")
        first = [note for note in to_master if abs(note["when"] - at) < 1e-9]
        self.assertTrue(first, f"the {name} cue's notes were started on the context: {to_master}")
        batch = [note for note in to_master if note["batch"] == first[0]["batch"]]
        until = min([later for _, later in log if later > at and any(abs(note["when"] - later) < 1e-9 for note in batch)],
                    default=float("inf"))
        return at, [note for note in batch if at - 1e-9 < note["when"] < until - 1e-9]

    def start_play(self, page):
        """Opens the package's page and presses Start: the play's start as the server answered it."""
        page.goto(f"/p/{session.share_code}")
        with page.expect_response(lambda r: r.url.endswith(f"/v1/packages/{session.share_code}/plays")) as started:
            page.get_by_role("button", name="Start").click()
        return started.value.json()

    def stage_shown(self, page, stage):
        page.wait_for_selector(",".join(f'#poster[data-stage="{k}"]' for k in range(stage, len(AREAS) + 1)))

    def turn_on(self, page):
        toggle = page.locator(TOGGLE)
        expect(toggle).to_have_attribute("aria-pressed", "false")
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        self.eventually(lambda: probe(page, "probe.contexts.map((context) => context.state)"), ["running"],
                        "the audio context made in the click runs")

    def test_with_sound_off_no_audio_context_is_made_and_sound_js_is_not_loaded(self):
        page = self.new_page(PHONE)
        requested = []
        page.on("request", lambda request: requested.append(request.url))
        self.start_play(page)
        toggle = page.locator(TOGGLE)
        expect(toggle).to_have_text("Sound: off")
        self.assertEqual(toggle.get_attribute("aria-pressed"), "false")
        self.stage_shown(page, 1)
        assert_seen(self, toggle, "the sound toggle in a play on a phone")
        guess = page.get_by_label("Your guess")
        guess.fill(WRONG_GUESS)
        guess.press("Enter")
        page.wait_for_selector('#verdict[data-outcome="rejected"]')
        self.stage_shown(page, 2)
        guess.fill(ANSWER)
        guess.press("Enter")
        page.locator("#my-rank").wait_for()
        self.assertEqual(probe(page, "probe.made"), 0, "no audio context was made")
        self.assertEqual(probe(page, "probe.starts.length"), 0)
        self.assertEqual([url for url in requested if "sound" in url], [], "sound.js was not loaded")
        self.assertIsNone(page.evaluate("document.documentElement.dataset.cues ?? null"))

    def test_the_toggle_makes_the_context_in_its_click_and_is_remembered_without_autoplay(self):
        for viewport in (PHONE, DESKTOP):
            with self.subTest(viewport=viewport):
                page = self.new_page(viewport, policy_probe=True)
                requested = []
                page.on("request", lambda request: requested.append(request.url))
                self.start_play(page)
                self.stage_shown(page, 1)
                self.assertEqual(page.evaluate("window.earlyAudioState"), "suspended",
                                 "chromium's autoplay policy is on: a context made before a gesture does not run")
                toggle = page.locator(TOGGLE)
                assert_seen(self, toggle, f"the sound toggle at {viewport}")
                self.assertEqual(probe(page, "probe.made"), 0)
                self.turn_on(page)
                expect(toggle).to_have_text("Sound: on")
                self.assertEqual(probe(page, "probe.made"), 1, "one context, made in the click")
                self.assertEqual(len([url for url in requested if url.endswith("/sound.js")]), 1)
                volume = page.get_by_label("Volume")
                expect(volume).to_be_visible()
                for part, what in ((toggle, "the toggle"), (volume, "the volume"), (page.locator("#guess"), "the guess box"),
                                   (page.locator("#time-left"), "the time left")):
                    assert_seen(self, part, f"{what} with sound on at {viewport}")
                assert_poster_bottom_seen(self, page, f"the poster's bottom edge with sound on at {viewport}")
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SCREENSHOTS / f"sound-on-{'phone' if viewport is PHONE else 'desktop'}.png"))
                self.assertEqual(page.evaluate("localStorage.getItem('uquiz.sound')"), "on")
                if viewport is DESKTOP:
                    # Its texts follow the language.
                    page.locator("#language-switch").click()
                    expect(toggle).to_have_text("소리: 켬")
                    expect(page.get_by_label("음량")).to_be_visible()
                    page.locator("#language-switch").click()
                    expect(toggle).to_have_text("Sound: on")

                # A reload goes on with the play: the toggle shows sound on, but no context is made without a gesture.
                page.reload()
                expect(toggle).to_have_attribute("aria-pressed", "true")
                expect(toggle).to_have_text("Sound: on")
                self.stage_shown(page, 1)
                self.assertEqual(probe(page, "probe.made"), 0, "no context after the reload before a gesture")
                # The person's next tap (a phone) or key (a desktop) makes it, in that gesture.
                if viewport is PHONE:
                    page.get_by_label("Your guess").tap()
                else:
                    page.get_by_label("Your guess").press("a")
                self.eventually(lambda: probe(page, "probe.contexts.map((context) => context.state)"), ["running"],
                                "one context, made in the gesture, running")

                # Another tab with no play going: the package's page makes none, nor does Start until a key.
                other = page.context.new_page()
                other.set_default_timeout(WAIT_MS)
                other.goto(f"/p/{session.share_code}")
                other.get_by_role("button", name="Start").click()
                other.locator(f'{TOGGLE}[aria-pressed="true"]').wait_for()
                self.assertEqual(probe(other, "probe.made"), 0)
                other.get_by_label("Your guess").press("a")
                self.eventually(lambda: probe(other, "probe.contexts.map((context) => context.state)"), ["running"],
                                "the context made at the first key of the play")
                other.close()

    def test_cues_are_scheduled_when_the_page_shows_what_the_server_says(self):
        page = self.new_page(DESKTOP)
        console = []
        page.on("console", lambda message: message.type in ("error", "warning") and console.append(message.text))
        start = self.start_play(page)
        self.turn_on(page)
        starts_in_ms = start["quizzes"][0]["startsInMs"]

        # A stage: its chime when its poster starts to show, once the server's clock has reached it.
        _, stage_notes = self.wait_for_cue(page, "stage1")
        self.assertEqual(len(stage_notes), 2, stage_notes)
        entries = page.evaluate("performance.getEntriesByType('resource').map(e => ({name: e.name, start: e.startTime, end: e.responseEnd}))")
        start_entry = next(e for e in entries if e["name"].endswith(f"/packages/{session.share_code}/plays"))
        poster = next(e for e in entries if e["name"].endswith("/quizzes/1/poster?stage=1"))
        scheduled = stage_notes[0]["now"]
        self.assertGreaterEqual(scheduled, start_entry["start"] + starts_in_ms, "not before the server's time for stage 1")
        self.assertGreaterEqual(scheduled, poster["end"], "once the stage's poster is here")

        # A wrong guess, then the right one: each cue when the server's verdict arrives.
        guess = page.get_by_label("Your guess")
        guess.fill(WRONG_GUESS)
        guess.press("Enter")
        page.wait_for_selector('#verdict[data-outcome="rejected"]')
        wrong_at, wrong_notes = self.wait_for_cue(page, "wrong")
        self.assertEqual(len(wrong_notes), 2, wrong_notes)
        guess_entry = [e for e in page.evaluate(
            "performance.getEntriesByType('resource').map(e => ({name: e.name, end: e.responseEnd}))")
            if e["name"].endswith("/guesses")][-1]
        wrong_scheduled = wrong_notes[0]["now"]
        self.assertGreaterEqual(wrong_scheduled, guess_entry["end"])

        # Stage 2 on the server's schedule, with its own chime (a step higher).
        self.stage_shown(page, 2)
        _, stage_two_notes = self.wait_for_cue(page, "stage2")
        self.assertGreater(stage_two_notes[0]["frequency"], stage_notes[0]["frequency"])
        # Ordered, not timed (a loaded machine delays every timer alike): stage 1's chime came before stage 2's poster
        # was asked for, the wrong guess's cue before the next guess was sent.
        second_poster = next(e for e in page.evaluate(
            "performance.getEntriesByType('resource').map(e => ({name: e.name, start: e.startTime}))")
            if e["name"].endswith("/quizzes/1/poster?stage=2"))
        self.assertLess(scheduled, second_poster["start"], "stage 1's chime as its poster was drawn")

        guess.fill(ANSWER)
        guess.press("Enter")
        page.wait_for_selector('#verdict[data-outcome="solved"]')
        right_guess = [e for e in page.evaluate(
            "performance.getEntriesByType('resource').map(e => ({name: e.name, start: e.startTime}))")
            if e["name"].endswith("/guesses")][-1]
        self.assertLess(wrong_scheduled, right_guess["start"], "the wrong guess's cue as its verdict came")
        right_at, right_notes = self.wait_for_cue(page, "right")
        self.assertEqual(len(right_notes), 4, right_notes)
        self.assertGreater(right_at, wrong_at)

        # The end, once the right cue has sounded.
        page.locator("#share-line").wait_for()
        end_at, end_notes = self.wait_for_cue(page, "end")
        self.assertEqual(len(end_notes), 6, end_notes)
        self.assertGreaterEqual(end_at, right_at + 0.6, "the end's fanfare follows the right guess's cue")
        names = [name for name, _ in cues(page)]
        self.assertEqual(names[-2:], ["right", "end"], names)

        # The loop: notes of no cue while the quiz ran, none scheduled after the end.
        page.wait_for_selector('#poster[data-whole="true"]')
        page.locator("#my-rank").wait_for()
        loop = probe(page, "probe.starts.filter((start) => !start.toMaster)")
        self.assertGreaterEqual(len(loop), 6, "the loop played while the quiz ran")
        self.assertEqual([note for note in loop if note["now"] > end_notes[0]["now"]], [], "the loop stops at the end")
        self.assertEqual(probe(page, "probe.starts.filter((start) => start.toMaster).length"),
                         sum(len(self.wait_for_cue(page, name)[1]) for name, _ in cues(page)),
                         "every note into the master gain belongs to a cue the page noted")
        self.assertEqual(console, [], "no error or warning (such as an audio context the browser refused to start)")

    def test_the_last_seconds_tick_with_the_time_bar(self):
        page = self.new_page(PHONE)
        self.start_play(page)
        self.turn_on(page)
        # No guess: the time runs out (20 s).
        page.wait_for_selector('#verdict[data-outcome="missed"]', timeout=40_000)
        end_at, _ = self.wait_for_cue(page, "end")
        ticks = [(name, at) for name, at in cues(page) if name.startswith("tick")]
        self.assertEqual([name for name, _ in ticks], ["tick5", "tick4", "tick3", "tick2", "tick1"])
        # Each scheduled as the time bar's label turned to its second, in the order the seconds ran.
        scheduled = []
        for name, _ in ticks:
            _, notes = self.wait_for_cue(page, name)
            self.assertEqual(len(notes), 1, notes)
            self.assertEqual(notes[0]["timeLeft"], f"{name.removeprefix('tick')} s left", name)
            scheduled.append(notes[0]["now"])
        self.assertEqual(scheduled, sorted(scheduled), "one after the other")
        self.assertGreater(end_at, ticks[-1][1])

    def test_a_hidden_tab_is_silent(self):
        page = self.new_page(DESKTOP)
        self.start_play(page)
        self.turn_on(page)
        self.stage_shown(page, 1)
        state = lambda: probe(page, "probe.contexts[0].state")
        page.evaluate("""() => {
          Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
          Object.defineProperty(document, 'hidden', { value: true, configurable: true });
          document.dispatchEvent(new Event('visibilitychange'));
        }""")
        self.eventually(state, "suspended", "the context while the tab is hidden")
        started = probe(page, "probe.starts.length")
        guess = page.get_by_label("Your guess")
        guess.fill(WRONG_GUESS)
        guess.press("Enter")
        page.wait_for_selector('#verdict[data-outcome="rejected"]')
        self.assertNotIn("wrong", [name for name, _ in cues(page)], "no cue while hidden")
        self.assertEqual(probe(page, "probe.starts.length"), started, "no note scheduled while hidden")
        page.evaluate("""() => {
          delete document.visibilityState;
          delete document.hidden;
          document.dispatchEvent(new Event('visibilitychange'));
        }""")
        self.eventually(state, "running", "the context once the tab shows again")
        guess.fill(WRONG_GUESS)
        guess.press("Enter")
        self.wait_for_cue(page, "wrong")

    def test_the_volume_sets_the_master_gain_and_is_remembered(self):
        page = self.new_page(DESKTOP)
        self.start_play(page)
        self.turn_on(page)
        gain = lambda: probe(page, "probe.master.gain.value")
        loud = gain()
        self.assertGreater(loud, 0)
        volume = page.get_by_label("Volume")
        self.assertEqual(volume.input_value(), "60")
        volume.focus()
        for _ in range(8):
            page.keyboard.press("ArrowLeft")
        self.assertEqual(volume.input_value(), "20")
        self.assertEqual(page.evaluate("localStorage.getItem('uquiz.sound.volume')"), "20")
        deadline = time.monotonic() + WAIT_MS / 1000
        quiet = loud * (20 / 60) ** 2
        while abs(gain() - quiet) > 1e-4:
            self.assertLess(time.monotonic(), deadline, f"the master gain follows the volume: {gain()}")
            time.sleep(0.05)

        page.reload()
        expect(page.locator(TOGGLE)).to_have_attribute("aria-pressed", "true")
        expect(page.get_by_label("Volume")).to_have_value("20")
        page.keyboard.press("a")
        self.eventually(lambda: probe(page, "probe.made"), 1, "a context made at the key")
        self.assertAlmostEqual(gain(), quiet, delta=1e-4, msg="the remembered volume's gain")

    def test_a_room_has_the_toggle_and_its_cues_to_the_podium(self):
        for viewport in (PHONE, DESKTOP):
            with self.subTest(viewport=viewport):
                page = self.new_page(viewport)
                page.goto(f"/p/{session.share_code}")
                with page.expect_navigation(url=re.compile(r"/r/[2-9A-Z]{4}$")):
                    page.get_by_role("button", name="Play with friends").click()
                page.get_by_role("button", name="Start").click()
                toggle = page.locator(TOGGLE)
                expect(toggle).to_be_visible()
                self.stage_shown(page, 1)
                assert_seen(self, toggle, f"the sound toggle in a room at {viewport}")
                self.turn_on(page)
                assert_seen(self, page.get_by_label("Volume"), f"the volume in a room at {viewport}")
                assert_poster_bottom_seen(self, page, f"the poster's bottom edge in a room at {viewport}")
                guess = page.get_by_label("Your guess")
                guess.fill(WRONG_GUESS)
                guess.press("Enter")
                page.wait_for_selector('#verdict[data-outcome="rejected"]')
                self.wait_for_cue(page, "wrong")
                guess.fill(ANSWER)
                guess.press("Enter")
                right_at, _ = self.wait_for_cue(page, "right")
                page.locator("#places li").first.wait_for()
                end_at, _ = self.wait_for_cue(page, "end")
                self.assertGreater(end_at, right_at)
                self.assertEqual(probe(page, "probe.made"), 1)


if __name__ == "__main__":
    unittest.main()
