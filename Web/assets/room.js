// A live room, `/r/{code}`, over its WebSocket (README.md, "Live rooms"). The server times and judges everything; the
// page draws what it is told when it is told, and sets text from the network only as text.

import { ApiError, encode, ensurePlayer, playerApi, publicApi, storedPlayer } from './api.js';
import { addTexts, setText, t } from './i18n.js';
import {
  PosterLayers, clearText, copyButton, cue, dock, element, howToButton, howToFirstTime, makeYourOwn, shortcutButton,
  showSeconds, soundToggle,
} from './ui.js';
import { suggestTitles } from './suggest.js';
import {
  ServerClock, drawTimeLeft, namesIn, paintTeam, posterBitmap, roomSocket, sendOn, solverCountLine, teamBoard, teamTag,
} from './roomwire.js';

// The room's texts join the page's tables only where a room is shown.
addTexts({
  en: {
    'room.title': 'Room {code}',
    'room.unknown': 'No room with this code here.',
    'room.name': 'Your name',
    'room.join': 'Join',
    'room.players': 'Players',
    'room.playerCount': 'Players ({count})',
    'room.invite': 'Friends join with this link, or with the code {code} on the home page:',
    'room.copyLink': 'Copy link',
    'room.shareLink': 'Share',
    'room.shareText': 'Play UQuiz with me: room {code}',
    'room.start': 'Start',
    'room.youHost': 'You host: start when everyone is in.',
    'room.waitHost': 'Waiting for the host to start.',
    'room.kick': 'Kick',
    'room.passHost': 'Make host',
    'room.tag.host': 'host',
    'room.tag.you': 'you',
    'room.tag.away': 'disconnected',
    'room.tag.watching': 'watching',
    'room.tag.left': 'left',
    'room.newHost': '{name} hosts now.',
    'room.skip': 'Skip for all',
    'room.accepted': 'Right! +{points} points at stage {stage}',
    'room.notSolved': 'Not solved.',
    'room.watching': 'You joined during this quiz: you watch it and play from the next.',
    'room.solved': '{name} solved it at stage {stage}.',
    'room.answer': 'It was {title} {year}',
    'room.solver': '{name}: +{points} at stage {stage} ({seconds} s)',
    'room.scoreboard': 'Scoreboard',
    'room.solvedCount': 'Solved',
    'room.podium': 'Podium',
    'room.again': 'Another round in a new room',
    'room.you': 'You: {score} points (#{rank})',
    'room.reconnecting': 'Connection lost: taking your seat back\u2026',
    'room.reconnected': 'Back in the room.',
    'room.replaced': 'This room is open in another tab now.',
    'room.kicked': 'The host removed you from the room.',
    'room.error.invalid_name': 'A name is 1 to 24 characters on one line, with none that readers cannot see.',
    'room.error.name_taken': 'Someone in the room has this name, or one that looks the same.',
    'room.error.room_full': 'The room is full.',
    'room.error.room_finished': 'This room has ended.',
    'room.error.host_not_here': 'The host has not joined yet: try again in a moment.',
    'room.error.not_host': 'Only the host may do that.',
    'room.error.watching': 'You watch this quiz and play from the next.',
    'room.error.already_done': 'This quiz is over for you.',
    'room.qr': 'QR code of the room\u2019s link: scan it to join',
    'room.openScreen': 'Show on a big screen',
    'room.screenPassButton': 'Screen pass for another device',
    'room.screenPass': 'On the big screen, open {link} and type {pass} (within {minutes} minutes).',
    'room.pad': 'I\u2019m watching the big screen',
    'room.padShort': 'Big screen',
    'room.teams': 'Teams',
    'room.teamsOff': 'No teams',
    'room.teamsCount': '{count} teams',
    'room.scoring': 'A team scores',
    'room.scoring.mean': 'the mean of its players',
    'room.scoring.best': 'its best player',
    'room.pickTeam': 'Your team',
    'room.teamOf': 'Team of {name}',
    'room.error.no_such_team': 'That team is not one of this room\u2019s.',
    'room.error.teams_only_in_the_lobby': 'Teams are picked in the lobby.',
  },
  ko: {
    'room.title': '방 {code}',
    'room.unknown': '이 코드의 방이 없습니다.',
    'room.name': '이름',
    'room.join': '참가',
    'room.players': '참가자',
    'room.playerCount': '참가자 ({count}명)',
    'room.invite': '친구는 이 링크로, 또는 첫 화면에서 코드 {code}로 참가합니다:',
    'room.copyLink': '링크 복사',
    'room.shareLink': '공유',
    'room.shareText': 'UQuiz 같이 해요: 방 {code}',
    'room.start': '시작',
    'room.youHost': '방장입니다. 모두 모이면 시작하세요.',
    'room.waitHost': '방장이 시작하기를 기다리는 중입니다.',
    'room.kick': '내보내기',
    'room.passHost': '방장 넘기기',
    'room.tag.host': '방장',
    'room.tag.you': '나',
    'room.tag.away': '연결 끊김',
    'room.tag.watching': '관전 중',
    'room.tag.left': '나감',
    'room.newHost': '이제 {name}님이 방장입니다.',
    'room.skip': '모두 건너뛰기',
    'room.accepted': '정답! {stage}단계에서 +{points}점',
    'room.notSolved': '맞히지 못했습니다.',
    'room.watching': '퀴즈 도중에 참가했습니다. 이번 퀴즈는 관전하고 다음 퀴즈부터 풉니다.',
    'room.solved': '{name}님이 {stage}단계에서 맞혔습니다.',
    'room.answer': '정답은 {title} {year}',
    'room.solver': '{name}: {stage}단계에서 +{points}점 ({seconds}초)',
    'room.scoreboard': '점수판',
    'room.solvedCount': '정답',
    'room.podium': '최종 순위',
    'room.again': '새 방에서 한 판 더',
    'room.you': '나: {score}점 ({rank}위)',
    'room.reconnecting': '연결이 끊겼습니다. 자리로 돌아가는 중\u2026',
    'room.reconnected': '방으로 돌아왔습니다.',
    'room.replaced': '이 방이 이제 다른 탭에서 열려 있습니다.',
    'room.kicked': '방장이 당신을 방에서 내보냈습니다.',
    'room.error.invalid_name': '이름은 한 줄에 1~24자이며 보이지 않는 문자를 넣을 수 없습니다.',
    'room.error.name_taken': '방에 같은 이름이나 똑같아 보이는 이름이 이미 있습니다.',
    'room.error.room_full': '방이 가득 찼습니다.',
    'room.error.room_finished': '이 방은 끝났습니다.',
    'room.error.host_not_here': '방장이 아직 들어오지 않았습니다. 잠시 뒤에 다시 해 보세요.',
    'room.error.not_host': '방장만 할 수 있습니다.',
    'room.error.watching': '이번 퀴즈는 관전하고 다음 퀴즈부터 풉니다.',
    'room.error.already_done': '이 퀴즈는 이미 끝났습니다.',
    'room.qr': '방 링크의 QR 코드: 스캔해서 참가하세요',
    'room.openScreen': '큰 화면에 띄우기',
    'room.screenPassButton': '다른 기기용 화면 암호',
    'room.screenPass': '큰 화면에서 {link}을(를) 열고 {pass}를 입력하세요 ({minutes}분 안에).',
    'room.pad': '큰 화면으로 보는 중',
    'room.padShort': '큰 화면',
    'room.teams': '팀',
    'room.teamsOff': '팀 없음',
    'room.teamsCount': '{count}팀',
    'room.scoring': '팀 점수',
    'room.scoring.mean': '팀원 점수의 평균',
    'room.scoring.best': '가장 잘한 팀원의 점수',
    'room.pickTeam': '내 팀',
    'room.teamOf': '{name}님의 팀',
    'room.error.no_such_team': '이 방에 없는 팀입니다.',
    'room.error.teams_only_in_the_lobby': '팀은 대기실에서 고릅니다.',
  },
});

