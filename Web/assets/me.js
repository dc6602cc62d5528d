// `/me`: the guest player of this browser, their name (set and changed here, shown on leaderboards and podiums) and
// what they have played on this server, from `GET /v1/players/me`. Loaded only on that page.

import { ApiError, encode, ensurePlayer, keepPlayer, playerApi, publicApi, rememberName, storedPlayer } from './api.js';
import { addTexts, counted, currentLanguage, setText } from './i18n.js';
import { copyButton, element } from './ui.js';

/// As long as a name in a live room may be: the name is used there too.
const nameLength = 24;

addTexts({
  en: {
    'me.title': 'You',
    'me.name': 'Your name on leaderboards and podiums',
    'me.save': 'Save',
    'me.saved': 'Saved: your name is now “{name}”.',
    'me.empty': 'A name is 1 to 24 characters.',
    'me.tooLong': 'A name is at most 24 characters: this one has {count}.',
    'me.refused': 'The server refused this name: {message}',
    'me.new': 'You have not played on this server yet. Choose a name, or just play: you get one.',
    'me.plays': 'Your plays',
    'me.totals': '{plays} · {points} · {solved} of {played} quizzes solved',
    'me.stage': 'You solve at stage {stage} on average.',
    'me.streak': 'Daily streak: {streak} (best {best})',
    'me.none': 'No finished play yet.',
    'me.play': '{score} points, {solved} of {played} solved{ranked}, {date}',
    'me.ranked': ', ranked',
    'me.daily': 'Daily quiz of {day}',
    'me.rooms': 'Live rooms',
    'me.roomTotals': '{rooms} · {wins} · {points}',
    'me.room': 'Room {code}: #{rank}, {score} points, {date}',
    'count.points': '{n} points', 'count.points.one': '1 point',
    'count.rooms': '{n} rooms', 'count.rooms.one': '1 room',
    'count.wins': '{n} wins', 'count.wins.one': '1 win',
    'me.devices': 'Other devices',
    'me.showCode': 'Use this player on another device',
    'me.codeQR': 'QR code: scan it with your other device to fill the code in there',
    'me.codeShown': 'Type this code on your other device’s “You” page. It works once, for 10 minutes.',
    'me.enterCode': 'A code from your other device',
    'me.useCode': 'Become that player here',
    'me.linked': 'This browser now plays as “{name}”.',
    'me.badCode': 'No such code: it lasts 10 minutes and works once. Make a new one on the other device.',
    'me.chartScores': 'Your score per play',
    'me.chartScoresSummary': 'Your latest play scored {last}; your best of these {plays} scored {best}.',
    'me.chartScoresOne': 'Your play scored {last}.',
    'me.chartNumber': '#',
    'me.chartPlay': 'Play',
    'me.chartDate': 'Date',
    'me.chartStages': 'The stage you solve at',
    'me.chartStagesSummary': 'Most of your solves came at stage {stage}: {n} of {total}.',
    'me.chartDaily': 'Daily quiz calendar',
    'me.chartDailySummary': 'In the last 35 days you played {played} and solved {solved}; streak {streak} (best {best}).',
    'count.dailies': '{n} daily quizzes', 'count.dailies.one': '1 daily quiz',
  },
  ko: {
    'me.title': '내 기록',
    'me.name': '순위표와 시상대에 보일 이름',
    'me.save': '저장',
    'me.saved': '저장했습니다. 이제 이름은 “{name}”입니다.',
    'me.empty': '이름은 1~24자입니다.',
    'me.tooLong': '이름은 24자까지입니다: 지금 {count}자입니다.',
    'me.refused': '서버가 이 이름을 받지 않았습니다: {message}',
    'me.new': '아직 이 서버에서 푼 적이 없습니다. 이름을 정하거나 그냥 풀어 보세요. 이름은 자동으로 생깁니다.',
    'me.plays': '내 풀이',
    'me.totals': '{plays} · {points} · 퀴즈 {played}개 중 {solved}개 맞힘',
    'me.stage': '평균 {stage}단계에서 맞힙니다.',
    'me.streak': '오늘의 퀴즈 연속 {streak}일 (최고 {best}일)',
    'me.none': '아직 끝낸 풀이가 없습니다.',
    'me.play': '{score}점, {played}개 중 {solved}개 맞힘{ranked}, {date}',
    'me.ranked': ', 순위 반영',
    'me.daily': '{day} 오늘의 퀴즈',
    'me.rooms': '실시간 방',
    'me.roomTotals': '{rooms} · {wins} · {points}',
    'me.room': '방 {code}: {rank}위, {score}점, {date}',
    'count.points': '{n}점', 'count.points.one': '1점',
    'count.rooms': '방 {n}개', 'count.rooms.one': '방 1개',
    'count.wins': '{n}번 우승', 'count.wins.one': '1번 우승',
    'me.devices': '다른 기기',
    'me.showCode': '다른 기기에서 이 플레이어로 하기',
    'me.codeQR': 'QR 코드: 다른 기기로 스캔하면 그 기기에 코드가 입력됩니다',
    'me.codeShown': '다른 기기의 “내 기록” 페이지에 이 코드를 입력하세요. 10분 동안 한 번 쓸 수 있습니다.',
    'me.enterCode': '다른 기기에서 받은 코드',
    'me.useCode': '여기서 그 플레이어로 하기',
    'me.linked': '이 브라우저는 이제 “{name}”(으)로 풉니다.',
    'me.badCode': '그런 코드가 없습니다. 코드는 10분 동안 한 번만 쓸 수 있습니다. 다른 기기에서 새로 만드세요.',
    'me.chartScores': '플레이별 점수',
    'me.chartScoresSummary': '마지막 플레이는 {last}점, 이 {plays} 중 최고는 {best}점입니다.',
    'me.chartScoresOne': '이 플레이는 {last}점입니다.',
    'me.chartNumber': '#',
    'me.chartPlay': '플레이',
    'me.chartDate': '날짜',
    'me.chartStages': '맞히는 단계',
    'me.chartStagesSummary': '{stage}단계에서 가장 많이 맞혔습니다: {total}번 중 {n}번.',
    'me.chartDaily': '오늘의 퀴즈 달력',
    'me.chartDailySummary': '최근 35일 동안 오늘의 퀴즈를 {played} 풀어 {solved}번 맞혔습니다. 연속 {streak}일 (최고 {best}일).',
    'count.dailies': '{n}번', 'count.dailies.one': '1번',
  },
});

