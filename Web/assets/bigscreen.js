// A room's big screen, `/r/{code}/screen`: the room shown on a TV or projector for everyone in it, while phones
// answer. It holds no seat: the host opens it (their player token in this browser, or the pass their page shows),
// and it is told what every player is told, and while a quiz runs how many have answered, never what. Text from the
// network is set only as text.

import { storedPlayer } from './api.js';
import { addTexts, setText } from './i18n.js';
import { PosterLayers, clearText, cue, element, showSeconds, soundToggle } from './ui.js';
import {
  ServerClock, drawTimeLeft, namesIn, paintTeam, posterBitmap, roomSocket, sendOn, solverCountLine, teamBoard, teamTag,
} from './roomwire.js';

addTexts({
  en: {
    'screen.title': 'Room {code} on the big screen',
    'screen.join': 'Join at',
    'screen.orCode': 'or scan the code, or type the room code {code} on the home page',
    'screen.qr': 'QR code of the room\u2019s link',
    'screen.players': 'Players: {count}',
    'screen.waiting': 'The host starts when everyone is in.',
    'screen.passLabel': 'Screen pass (the host\u2019s phone shows it under \u201cShow on a big screen\u201d)',
    'screen.open': 'Open the screen',
    'screen.wrongPass': 'Not this room\u2019s screen pass, or used or out of date: ask the host for a new one.',
    'screen.unknown': 'No room with this code here.',
    'screen.answered': '{answered} of {players} answered',
    'screen.solvedCount': '{solved} solved',
    'screen.solved': '{name} solved it at stage {stage}',
    'screen.answer': '{title} {year}',
    'screen.solver': '{name}: stage {stage}, +{points}',
    'screen.moved': '\u25b2{places}',
    'screen.fell': '\u25bc{places}',
    'screen.podium': 'Podium',
    'screen.reconnecting': 'Connection lost: coming back\u2026',
    'screen.replaced': 'A newer big screen took this one\u2019s place.',
  },
  ko: {
    'screen.title': '큰 화면의 방 {code}',
    'screen.join': '참가 주소',
    'screen.orCode': '또는 코드를 스캔하거나 첫 화면에서 방 코드 {code}를 입력하세요',
    'screen.qr': '방 링크의 QR 코드',
    'screen.players': '참가자: {count}명',
    'screen.waiting': '모두 모이면 방장이 시작합니다.',
    'screen.passLabel': '화면 암호 (방장 휴대폰의 \u201c큰 화면에 띄우기\u201d 아래에 있습니다)',
    'screen.open': '화면 열기',
    'screen.wrongPass': '이 방의 화면 암호가 아니거나 이미 쓰였거나 만료되었습니다. 방장에게 새 암호를 받으세요.',
    'screen.unknown': '이 코드의 방이 없습니다.',
    'screen.answered': '{players}명 중 {answered}명 답함',
    'screen.solvedCount': '{solved}명 정답',
    'screen.solved': '{name}님이 {stage}단계에서 맞힘',
    'screen.answer': '{title} {year}',
    'screen.solver': '{name}: {stage}단계, +{points}',
    'screen.moved': '\u25b2{places}',
    'screen.fell': '\u25bc{places}',
    'screen.podium': '최종 순위',
    'screen.reconnecting': '연결이 끊겼습니다. 다시 연결하는 중\u2026',
    'screen.replaced': '새 큰 화면이 이 화면을 대신합니다.',
  },
});

const tokenKey = (code) => `uquiz.screen.${code}`;
const posterFadeMs = 400;
const reconnectDelaysMs = [300, 1000, 2000, 4000];
/// Closes another socket cannot mend: the room is gone, or a newer screen took this one's place.
const finalCloseCodes = new Set([1000, 1001, 4004]);
/// Refusals that mean this browser cannot open the screen by itself: the host's pass is asked for.
const askPassFor = new Set(['not_host', 'unknown_player_token', 'wrong_screen_token']);
/// Lines of the scoreboard between quizzes: a big room's board would not fit.
const boardLines = 10;
/// How long the last quiz's answer stays up before the podium (which the server sends with it).
const lastAnswerMs = 6000;

