// What a room's page (room.js) and its big screen (bigscreen.js) share: the room's socket and the server's clock.

import { encode } from './api.js';
import { addTexts } from './i18n.js';
import { element, showSeconds } from './ui.js';

// The texts both say.
addTexts({
  en: {
    'room.over': 'This room has ended.',
    'room.loading': 'Quiz {number}: get ready\u2026',
    'room.ending.everyoneSolved': 'Everyone solved it.',
    'room.ending.timeUp': 'Time\u2019s up.',
    'room.ending.skipped': 'The host skipped it.',
    'room.nobodySolved': 'Nobody solved it.',
    'room.solverCount': '{count} solved it in all.',
    'room.place': '#{rank} {name}: {score} points',
    'room.expired.idle': 'The room closed: nothing happened for too long.',
    'room.expired.ended': 'The room closed after its podium.',
    'room.expired.empty': 'The room closed: everyone left.',
    'room.refused': 'Not done: {message}',
    'team.name': 'Team {number}',
    'team.board': 'Teams',
    'team.team': 'Team',
    'team.players': 'Players',
  },
  ko: {
    'room.over': '이 방은 끝났습니다.',
    'room.loading': '퀴즈 {number}: 준비하세요\u2026',
    'room.ending.everyoneSolved': '모두 맞혔습니다.',
    'room.ending.timeUp': '시간 종료.',
    'room.ending.skipped': '방장이 건너뛰었습니다.',
    'room.nobodySolved': '아무도 맞히지 못했습니다.',
    'room.solverCount': '모두 {count}명이 맞혔습니다.',
    'room.place': '{rank}위 {name}: {score}점',
    'room.expired.idle': '오랫동안 아무 일이 없어 방이 닫혔습니다.',
    'room.expired.ended': '최종 순위 뒤에 방이 닫혔습니다.',
    'room.expired.empty': '모두 나가서 방이 닫혔습니다.',
    'room.refused': '할 수 없습니다: {message}',
    'team.name': '{number}팀',
    'team.board': '팀 순위',
    'team.team': '팀',
    'team.players': '참가자',
  },
});

const wireVersion = 1;
/// Ping/pong round trips for the clock offset; their median resists one slow trip.
const clockSamples = 5;

/// In a large room a quiz's end lists its first solvers (and the player's own line): how many solved it in all, when
/// the list does not show them all.
export function solverCountLine(message, id) {
  return message.solverCount > message.solvers.length
    ? [element('p', { id, class: 'note', i18n: ['room.solverCount', { count: message.solverCount }] })] : [];
}

/// A socket to room `code`'s WebSocket: each message parsed and handed to `receive` with when it arrived, and
/// `closed` called with the close code. `send` writes one message (while the socket is open).
export function roomSocket(code, { open, receive, closed }) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const socket = new WebSocket(`${scheme}//${location.host}/v1/rooms/${encode(code)}/ws`);
  socket.addEventListener('open', () => open(socket));
  socket.addEventListener('message', (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    receive(socket, message, performance.now());
  });
  socket.addEventListener('close', (event) => closed(socket, event.code));
  return socket;
}

export function sendOn(socket, message) {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ v: wireVersion, ...message }));
}

/// The server's clock on this page's: the median offset of a few ping/pong round trips, only to draw countdowns.
export class ServerClock {
  constructor(send) {
    this.send = send;
    this.samples = [];
    this.offset = null;
  }

  /// Measures again (a new connection): a first ping now, more as the pongs come.
  start() {
    this.samples = [];
    this.send({ type: 'ping', clientTime: performance.now() });
  }

  sample({ clientTime, serverTime }) {
    const now = performance.now();
    // The server read its clock about halfway through the round trip.
    this.samples.push(serverTime - (clientTime + now) / 2);
    const sorted = [...this.samples].sort((a, b) => a - b);
    this.offset = sorted[Math.floor(sorted.length / 2)];
    if (this.samples.length < clockSamples) this.send({ type: 'ping', clientTime: performance.now() });
  }

  /// When `inMs` after the server's `serverTime` falls on performance.now()'s clock; before any round trip, counted
  /// from when the message arrived.
  localTime(serverTime, inMs, receivedAt) {
    return this.offset === null ? receivedAt + inMs : serverTime + inMs - this.offset;
  }
}

/// A stage's poster (or the whole one) as a bitmap, from the URL the server gave.
export async function posterBitmap(url) {
  const response = await fetch(url, { cache: 'no-store' });
  if (!response.ok) throw new Error(`${response.status}`);
  return createImageBitmap(await response.blob());
}

/// The time bar `fill` and the seconds left in `label` of a quiz ending at `endsAt` (of `limitMs`), at `now`;
/// whether they still move.
export function drawTimeLeft(fill, label, endsAt, limitMs, now) {
  if (endsAt === null || limitMs <= 0) return false;
  const left = Math.max(0, endsAt - now);
  fill.style.transform = `scaleX(${Math.min(1, left / limitMs)})`;
  showSeconds(label, 'room.timeLeft', left, {});
  return true;
}

/// Each team's colour, as `--team` on what shows the team (set through the style object: the page's
/// Content-Security-Policy refuses style attributes).
const teamColours = ['#e5484d', '#3e9bf2', '#46a758', '#f5c542', '#a371f7', '#f76b15'];

export function paintTeam(node, team) {
  node.style.setProperty('--team', teamColours[(team - 1) % teamColours.length]);
  return node;
}

/// A player's name by their number, from a scoreboard's or a podium's lines (which keep those who left).
export const namesIn = (lines) => (player) => lines.find((line) => line.player === player)?.name ?? `#${player}`;

/// A team's name in its colour.
export function teamTag(team) {
  return paintTeam(element('span', { class: 'team-tag', i18n: ['team.name', { number: team }] }), team);
}

/// The teams' board: rank, team, points and its players (names by `nameOf`), best first.
export function teamBoard(scores, nameOf, id) {
  const head = element('tr', {}, ['board.rank', 'team.team', 'board.score', 'team.players'].map((key) => element('th', { scope: 'col', i18n: [key] })));
  const rows = scores.map((line) => element('tr', {}, [
    element('td', { text: String(line.rank) }), element('td', {}, [teamTag(line.team)]),
    element('td', { text: String(line.score) }), element('td', { text: line.players.map(nameOf).join(', ') }),
  ]));
  return element('section', { class: 'team-board' }, [
    element('h3', { i18n: ['team.board'] }),
    element('table', { id }, [element('thead', {}, [head]), element('tbody', {}, rows)]),
  ]);
}
