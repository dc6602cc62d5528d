// The web player's one page: it shows what the path asks for. `/` the public packages, today's daily quiz and a box
// for a share code; `/p/{code}` that package with Start and a button to play it with friends in a live room;
// `/d` the daily quiz with the player's streak; `/r/{code}` a live room (room.js, loaded only there) and
// `/r/{code}/screen` its big screen (bigscreen.js); `/me` the
// player's name and history (me.js, loaded only there). Everything the
// API says is shown with textContent, never parsed as HTML.

import { codePattern, encode, optionalPlayerApi, playerApi, publicApi, roomCodePattern, storedPlayer } from './api.js';
import { counted, currentLanguage, relabel, setText, switchLanguage } from './i18n.js';
import { element } from './ui.js';

/// The longest a quiz of a play takes: LevelRules.standard's time limit (20 s at every level) after the server's 3 s
/// pause before it (Plays' interlude), as "How to play" says.
const quizSeconds = 23;

/// The play's module, asked for as soon as a page may start a play, so that Start does not wait for it.
const playModule = () => import('./play.js');

const main = document.getElementById('main');
const languageSwitch = document.getElementById('language-switch');
languageSwitch.dataset.i18n = 'language.other';
languageSwitch.addEventListener('click', () => switchLanguage());
relabel();

/// A package's maker, level, quizzes and plays, on one line.
function packageMeta(metadata) {
  return element('p', {
    class: 'meta',
    i18n: ['package.meta', {
      maker: metadata.maker, level: { i18n: `level.${metadata.level}` },
      count: counted('count.quizzes', metadata.quizCount), plays: counted('count.plays', metadata.plays),
    }],
  });
}

function packageItem(metadata) {
  const link = element('a', { href: `/p/${encode(metadata.shareCode)}`, class: 'package-title', text: metadata.title });
  return element('li', { class: 'package' }, [
    link,
    element('span', { class: 'code', text: metadata.shareCode }),
    packageMeta(metadata),
  ]);
}

/// The public packages that pass `filters` (language, level, q: empty means any), most played first when the server
/// can sort so, else newest first.
async function packagePage(filters) {
  // Encoded as the API reads a query (a space as %20: URLSearchParams would write "+", which the API keeps as a "+").
  const query = (sort) => `/v1/packages?sort=${sort}&limit=20${Object.entries(filters)
    .filter(([, value]) => value).map(([name, value]) => `&${name}=${encodeURIComponent(value)}`).join('')}`;
  try {
    return { sort: 'popular', page: await publicApi('GET', query('popular')) };
  } catch (error) {
    if (error.status !== 400) throw error;
    return { sort: 'new', page: await publicApi('GET', query('new')) };
  }
}

/// A labelled select of `choices` ([value, text key]) with `chosen` selected.
function choice(id, label, choices, chosen) {
  const select = element('select', { id, name: id }, choices.map(([value, key]) => {
    const option = element('option', { value, i18n: [key] });
    option.selected = value === chosen;
    return option;
  }));
  return { select, field: element('div', { class: 'field' }, [element('label', { for: id, i18n: [label] }), select]) };
}

/// The filters over the package list: words of a title or maker, the language (the page's at first) and the level.
function packageFilters(onChange) {
  const search = element('input', { id: 'search', name: 'q', type: 'search', maxlength: '100', enterkeyhint: 'search' });
  const language = choice('filter-language', 'filter.language',
    [['', 'filter.anyLanguage'], ['en', 'filter.en'], ['ko', 'filter.ko']], currentLanguage());
  const level = choice('filter-level', 'filter.level',
    [['', 'filter.anyLevel'], ['beginner', 'level.beginner'], ['intermediate', 'level.intermediate'], ['expert', 'level.expert']], '');
  const form = element('form', { id: 'filters', class: 'filters', role: 'search' }, [
    element('div', { class: 'field' }, [element('label', { for: 'search', i18n: ['filter.search'] }), search]),
    language.field, level.field,
  ]);
  const values = () => ({ q: search.value.trim(), language: language.select.value, level: level.select.value });
  form.addEventListener('submit', (event) => { event.preventDefault(); onChange(values()); });
  language.select.addEventListener('change', () => onChange(values()));
  level.select.addEventListener('change', () => onChange(values()));
  return { form, values };
}