export function showBigScreen(main, code) {
  new BigScreen(main, code).begin();
}

class BigScreen {
  constructor(main, code) {
    this.main = main;
    this.code = code;
    this.socket = null;
    this.over = false;
    this.reconnects = 0;
    this.clock = new ServerClock((message) => sendOn(this.socket, message));
    this.players = [];
    this.arrived = new Set();
    this.quizCount = 0;
    this.shownQuiz = 0;
    this.askedStage = 0;
    this.endsAt = null;
    this.limitMs = 0;
    this.nextQuizAt = null;
    this.ranks = new Map();
    this.frame = null;
    this.build();
  }

  build() {
    const code = this.code;
    document.body.classList.add('big-screen');
    document.head.append(element('link', { rel: 'stylesheet', href: new URL('./bigscreen.css', import.meta.url).pathname }));
    document.title = `UQuiz ${code}`;
    this.notice = element('p', { id: 'screen-notice', class: 'screen-notice', role: 'status', 'aria-live': 'polite' });

    this.passInput = element('input', {
      id: 'screen-pass', name: 'pass', inputmode: 'numeric', autocomplete: 'off', maxlength: '8', pattern: '[0-9]{8}',
    });
    this.passProblem = element('p', { id: 'screen-pass-problem', class: 'problem', role: 'status', 'aria-live': 'polite' });
    this.passForm = element('form', { id: 'screen-pass-form', class: 'screen-pass', hidden: '' }, [
      element('h1', { i18n: ['screen.title', { code }] }),
      element('label', { for: 'screen-pass', i18n: ['screen.passLabel'] }),
      element('div', { class: 'answer-row' }, [this.passInput, element('button', { type: 'submit', class: 'primary', i18n: ['screen.open'] })]),
      this.passProblem,
    ]);
    this.passForm.addEventListener('submit', (event) => {
      event.preventDefault();
      const pass = this.passInput.value.replace(/\s/g, '');
      if (pass) this.connect({ type: 'screen', pass });
    });

    const link = `${location.host}/r/${code}`;
    this.playerCount = element('h2', { id: 'screen-player-count' });
    this.playerList = element('ul', { id: 'screen-players', class: 'screen-players' });
    this.lobby = element('section', { id: 'screen-lobby', class: 'screen-lobby', hidden: '' }, [
      element('div', { class: 'screen-join' }, [
        element('p', { class: 'screen-join-label', i18n: ['screen.join'] }),
        element('p', { id: 'screen-link', class: 'screen-link', text: link }),
        element('p', { id: 'screen-code', class: 'screen-code', text: code }),
        element('p', { class: 'screen-or', i18n: ['screen.orCode', { code }] }),
      ]),
      element('img', {
        id: 'screen-qr', class: 'screen-qr', src: `/v1/qr.svg?path=${encodeURIComponent(`/r/${code}`)}`,
        'data-i18n-attr': 'alt', i18n: ['screen.qr'],
      }),
      element('div', { class: 'screen-roster' }, [
        this.playerCount, this.playerList, element('p', { class: 'screen-waiting', i18n: ['screen.waiting'] }),
      ]),
    ]);

    this.canvas = element('canvas', { id: 'screen-poster', width: 342, height: 513, role: 'img' });
    this.canvas.dataset.i18nAttr = 'aria-label';
    this.poster = new PosterLayers(this.canvas);
    this.quizLabel = element('p', { id: 'screen-quiz', class: 'screen-quiz' });
    this.timeLabel = element('p', { id: 'screen-time', class: 'screen-time' });
    this.timeFill = element('div', { class: 'timebar-fill' });
    this.countdown = element('p', { id: 'screen-countdown', class: 'screen-countdown' });
    this.answered = element('p', { id: 'screen-answered', class: 'screen-answered' });
    this.solvedCount = element('p', { id: 'screen-solved-count', class: 'screen-solved-count' });
    this.solvedList = element('ul', { id: 'screen-solved', class: 'screen-solved' });
    this.quizPanel = element('div', { id: 'screen-quiz-panel', class: 'screen-panel' }, [
      this.countdown, this.answered, this.solvedCount, this.solvedList,
    ]);
    this.endPanel = element('div', { id: 'screen-end', class: 'screen-panel', hidden: '' });
    this.stage = element('section', { id: 'screen-stage', class: 'screen-stage', hidden: '' }, [
      element('div', { class: 'screen-poster' }, [this.canvas]),
      element('div', { class: 'screen-side' }, [
        element('div', { class: 'screen-clock' }, [this.quizLabel, this.timeLabel]),
        element('div', { class: 'timebar', 'aria-hidden': 'true' }, [this.timeFill]),
        this.quizPanel, this.endPanel,
      ]),
    ]);
    this.podium = element('section', { id: 'screen-podium', class: 'screen-podium', hidden: '' });
    const sound = element('div', { class: 'screen-sound' }, [soundToggle()]);
    this.main.replaceChildren(this.notice, this.passForm, this.lobby, this.stage, this.podium, sound);
  }