const posterFadeMs = 300;
/// Waits before each try to take the seat back over a new socket; the last is kept (the seat is held 90 s).
const reconnectDelaysMs = [300, 1000, 2000, 4000];
/// Closes another socket cannot mend: left, room gone, kicked, resumed elsewhere.
const finalCloseCodes = new Set([1000, 1001, 4003, 4004]);
const nameLength = 24;

const resumeKey = (code) => `uquiz.room.${code}`;
const padKey = (code) => `uquiz.room.pad.${code}`;
const openerKey = (code) => `uquiz.room.opener.${code}`;

/// Opens a room on the package as the guest player (made now if needed) and goes to it, where the page joins first
/// with the player's token, as the server requires of the opener.
export async function openRoom(shareCode) {
  const opened = await playerApi('POST', '/v1/rooms', { shareCode });
  sessionStorage.setItem(openerKey(opened.code), '1');
  location.assign(`/r/${encode(opened.code)}`);
}

export class RoomScreen {
  constructor(main, code) {
    this.main = main;
    this.code = code;
    this.me = null;
    this.lobby = { players: [], host: null };
    this.phase = 'lobby';
    this.socket = null;
    this.over = false;
    this.reconnects = 0;
    this.clock = new ServerClock((message) => this.send(message));
    this.shownQuiz = 0;
    this.quizCount = 0;
    this.askedStage = 0;
    this.endsAt = null;
    this.limitMs = 0;
    this.nextQuizAt = null;
    this.doneQuiz = 0;
    this.watchingQuiz = 0;
    this.mine = null;
    this.gained = 0;
    this.frame = null;
    this.build();
  }

