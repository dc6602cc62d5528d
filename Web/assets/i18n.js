// Every text of the page, one table per language. Elements carry the key they show (data-i18n, with data-i18n-args
// for the values), so the language switch relabels the page in place without restarting a play.

const tables = {
  en: {
    'language.other': '한국어',
    'nav.daily': 'Daily',
    'nav.make': 'Make',
    'nav.me': 'You',
    'home.title': 'Movie-poster quizzes',
    'home.lead': 'A black poster, revealed area by area: type the title before time runs out.',
    'home.code.label': 'Share code or room code',
    'home.code.go': 'Play',
    'home.code.invalid': 'A share code is 6 letters and digits, like FE7NWW; a room code is 4, like K7QF.',
    'home.popular': 'Popular packages',
    'home.new': 'New packages',
    'home.none': 'No public packages yet.',
    'home.noMatch': 'No package matches: try other words, or any language or level.',
    'filter.search': 'Title or maker',
    'filter.language': 'Language',
    'filter.anyLanguage': 'Any language',
    'filter.en': 'English',
    'filter.ko': 'Korean',
    'filter.level': 'Level',
    'filter.anyLevel': 'Any level',
    'home.daily': 'Daily quiz #{number}: {title}',
    'home.daily.go': 'Play today\u2019s quiz',
    'home.loadFailed': 'The server did not answer: {message}',
    'package.meta': '{maker} \u00b7 {level} \u00b7 {count} \u00b7 {plays}',
    'count.quizzes': '{n} quizzes',
    'count.quizzes.one': '{n} quiz',
    'count.plays': '{n} plays',
    'count.plays.one': '{n} play',
    'package.loading': 'Loading the package\u2026',
    'package.start': 'Start',
    'package.best': 'Best players',
    'package.bestLine': '{player}: {score} points',
    'level.beginner': 'beginner',
    'level.intermediate': 'intermediate',
    'level.expert': 'expert',
    'play.loading': 'Starting the play\u2026',
    'play.poster': 'Poster of quiz {number}',
    'play.quiz': 'Quiz {number} of {count}',
    'play.score': '{score} points',
    'play.getReady': 'Quiz {number} starts in {seconds} s',
    'play.guess': 'Your guess',
    'play.submit': 'Guess',
    'play.hint': 'Hint',
    'play.skip': 'Skip',
    'sound.off': 'Sound: off',
    'play.hintText': 'Hint: {hint}',
    'play.noPause': 'The clock runs on the server and never pauses, even while this tab is hidden.',
    'package.length': 'A play takes at most {minutes} min: each quiz lasts 20 s at most, after a 3 s pause.',
    'play.notStarted': 'Wait for the poster: the quiz has not started.',
    'play.connectionLost': 'The server cannot be reached: trying again\u2026 Its clock runs on meanwhile.',
    'play.reconnected': 'Back on the server.',
    'verdict.accepted': 'Right! {title} {year} +{score} points',
    'verdict.wrong': '\u201c{guess}\u201d is not it.',
    'verdict.wrong_number': '\u201c{guess}\u201d: close, but the number differs.',
    'verdict.another_movie': '\u201c{guess}\u201d is another movie.',
    'verdict.empty': 'Type a title first.',
    'verdict.missed': 'Time\u2019s up: it was {title} {year}',
    'verdict.skipped': 'Skipped: it was {title} {year}',
    'verdict.tooFast': 'Too fast: try again in {seconds} s.',
    'end.title': 'Play over',
    'end.score': '{score} points',
    'end.solved': '{solved} of {count} solved',
    'end.copy': 'Copy',
    'end.copied': 'Copied.',
    'end.copyFailed': 'Select the line and copy it.',
    'end.again': 'Play again',
    'end.make': 'Make your own',
    'end.unranked.maker': 'Not ranked: you made this package.',
    'end.unranked.daily': 'This play counts for no streak: you had seen this quiz\u2019s answer before.',
    'end.unranked.answer_seen_in_play': 'Not ranked: an earlier play (of this package or a daily quiz) showed you an answer in it.',
    'end.unranked.answer_seen_in_room': 'Not ranked: a live room on this package showed you its answers.',
    'recap.solved': 'solved at stage {stage}, +{score} points',
    'recap.missed': 'time ran out',
    'recap.skipped': 'skipped',
    'recap.unplayed': 'not played',
    'board.title': 'Leaderboard',
    'board.rank': 'Rank',
    'board.player': 'Player',
    'board.score': 'Score',
    'board.seconds': 'Seconds',
    'board.you': 'You are #{rank} of {count}.',
    'board.empty': 'No ranked plays yet.',
    'daily.title': 'Daily quiz #{number}',
    'daily.about': 'Quiz {quiz} of \u201c{title}\u201d, {level}. One a day in each language, the same for everyone.',
    'daily.streak': 'Streak: {streak} (best {best})',
    'daily.play': 'Play',
    'daily.played': 'You have played today\u2019s quiz: {score} points.',
    'error.notFound': 'No package with this code here.',
    'error.removed': 'This package was removed by the moderators.',
    'package.report': 'Report this package',
    'error.noPage': 'No page here.',
    'error.home': 'Go to the home page',
    'error.generic': 'Something went wrong: {message}',
    'room.open': 'Play with friends',
    'room.timeLeft': '{seconds} s left',
    'guest': 'Guest',
    'package.playingAs': 'You play as “{name}”.',
    'package.guest': 'You play as a guest.',
    'package.rename': 'Change your name',
    'howto.open': 'How to play',
  },
  ko: {
    'language.other': 'English',
    'nav.daily': '오늘의 퀴즈',
    'nav.make': '만들기',
    'nav.me': '내 기록',
    'home.title': '영화 포스터 퀴즈',
    'home.lead': '검은 포스터가 한 곳씩 드러납니다. 시간이 다 되기 전에 제목을 입력하세요.',
    'home.code.label': '공유 코드 또는 방 코드',
    'home.code.go': '풀기',
    'home.code.invalid': '공유 코드는 FE7NWW처럼 문자와 숫자 6자, 방 코드는 K7QF처럼 4자입니다.',
    'home.popular': '인기 패키지',
    'home.new': '새 패키지',
    'home.none': '아직 공개된 패키지가 없습니다.',
    'home.noMatch': '맞는 패키지가 없습니다. 다른 낱말이나 모든 언어, 모든 난이도로 찾아 보세요.',
    'filter.search': '제목 또는 만든 사람',
    'filter.language': '언어',
    'filter.anyLanguage': '모든 언어',
    'filter.en': '영어',
    'filter.ko': '한국어',
    'filter.level': '난이도',
    'filter.anyLevel': '모든 난이도',
    'home.daily': '오늘의 퀴즈 #{number}: {title}',
    'home.daily.go': '오늘의 퀴즈 풀기',
    'home.loadFailed': '서버가 응답하지 않았습니다: {message}',
    'package.meta': '{maker} \u00b7 {level} \u00b7 {count} \u00b7 {plays}',
    'count.quizzes': '퀴즈 {n}개',
    'count.quizzes.one': '퀴즈 {n}개',
    'count.plays': '{n}회 플레이',
    'count.plays.one': '{n}회 플레이',
    'package.loading': '패키지를 불러오는 중\u2026',
    'package.start': '시작',
    'package.best': '최고 기록',
    'package.bestLine': '{player}: {score}점',
    'level.beginner': '초급',
    'level.intermediate': '중급',
    'level.expert': '고급',
    'play.loading': '플레이를 시작하는 중\u2026',
    'play.poster': '퀴즈 {number}의 포스터',
    'play.quiz': '퀴즈 {number} / {count}',
    'play.score': '{score}점',
    'play.getReady': '퀴즈 {number}이(가) {seconds}초 뒤에 시작합니다',
    'play.guess': '정답 입력',
    'play.submit': '제출',
    'play.hint': '힌트',
    'play.skip': '건너뛰기',
    'sound.off': '소리: 끔',
    'play.hintText': '힌트: {hint}',
    'play.noPause': '시간은 서버에서 흐르며 이 탭이 가려져도 멈추지 않습니다.',
    'package.length': '한 번 푸는 데 최대 {minutes}분 걸립니다. 퀴즈마다 3초 쉬고 최대 20초입니다.',
    'play.notStarted': '포스터를 기다리세요. 퀴즈가 아직 시작되지 않았습니다.',
    'play.connectionLost': '서버에 연결할 수 없습니다. 다시 시도하는 중\u2026 그동안에도 서버의 시계는 흐릅니다.',
    'play.reconnected': '서버에 다시 연결되었습니다.',
    'verdict.accepted': '정답! {title} {year} +{score}점',
    'verdict.wrong': '\u201c{guess}\u201d은(는) 아닙니다.',
    'verdict.wrong_number': '\u201c{guess}\u201d: 비슷하지만 숫자가 다릅니다.',
    'verdict.another_movie': '\u201c{guess}\u201d은(는) 다른 영화입니다.',
    'verdict.empty': '먼저 제목을 입력하세요.',
    'verdict.missed': '시간 종료: 정답은 {title} {year}',
    'verdict.skipped': '건너뜀: 정답은 {title} {year}',
    'verdict.tooFast': '너무 빠릅니다. {seconds}초 뒤에 다시 해 보세요.',
    'end.title': '플레이 종료',
    'end.score': '{score}점',
    'end.solved': '{count}문제 중 {solved}문제 정답',
    'end.copy': '복사',
    'end.copied': '복사했습니다.',
    'end.copyFailed': '줄을 선택해 복사하세요.',
    'end.again': '다시 풀기',
    'end.make': '직접 만들기',
    'end.unranked.maker': '순위에 들지 않습니다: 직접 만든 패키지입니다.',
    'end.unranked.daily': '연속 기록에 들지 않습니다: 이 퀴즈의 정답을 앞서 보았습니다.',
    'end.unranked.answer_seen_in_play': '순위에 들지 않습니다: 앞서 푼 플레이(이 패키지 또는 오늘의 퀴즈)에서 정답을 보았습니다.',
    'end.unranked.answer_seen_in_room': '순위에 들지 않습니다: 이 패키지의 실시간 방에서 정답을 보았습니다.',
    'recap.solved': '{stage}단계에서 맞힘, +{score}점',
    'recap.missed': '시간 초과',
    'recap.skipped': '건너뜀',
    'recap.unplayed': '풀지 않음',
    'board.title': '순위표',
    'board.rank': '순위',
    'board.player': '플레이어',
    'board.score': '점수',
    'board.seconds': '초',
    'board.you': '{count}명 중 {rank}위입니다.',
    'board.empty': '아직 순위에 든 플레이가 없습니다.',
    'daily.title': '오늘의 퀴즈 #{number}',
    'daily.about': '\u201c{title}\u201d의 퀴즈 {quiz}, {level}. 언어마다 하루에 하나, 모두 같은 퀴즈입니다.',
    'daily.streak': '연속 {streak}일 (최고 {best}일)',
    'daily.play': '풀기',
    'daily.played': '오늘의 퀴즈를 이미 풀었습니다: {score}점.',
    'error.notFound': '이 코드의 패키지가 없습니다.',
    'error.removed': '운영자가 이 패키지를 내렸습니다.',
    'package.report': '이 패키지 신고하기',
    'error.noPage': '여기에는 페이지가 없습니다.',
    'error.home': '첫 화면으로 가기',
    'error.generic': '문제가 생겼습니다: {message}',
    'room.open': '친구와 함께 풀기',
    'room.timeLeft': '{seconds}초 남음',
    'guest': '손님',
    'package.playingAs': '“{name}”(으)로 풉니다.',
    'package.guest': '손님으로 풉니다.',
    'package.rename': '이름 바꾸기',
    'howto.open': '게임 방법',
  },
};