  /// Comes back with this screen's token, opens with the host's player token when this browser is the host's, or
  /// asks for the host's pass.
  begin() {
    const token = sessionStorage.getItem(tokenKey(this.code));
    if (token) return this.connect({ type: 'screen', token });
    const player = storedPlayer();
    if (player?.token) return this.connect({ type: 'screen', playerToken: player.token });
    return this.askPass();
  }

  askPass() {
    this.passForm.hidden = false;
    this.passInput.focus();
  }

  // MARK: The socket

  connect(hello) {
    this.hello = hello;
    this.welcomed = false;
    this.socket = roomSocket(this.code, {
      open: (socket) => sendOn(socket, hello),
      receive: (socket, message, receivedAt) => { if (socket === this.socket) this.receive(message, receivedAt); },
      closed: (socket, code) => { if (socket === this.socket) this.closed(code); },
    });
  }

  async closed(code) {
    this.socket = null;
    if (this.over || !this.welcomed) return;
    if (code === 4004) { this.end('screen.replaced'); return; }
    if (finalCloseCodes.has(code)) { this.end('room.over'); return; }
    setText(this.notice, 'screen.reconnecting');
    const delay = reconnectDelaysMs[Math.min(this.reconnects, reconnectDelaysMs.length - 1)];
    this.reconnects += 1;
    await new Promise((resolve) => { setTimeout(resolve, delay); });
    const token = sessionStorage.getItem(tokenKey(this.code));
    if (token) this.connect({ type: 'screen', token });
  }

  end(key) {
    this.over = true;
    setText(this.notice, key);
    this.socket?.close();
  }

  receive(message, receivedAt) {
    switch (message.type) {
      case 'screenWelcome': return this.welcome(message);
      case 'snapshot': return this.applySnapshot(message, receivedAt);
      case 'lobby': return this.showPlayers(message);
      case 'quizLoading': return this.quizLoading(message);
      case 'quizStarted':
      case 'stageRevealed': return this.quizClock(message, receivedAt);
      case 'progress': return this.showProgress(message);
      case 'solved':
        return this.solvedList.append(element('li', {
          i18n: ['screen.solved', { name: this.nameOf(message.player), stage: message.stage }],
        }));
      case 'quizEnded': return this.quizEnded(message, receivedAt);
      case 'podium': return this.showPodium(message);
      case 'roomExpired': return this.end(`room.expired.${message.reason}`);
      case 'error': return this.refused(message);
      case 'ping': return sendOn(this.socket, { type: 'pong', serverTime: message.serverTime });
      case 'pong': return this.clock.sample(message);
      default: return undefined;
    }
  }