  build() {
    const code = this.code;
    document.head.append(element('link', { rel: 'stylesheet', href: new URL('./room.css', import.meta.url).pathname }));
    this.notice = element('p', { id: 'room-notice', class: 'verdict', role: 'status', 'aria-live': 'polite' });
    this.nameInput = element('input', {
      id: 'room-name', name: 'name', type: 'text', autocomplete: 'nickname', maxlength: String(nameLength), enterkeyhint: 'go',
    });
    this.nameProblem = element('p', { id: 'join-problem', class: 'problem', role: 'status', 'aria-live': 'polite' });
    this.joinForm = element('form', { id: 'join-form', class: 'code-form', hidden: '' }, [
      element('label', { for: 'room-name', i18n: ['room.name'] }),
      element('div', { class: 'answer-row' }, [this.nameInput, element('button', { type: 'submit', class: 'primary', i18n: ['room.join'] })]),
      this.nameProblem,
    ]);
    this.players = element('ul', { id: 'lobby-players', class: 'players' });
    this.startButton = element('button', { type: 'button', id: 'start-room', class: 'primary', hidden: '', i18n: ['room.start'] });
    this.lobbyNote = element('p', { id: 'lobby-note', class: 'note' });
    this.playersHeading = element('h2', { id: 'lobby-heading', i18n: ['room.players'] });
    this.screenTools = this.hostScreenTools(code);
    this.pads = [];
    this.lobbySection = element('section', { id: 'lobby', class: 'lobby', hidden: '' }, [
      this.playersHeading, this.players, this.teamControls(), this.startButton, this.lobbyNote,
      ...this.invite(code), this.screenTools, this.padButton('room.pad'),
    ]);

    this.canvas = element('canvas', { id: 'poster', width: 342, height: 513, role: 'img' });
    this.canvas.dataset.i18nAttr = 'aria-label';
    this.poster = new PosterLayers(this.canvas);
    this.countdown = element('p', { id: 'countdown', class: 'countdown', hidden: '' });
    this.quizLabel = element('span', { id: 'quiz-label' });
    this.timeLabel = element('span', { id: 'time-left', class: 'time-left' });
    this.timeFill = element('div', { class: 'timebar-fill' });
    this.hintText = element('p', { id: 'hint', class: 'hint' });
    this.verdict = element('p', { id: 'verdict', class: 'verdict', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
    this.solvedList = element('ul', { id: 'solved-notices', class: 'notices', 'aria-live': 'polite' });
    // The player's own score and rank, in the dock from the first quiz to the podium.
    this.you = element('p', { id: 'room-you', class: 'you' });
    this.packageTitle = element('span', { id: 'room-package', class: 'play-title' });
    // The package's title, as a play shows it: found through the room's package code.
    publicApi('GET', `/v1/rooms/${encode(code)}`)
      .then((info) => publicApi('GET', `/v1/packages/${encode(info.shareCode)}`))
      .then((metadata) => { this.packageTitle.textContent = metadata.title; }, () => {});
    const status = element('div', { class: 'status' }, [this.packageTitle, this.quizLabel, this.timeLabel]);
    const frame = element('div', { class: 'poster-frame' }, [this.canvas, this.countdown]);
    this.gameSection = element('section', { id: 'room-game', hidden: '' }, [
      status,
      frame,
      element('div', { class: 'timebar', 'aria-hidden': 'true' }, [this.timeFill]),
    ]);
    this.endSection = element('section', { id: 'quiz-end', class: 'end', hidden: '' });
    this.podiumSection = element('section', { id: 'podium', class: 'end', hidden: '', tabindex: '-1' });

    this.guess = element('input', {
      id: 'guess', name: 'guess', type: 'text', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false',
      enterkeyhint: 'send', maxlength: '200',
    });
    this.hintButton = shortcutButton('hint-button', 'play.hint', 'Alt+H');
    this.skipButton = shortcutButton('skip-button', 'room.skip', 'Alt+S');
    this.skipButton.hidden = true;
    const answerRow = element('div', { class: 'answer-row' }, [
      this.guess, element('button', { type: 'submit', class: 'primary', i18n: ['play.submit'] }),
    ]);
    this.titles = suggestTitles(this.guess, answerRow, () => this.submit());
    this.form = element('form', { id: 'answer', class: 'answer-bar', hidden: '' }, [
      element('label', { for: 'guess', i18n: ['play.guess'] }),
      answerRow,
      element('div', { class: 'answer-row tools' }, [this.hintButton, this.skipButton, soundToggle(), this.padButton('room.padShort')]),
    ]);
    this.dock = dock(this.main, [this.you, this.hintText, this.verdict, this.solvedList, this.form]);
    this.dock.hidden = true;
    this.setPad(sessionStorage.getItem(padKey(code)) === 'on', false);
    // The room's heading, with the "?" of "How to play" beside it from the lobby to the podium.
    const head = element('div', { class: 'room-head' }, [
      element('h1', { id: 'room-title', i18n: ['room.title', { code }] }), howToButton()]);
    // The poster leaves room for what is above it (--above: the heading, a notice, a long title), as for the dock.
    const above = new ResizeObserver(() => this.gameSection.style.setProperty('--above', `${frame.offsetTop}px`));
    for (const node of [head, this.notice, status]) above.observe(node);
    this.main.replaceChildren(
      head, this.notice, this.joinForm,
      this.gameSection, this.endSection, this.podiumSection, this.lobbySection, this.dock);

    this.joinForm.addEventListener('submit', (event) => {
      event.preventDefault();
      const name = this.nameInput.value.trim();
      if (!name) { setText(this.nameProblem, 'room.error.invalid_name'); return; }
      this.connect({ type: 'join', name, playerToken: storedPlayer()?.token });
    });
    this.startButton.addEventListener('click', () => this.send({ type: 'start' }));
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.submit();
    });
    this.hintButton.addEventListener('click', () => this.askHint());
    this.skipButton.addEventListener('click', () => this.skip());
    document.addEventListener('keydown', (event) => {
      if (!event.altKey || event.ctrlKey || event.metaKey || document.querySelector('dialog[open]')) return;
      if (event.code === 'KeyH') { event.preventDefault(); this.askHint(); }
      if (event.code === 'KeyS') { event.preventDefault(); this.skip(); }
    });
  }

  /// The invite: the room's link with a copy button, and the system's share sheet where the browser has one.
  invite(code) {
    const link = `${location.origin}/r/${code}`;
    const line = element('output', { id: 'room-link', class: 'share-line', text: link });
    const status = element('p', { class: 'copy-status', role: 'status', 'aria-live': 'polite' });
    const buttons = [copyButton({ id: 'copy-room-link', label: 'room.copyLink' }, line, status)];
    if (navigator.share) {
      const share = element('button', { type: 'button', id: 'share-room-link', i18n: ['room.shareLink'] });
      // Dismissing the sheet rejects: nothing to say then.
      share.addEventListener('click', () => navigator.share({ title: 'UQuiz', text: t('room.shareText', { code }), url: link }).catch(() => {}));
      buttons.push(share);
    }
    return [
      element('p', { class: 'note', i18n: ['room.invite', { code }] }),
      element('div', { class: 'share' }, [line, ...buttons]),
      status,
      element('img', {
        id: 'room-qr', class: 'room-qr', src: `/v1/qr.svg?path=${encode(`/r/${code}`)}`, 'data-i18n-attr': 'alt',
        i18n: ['room.qr'],
      }),
    ];
  }