async function showHome() {
  const codeInput = element('input', {
    id: 'share-code', name: 'code', type: 'text', autocomplete: 'off', autocapitalize: 'characters',
    spellcheck: 'false', maxlength: '6', inputmode: 'text', enterkeyhint: 'go',
  });
  const codeProblem = element('p', { class: 'problem', role: 'status', 'aria-live': 'polite' });
  const codeForm = element('form', { id: 'code-form', class: 'code-form' }, [
    element('label', { for: 'share-code', i18n: ['home.code.label'] }),
    element('div', { class: 'answer-row' }, [codeInput, element('button', { type: 'submit', class: 'primary', i18n: ['home.code.go'] })]),
    codeProblem,
  ]);
  // One box for both codes, told apart by their length: a package's share code (6) or a live room's code (4).
  codeForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const code = codeInput.value.replace(/\s+/g, '').toUpperCase();
    if (codePattern.test(code)) location.assign(`/p/${encode(code)}`);
    else if (roomCodePattern.test(code)) location.assign(`/r/${encode(code)}`);
    else setText(codeProblem, 'home.code.invalid');
  });
  const dailyBox = element('section', { class: 'daily-card', id: 'daily-card' });
  const listHeading = element('h2');
  const list = element('ul', { class: 'packages', id: 'packages', 'aria-live': 'polite' });
  let shown = 0;
  const showList = async (filters) => {
    const asked = shown += 1;
    list.setAttribute('aria-busy', 'true');
    try {
      const { sort, page } = await packagePage(filters);
      if (asked !== shown) return;
      list.setAttribute('aria-busy', 'false');
      setText(listHeading, sort === 'popular' ? 'home.popular' : 'home.new');
      const filtered = Object.values(filters).some(Boolean);
      list.replaceChildren(...page.packages.map(packageItem));
      if (page.packages.length === 0) list.append(element('li', { i18n: [filtered ? 'home.noMatch' : 'home.none'] }));
    } catch (error) {
      if (asked !== shown) return;
      list.setAttribute('aria-busy', 'false');
      list.replaceChildren(element('li', { i18n: ['home.loadFailed', { message: error.message }] }));
    }
  };
  const filters = packageFilters(showList);
  main.replaceChildren(
    element('h1', { i18n: ['home.title'] }),
    element('p', { class: 'lead', i18n: ['home.lead'] }),
    codeForm, dailyBox, listHeading, filters.form, list);

  // Today's daily quiz in the page's language (each language draws its own), again when the language changes.
  const showDailyBox = () => publicApi('GET', `/v1/daily?language=${currentLanguage()}`).then((daily) => {
    dailyBox.hidden = false;
    dailyBox.replaceChildren(
      element('p', { i18n: ['home.daily', { number: daily.number, title: daily.packageTitle }] }),
      element('a', { href: '/d', class: 'button', i18n: ['home.daily.go'] }));
  }).catch(() => { dailyBox.hidden = true; });
  showDailyBox();
  document.addEventListener('uquiz:language', showDailyBox);

  await showList(filters.values());
}

/// "Play with friends": opens a live room on the package, this page's player its host, without a solo play.
function withFriendsButton(code) {
  const button = element('button', { type: 'button', id: 'open-room', i18n: ['room.open'] });
  const problem = element('p', { class: 'problem', role: 'status', 'aria-live': 'polite' });
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const { openRoom } = await import('./room.js');
      await openRoom(code);
    } catch (error) {
      setText(problem, 'error.generic', { message: error.message });
      button.disabled = false;
    }
  });
  return element('div', { class: 'room-open' }, [button, problem]);
}