function day(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(currentLanguage());
}

/// The form that names the player: the stored guest is renamed; a browser without one gets a guest of that name.
function nameForm(onSaved) {
  const input = element('input', {
    // No maxlength: it would cut a pasted name without a word; a long one is refused on Save, saying why.
    id: 'player-name', name: 'name', type: 'text', autocomplete: 'nickname', enterkeyhint: 'done',
  });
  input.value = storedPlayer()?.name ?? '';
  const status = element('p', { id: 'name-status', role: 'status', 'aria-live': 'polite' });
  const save = element('button', { type: 'submit', class: 'primary', i18n: ['me.save'] });
  const form = element('form', { id: 'name-form', class: 'code-form' }, [
    element('label', { for: 'player-name', i18n: ['me.name'] }),
    element('div', { class: 'answer-row' }, [input, save]),
    status,
  ]);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    status.className = 'problem';
    if (!name) { setText(status, 'me.empty'); return; }
    // Characters as a reader counts them (and the server: "é" or a flag is one), not UTF-16 units.
    const count = [...new Intl.Segmenter().segment(name)].length;
    if (count > nameLength) { setText(status, 'me.tooLong', { count }); return; }
    save.disabled = true;
    try {
      const known = storedPlayer();
      const player = known ? await playerApi('PATCH', '/v1/players/me', { name }) : await ensurePlayer(name);
      rememberName(player.name);
      input.value = player.name;
      status.className = 'saved';
      setText(status, 'me.saved', { name: player.name });
      onSaved();
    } catch (error) {
      // The server names the field as a JSON path ("$.name: ..."), which means nothing here.
      if (error instanceof ApiError && error.status === 422) setText(status, 'me.refused', { message: error.message.replace(/^\$\.name: /, '') });
      else setText(status, 'error.generic', { message: error.message });
    } finally {
      save.disabled = false;
    }
  });
  return form;
}

