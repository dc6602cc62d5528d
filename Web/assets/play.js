// Playing a package (or the daily quiz) judged by the server, which keeps the clock: each answer says in milliseconds
// when the next quiz starts, each stage shows and time is up. The page counts those from the answer's arrival (never
// earlier than meant), only then asks for stage k's poster (cut on the server), and never guesses ahead of the server.

import { ApiError, encode, playerApi, optionalPlayerApi } from './api.js';
import { addTexts, setText, t } from './i18n.js';
import {
  PosterLayers, clearText, copyButton, cue, dock, element, howToButton, howToFirstTime, makeYourOwn, shortcutButton,
  showSeconds, soundToggle,
} from './ui.js';
import { suggestTitles } from './suggest.js';

/// Added to every time the server gives before acting on it: timers may fire a little early, and the server rounds
/// up already, so this only covers the timer.
const timerSlackMs = 20;
/// How long the whole poster takes to fade in once a quiz has ended.
const wholePosterFadeMs = 400;
/// The fade of a stage when its length cannot be told from the schedule (one stage left): the shortest level's.
const defaultStageMs = 2000;
/// Waits before each try to reach the server again after losing it; the last is kept.
const reconnectDelaysMs = [1000, 2000, 4000, 8000];

// A guess typed while the server cannot be reached is kept, then sent if its quiz is still on, else said not sent.
addTexts({
  en: {
    'play.guessKept': 'The server cannot be reached: trying again\u2026 Your guess \u201c{guess}\u201d goes when it answers.',
    'play.guessNotSent': 'Not sent: quiz {number} ended while the server was away (\u201c{guess}\u201d).',
  },
  ko: {
    'play.guessKept': '서버에 연결할 수 없습니다. 다시 시도하는 중\u2026 \u201c{guess}\u201d은(는) 연결되면 보냅니다.',
    'play.guessNotSent': '보내지 못했습니다: 연결이 끊긴 동안 퀴즈 {number}이(가) 끝났습니다 (\u201c{guess}\u201d).',
  },
});

/// Whether `error` says the server could not be reached (no answer, or a proxy or the server saying it is down for
/// now), rather than that it refused what was asked.
function unreachable(error) {
  return !(error instanceof ApiError) || [502, 503, 504].includes(error.status);
}

/// A guess's answer merged into the play: its totals, and the quizzes it changed by number.
function withChange(play, change) {
  const quizzes = play.quizzes.slice();
  for (const quiz of change.quizzes) quizzes[quiz.number - 1] = quiz;
  const { finished, ranked, unrankedReason, score, currentQuiz, shareLine } = change;
  return { ...play, finished, ranked, unrankedReason, score, currentQuiz, shareLine, quizzes };
}

/// What follows an answer's title: its original title when it differs (a Korean package's answer names the movie in
/// Korean) and its year, "(Suzume, 2022)".
function yearText(answer) {
  const notes = [answer?.original, answer?.year].filter(Boolean);
  return notes.length ? `(${notes.join(', ')})` : '';
}

export class PlayScreen {
  /// `start` makes the play on the server (a package's or the daily one); `resumeId` is a play to go on with.
  constructor(main, { storageKey, start, resumeId, shareLink, daily, withFriends }) {
    this.main = main;
    this.withFriends = withFriends;
    this.storageKey = storageKey;
    this.startPlay = start;
    this.resumeId = resumeId;
    this.shareLink = shareLink;
    this.daily = daily;
    this.play = null;
    this.shownQuiz = 0;
    this.stageDue = [];
    this.askedStage = 0;
    this.endsAt = null;
    this.limitMs = 0;
    this.startsAt = null;
    this.said = new Set();
    this.timer = null;
    this.frame = null;
    this.refreshing = null;
    this.firstPosterMarked = false;
    this.wholePosters = new Map();
    this.build();
  }