/// A package's page: what it is, its best three and Start; a play is made only when Start is pressed (looking at a
/// link costs the player nothing), except that a play this tab has going on (a reload) goes on at once.
async function showPackage(code) {
  const storageKey = `uquiz.play.${code}`;
  playModule();
  const play = async () => {
    const { PlayScreen } = await playModule();
    new PlayScreen(main, {
      storageKey,
      start: () => playerApi('POST', `/v1/packages/${encode(code)}/plays`),
      // A finished play's link is its result (`/s/{id}`, result.js), whose preview shows the share line's squares.
      shareLink: (finished) => `${location.origin}/s/${encode(finished.id)}`,
      withFriends: () => withFriendsButton(code),
    }).begin();
  };
  if (sessionStorage.getItem(storageKey)) { play(); return; }
  main.replaceChildren(element('p', { i18n: ['package.loading'] }));
  let metadata;
  try {
    metadata = await publicApi('GET', `/v1/packages/${encode(code)}`);
  } catch (error) {
    main.replaceChildren(element('p', {
      id: 'problem', class: 'problem', role: 'alert',
      i18n: error.status === 404 ? ['error.notFound'] : error.status === 410 ? ['error.removed']
        : ['error.generic', { message: error.message }],
    }));
    return;
  }
  const start = element('button', { type: 'button', id: 'start-play', class: 'primary', i18n: ['package.start'] });
  start.addEventListener('click', play);
  const best = element('section', { id: 'best', class: 'leaderboard' });
  main.replaceChildren(element('section', { id: 'intro', class: 'intro' }, [
    element('h1', { id: 'package-title', text: metadata.title }),
    packageMeta(metadata),
    element('p', { class: 'note', id: 'package-length', i18n: ['package.length', { minutes: Math.ceil((metadata.quizCount * quizSeconds) / 60) }] }),
    element('p', { class: 'note', i18n: ['play.noPause'] }),
    element('div', { class: 'actions' }, [start, withFriendsButton(code)]),
    element('p', { class: 'note', id: 'playing-as' }, [
      element('span', { i18n: storedPlayer() ? ['package.playingAs', { name: storedPlayer().name }] : ['package.guest'] }),
      ' ', element('a', { href: '/me', i18n: ['package.rename'] })]),
    best,
    reportSection(code),
  ]));
  start.focus();
  const path = `/v1/packages/${encode(code)}/leaderboard`;
  // As this browser's player, if any, so that the scores' chart says where they are.
  (storedPlayer() ? optionalPlayerApi('GET', `${path}?around=me`).catch(() => publicApi('GET', path)) : publicApi('GET', path)).then((board) => {
    if (board.top.length === 0) return;
    best.append(
      element('h2', { i18n: ['package.best'] }),
      element('ol', { id: 'best-players' }, board.top.slice(0, 3).map((line) => element('li', {
        i18n: ['package.bestLine', { player: line.player, score: line.score }],
      }))));
    if (board.scores?.length) import('./charts.js').then((charts) => best.append(charts.scoreDistribution(board.scores, board.me)), () => {});
  }).catch(() => best.remove());
}

/// "Report this package", whose form is loaded when it is opened.
function reportSection(code) {
  const section = element('details', { id: 'report', class: 'note' }, [element('summary', { i18n: ['package.report'] })]);
  section.addEventListener('toggle', async () => {
    if (!section.open || section.querySelector('form')) return;
    const { reportForm } = await import('./report.js');
    reportForm(section, code);
  });
  return section;
}

/// A path the server has no page for (it answered 404 with this page).
function showNoPage() {
  main.replaceChildren(
    element('h1', { i18n: ['error.noPage'] }),
    element('p', {}, [element('a', { href: '/', i18n: ['error.home'] })]));
}

async function showRoom(code) {
  const { RoomScreen } = await import('./room.js');
  new RoomScreen(main, code).begin();
}

const path = location.pathname;
const packageMatch = path.match(/^\/p\/([^/]+)\/?$/);
const roomMatch = path.match(/^\/r\/([^/]+)\/?$/);
const screenMatch = path.match(/^\/r\/([^/]+)\/screen\/?$/);
const dailyMatch = path.match(/^\/d\/([^/]+)\/?$/);
const resultMatch = path.match(/^\/s\/([^/]+)\/?$/);
if (packageMatch) showPackage(decodeURIComponent(packageMatch[1]).toUpperCase());
else if (roomMatch) showRoom(decodeURIComponent(roomMatch[1]).trim().toUpperCase());
else if (screenMatch) {
  import('./bigscreen.js').then((screen) => screen.showBigScreen(main, decodeURIComponent(screenMatch[1]).trim().toUpperCase()));
}
else if (resultMatch) import('./result.js').then((result) => result.showResult(main, decodeURIComponent(resultMatch[1])));
else if (path === '/d' || path === '/d/') import('./daily.js').then((daily) => daily.showDaily(main));
else if (dailyMatch) import('./daily.js').then((daily) => daily.showArchivedDaily(main, dailyMatch[1]));
else if (path === '/me' || path === '/me/') import('./me.js').then((me) => me.showMe(main));
else if (path === '/make' || path === '/make/') import('./make.js').then((make) => make.showMake(main));
else if (path === '/') showHome();
else showNoPage();
document.documentElement.lang = currentLanguage();