  /// The host's way to the big screen: opened in a new tab of this browser (which holds their token), or on another
  /// device with a one-time pass.
  hostScreenTools(code) {
    const open = element('button', { type: 'button', id: 'open-screen', i18n: ['room.openScreen'] });
    open.addEventListener('click', () => window.open(`/r/${encode(code)}/screen`, '_blank'));
    const ask = element('button', { type: 'button', id: 'screen-pass-button', i18n: ['room.screenPassButton'] });
    ask.addEventListener('click', () => this.send({ type: 'screenPass' }));
    this.screenPassText = element('p', { id: 'screen-pass-text', class: 'note', role: 'status', 'aria-live': 'polite' });
    return element('div', { id: 'screen-tools', class: 'actions', hidden: '' }, [open, ask, this.screenPassText]);
  }

  /// "I'm watching the big screen": the phone becomes an answer pad, without the poster (never fetched then).
  padButton(label) {
    const button = element('button', { type: 'button', class: 'pad-toggle', 'aria-pressed': 'false', i18n: [label] });
    button.addEventListener('click', () => this.setPad(!this.pad, true));
    this.pads.push(button);
    return button;
  }

  /// The answer pad on or off; `remember`ed when the person chose it (a large room's default is not a choice).
  setPad(on, remember) {
    this.pad = on;
    if (remember) sessionStorage.setItem(padKey(this.code), on ? 'on' : 'off');
    this.main.classList.toggle('answer-pad', on);
    for (const button of this.pads) button.setAttribute('aria-pressed', String(on));
    // Back to the poster: the one last announced.
    if (!on && this.lastPoster) this.loadPoster(...this.lastPoster);
  }

  /// Takes back the seat this tab had (a reload), joins as the opener, or shows the lobby and asks for a name.
  async begin() {
    const token = sessionStorage.getItem(resumeKey(this.code));
    if (token) return this.connect({ type: 'resume', token });
    if (sessionStorage.getItem(openerKey(this.code))) {
      const player = await ensurePlayer();
      return this.connect({ type: 'join', name: player.name.slice(0, nameLength), playerToken: player.token });
    }
    let info;
    try {
      info = await publicApi('GET', `/v1/rooms/${encode(this.code)}`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) setText(this.notice, 'room.unknown');
      else setText(this.notice, 'error.generic', { message: error.message });
      return;
    }
    if (info.phase === 'finished' || info.phase === 'expired') { setText(this.notice, 'room.over'); return; }
    this.showLobby(info);
    this.askName();
    // A first visit says how to play in the lobby, never over a quiz.
    if (info.phase === 'lobby') howToFirstTime();
  }

  askName() {
    this.joinForm.hidden = false;
    if (!this.nameInput.value) this.nameInput.value = storedPlayer()?.name.slice(0, nameLength) ?? '';
    this.nameInput.focus();
  }

  // MARK: The socket

  connect(hello) {
    this.hello = hello;
    this.socket = roomSocket(this.code, {
      open: () => this.send(hello),
      receive: (socket, message, receivedAt) => { if (socket === this.socket) this.receive(message, receivedAt); },
      closed: (socket, code) => { if (socket === this.socket) this.closed(code); },
    });
  }

  send(message) {
    sendOn(this.socket, message);
  }

  /// Ends this socket on purpose (a refused hello): its close is not a drop to recover from.
  drop() {
    const socket = this.socket;
    this.socket = null;
    socket?.close();
  }

