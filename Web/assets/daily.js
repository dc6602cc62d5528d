// The daily quiz (`/d`) in the page's language, with the player's streak and the archive of past days; a past day
// (`/d/{yyyy-MM-dd}`) played again, unranked and outside the streak. Each language draws its own quiz each day; one
// daily a day counts for the streak, whichever language it was in.

import { encode, optionalPlayerApi, playerApi, publicApi } from './api.js';
import { addTexts, currentLanguage } from './i18n.js';
import { element } from './ui.js';

addTexts({
  en: {
    'daily.otherLanguage': 'You played today\u2019s daily in the other language ({score} points): one daily a day counts for your streak. Past days can be played below.',
    'daily.archive': 'Past days',
    'daily.archive.none': 'No past daily quiz in this language yet.',
    'daily.archive.item': '#{number} \u00b7 {day} \u00b7 quiz {quiz} of \u201c{title}\u201d, {level}',
    'daily.archive.more': 'Older days',
    'daily.archive.title': 'Daily quiz #{number} of {day}',
    'daily.archive.about': 'From the archive: quiz {quiz} of \u201c{title}\u201d, {level}. Played again, it is not ranked and does not count for your streak.',
    'daily.archive.missing': 'There is no past daily quiz of {day} in this language.',
    'daily.archive.back': 'Today\u2019s daily quiz',
    'end.unranked.daily_archive': 'Not ranked: a past day\u2019s daily quiz, played from the archive.',
  },
  ko: {
    'daily.otherLanguage': '오늘의 퀴즈를 다른 언어로 이미 풀었습니다({score}점): 연속 기록에는 하루에 하나만 셉니다. 지난 퀴즈는 아래에서 풀 수 있습니다.',
    'daily.archive': '지난 퀴즈',
    'daily.archive.none': '이 언어의 지난 오늘의 퀴즈가 아직 없습니다.',
    'daily.archive.item': '#{number} \u00b7 {day} \u00b7 \u201c{title}\u201d의 퀴즈 {quiz}, {level}',
    'daily.archive.more': '더 지난 날',
    'daily.archive.title': '{day}의 오늘의 퀴즈 #{number}',
    'daily.archive.about': '지난 퀴즈: \u201c{title}\u201d의 퀴즈 {quiz}, {level}. 다시 풀면 순위에 들지 않고 연속 기록에도 세지 않습니다.',
    'daily.archive.missing': '이 언어로 {day}의 오늘의 퀴즈가 없습니다.',
    'daily.archive.back': '오늘의 퀴즈',
    'end.unranked.daily_archive': '순위에 들지 않습니다: 지난 퀴즈를 다시 풀었습니다.',
  },
});

const playModule = () => import('./play.js');
const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

function about(daily) {
  return { quiz: daily.quiz, title: daily.packageTitle, level: { i18n: `level.${daily.level}` } };
}

/// The day after `day` (yyyy-MM-dd, UTC): the archive lists the days before the one it is given.
function dayAfter(day) {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
}

async function play(main, options) {
  const { PlayScreen } = await playModule();
  new PlayScreen(main, options).begin();
}

/// The archive of past days in the page's language, a page at a time.
function archiveSection() {
  const list = element('ul', { class: 'daily-archive', id: 'daily-archive', 'aria-live': 'polite' });
  const more = element('button', { type: 'button', id: 'daily-archive-more', i18n: ['daily.archive.more'], hidden: '' });
  let before;
  const load = async () => {
    more.hidden = true;
    const query = `language=${currentLanguage()}${before ? `&before=${encode(before)}` : ''}`;
    const page = await publicApi('GET', `/v1/daily/archive?${query}`);
    list.append(...page.days.map((daily) => element('li', {}, [
      element('a', {
        href: `/d/${encode(daily.day)}`,
        i18n: ['daily.archive.item', { ...about(daily), number: daily.number, day: daily.day }],
      }),
    ])));
    if (list.children.length === 0) list.append(element('li', { i18n: ['daily.archive.none'] }));
    before = page.before;
    more.hidden = !before;
  };
  more.addEventListener('click', () => load());
  load().catch(() => list.replaceChildren());
  return element('section', { class: 'daily-archive-section' }, [element('h2', { i18n: ['daily.archive'] }), list, more]);
}

/// Today's daily quiz in the page's language; switching the language shows that language's.
export async function showDaily(main) {
  let playing = false;
  const show = async () => {
    main.replaceChildren(element('p', { i18n: ['play.loading'] }));
    const language = currentLanguage();
    let daily;
    try {
      daily = await optionalPlayerApi('GET', `/v1/daily?language=${language}`);
    } catch (error) {
      main.replaceChildren(element('p', { i18n: ['error.generic', { message: error.message }] }), archiveSection());
      return;
    }
    playModule();
    const start = () => {
      playing = true;
      play(main, {
        storageKey: `uquiz.daily.${daily.day}`,
        start: () => playerApi('POST', `/v1/daily/plays?language=${language}`),
        resumeId: daily.you?.play?.id,
        shareLink: `${location.origin}/d`,
        daily: true,
      });
    };
    const you = daily.you;
    const button = element('button', { type: 'button', id: 'play-daily', class: 'primary', i18n: ['daily.play'] });
    button.addEventListener('click', start);
    let status = button;
    if (you?.playedAnotherLanguage) status = element('p', { id: 'daily-played', i18n: ['daily.otherLanguage', { score: you.play?.score ?? 0 }] });
    else if (you?.play?.finished) status = element('p', { id: 'daily-played', i18n: ['daily.played', { score: you.play.score }] });
    main.replaceChildren(
      element('h1', { i18n: ['daily.title', { number: daily.number }] }),
      element('p', { i18n: ['daily.about', about(daily)] }),
      element('p', { id: 'streak', i18n: ['daily.streak', { streak: you?.streak ?? 0, best: you?.bestStreak ?? 0 }] }),
      status,
      archiveSection());
    if (you?.play && !you.play.finished && !you.playedAnotherLanguage) start();
  };
  document.addEventListener('uquiz:language', () => { if (!playing) show(); });
  await show();
}

/// A past day's daily quiz in the page's language, to play again unranked.
export async function showArchivedDaily(main, day) {
  const language = currentLanguage();
  const back = element('a', { href: '/d', class: 'button', i18n: ['daily.archive.back'] });
  let daily;
  try {
    if (!dayPattern.test(day)) throw new Error('not a day');
    const page = await publicApi('GET', `/v1/daily/archive?language=${language}&before=${dayAfter(day)}&limit=1`);
    daily = page.days.find((past) => past.day === day);
  } catch {
    daily = undefined;
  }
  if (!daily) {
    main.replaceChildren(element('p', { id: 'daily-missing', i18n: ['daily.archive.missing', { day }] }), back);
    return;
  }
  playModule();
  const button = element('button', { type: 'button', id: 'play-archived-daily', class: 'primary', i18n: ['daily.play'] });
  button.addEventListener('click', () => play(main, {
    storageKey: `uquiz.archive.${language}.${day}`,
    start: () => playerApi('POST', `/v1/daily/archive/${encode(day)}/plays?language=${language}`),
    shareLink: `${location.origin}/d/${encode(day)}`,
  }));
  main.replaceChildren(
    element('h1', { i18n: ['daily.archive.title', { number: daily.number, day }] }),
    element('p', { id: 'archived-about', i18n: ['daily.archive.about', about(daily)] }),
    button, back);
}