function playItem(play) {
  const title = play.dailyDay
    ? element('span', { class: 'package-title', i18n: ['me.daily', { day: play.dailyDay }] })
    : element('a', { href: `/p/${encode(play.shareCode)}`, class: 'package-title', text: play.title });
  return element('li', { class: 'package' }, [
    title,
    element('p', {
      class: 'meta',
      i18n: ['me.play', {
        score: play.score, solved: play.solved, played: play.played, date: day(play.finishedAt),
        ranked: play.ranked ? { i18n: 'me.ranked' } : '',
      }],
    }),
  ]);
}

/// The player's numbers as charts, each only when there is something to draw: the score of each of the latest plays
/// (oldest first), the stage of the solves, and the daily quizzes of the last 35 days.
async function drawCharts(box, stats) {
  const plays = [...stats.recentPlays].reverse();
  const stages = stats.plays.solvedAtStage ?? [];
  const days = stats.daily.days ?? [];
  if (!plays.length && !days.length) return;
  const { barChart, calendar, lineChart } = await import('./charts.js');
  if (plays.length) {
    const scores = plays.map((play) => play.score);
    box.append(lineChart({
      id: 'score-history', title: ['me.chartScores'],
      summary: [scores.length > 1 ? 'me.chartScoresSummary' : 'me.chartScoresOne',
        { last: scores.at(-1), best: Math.max(...scores), plays: counted('count.plays', scores.length) }],
      head: ['me.chartNumber', 'me.chartPlay', 'me.chartDate', 'board.score'],
      items: plays.map((play, index) => ({ label: index + 1, value: play.score })),
      rows: plays.map((play, index) => [
        index + 1, play.dailyDay ? ['me.daily', { day: play.dailyDay }] : play.title, day(play.finishedAt), play.score]),
    }));
  }
  const total = stages.reduce((sum, stage) => sum + stage.solved, 0);
  if (total) {
    const most = stages.reduce((best, stage) => (stage.solved > best.solved ? stage : best));
    box.append(barChart({
      id: 'stage-chart', title: ['me.chartStages'],
      summary: ['me.chartStagesSummary', { stage: most.stage, n: most.solved, total }],
      head: ['chart.stage', 'chart.solves'],
      items: stages.map((stage) => ({ label: stage.stage, value: stage.solved })),
      rows: stages.map((stage) => [stage.stage, stage.solved]),
    }));
  }
  if (days.length) {
    box.append(calendar({
      id: 'daily-calendar', title: ['me.chartDaily'],
      summary: ['me.chartDailySummary', {
        played: counted('count.dailies', days.length), solved: days.filter((one) => one.solved).length,
        streak: stats.daily.streak, best: stats.daily.bestStreak,
      }],
      days, today: new Date().toISOString().slice(0, 10),
    }));
  }
}

function statsSections(stats) {
  const plays = element('section', { id: 'my-plays' }, [
    element('h2', { i18n: ['me.plays'] }),
    element('p', {
      id: 'plays-summary',
      i18n: ['me.totals', {
        plays: counted('count.plays', stats.plays.plays), points: counted('count.points', stats.plays.points),
        solved: stats.plays.solved, played: stats.plays.played,
      }],
    }),
  ]);
  if (stats.plays.averageStage) {
    plays.append(element('p', { id: 'plays-stage', i18n: ['me.stage', { stage: stats.plays.averageStage.toFixed(1) }] }));
  }
  // The charts come once their module has loaded; the live region around them does not read them out.
  const charts = element('div', { id: 'my-charts', class: 'charts-grid', 'aria-live': 'off' });
  plays.append(
    element('p', { id: 'my-streak', i18n: ['me.streak', { streak: stats.daily.streak, best: stats.daily.bestStreak }] }),
    stats.recentPlays.length
      ? element('ol', { class: 'packages', id: 'recent-plays' }, stats.recentPlays.map(playItem))
      : element('p', { i18n: ['me.none'] }),
    charts);
  drawCharts(charts, stats).catch(() => charts.remove());
  const rooms = element('section', { id: 'my-rooms' }, [
    element('h2', { i18n: ['me.rooms'] }),
    element('p', {
      i18n: ['me.roomTotals', {
        rooms: counted('count.rooms', stats.rooms.rooms), wins: counted('count.wins', stats.rooms.wins),
        points: counted('count.points', stats.rooms.points),
      }],
    }),
    element('ol', { class: 'packages' }, stats.recentRooms.map((room) => element('li', {
      i18n: ['me.room', { code: room.roomCode, rank: room.rank, score: room.score, date: day(room.finishedAt) }],
    }))),
  ]);
  return [plays, rooms];
}

