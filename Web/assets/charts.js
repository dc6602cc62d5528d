// Charts drawn as SVG: bars, values in order, the last five weeks' daily quizzes, a leaderboard's scores. Each is a
// figure: a caption (title and summary), the drawing (an image named and described by them) and its numbers as a
// table for screen readers. Imported only where a chart is drawn.

import { addTexts, counted, currentLanguage, setText } from './i18n.js';
import { element } from './ui.js';

addTexts({
  en: {
    'chart.here': 'You are here',
    'chart.hereNote': '(you are here)',
    'chart.todayNote': '(today)',
    'chart.stage': 'Stage',
    'chart.solves': 'Solves',
    'chart.plays': 'Plays',
    'chart.day': 'Day',
    'chart.daily': 'Daily quiz',
    'chart.solved': 'solved',
    'chart.played': 'played, not solved',
    'chart.none': 'no play',
    'chart.today': 'today',
    'chart.scores': 'Scores of the ranked plays',
    'chart.scoresSummary': '{plays}, scoring {low} to {high}.',
    'chart.scoresYou': '{plays}, scoring {low} to {high}. You scored {score}, in {mine}: {n} of {total}.',
    'count.ranked': '{n} ranked plays', 'count.ranked.one': '1 ranked play',
  },
  ko: {
    'chart.here': '나는 여기',
    'chart.hereNote': '(나는 여기)',
    'chart.todayNote': '(오늘)',
    'chart.stage': '단계',
    'chart.solves': '맞힌 수',
    'chart.plays': '플레이',
    'chart.day': '날짜',
    'chart.daily': '오늘의 퀴즈',
    'chart.solved': '맞힘',
    'chart.played': '풀었지만 못 맞힘',
    'chart.none': '안 풂',
    'chart.today': '오늘',
    'chart.scores': '순위에 든 플레이의 점수',
    'chart.scoresSummary': '{plays}, {low}~{high}점.',
    'chart.scoresYou': '{plays}, {low}~{high}점. 내 점수 {score}점은 {mine}점 구간에 있습니다: {total}명 중 {n}명.',
    'count.ranked': '순위에 든 플레이 {n}번', 'count.ranked.one': '순위에 든 플레이 1번',
  },
});

/// The drawing's width in its units, scaled to the figure's (at most 32rem): text of 13 units reads as 11 to 14 px.
const W = 340;
let made = 0;

/// An SVG element, as element() makes HTML ones.
function draw(tag, attributes = {}) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'text') node.textContent = value;
    else if (name === 'i18n') setText(node, ...value);
    else node.setAttribute(name, value);
  }
  return node;
}

/// A text, or [key, args] of the tables.
const content = (cell) => (Array.isArray(cell) ? { i18n: cell } : { text: String(cell) });

/// The figure of `marks` (SVG, `height` units high; none: its caption alone) and `after` (a legend); its table has a
/// row per `rows` item (the first cell heads it), one of them (`mark`: [index, note key, class]) marked in words.
function figure({ id, className = '', title, summary, head, rows, mark }, height, marks, after = []) {
  const n = ++made;
  const svg = draw('svg', {
    role: 'img', viewBox: `0 0 ${W} ${height}`, 'aria-labelledby': `chart${n}-title`, 'aria-describedby': `chart${n}-desc`,
    'font-size': 13, 'text-anchor': 'middle',
  });
  svg.append(draw('title', { id: `chart${n}-title`, i18n: title }), draw('desc', { id: `chart${n}-desc`, i18n: summary }), ...marks);
  const body = rows.map((cells, index) => {
    const row = element('tr', {}, cells.map((cell, column) => (column
      ? element('td', content(cell)) : element('th', { scope: 'row' }, [element('span', content(cell))]))));
    if (index === mark?.[0]) {
      row.className = mark[2];
      row.setAttribute('aria-current', 'true');
      row.firstChild.append(' ', element('span', { i18n: [mark[1]] }));
    }
    return row;
  });
  return element('figure', { id, class: `chart ${className}` }, [
    element('figcaption', {}, [element('strong', { i18n: title }), element('br'), element('span', { class: 'lead chart-summary', i18n: summary })]),
    marks.length ? svg : '', ...after,
    // A table keeps its content's width whatever its own: the box around it is what is hidden.
    element('div', { class: 'visually-hidden' }, [element('table', {}, [
      element('caption', { i18n: title }),
      element('thead', {}, [element('tr', {}, head.map((key) => element('th', { scope: 'col', i18n: [key] })))]),
      element('tbody', {}, body),
    ])]),
  ]);
}

/// About how wide `n` characters of 13 units are.
const wide = (n) => n * 7.8 + 6;