export const languages = Object.keys(tables);

/// A count in words, "1 quiz" or "3 quizzes", as an argument of a text (`key` and `key.one` in the tables).
export function counted(key, n) {
  return { i18n: n === 1 ? `${key}.one` : key, args: { n } };
}

/// Adds a lazily loaded module's texts ({en: {...}, ko: {...}}) to the tables.
export function addTexts(more) {
  for (const language of languages) Object.assign(tables[language], more[language]);
}
const storageKey = 'uquiz.language';

/// The language chosen with the switch, else the one the server picked from Accept-Language (the page's lang).
export function currentLanguage() {
  const chosen = localStorage.getItem(storageKey);
  if (chosen && tables[chosen]) return chosen;
  const fromServer = document.documentElement.lang;
  return tables[fromServer] ? fromServer : 'en';
}

/// The text of `key` in the current language with `{name}` replaced by `args.name` (as plain text); an argument
/// `{i18n: key, args}` is itself a text of the table (a level's name, a count), so it follows the language too.
export function t(key, args = {}) {
  const table = tables[currentLanguage()];
  const template = table[key] ?? tables.en[key] ?? key;
  const value = (name) => (args[name]?.i18n ? t(args[name].i18n, args[name].args) : (args[name] ?? '').toString());
  return template.replace(/\{(\w+)\}/g, (_, name) => value(name)).replace(/ {2,}/g, ' ').trim();
}