export async function showMe(main) {
  const stats = element('div', { id: 'my-stats', 'aria-live': 'polite' });
  const load = async () => {
    if (!storedPlayer()) {
      stats.replaceChildren(element('p', { id: 'me-new', i18n: ['me.new'] }));
      return;
    }
    try {
      stats.replaceChildren(...statsSections(await playerApi('GET', '/v1/players/me')));
    } catch (error) {
      stats.replaceChildren(element('p', { class: 'problem', i18n: ['error.generic', { message: error.message }] }));
    }
  };
  main.replaceChildren(element('h1', { i18n: ['me.title'] }), nameForm(load), stats, devices(load));
  await load();
}

/// Moving this player to another device with a one-time code, and taking one from another device here.
function devices(onLinked) {
  // The code on a line of its own, never broken, with Copy; what to do with it below.
  const shown = element('div', { id: 'link-code', role: 'status', 'aria-live': 'polite' });
  const show = element('button', { type: 'button', id: 'show-link-code', i18n: ['me.showCode'] });
  show.addEventListener('click', async () => {
    show.disabled = true;
    try {
      const made = await playerApi('POST', '/v1/players/me/link-codes');
      const code = element('output', { id: 'link-code-value', class: 'link-code', text: made.code });
      const copied = element('p', { class: 'copy-status', role: 'status', 'aria-live': 'polite' });
      // The other device may scan it instead: the QR code opens this page there with the code filled in.
      const qr = element('img', {
        id: 'link-code-qr', class: 'link-qr', src: `/v1/qr.svg?path=${encodeURIComponent(`/me?link=${made.code}`)}`,
        'data-i18n-attr': 'alt', i18n: ['me.codeQR'],
      });
      shown.replaceChildren(
        element('div', { class: 'share' }, [code, copyButton({ id: 'copy-link-code', label: 'end.copy' }, code, copied)]),
        element('p', { i18n: ['me.codeShown'] }), qr, copied);
    } catch (error) {
      shown.replaceChildren(element('p', { i18n: ['error.generic', { message: error.message }] }));
    }
    show.disabled = false;
  });
  const input = element('input', {
    id: 'link-code-input', name: 'code', type: 'text', autocomplete: 'one-time-code', autocapitalize: 'characters',
    maxlength: '9', enterkeyhint: 'go',
  });
  const status = element('p', { id: 'link-status', role: 'status', 'aria-live': 'polite' });
  const form = element('form', { id: 'link-form', class: 'code-form' }, [
    element('label', { for: 'link-code-input', i18n: ['me.enterCode'] }), input,
    element('button', { type: 'submit', i18n: ['me.useCode'] }), status,
  ]);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      // This browser's guest, if it had one, is replaced by the linked player.
      const player = keepPlayer(await publicApi('POST', '/v1/players/link', { code: input.value.trim() }));
      setText(status, 'me.linked', { name: player.name });
      document.getElementById('player-name').value = player.name;
      await onLinked();
    } catch (error) {
      setText(status, error instanceof ApiError && error.status === 404 ? 'me.badCode' : 'error.generic', { message: error.message });
    }
  });
  // Opened from another device's QR code: the code is filled in, for this person to use (it replaces this browser's
  // player, so it is not used without their press), and gone from the address.
  const linked = new URLSearchParams(location.search).get('link');
  if (linked) {
    input.value = linked.slice(0, 9);
    history.replaceState(null, '', '/me');
    requestAnimationFrame(() => { form.scrollIntoView({ block: 'center' }); input.focus({ preventScroll: true }); });
  }
  return element('section', { id: 'devices' }, [element('h2', { i18n: ['me.devices'] }), show, shown, form]);
}