  build() {
    this.canvas = element('canvas', { id: 'poster', width: 342, height: 513, role: 'img' });
    this.canvas.dataset.i18nAttr = 'aria-label';
    this.poster = new PosterLayers(this.canvas);
    this.countdown = element('p', { id: 'countdown', class: 'countdown' });
    this.titleLabel = element('span', { id: 'play-title', class: 'play-title' });
    this.quizLabel = element('span', { id: 'quiz-label' });
    this.timeLabel = element('span', { id: 'time-left', class: 'time-left' });
    this.scoreLabel = element('span', { id: 'score-label' });
    this.timeFill = element('div', { class: 'timebar-fill' });
    this.hintText = element('p', { id: 'hint', class: 'hint' });
    this.verdict = element('p', { id: 'verdict', class: 'verdict', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
    this.guess = element('input', {
      id: 'guess', name: 'guess', type: 'text', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false',
      enterkeyhint: 'send', maxlength: '200',
    });
    this.hintButton = shortcutButton('hint-button', 'play.hint', 'Alt+H');
    this.skipButton = shortcutButton('skip-button', 'play.skip', 'Alt+S');
    const answerRow = element('div', { class: 'answer-row' }, [
      this.guess, element('button', { type: 'submit', class: 'primary', i18n: ['play.submit'] }),
    ]);
    this.titles = suggestTitles(this.guess, answerRow, () => this.submit());
    this.form = element('form', { id: 'answer', class: 'answer-bar' }, [
      // The "?" of "How to play" at the end of the label's line, where there is room at any width.
      element('div', { class: 'answer-head' }, [element('label', { for: 'guess', i18n: ['play.guess'] }), howToButton()]),
      answerRow,
      element('div', { class: 'answer-row tools' }, [this.hintButton, this.skipButton, soundToggle()]),
    ]);
    this.endSection = element('section', { id: 'end', class: 'end', hidden: '', tabindex: '-1' });
    const status = element('div', { class: 'status' }, [this.titleLabel, this.quizLabel, this.timeLabel, this.scoreLabel]);
    const frame = element('div', { class: 'poster-frame' }, [this.canvas, this.countdown]);
    this.section = element('section', { class: 'play' }, [
      status,
      frame,
      element('div', { class: 'timebar', 'aria-hidden': 'true' }, [this.timeFill]),
      this.endSection,
    ]);
    // The poster leaves room for what is above it (--above: a long title wraps), as for the dock below it.
    new ResizeObserver(() => this.section.style.setProperty('--above', `${frame.offsetTop}px`)).observe(status);
    setText(this.verdict, 'play.loading');
    this.dock = dock(this.main, [this.hintText, this.verdict, this.form]);
    this.main.replaceChildren(this.section, this.dock);
    this.poster.clear();

    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.submit();
    });
    this.hintButton.addEventListener('click', () => this.askHint());
    this.skipButton.addEventListener('click', () => this.skip());
    this.onKey = (event) => {
      // Not while "How to play" is open over the play.
      if (!event.altKey || event.ctrlKey || event.metaKey || document.querySelector('dialog[open]')) return;
      if (event.code === 'KeyH') { event.preventDefault(); this.askHint(); }
      if (event.code === 'KeyS') { event.preventDefault(); this.skip(); }
    };
    document.addEventListener('keydown', this.onKey);
    // The server does not pause; coming back to the tab only catches up with what it says now.
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible' && this.play && !this.play.finished) this.refresh();
    });
  }

  async begin() {
    try {
      let play = null;
      const resumeId = this.resumeId ?? sessionStorage.getItem(this.storageKey);
      if (resumeId) {
        try {
          play = await playerApi('GET', `/v1/plays/${encode(resumeId)}`);
          if (play.finished && !this.resumeId) play = null;
        } catch { play = null; }
      }
      if (!play) {
        // The first play this browser starts says how to play first: before the play is made, so that reading it
        // costs nothing on the server's clock.
        await howToFirstTime();
        play = await this.startPlay();
      }
      performance.mark('uquiz:play-started');
      sessionStorage.setItem(this.storageKey, play.id);
      clearText(this.verdict);
      this.apply(play, performance.now());
      this.guess.focus();
    } catch (error) {
      this.fail(error);
    }
  }

  fail(error) {
    if (error instanceof ApiError && error.status === 404) setText(this.verdict, 'error.notFound');
    else setText(this.verdict, 'error.generic', { message: error.message });
    this.verdict.dataset.outcome = 'problem';
    this.form.hidden = true;
  }

  get playId() { return this.play.id; }

  // MARK: What the server said

  /// Takes the play as the server sent it; `receivedAt` is when it arrived, on performance.now()'s clock.
  apply(play, receivedAt) {
    this.play = play;
    const count = play.quizzes.length;
    const current = play.currentQuiz ? play.quizzes[play.currentQuiz - 1] : null;
    this.titleLabel.textContent = play.packageTitle;
    this.titleLabel.title = play.packageTitle;
    // Between quizzes the label stays on the quiz whose poster shows until the next one starts.
    const labelled = current?.status === 'waiting' && this.shownQuiz > 0 ? this.shownQuiz : current?.number ?? count;
    setText(this.quizLabel, 'play.quiz', { number: labelled, count });
    setText(this.scoreLabel, 'play.score', { score: play.score });
    for (const quiz of play.quizzes) {
      if (quiz.result && !this.said.has(quiz.number)) this.sayEnd(quiz);
    }
    if (current?.status === 'playing') {
      if (this.shownQuiz !== current.number) {
        this.showQuiz(current.number);
        // The last quiz's verdict goes with its poster: it would read as this quiz's.
        if (['solved', 'skipped', 'missed'].includes(this.verdict.dataset.outcome)) {
          clearText(this.verdict);
          delete this.verdict.dataset.outcome;
        }
      }
      if (this.verdict.dataset.i18n === 'play.notStarted') clearText(this.verdict);
      current.stagesInMs.forEach((ms, index) => {
        const due = receivedAt + ms + timerSlackMs;
        this.stageDue[index] = Math.min(this.stageDue[index] ?? Infinity, due);
      });
      this.endsAt = Math.min(this.endsAt ?? Infinity, receivedAt + current.endsInMs + timerSlackMs);
      this.limitMs = Math.max(this.limitMs, Math.ceil(current.endsInMs / 1000) * 1000);
      this.startsAt = null;
      this.countdown.hidden = true;
    } else if (current?.status === 'waiting') {
      this.endsAt = null;
      this.startsAt = receivedAt + current.startsInMs + timerSlackMs;
      this.countdownNumber = current.number;
      this.countdown.hidden = false;
    } else {
      this.endsAt = null;
      this.startsAt = null;
      this.countdown.hidden = true;
    }
    const playing = current?.status === 'playing';
    this.hintButton.disabled = !playing || Boolean(current.hint);
    this.skipButton.disabled = !playing;
    if (current?.hint) setText(this.hintText, 'play.hintText', { hint: current.hint });
    if (play.finished) this.showEnd();
    this.schedule();
    this.animate();
  }

  /// Says how a quiz ended (right, time up, skipped) and shows its whole poster, which the server now gives.
  sayEnd(quiz) {
    this.said.add(quiz.number);
    const outcome = quiz.result.outcome;
    const args = { title: quiz.answer?.title ?? '', year: yearText(quiz.answer), score: quiz.result.score };
    setText(this.verdict, outcome === 'solved' ? 'verdict.accepted' : outcome === 'skipped' ? 'verdict.skipped' : 'verdict.missed', args);
    this.verdict.dataset.outcome = outcome;
    if (quiz.number === this.shownQuiz) {
      this.endsAt = null;
      this.timeFill.style.transform = 'scaleX(0)';
      clearText(this.timeLabel);
      this.loadPoster(quiz.number, null, wholePosterFadeMs);
    }
  }

  showQuiz(number) {
    this.shownQuiz = number;
    this.stageDue = [];
    this.askedStage = 0;
    this.limitMs = 0;
    this.endsAt = null;
    setText(this.canvas, 'play.poster', { number });
    clearText(this.hintText);
    clearText(this.timeLabel);
    this.poster.clear();
  }

  // MARK: Timing

  schedule() {
    clearTimeout(this.timer);
    if (!this.play || this.play.finished) return;
    const next = Math.min(
      this.stageDue[this.askedStage] ?? Infinity, this.endsAt ?? Infinity, this.startsAt ?? Infinity);
    if (next === Infinity) return;
    this.timer = setTimeout(() => this.tick(), Math.max(0, next - performance.now()));
  }

  tick() {
    const now = performance.now();
    let stage = this.askedStage;
    while (stage < this.stageDue.length && this.stageDue[stage] <= now) stage += 1;
    if (stage > this.askedStage) {
      // Several stages due at once (a hidden tab's timers are slowed): only the latest is worth asking for.
      this.askedStage = stage;
      const due = this.stageDue;
      const length = due[stage] !== undefined ? due[stage] - due[stage - 1]
        : stage >= 2 ? due[stage - 1] - due[stage - 2] : defaultStageMs;
      this.loadPoster(this.shownQuiz, stage, Math.max(200, length));
    }
    if ((this.endsAt !== null && this.endsAt <= now) || (this.startsAt !== null && this.startsAt <= now)) {
      this.endsAt = this.endsAt !== null && this.endsAt <= now ? null : this.endsAt;
      this.startsAt = this.startsAt !== null && this.startsAt <= now ? null : this.startsAt;
      this.refresh();
    }
    this.schedule();
  }

  async refresh() {
    if (this.refreshing) return this.refreshing;
    this.refreshing = (async () => {
      try {
        const play = await playerApi('GET', `/v1/plays/${encode(this.playId)}`);
        this.apply(play, performance.now());
      } catch (error) {
        if (unreachable(error)) this.lostServer();
        else setText(this.verdict, 'error.generic', { message: error.message });
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  /// The server cannot be reached: says so and tries again, waiting longer each time, until it answers. Its clock
  /// does not stop meanwhile, so the page's timers run on, and what it says when it answers is what counts.
  lostServer() {
    if (this.reconnecting) return;
    setText(this.verdict, 'play.connectionLost');
    this.verdict.dataset.outcome = 'problem';
    this.reconnecting = (async () => {
      for (let attempt = 0; ; attempt += 1) {
        await new Promise((resolve) => { setTimeout(resolve, reconnectDelaysMs[Math.min(attempt, reconnectDelaysMs.length - 1)]); });
        try {
          const play = await playerApi('GET', `/v1/plays/${encode(this.playId)}`);
          setText(this.verdict, 'play.reconnected');
          delete this.verdict.dataset.outcome;
          // A stage asked for while the server was away is asked for again.
          this.askedStage = Math.min(this.askedStage, Number(this.canvas.dataset.stage ?? 0));
          this.apply(play, performance.now());
          const kept = this.kept;
          this.kept = null;
          if (kept && this.currentPlaying()?.number === kept.quiz) this.send(kept.quiz, kept.text);
          else if (kept) {
            setText(this.verdict, 'play.guessNotSent', { number: kept.quiz, guess: kept.text });
            this.verdict.dataset.outcome = 'problem';
          }
          break;
        } catch (error) {
          if (!unreachable(error)) { setText(this.verdict, 'error.generic', { message: error.message }); break; }
        }
      }
      this.reconnecting = null;
    })();
  }

  // MARK: The poster

  /// Stage k's poster (or the whole one, `stage` null, once the quiz has ended), faded in over `fadeMs`.
  async loadPoster(quiz, stage, fadeMs) {
    try {
      const blob = stage === null ? await this.wholePoster(quiz)
        : await playerApi('GET', `/v1/plays/${encode(this.playId)}/quizzes/${quiz}/poster?stage=${stage}`, undefined, 'blob');
      const bitmap = await createImageBitmap(blob);
      if (quiz !== this.shownQuiz) return;
      this.poster.add(bitmap, stage, fadeMs);
      this.animate();
    } catch (error) {
      if (unreachable(error)) this.lostServer();
      else if (error.status !== 409) setText(this.verdict, 'error.generic', { message: error.message });
    }
  }

  /// The whole poster of ended quiz `quiz`, asked for once: the quiz's last frame and the end's recap share it.
  wholePoster(quiz) {
    if (!this.wholePosters.has(quiz)) {
      const asked = playerApi('GET', `/v1/plays/${encode(this.playId)}/quizzes/${quiz}/poster`, undefined, 'blob');
      // One that failed is asked for again next time.
      asked.catch(() => this.wholePosters.delete(quiz));
      this.wholePosters.set(quiz, asked);
    }
    return this.wholePosters.get(quiz);
  }

  animate() {
    if (this.frame === null) this.frame = requestAnimationFrame(() => this.draw());
  }

  /// One frame: the stage posters at their fades, the time bar and the countdown.
  draw() {
    this.frame = null;
    const now = performance.now();
    let moving = this.poster.draw(now);
    if (!this.poster.isEmpty && !this.firstPosterMarked) {
      this.firstPosterMarked = true;
      performance.mark('uquiz:first-poster');
    }
    if (this.endsAt !== null && this.limitMs > 0) {
      const left = Math.min(1, Math.max(0, (this.endsAt - now) / this.limitMs));
      this.timeFill.style.transform = `scaleX(${left})`;
      showSeconds(this.timeLabel, 'room.timeLeft', this.endsAt - now);
      moving = true;
    }
    if (this.startsAt !== null) {
      showSeconds(this.countdown, 'play.getReady', this.startsAt - now, { number: this.countdownNumber });
      moving = true;
    }
    if (moving) this.animate();
  }

  // MARK: The player's moves

  currentPlaying() {
    const current = this.play?.currentQuiz ? this.play.quizzes[this.play.currentQuiz - 1] : null;
    return current?.status === 'playing' ? current : null;
  }

  async submit() {
    this.titles.hide();
    const text = this.guess.value.trim();
    // The terminal's shortcuts work here too.
    if (text === '?') { this.guess.value = ''; return this.askHint(); }
    if (text === '/skip') { this.guess.value = ''; return this.skip(); }
    const quiz = this.currentPlaying();
    if (!quiz) { setText(this.verdict, 'play.notStarted'); return; }
    return this.send(quiz.number, text);
  }

  async send(quiz, text) {
    try {
      const answer = await playerApi('POST', `/v1/plays/${encode(this.playId)}/guesses`, { quiz, text });
      const receivedAt = performance.now();
      this.kept = null;
      cue(answer.judgement);
      if (answer.judgement === 'accepted') {
        this.guess.value = '';
      } else {
        setText(this.verdict, `verdict.${answer.judgement}`, { guess: text });
        this.verdict.dataset.outcome = 'rejected';
        this.shake();
        this.guess.select();
      }
      this.apply(withChange(this.play, answer), receivedAt);
    } catch (error) {
      if (!unreachable(error)) return this.moveFailed(error);
      // Never dropped: the latest one is sent when the server answers again (or said not sent).
      this.kept = { quiz, text };
      this.lostServer();
      setText(this.verdict, 'play.guessKept', { guess: text });
    }
  }

  async askHint() {
    const quiz = this.currentPlaying();
    if (!quiz) return;
    try {
      const answer = await playerApi('POST', `/v1/plays/${encode(this.playId)}/hints`, { quiz: quiz.number });
      const receivedAt = performance.now();
      setText(this.hintText, 'play.hintText', { hint: answer.hint });
      this.apply(answer.play, receivedAt);
      this.guess.focus();
    } catch (error) {
      this.moveFailed(error);
    }
  }

  async skip() {
    const quiz = this.currentPlaying();
    if (!quiz) return;
    try {
      const play = await playerApi('POST', `/v1/plays/${encode(this.playId)}/skips`, { quiz: quiz.number });
      this.apply(play, performance.now());
    } catch (error) {
      this.moveFailed(error);
    }
  }

  moveFailed(error) {
    if (error instanceof ApiError && error.status === 429) {
      setText(this.verdict, 'verdict.tooFast', { seconds: error.retryAfter ?? 1 });
    } else if (error instanceof ApiError && error.status === 409) {
      this.refresh();
    } else if (unreachable(error)) {
      this.lostServer();
    } else {
      setText(this.verdict, 'error.generic', { message: error.message });
    }
  }

  shake() {
    this.form.classList.remove('shake');
    // Read layout so the animation starts again when the class comes back.
    void this.form.offsetWidth;
    this.form.classList.add('shake');
  }

  // MARK: The end

  async showEnd() {
    if (this.ended) return;
    this.ended = true;
    cue('end');
    clearTimeout(this.timer);
    document.removeEventListener('keydown', this.onKey);
    sessionStorage.removeItem(this.storageKey);
    this.form.hidden = true;
    const play = this.play;
    const solved = play.quizzes.filter((quiz) => quiz.result?.outcome === 'solved').length;
    const link = typeof this.shareLink === 'function' ? this.shareLink(play) : this.shareLink;
    const shareText = `${play.shareLine ?? ''}\n${link}`;
    const shareLine = element('output', { id: 'share-line', class: 'share-line', text: shareText });
    const status = element('p', { class: 'copy-status', role: 'status', 'aria-live': 'polite' });
    const copy = copyButton({ id: 'copy-share', label: 'end.copy' }, shareLine, status);
    const children = [
      element('h2', { i18n: ['end.title'] }),
      element('p', { id: 'end-score', class: 'end-score', i18n: ['end.score', { score: play.score }] }),
      element('p', { id: 'end-solved', i18n: ['end.solved', { solved, count: play.quizzes.length }] }),
      this.recap(play),
      element('div', { class: 'share' }, [shareLine, copy]),
      status,
    ];
    // A ranked result is one earned without knowing an answer: the server says why a play is not (a daily play ranks
    // no package; it counts for the streak unless its answer was known).
    if (play.unrankedReason) {
      const key = this.daily ? 'end.unranked.daily' : `end.unranked.${play.unrankedReason}`;
      children.push(element('p', { id: 'unranked', class: 'note', i18n: [key] }));
    }
    const actions = element('div', { class: 'actions' });
    if (!this.daily) {
      const again = element('button', { type: 'button', id: 'play-again', class: 'primary', i18n: ['end.again'] });
      again.addEventListener('click', () => location.reload());
      actions.append(again);
      if (this.withFriends) actions.append(this.withFriends());
    }
    actions.append(makeYourOwn());
    children.push(actions);
    this.endSection.replaceChildren(...children);
    // The last verdict opens the end, and the dock, with nothing left to answer, goes.
    clearText(this.hintText);
    this.endSection.prepend(this.verdict);
    this.dock.hidden = true;
    this.main.classList.remove('with-dock');
    this.endSection.hidden = false;
    // The end is below the last poster: brought into view and focused, so a screen reader reads it next.
    this.endSection.scrollIntoView({ block: 'start' });
    this.endSection.focus({ preventScroll: true });
    if (this.daily) {
      const daily = await optionalPlayerApi('GET', '/v1/daily').catch(() => null);
      if (daily?.you) {
        actions.before(element('p', { id: 'streak', i18n: ['daily.streak', { streak: daily.you.streak, best: daily.you.bestStreak }] }));
      }
    } else {
      actions.before(await leaderboard(play.shareCode));
    }
  }

  /// Each quiz of the play: its whole poster, its answer, and how it went for the player.
  recap(play) {
    const items = play.quizzes.map((quiz) => {
      const canvas = element('canvas', { width: 68, height: 102, 'aria-hidden': 'true' });
      const result = quiz.result;
      const how = !result ? ['recap.unplayed', {}]
        : result.outcome === 'solved' ? ['recap.solved', { stage: result.stageReached, score: result.score }]
          : [`recap.${result.outcome}`, {}];
      const line = element('span', { class: 'recap-line' }, [
        element('span', { text: `${quiz.number}. ${quiz.answer?.title ?? ''} ${yearText(quiz.answer)} ` }),
        element('span', { i18n: how }),
      ]);
      this.drawThumbnail(canvas, quiz.number);
      return element('li', {}, [canvas, line]);
    });
    return element('ol', { id: 'recap', class: 'recap' }, items);
  }

  async drawThumbnail(canvas, quiz) {
    try {
      const bitmap = await createImageBitmap(await this.wholePoster(quiz));
      canvas.getContext('2d').drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    } catch {
      // A poster that cannot be had leaves its thumbnail black: the answer is in the line beside it.
    }
  }
}

/// The package's leaderboard with the player's own rank.
export async function leaderboard(code) {
  const section = element('section', { class: 'leaderboard', id: 'leaderboard' }, [element('h3', { i18n: ['board.title'] })]);
  let board;
  try {
    board = await playerApi('GET', `/v1/packages/${encode(code)}/leaderboard?around=me`);
  } catch (error) {
    section.append(element('p', { i18n: ['error.generic', { message: error.message }] }));
    return section;
  }
  if (board.top.length === 0) {
    section.append(element('p', { i18n: ['board.empty'] }));
    return section;
  }
  const head = element('tr', {}, ['board.rank', 'board.player', 'board.score', 'board.seconds'].map((key) => element('th', { scope: 'col', i18n: [key] })));
  const rows = board.top.map((line) => {
    const row = element('tr', {}, [
      element('td', { text: String(line.rank) }), element('td', { text: line.player }),
      element('td', { text: String(line.score) }), element('td', { text: line.seconds.toFixed(1) }),
    ]);
    if (board.me && board.me.rank === line.rank && board.me.player === line.player) row.classList.add('me');
    return row;
  });
  section.append(element('table', {}, [element('thead', {}, [head]), element('tbody', {}, rows)]));
  if (board.me) section.append(element('p', { id: 'my-rank', i18n: ['board.you', { rank: board.me.rank, count: board.rankedPlays }] }));
  // The scores as a chart, this play's marked (if charts.js fails to load, the table above is enough).
  if (board.scores?.length) section.append(await import('./charts.js').then((charts) => charts.scoreDistribution(board.scores, board.me), () => ''));
  return section;
}