/// Shows `key` in `element` through textContent (never HTML), or in the attribute its data-i18n-attr names, and
/// remembers it for relabelling.
export function setText(element, key, args) {
  element.dataset.i18n = key;
  if (args) element.dataset.i18nArgs = JSON.stringify(args);
  else delete element.dataset.i18nArgs;
  const text = t(key, args);
  if (element.dataset.i18nAttr) element.setAttribute(element.dataset.i18nAttr, text);
  else element.textContent = text;
  return element;
}

/// Shows every remembered text again in the current language.
export function relabel(root = document) {
  document.documentElement.lang = currentLanguage();
  for (const element of root.querySelectorAll('[data-i18n]')) {
    const args = element.dataset.i18nArgs ? JSON.parse(element.dataset.i18nArgs) : undefined;
    const text = t(element.dataset.i18n, args);
    if (element.dataset.i18nAttr) element.setAttribute(element.dataset.i18nAttr, text);
    else element.textContent = text;
  }
}

export function switchLanguage() {
  const next = languages[(languages.indexOf(currentLanguage()) + 1) % languages.length];
  localStorage.setItem(storageKey, next);
  relabel();
  // For what shows other content per language (the daily quiz), not just other labels.
  document.dispatchEvent(new Event('uquiz:language'));
}