  /// The socket ended: a seat this tab holds is taken back over a new one with `resume`, after a short wait; a join
  /// that never got its welcome (the room is gone, say) starts over from what the room says.
  async closed(code) {
    this.socket = null;
    this.me = null;
    if (this.over) return;
    if (code === 4004) { this.end('room.replaced', { keepSeat: true }); return; }
    const token = sessionStorage.getItem(resumeKey(this.code));
    if (!token) {
      sessionStorage.removeItem(openerKey(this.code));
      if (this.hello?.type === 'join') this.begin();
      return;
    }
    if (finalCloseCodes.has(code)) return;
    setText(this.notice, 'room.reconnecting');
    const delay = reconnectDelaysMs[Math.min(this.reconnects, reconnectDelaysMs.length - 1)];
    this.reconnects += 1;
    await new Promise((resolve) => { setTimeout(resolve, delay); });
    // After a few failed tries, ask whether the room is still there.
    if (this.reconnects > 2) {
      try {
        await publicApi('GET', `/v1/rooms/${encode(this.code)}`);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) { this.end('room.over'); return; }
      }
    }
    this.connect({ type: 'resume', token });
  }

  receive(message, receivedAt) {
    switch (message.type) {
      case 'welcome': return this.welcome(message);
      case 'snapshot': return this.applySnapshot(message, receivedAt);
      case 'lobby': return this.showLobby(message);
      case 'hostChanged':
        this.showLobby({ ...this.lobby, host: message.player });
        return setText(this.notice, 'room.newHost', { name: this.nameOf(message.player) });
      case 'quizLoading': return this.quizLoading(message);
      case 'quizStarted':
      case 'stageRevealed': return this.quizClock(message, receivedAt);
      case 'guessJudged': return this.judged(message);
      case 'hint':
        this.hintButton.disabled = true;
        return setText(this.hintText, 'play.hintText', { hint: message.hint });
      case 'solved':
        return this.solvedList.append(element('li', {
          i18n: ['room.solved', { name: this.nameOf(message.player), stage: message.stage }],
        }));
      case 'quizEnded': return this.quizEnded(message, receivedAt);
      case 'podium': return this.showPodium(message);
      case 'kicked': return this.end('room.kicked');
      case 'roomExpired': return this.end(`room.expired.${message.reason}`);
      case 'error': return this.refused(message);
      case 'screenPass':
        return setText(this.screenPassText, 'room.screenPass', {
          link: `${location.host}/r/${this.code}/screen`, pass: message.pass, minutes: Math.round(message.expiresInMs / 60000),
        });
      case 'ping': return this.send({ type: 'pong', serverTime: message.serverTime });
      case 'pong': return this.clock.sample(message);
      default: return undefined;
    }
  }

  welcome(message) {
    sessionStorage.setItem(resumeKey(this.code), message.resumeToken);
    sessionStorage.removeItem(openerKey(this.code));
    this.me = message.player;
    this.reconnects = 0;
    this.joinForm.hidden = true;
    if (this.notice.dataset.i18n === 'room.reconnecting') setText(this.notice, 'room.reconnected');
    this.clock.start();
  }

  /// A refused command. Before the seat is had, a refused `join` or `resume` goes back to asking for a name.
  refused(message) {
    if (this.me === null && this.hello?.type === 'join' && message.code === 'unknown_player_token') {
      // A token from another server's database: joining without it still plays, it only does not count in stats.
      this.hello = { ...this.hello, playerToken: undefined };
      return this.send(this.hello);
    }
    const key = `room.error.${message.code}`;
    const known = t(key) !== key;
    if (this.me === null) {
      this.drop();
      if (this.hello?.type === 'resume') sessionStorage.removeItem(resumeKey(this.code));
      sessionStorage.removeItem(openerKey(this.code));
      if (this.hello?.type === 'resume') return this.begin();
      this.askName();
      return known ? setText(this.nameProblem, key) : setText(this.nameProblem, 'room.refused', { message: message.message });
    }
    return known ? setText(this.notice, key) : setText(this.notice, 'room.refused', { message: message.message });
  }

  /// The room is over for this tab (kicked, expired, the seat taken by another tab): no seat to take back here.
  end(key, { keepSeat = false } = {}) {
    this.over = true;
    if (!keepSeat) sessionStorage.removeItem(resumeKey(this.code));
    setText(this.notice, key);
    this.form.hidden = true;
    this.startButton.hidden = true;
    this.endsAt = null;
    this.nextQuizAt = null;
    this.drop();
  }

  // MARK: The server's clock, for drawing only

  // MARK: What the server said

  applySnapshot(snapshot, receivedAt) {
    this.me = snapshot.you;
    this.quizCount = snapshot.quizCount;
    this.showLobby(snapshot.lobby);
    this.setBoard(snapshot.scoreboard);
    if (snapshot.phase === 'lobby') howToFirstTime();
    const quiz = snapshot.loading?.quiz ?? snapshot.clock?.quiz;
    if (snapshot.standing === 'watching') this.watchingQuiz = quiz;
    if (snapshot.phase === 'loading') this.quizLoading(snapshot.loading);
    if (snapshot.phase === 'playing') this.quizClock(snapshot.clock, receivedAt);
    if (snapshot.hint) {
      this.hintButton.disabled = true;
      setText(this.hintText, 'play.hintText', { hint: snapshot.hint });
    }
    if (snapshot.result) {
      this.doneQuiz = quiz;
      this.sayResult(snapshot.result.outcome === 'solved', snapshot.result.points, snapshot.result.stage);
    }
    if (snapshot.standing === 'watching') setText(this.verdict, 'room.watching');
    if ((snapshot.phase === 'interlude' || snapshot.phase === 'finished') && snapshot.lastQuiz) {
      this.quizEnded({ ...snapshot.lastQuiz, nextQuizInMs: snapshot.nextQuizInMs, serverTime: snapshot.serverTime }, receivedAt);
    }
    if (snapshot.podium) this.showPodium(snapshot.podium);
    if (snapshot.phase === 'expired') this.end('room.over');
    this.showControls();
    this.animate();
  }

  nameOf(player) {
    return this.lobby.players.find((entry) => entry.player === player)?.name ?? `#${player}`;
  }

  showLobby(lobby) {
    this.lobby = { players: lobby.players, host: lobby.host ?? null, teams: lobby.teams ?? null, playerCount: lobby.playerCount };
    // A large room names its latest players only, and says how many are in.
    if (lobby.playerCount) setText(this.playersHeading, 'room.playerCount', { count: lobby.playerCount });
    else setText(this.playersHeading, 'room.players');
    // A large room is played with a big screen: its phones are answer pads unless the person turned that off.
    if (lobby.playerCount && !this.pad && sessionStorage.getItem(padKey(this.code)) === null) this.setPad(true, false);
    const hosting = this.me !== null && this.lobby.host === this.me;
    this.players.replaceChildren(...this.lobby.players.map((entry) => {
      const tags = [];
      if (entry.player === this.lobby.host) tags.push('room.tag.host');
      if (entry.player === this.me) tags.push('room.tag.you');
      if (!entry.connected) tags.push('room.tag.away');
      if (entry.watching) tags.push('room.tag.watching');
      const item = element('li', { 'data-player': String(entry.player), class: entry.connected ? 'player' : 'player away' }, [
        element('span', { class: 'player-name', text: entry.name }),
        ...tags.map((key) => element('span', { class: 'tag', i18n: [key] })),
      ]);
      if (this.lobby.teams && this.phase === 'lobby' && hosting) item.append(this.assignSelect(entry));
      else if (entry.team) item.append(teamTag(entry.team));
      // Once the podium is up there is no one left to kick or to hand the room to.
      if (hosting && entry.player !== this.me && this.phase !== 'finished' && !this.over) {
        const kick = element('button', { type: 'button', class: 'kick', i18n: ['room.kick'] });
        kick.addEventListener('click', () => this.send({ type: 'kick', player: entry.player }));
        const pass = element('button', { type: 'button', class: 'pass-host', i18n: ['room.passHost'] });
        pass.disabled = !entry.connected;
        pass.addEventListener('click', () => this.send({ type: 'passHost', player: entry.player }));
        item.append(kick, pass);
      }
      return item;
    }));
    this.lobbySection.hidden = false;
    this.showTeamControls(hosting);
    this.showControls();
  }

  // MARK: Teams

  /// The lobby's teams: the host's count and scoring, and every player's pick.
  teamControls() {
    this.teamCount = element('select', { id: 'team-count', name: 'teams' }, [0, 2, 3, 4, 5, 6].map((count) => element('option', {
      value: String(count), i18n: count ? ['room.teamsCount', { count }] : ['room.teamsOff'],
    })));
    this.teamScoring = element('select', { id: 'team-scoring', name: 'scoring' }, ['mean', 'best'].map((scoring) => element('option', {
      value: scoring, i18n: [`room.scoring.${scoring}`],
    })));
    const sendTeams = () => this.send({ type: 'teams', count: Number(this.teamCount.value), scoring: this.teamScoring.value });
    this.teamCount.addEventListener('change', sendTeams);
    this.teamScoring.addEventListener('change', sendTeams);
    this.teamSettings = element('div', { class: 'team-settings', hidden: '' }, [
      element('div', { class: 'field' }, [element('label', { for: 'team-count', i18n: ['room.teams'] }), this.teamCount]),
      element('div', { class: 'field' }, [element('label', { for: 'team-scoring', i18n: ['room.scoring'] }), this.teamScoring]),
    ]);
    this.teamPicks = element('div', { id: 'team-picks', class: 'team-picks', role: 'group' });
    this.teamPicksBox = element('div', { hidden: '' }, [element('p', { class: 'note', i18n: ['room.pickTeam'] }), this.teamPicks]);
    return element('div', { class: 'teams' }, [this.teamSettings, this.teamPicksBox]);
  }

  showTeamControls(hosting) {
    const { teams } = this.lobby;
    const inLobby = this.phase === 'lobby' && !this.over;
    this.teamSettings.hidden = !(hosting && inLobby);
    this.teamCount.value = String(teams?.count ?? 0);
    this.teamScoring.value = teams?.scoring ?? 'mean';
    this.teamScoring.disabled = !teams;
    this.teamPicksBox.hidden = !(teams && inLobby && this.me !== null);
    if (!teams) return;
    const mine = this.lobby.players.find((entry) => entry.player === this.me)?.team;
    this.teamPicks.replaceChildren(...Array.from({ length: teams.count }, (_, index) => {
      const button = paintTeam(element('button', { type: 'button', class: 'team-pick', 'aria-pressed': String(mine === index + 1) }, [teamTag(index + 1)]), index + 1);
      button.addEventListener('click', () => this.send({ type: 'team', team: index + 1 }));
      return button;
    }));
  }

  /// The host's choice of a player's team.
  assignSelect(entry) {
    const select = element('select', { class: 'team-assign' }, [
      element('option', { value: '', text: '\u2014' }),
      ...Array.from({ length: this.lobby.teams.count }, (_, index) => element('option', {
        value: String(index + 1), i18n: ['team.name', { number: index + 1 }],
      })),
    ]);
    select.setAttribute('aria-label', t('room.teamOf', { name: entry.name }));
    select.value = entry.team ? String(entry.team) : '';
    select.addEventListener('change', () => {
      if (select.value) this.send({ type: 'assignTeam', player: entry.player, team: Number(select.value) });
    });
    return select;
  }

  /// What this player may do now: the host's buttons, and the answer bar while a quiz runs for them.
  showControls() {
    const hosting = this.me !== null && this.lobby.host === this.me;
    const inLobby = this.phase === 'lobby' && !this.over;
    this.startButton.hidden = !(hosting && inLobby);
    this.screenTools.hidden = !hosting || this.over || this.phase === 'finished';
    for (const pad of this.pads) pad.hidden = this.over || this.phase === 'finished';
    if (inLobby && this.me !== null) setText(this.lobbyNote, hosting ? 'room.youHost' : 'room.waitHost');
    else clearText(this.lobbyNote);
    this.skipButton.hidden = !hosting;
    const running = this.phase === 'loading' || this.phase === 'playing';
    this.gameSection.hidden = this.phase === 'lobby';
    this.form.hidden = this.over || this.me === null || !running || this.watchingQuiz === this.shownQuiz;
    // What the game says shows from the first quiz to the podium; between quizzes (the answer and the scoreboard
    // above it) only the player's verdict and score.
    const between = this.phase === 'interlude' || this.phase === 'finished';
    this.hintText.hidden = between;
    this.solvedList.hidden = between;
    this.dock.hidden = this.phase === 'lobby' || (this.form.hidden && !this.verdict.textContent && !this.you.textContent
      && !this.hintText.textContent && this.solvedList.childElementCount === 0);
    const playing = this.phase === 'playing' && this.doneQuiz !== this.shownQuiz;
    this.guess.disabled = !playing && this.phase !== 'loading';
    this.hintButton.disabled = !playing || this.hintText.dataset.i18n === 'play.hintText';
    this.skipButton.disabled = this.phase !== 'playing';
  }

  /// A new quiz from black: its poster, hint, verdict and notices are the previous quiz's no more.
  showQuiz(quiz, quizCount) {
    if (quizCount) this.quizCount = quizCount;
    setText(this.quizLabel, 'play.quiz', { number: quiz, count: this.quizCount });
    if (this.shownQuiz === quiz) return;
    this.shownQuiz = quiz;
    this.askedStage = 0;
    this.limitMs = 0;
    this.gained = 0;
    setText(this.canvas, 'play.poster', { number: quiz });
    clearText(this.hintText);
    clearText(this.verdict);
    delete this.verdict.dataset.outcome;
    this.solvedList.replaceChildren();
    this.endSection.hidden = true;
    this.poster.clear();
  }

  quizLoading(message) {
    this.phase = 'loading';
    // "How to play" (howto.js) gives way to the quiz: the room's clock is everyone's and waits for nobody.
    document.getElementById('howto')?.close();
    if (this.watchingQuiz && this.watchingQuiz !== message.quiz) this.watchingQuiz = 0;
    this.showQuiz(message.quiz, message.quizCount);
    this.endsAt = null;
    this.nextQuizAt = null;
    setText(this.countdown, 'room.loading', { number: message.quiz });
    this.countdown.hidden = false;
    this.showControls();
    // The next poster in view again, from the last quiz's answer.
    scrollTo(0, 0);
    this.loadPoster(message.quiz, 1, message.posterURL).then((drawn) => {
      if (drawn || this.pad) this.send({ type: 'loaded', quiz: message.quiz });
    });
  }

  quizClock(message, receivedAt) {
    this.phase = 'playing';
    this.showQuiz(message.quiz, null);
    this.countdown.hidden = true;
    this.nextQuizAt = null;
    this.endsAt = this.clock.localTime(message.serverTime, message.endsInMs, receivedAt);
    this.limitMs = Math.max(this.limitMs, Math.ceil(message.endsInMs / 1000) * 1000);
    this.showControls();
    if (message.stage > this.askedStage) this.loadPoster(message.quiz, message.stage, message.posterURL);
    this.animate();
  }

  judged(message) {
    cue(message.judgement);
    if (message.judgement === 'accepted') {
      this.doneQuiz = message.quiz;
      this.guess.value = '';
      this.sayResult(true, message.points, message.stage);
      this.showControls();
      return;
    }
    setText(this.verdict, `verdict.${message.judgement}`, { guess: this.lastGuess ?? '' });
    this.verdict.dataset.outcome = 'rejected';
    this.form.classList.remove('shake');
    void this.form.offsetWidth;
    this.form.classList.add('shake');
    this.guess.select();
  }

  sayResult(solved, points, stage) {
    if (solved) setText(this.verdict, 'room.accepted', { points, stage });
    else setText(this.verdict, 'room.notSolved');
    this.verdict.dataset.outcome = solved ? 'solved' : 'missed';
    this.gained = solved ? points : 0;
    this.showYou();
  }

  /// The player's line of a scoreboard (the quizzes ended), or of the podium.
  setBoard(lines) {
    this.mine = lines.find((line) => line.player === this.me) ?? this.mine;
    this.gained = 0;
    this.showYou();
  }

  /// "You: N points (#rank)": the points of a quiz solved and not yet on the scoreboard count already.
  showYou() {
    if (this.mine) setText(this.you, 'room.you', { score: this.mine.score + this.gained, rank: this.mine.rank });
  }

  quizEnded(message, receivedAt) {
    this.phase = message.nextQuizInMs === null || message.nextQuizInMs === undefined ? 'finished' : 'interlude';
    this.showQuiz(message.quiz, message.quizCount);
    this.endsAt = null;
    this.timeFill.style.transform = 'scaleX(0)';
    clearText(this.timeLabel);
    if (this.phase === 'interlude') {
      this.nextQuizAt = this.clock.localTime(message.serverTime, message.nextQuizInMs, receivedAt);
      this.countdown.hidden = false;
    }
    this.loadPoster(message.quiz, null, message.posterURL);
    const solvers = message.solvers.map((solver) => element('li', {
      i18n: ['room.solver', { name: solver.name, points: solver.points, stage: solver.stage, seconds: solver.seconds.toFixed(1) }],
    }));
    this.endSection.replaceChildren(
      element('h2', { id: 'answer-title', i18n: ['room.answer', { title: message.answerTitle, year: message.answerYear ? `(${message.answerYear})` : '' }] }),
      element('p', { class: 'note', i18n: [`room.ending.${message.ending}`] }),
      solvers.length ? element('ul', { id: 'solvers' }, solvers) : element('p', { id: 'solvers', i18n: ['room.nobodySolved'] }),
      ...solverCountLine(message, 'solver-count'),
      ...(message.teamScoreboard ? [teamBoard(message.teamScoreboard, namesIn(message.scoreboard), 'team-scoreboard')] : []),
      this.scoreboard(message.scoreboard));
    this.endSection.hidden = false;
    this.setBoard(message.scoreboard);
    this.showControls();
    // The answer and the scoreboard brought above the dock, as much of the poster as fits left above them (the
    // dock's height set now, not after this frame: the poster grows as the dock shrinks).
    if (!this.dock.hidden) {
      document.documentElement.style.setProperty('--dock', `${this.dock.offsetHeight}px`);
      const box = this.endSection.getBoundingClientRect();
      const below = box.bottom + 8 - this.dock.getBoundingClientRect().top;
      if (below > 0) scrollBy(0, Math.min(below, box.top - 8));
    }
    this.animate();
  }

  scoreboard(scores) {
    const head = element('tr', {}, ['board.rank', 'board.player', 'board.score', 'room.solvedCount'].map((key) => element('th', { scope: 'col', i18n: [key] })));
    const rows = scores.map((score) => {
      const row = element('tr', {}, [
        element('td', { text: String(score.rank) }), element('td', { text: score.name }),
        element('td', { text: String(score.score) }), element('td', { text: `${score.solved}/${score.played}` }),
      ]);
      if (score.player === this.me) row.classList.add('me');
      return row;
    });
    return element('section', { class: 'leaderboard' }, [
      element('h3', { i18n: ['room.scoreboard'] }),
      element('table', { id: 'scoreboard' }, [element('thead', {}, [head]), element('tbody', {}, rows)]),
    ]);
  }

  showPodium(podium) {
    this.phase = 'finished';
    this.setBoard(podium.places);
    cue('end');
    this.showLobby(this.lobby);
    this.nextQuizAt = null;
    this.countdown.hidden = true;
    const places = podium.places.map((place) => {
      const item = element('li', { class: place.player === this.me ? 'place me' : 'place' }, [
        element('span', { class: 'place-line', i18n: ['room.place', { rank: place.rank, name: place.name, score: place.score }] }),
      ]);
      if (place.left) item.append(element('span', { class: 'tag', i18n: ['room.tag.left'] }));
      if (place.shareLine) item.append(element('output', { class: 'share-line', text: place.shareLine }));
      return item;
    });
    this.podiumSection.replaceChildren(
      element('h2', { i18n: ['room.podium'] }),
      ...(podium.teams ? [teamBoard(podium.teams, namesIn(podium.places), 'team-places')] : []),
      element('ol', { id: 'places', class: 'places' }, places), this.againButton());
    this.podiumSection.hidden = false;
    this.showControls();
    // The podium comes after the last quiz's answer: brought into view and focused.
    this.podiumSection.scrollIntoView({ block: 'start' });
    this.podiumSection.focus({ preventScroll: true });
  }

  /// "Another round": a new room on the same package, this player its host; the others join it by its link.
  againButton() {
    const button = element('button', { type: 'button', id: 'room-again', class: 'primary', i18n: ['room.again'] });
    const problem = element('p', { class: 'problem', role: 'status', 'aria-live': 'polite' });
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        const info = await publicApi('GET', `/v1/rooms/${encode(this.code)}`);
        await openRoom(info.shareCode);
      } catch (error) {
        setText(problem, 'error.generic', { message: error.message });
        button.disabled = false;
      }
    });
    return element('div', { class: 'actions' }, [button, makeYourOwn(), problem]);
  }

  // MARK: The player's moves

  submit() {
    this.titles.hide();
    const text = this.guess.value.trim();
    // The terminal's shortcuts work here too.
    if (text === '?') { this.guess.value = ''; return this.askHint(); }
    if (text === '/skip') { this.guess.value = ''; return this.skip(); }
    if (this.phase !== 'playing') return setText(this.verdict, 'play.notStarted');
    this.lastGuess = text;
    return this.send({ type: 'guess', quiz: this.shownQuiz, text });
  }

  askHint() {
    if (this.phase === 'playing' && !this.hintButton.disabled) this.send({ type: 'hint', quiz: this.shownQuiz });
  }

  skip() {
    if (this.phase === 'playing' && this.lobby.host === this.me) this.send({ type: 'skip', quiz: this.shownQuiz });
  }

  // MARK: The poster

  /// Stage `stage`'s poster (the whole one, `stage` null, once the quiz has ended) from the URL the server gave,
  /// faded in over the stages before it. Resolves to whether it was drawn.
  async loadPoster(quiz, stage, url) {
    if (stage !== null) this.askedStage = Math.max(this.askedStage, stage);
    this.lastPoster = [quiz, stage, url];
    // An answer pad shows no poster: the big screen does.
    if (this.pad) return false;
    try {
      const bitmap = await posterBitmap(url);
      if (quiz !== this.shownQuiz) return false;
      this.poster.add(bitmap, stage, posterFadeMs);
      this.animate();
      return true;
    } catch (error) {
      setText(this.notice, 'error.generic', { message: error.message });
      return false;
    }
  }

  animate() {
    if (this.frame === null) this.frame = requestAnimationFrame(() => this.draw());
  }

  /// One frame: the posters at their fades, the time bar and the countdowns, from the server's times on this page's
  /// clock.
  draw() {
    this.frame = null;
    const now = performance.now();
    let moving = this.poster.draw(now);
    if (drawTimeLeft(this.timeFill, this.timeLabel, this.endsAt, this.limitMs, now)) moving = true;
    if (this.nextQuizAt !== null) {
      showSeconds(this.countdown, 'play.getReady', this.nextQuizAt - now, { number: this.shownQuiz + 1 });
      moving = true;
    }
    if (moving) this.animate();
  }
}