/// Values in order (`chart.items`: {label, value, text}) from 0 to `chart.max` (else the largest) as bars, or as
/// points joined by a line: each value's text above it when all fit, every step-th label under the axis (counted
/// from `here`, so none overlaps), and "You are here" over the item `chart.here`.
function plot(kind, chart) {
  const { items, here } = chart, height = chart.height ?? 170;
  const marked = { ...chart, mark: here === undefined ? undefined : [here, 'chart.hereNote', 'here'] };
  // Nothing to draw (every value 0, or a line of one point): the caption says it in a line, with no empty box.
  if (!items.some((item) => item.value > 0) || items.length <= kind) return figure(marked, 0, []);
  const max = chart.max ?? Math.max(1, ...items.map((item) => item.value));
  const top = here === undefined ? 18 : 42, base = height - 20, slot = (W - 8) / items.length;
  const longest = (key) => Math.max(...items.map((item) => String(item[key] ?? item.value).length));
  const step = Math.ceil(wide(longest('label')) / slot), valuesFit = wide(longest('text')) <= slot + 6;
  const nodes = [draw('line', { stroke: '#555', x1: 4, x2: W - 4, y1: base, y2: base })], points = [];
  items.forEach((item, i) => {
    const x = 4 + slot * (i + 0.5), y = base - (item.value / max) * (base - top), width = Math.min(slot * 0.7, 40);
    if (kind) points.push([x, y]);
    else if (item.value > 0) nodes.push(draw('rect', { class: i === here ? 'column here' : 'column', fill: 'currentColor', x: x - width / 2, y, width, height: base - y, rx: 2 }));
    if (valuesFit || i === here) nodes.push(draw('text', { class: 'value', x, y: y - 6, text: item.text ?? item.value }));
    if ((i - (here ?? 0)) % step === 0) nodes.push(draw('text', { x, y: height - 5, text: item.label }));
    if (i === here) {
      nodes.push(draw('text', { class: 'here', x: Math.min(W - 50, Math.max(50, x)), y: 12, i18n: ['chart.here'] }),
        draw('path', { class: 'here', d: `M${x - 5} 16h10l-5 6z` }));
    }
  });
  if (kind) {
    nodes.push(draw('polyline', { fill: 'none', stroke: 'currentColor', 'stroke-width': 2, points: points.join(' ') }),
      ...points.map(([cx, cy]) => draw('circle', { class: 'point', cx, cy, r: 3.5 })));
  }
  return figure(marked, height, nodes);
}

/// A vertical bar chart. `chart`: {id, className, title and summary ([key, args] each), head (the table's column
/// keys), items ({label, value, text}), rows (the table's cells), max, here (an item's index), height}.
export const barChart = (chart) => plot(0, chart);
/// Values in the order they came (a score a play), as points joined by a line.
export const lineChart = (chart) => plot(1, chart);

/// A calendar's square, outlined for a day played but not solved and around today.
const square = (state, x, y, size) => draw('rect', {
  class: `day ${state}`, x, y, width: size, height: size, rx: size / 8, fill: /played|today/.test(state) ? 'none' : '#262626', 'stroke-width': 2,
});
/// A day's number: dark on a solved day's square.
const number = { solved: { fill: '#111' }, played: { class: 'value' }, none: {} };

/// The 35 days (UTC) ending `today` (yyyy-MM-dd) in 5 rows of 7, oldest first, each square saying how its daily quiz
/// went (`days`: [{day, solved}]), today ringed; a legend under it.
export function calendar({ id, title, summary, days, today }) {
  const end = Date.parse(`${today}T00:00:00Z`), played = new Map(days.map((day) => [day.day, day.solved]));
  const dates = Array.from({ length: 35 }, (_, i) => new Date(end - (34 - i) * 864e5));
  const states = dates.map((date) => ({ true: 'solved', false: 'played' })[played.get(date.toISOString().slice(0, 10))] ?? 'none');
  const format = (options) => new Intl.DateTimeFormat(currentLanguage(), { ...options, timeZone: 'UTC' }).format;
  const weekday = format({ weekday: 'narrow' }), long = format({ weekday: 'short', month: 'short', day: 'numeric' });
  const nodes = dates.slice(0, 7).map((date, column) => draw('text', { x: 32 + column * 46, y: 12, text: weekday(date) }));
  dates.forEach((date, i) => {
    const x = 12 + (i % 7) * 46, y = 20 + Math.floor(i / 7) * 46;
    nodes.push(square(states[i], x, y, 40),
      draw('text', { ...number[states[i]], x: x + 20, y: y + 25, 'font-size': 15, text: date.getUTCDate() }));
  });
  nodes.push(square('today', 285, 201, 46));
  const legend = element('ul', { class: 'lead chart-legend' }, ['solved', 'played', 'none', 'today'].map((key) => {
    const swatch = draw('svg', { width: 14, height: 14, 'aria-hidden': 'true' });
    swatch.append(square(key, 1, 1, 12));
    return element('li', {}, [swatch, ' ', element('span', { i18n: [`chart.${key}`] })]);
  }));
  return figure({
    id, className: 'calendar', title, summary, head: ['chart.day', 'chart.daily'],
    rows: dates.map((date, i) => [long(date), [`chart.${states[i]}`]]), mark: [34, 'chart.todayNote', 'today'],
  }, 250, nodes, [legend]);
}

/// A leaderboard's scores ([{from, to, plays}]) as bars, the one holding `me.score` (if any) marked.
export function scoreDistribution(scores, me) {
  const range = (bin) => `${bin.from}–${bin.to}`;
  const found = me ? scores.findIndex((bin) => bin.from <= me.score && me.score <= bin.to) : -1;
  const played = scores.filter((bin) => bin.plays), total = played.reduce((sum, bin) => sum + bin.plays, 0);
  const args = { plays: counted('count.ranked', total), low: played[0].from, high: played.at(-1).to };
  return barChart({
    id: 'score-chart', title: ['chart.scores'],
    summary: found < 0 ? ['chart.scoresSummary', args]
      : ['chart.scoresYou', { ...args, score: me.score, mine: range(scores[found]), n: scores[found].plays, total }],
    head: ['board.score', 'chart.plays'],
    items: scores.map((bin) => ({ label: bin.from, value: bin.plays })),
    rows: scores.map((bin) => [range(bin), bin.plays]),
    here: found < 0 ? undefined : found,
  });
}