  welcome(message) {
    sessionStorage.setItem(tokenKey(this.code), message.screenToken);
    this.welcomed = true;
    this.reconnects = 0;
    this.passForm.hidden = true;
    if (this.notice.dataset.i18n === 'screen.reconnecting') clearText(this.notice);
    this.clock.start();
  }

  refused(message) {
    if (this.welcomed) return;
    const socket = this.socket;
    this.socket = null;
    socket?.close();
    if (message.code === 'wrong_screen_token') sessionStorage.removeItem(tokenKey(this.code));
    if (message.code === 'wrong_screen_pass') {
      setText(this.passProblem, 'screen.wrongPass');
      this.passInput.select();
      return;
    }
    if (askPassFor.has(message.code)) { this.askPass(); return; }
    if (message.code === 'room_expired') { this.end('room.over'); return; }
    setText(this.notice, 'room.refused', { message: message.message });
  }

  nameOf(player) {
    return this.players.find((entry) => entry.player === player)?.name ?? `#${player}`;
  }

  // MARK: What the server said

  applySnapshot(snapshot, receivedAt) {
    this.quizCount = snapshot.quizCount;
    this.showPlayers(snapshot.lobby);
    // The places a quiz's end compares with: those after the last quiz, while the next one loads or runs.
    if (snapshot.phase === 'loading' || snapshot.phase === 'playing') this.remember(snapshot.scoreboard);
    this.lobby.hidden = snapshot.phase !== 'lobby';
    if (snapshot.phase === 'loading') this.quizLoading(snapshot.loading);
    if (snapshot.phase === 'playing') {
      this.quizClock(snapshot.clock, receivedAt);
      if (snapshot.progress) this.showProgress(snapshot.progress);
    }
    if ((snapshot.phase === 'interlude' || snapshot.phase === 'finished') && snapshot.lastQuiz) {
      this.quizEnded({ ...snapshot.lastQuiz, nextQuizInMs: snapshot.nextQuizInMs, serverTime: snapshot.serverTime }, receivedAt);
    }
    if (snapshot.podium) {
      // Coming back to a finished room: the podium at once.
      this.endedAt = undefined;
      this.showPodium(snapshot.podium);
    }
    if (snapshot.phase === 'expired') this.end('room.over');
  }

  /// Who is in, as they arrive; with teams, in their teams' columns (those yet to pick in their own).
  showPlayers(lobby) {
    const { players, teams } = lobby;
    this.players = players;
    setText(this.playerCount, 'screen.players', { count: lobby.playerCount ?? players.length });
    const chip = (entry) => {
      const item = element('li', { class: entry.connected ? 'screen-player' : 'screen-player away', text: entry.name });
      // Only a newcomer pops in: the list is drawn anew at every change.
      if (!this.arrived.has(entry.player)) item.classList.add('arrived');
      return entry.team ? paintTeam(item, entry.team) : item;
    };
    if (!teams) this.playerList.replaceChildren(...players.map(chip));
    else this.playerList.replaceChildren(...this.teamColumns(players, teams, chip));
    for (const entry of players) this.arrived.add(entry.player);
  }

  /// A column a team, and one for those who have not picked yet.
  teamColumns(players, teams, chip) {
    return [...Array.from({ length: teams.count }, (_, index) => index + 1), null].map((team) => {
      const members = players.filter((entry) => (entry.team ?? null) === team);
      if (team === null && members.length === 0) return null;
      return element('li', { class: 'screen-team' }, [
        team === null ? element('span', { text: '\u2014' }) : teamTag(team),
        element('ul', { class: 'screen-team-players' }, members.map(chip)),
      ]);
    }).filter(Boolean);
  }

  /// A new quiz from black, on the stage: its poster, counts and notices are the last quiz's no more.
  showQuiz(quiz) {
    this.lobby.hidden = true;
    this.stage.hidden = false;
    setText(this.quizLabel, 'play.quiz', { number: quiz, count: this.quizCount });
    if (this.shownQuiz === quiz) return;
    this.shownQuiz = quiz;
    this.askedStage = 0;
    this.limitMs = 0;
    setText(this.canvas, 'play.poster', { number: quiz });
    clearText(this.answered);
    clearText(this.solvedCount);
    this.solvedList.replaceChildren();
    this.quizPanel.hidden = false;
    this.endPanel.hidden = true;
    this.poster.clear();
  }

  quizLoading(message) {
    if (message.quizCount) this.quizCount = message.quizCount;
    this.showQuiz(message.quiz);
    this.endsAt = null;
    this.nextQuizAt = null;
    clearText(this.timeLabel);
    this.timeFill.style.transform = 'scaleX(1)';
    setText(this.countdown, 'room.loading', { number: message.quiz });
    cue('play.getReady');
    this.loadPoster(message.quiz, 1, message.posterURL);
  }

  quizClock(message, receivedAt) {
    this.showQuiz(message.quiz);
    clearText(this.countdown);
    this.nextQuizAt = null;
    this.endsAt = this.clock.localTime(message.serverTime, message.endsInMs, receivedAt);
    this.limitMs = Math.max(this.limitMs, Math.ceil(message.endsInMs / 1000) * 1000);
    if (message.stage > this.askedStage) this.loadPoster(message.quiz, message.stage, message.posterURL);
    this.animate();
  }

  showProgress(progress) {
    if (progress.quiz !== this.shownQuiz) return;
    setText(this.answered, 'screen.answered', { answered: progress.answered, players: progress.players });
    setText(this.solvedCount, 'screen.solvedCount', { solved: progress.solved });
  }

  quizEnded(message, receivedAt) {
    this.endedAt = performance.now();
    this.showQuiz(message.quiz);
    this.endsAt = null;
    this.timeFill.style.transform = 'scaleX(0)';
    clearText(this.timeLabel);
    clearText(this.countdown);
    this.nextQuizAt = message.nextQuizInMs === null || message.nextQuizInMs === undefined
      ? null : this.clock.localTime(message.serverTime, message.nextQuizInMs, receivedAt);
    this.loadPoster(message.quiz, null, message.posterURL);
    const solvers = message.solvers.map((solver) => element('li', {
      i18n: ['screen.solver', { name: solver.name, stage: solver.stage, points: solver.points }],
    }));
    this.nextLabel = element('p', { id: 'screen-next', class: 'screen-next' });
    this.endPanel.replaceChildren(
      element('h2', { id: 'screen-answer', class: 'screen-answer', i18n: ['screen.answer', { title: message.answerTitle, year: message.answerYear ? `(${message.answerYear})` : '' }] }),
      element('p', { class: 'note', i18n: [`room.ending.${message.ending}`] }),
      solvers.length ? element('ul', { id: 'screen-solvers', class: 'screen-solvers' }, solvers)
        : element('p', { id: 'screen-solvers', i18n: ['room.nobodySolved'] }),
      ...solverCountLine(message, 'screen-solver-count'),
      ...(message.teamScoreboard ? [teamBoard(message.teamScoreboard, namesIn(message.scoreboard), 'screen-team-board')] : []),
      this.scoreboard(message.scoreboard),
      this.nextLabel);
    this.quizPanel.hidden = true;
    this.endPanel.hidden = false;
    this.animate();
  }

  /// The scoreboard's first lines, each with its change of place since the last quiz.
  scoreboard(scores) {
    const rows = scores.slice(0, boardLines).map((score) => {
      const before = this.ranks.get(score.player);
      const change = before === undefined || before === score.rank ? ''
        : before > score.rank ? ['screen.moved', { places: before - score.rank }] : ['screen.fell', { places: score.rank - before }];
      const cell = element('td', { class: 'screen-change' });
      if (change) {
        setText(cell, change[0], change[1]);
        cell.classList.add(change[0] === 'screen.moved' ? 'up' : 'down');
      }
      return element('tr', {}, [
        element('td', { text: String(score.rank) }), element('td', { text: score.name }),
        element('td', { text: String(score.score) }), cell,
      ]);
    });
    this.remember(scores);
    const head = element('tr', {}, ['board.rank', 'board.player', 'board.score'].map((key) => element('th', { scope: 'col', i18n: [key] })));
    head.append(element('th', { scope: 'col' }));
    return element('table', { id: 'screen-scoreboard', class: 'screen-scoreboard' }, [
      element('thead', {}, [head]), element('tbody', {}, rows),
    ]);
  }

  remember(scores) {
    this.ranks = new Map(scores.map((score) => [score.player, score.rank]));
  }

  /// The podium: the first three on steps that rise one after the other, then everyone else.
  showPodium(podium) {
    const wait = this.endedAt === undefined ? 0 : this.endedAt + lastAnswerMs - performance.now();
    if (wait > 0) {
      setTimeout(() => this.showPodium(podium), wait);
      return;
    }
    this.stage.hidden = true;
    this.lobby.hidden = true;
    this.nextQuizAt = null;
    cue('end');
    // With teams the steps are the teams', each naming its players; the players' places follow either way.
    const nameOf = namesIn(podium.places);
    const winners = podium.teams
      ? podium.teams.map((team) => ({ rank: team.rank, score: team.score, name: teamTag(team.team), players: team.players.map(nameOf) }))
      : podium.places.map((place) => ({ rank: place.rank, score: place.score, name: place.name, players: [] }));
    const steps = winners.slice(0, 3).map((winner, index) => {
      const name = element('span', { class: 'screen-step-name' }, [winner.name]);
      const step = element('li', { class: `screen-step step-${index + 1}` }, [
        name,
        element('span', { class: 'screen-step-score', text: String(winner.score) }),
        ...(winner.players.length ? [element('span', { class: 'screen-step-players', text: winner.players.join(', ') })] : []),
        element('span', { class: 'screen-step-rank', text: String(winner.rank) }),
      ]);
      // Through the style object: the page's Content-Security-Policy refuses style attributes.
      step.style.setProperty('--delay', `${(2 - index) * 0.6}s`);
      return step;
    });
    const rest = podium.places.slice(podium.teams ? 0 : 3, boardLines).map((place) => element('li', {
      i18n: ['room.place', { rank: place.rank, name: place.name, score: place.score }],
    }));
    this.podium.replaceChildren(
      element('h1', { i18n: ['screen.podium'] }),
      element('ol', { id: 'screen-steps', class: 'screen-steps' }, steps),
      element('ol', { id: 'screen-rest', class: 'screen-rest' }, rest));
    this.podium.hidden = false;
  }

  // MARK: The poster

  async loadPoster(quiz, stage, url) {
    if (stage !== null) this.askedStage = Math.max(this.askedStage, stage);
    try {
      const bitmap = await posterBitmap(url);
      if (quiz !== this.shownQuiz) return;
      this.poster.add(bitmap, stage, posterFadeMs);
      this.animate();
    } catch (error) {
      setText(this.notice, 'error.generic', { message: error.message });
    }
  }

  animate() {
    if (this.frame === null) this.frame = requestAnimationFrame(() => this.draw());
  }

  draw() {
    this.frame = null;
    const now = performance.now();
    let moving = this.poster.draw(now);
    if (drawTimeLeft(this.timeFill, this.timeLabel, this.endsAt, this.limitMs, now)) moving = true;
    if (this.nextQuizAt !== null && this.nextLabel) {
      showSeconds(this.nextLabel, 'play.getReady', this.nextQuizAt - now, { number: this.shownQuiz + 1 });
      moving = true;
    }
    if (moving) this.animate();
  }
}
