// Every text of the page, one table per language. Elements carry the key they show (data-i18n, with data-i18n-args
// for the values), so the language switch relabels the page in place without restarting a play.

const tables = {
  en: {
    'language.other': '한국어',
    'nav.daily': 'Daily',
    'home.title': 'Movie-poster quizzes',
    'home.lead': 'A black poster, revealed area by area: type the title before time runs out.',
    'home.code.label': 'Share code',
    'home.code.go': 'Play',
    'home.code.invalid': 'A share code is 6 letters and digits, like FE7NWW.',
    'home.popular': 'Popular packages',
    'home.new': 'New packages',
    'home.none': 'No public packages yet.',
    'home.daily': 'Daily quiz #{number}: {title}',
    'home.daily.go': 'Play today\u2019s quiz',
    'home.loadFailed': 'The server did not answer: {message}',
    'package.meta': '{maker} \u00b7 {level} \u00b7 {count} quizzes \u00b7 {plays} plays',
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
    'play.hint': 'Hint (Alt+H)',
    'play.skip': 'Skip (Alt+S)',
    'play.hintText': 'Hint: {hint}',
    'play.noPause': 'The clock runs on the server and never pauses, even while this tab is hidden.',
    'play.notStarted': 'Wait for the poster: the quiz has not started.',
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
    'end.unranked': 'Only your first play of a package is ranked.',
    'board.title': 'Leaderboard',
    'board.rank': 'Rank',
    'board.player': 'Player',
    'board.score': 'Score',
    'board.seconds': 'Seconds',
    'board.you': 'You are #{rank} of {count}.',
    'board.empty': 'No ranked plays yet.',
    'daily.title': 'Daily quiz #{number}',
    'daily.about': 'Quiz {quiz} of \u201c{title}\u201d, {level}. One a day, the same for everyone.',
    'daily.streak': 'Streak: {streak} (best {best})',
    'daily.play': 'Play',
    'daily.played': 'You have played today\u2019s quiz: {score} points.',
    'error.notFound': 'No package with this code here.',
    'error.generic': 'Something went wrong: {message}',
    'room.open': 'Play with friends',
    'room.title': 'Room {code}',
    'room.unknown': 'No room with this code here.',
    'room.over': 'This room has ended.',
    'room.name': 'Your name',
    'room.join': 'Join',
    'room.players': 'Players',
    'room.invite': 'Friends join with this link:',
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
    'room.loading': 'Quiz {number}: get ready\u2026',
    'room.timeLeft': '{seconds} s left',
    'room.skip': 'Skip for all (Alt+S)',
    'room.accepted': 'Right! +{points} points at stage {stage}',
    'room.notSolved': 'Not solved.',
    'room.watching': 'You joined during this quiz: you watch it and play from the next.',
    'room.solved': '{name} solved it at stage {stage}.',
    'room.answer': 'It was {title} {year}',
    'room.ending.everyoneSolved': 'Everyone solved it.',
    'room.ending.timeUp': 'Time\u2019s up.',
    'room.ending.skipped': 'The host skipped it.',
    'room.solver': '{name}: +{points} at stage {stage} ({seconds} s)',
    'room.nobodySolved': 'Nobody solved it.',
    'room.scoreboard': 'Scoreboard',
    'room.solvedCount': 'Solved',
    'room.podium': 'Podium',
    'room.place': '#{rank} {name}: {score} points',
    'room.reconnecting': 'Connection lost: taking your seat back\u2026',
    'room.reconnected': 'Back in the room.',
    'room.replaced': 'This room is open in another tab now.',
    'room.kicked': 'The host removed you from the room.',
    'room.expired.idle': 'The room closed: nothing happened for too long.',
    'room.expired.ended': 'The room closed after its podium.',
    'room.expired.empty': 'The room closed: everyone left.',
    'room.refused': 'Not done: {message}',
    'room.error.invalid_name': 'A name is 1 to 24 characters on one line.',
    'room.error.name_taken': 'Someone in the room has this name already.',
    'room.error.room_full': 'The room is full.',
    'room.error.room_finished': 'This room has ended.',
    'room.error.host_not_here': 'The host has not joined yet: try again in a moment.',
    'room.error.not_host': 'Only the host may do that.',
    'room.error.watching': 'You watch this quiz and play from the next.',
    'room.error.already_done': 'This quiz is over for you.',
    'guest': 'Guest',
  },
  ko: {
    'language.other': 'English',
    'nav.daily': '오늘의 퀴즈',
    'home.title': '영화 포스터 퀴즈',
    'home.lead': '검은 포스터가 한 곳씩 드러납니다. 시간이 다 되기 전에 제목을 입력하세요.',
    'home.code.label': '공유 코드',
    'home.code.go': '풀기',
    'home.code.invalid': '공유 코드는 FE7NWW처럼 문자와 숫자 6자입니다.',
    'home.popular': '인기 패키지',
    'home.new': '새 패키지',
    'home.none': '아직 공개된 패키지가 없습니다.',
    'home.daily': '오늘의 퀴즈 #{number}: {title}',
    'home.daily.go': '오늘의 퀴즈 풀기',
    'home.loadFailed': '서버가 응답하지 않았습니다: {message}',
    'package.meta': '{maker} \u00b7 {level} \u00b7 퀴즈 {count}개 \u00b7 {plays}회 플레이',
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
    'play.hint': '힌트 (Alt+H)',
    'play.skip': '건너뛰기 (Alt+S)',
    'play.hintText': '힌트: {hint}',
    'play.noPause': '시간은 서버에서 흐르며 이 탭이 가려져도 멈추지 않습니다.',
    'play.notStarted': '포스터를 기다리세요. 퀴즈가 아직 시작되지 않았습니다.',
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
    'end.unranked': '패키지마다 처음 끝낸 플레이만 순위에 듭니다.',
    'board.title': '순위표',
    'board.rank': '순위',
    'board.player': '플레이어',
    'board.score': '점수',
    'board.seconds': '초',
    'board.you': '{count}명 중 {rank}위입니다.',
    'board.empty': '아직 순위에 든 플레이가 없습니다.',
    'daily.title': '오늘의 퀴즈 #{number}',
    'daily.about': '\u201c{title}\u201d의 퀴즈 {quiz}, {level}. 하루에 하나, 모두 같은 퀴즈입니다.',
    'daily.streak': '연속 {streak}일 (최고 {best}일)',
    'daily.play': '풀기',
    'daily.played': '오늘의 퀴즈를 이미 풀었습니다: {score}점.',
    'error.notFound': '이 코드의 패키지가 없습니다.',
    'error.generic': '문제가 생겼습니다: {message}',
    'room.open': '친구와 함께 풀기',
    'room.title': '방 {code}',
    'room.unknown': '이 코드의 방이 없습니다.',
    'room.over': '이 방은 끝났습니다.',
    'room.name': '이름',
    'room.join': '참가',
    'room.players': '참가자',
    'room.invite': '친구는 이 링크로 참가합니다:',
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
    'room.loading': '퀴즈 {number}: 준비하세요\u2026',
    'room.timeLeft': '{seconds}초 남음',
    'room.skip': '모두 건너뛰기 (Alt+S)',
    'room.accepted': '정답! {stage}단계에서 +{points}점',
    'room.notSolved': '맞히지 못했습니다.',
    'room.watching': '퀴즈 도중에 참가했습니다. 이번 퀴즈는 관전하고 다음 퀴즈부터 풉니다.',
    'room.solved': '{name}님이 {stage}단계에서 맞혔습니다.',
    'room.answer': '정답은 {title} {year}',
    'room.ending.everyoneSolved': '모두 맞혔습니다.',
    'room.ending.timeUp': '시간 종료.',
    'room.ending.skipped': '방장이 건너뛰었습니다.',
    'room.solver': '{name}: {stage}단계에서 +{points}점 ({seconds}초)',
    'room.nobodySolved': '아무도 맞히지 못했습니다.',
    'room.scoreboard': '점수판',
    'room.solvedCount': '정답',
    'room.podium': '최종 순위',
    'room.place': '{rank}위 {name}: {score}점',
    'room.reconnecting': '연결이 끊겼습니다. 자리로 돌아가는 중\u2026',
    'room.reconnected': '방으로 돌아왔습니다.',
    'room.replaced': '이 방이 이제 다른 탭에서 열려 있습니다.',
    'room.kicked': '방장이 당신을 방에서 내보냈습니다.',
    'room.expired.idle': '오랫동안 아무 일이 없어 방이 닫혔습니다.',
    'room.expired.ended': '최종 순위 뒤에 방이 닫혔습니다.',
    'room.expired.empty': '모두 나가서 방이 닫혔습니다.',
    'room.refused': '할 수 없습니다: {message}',
    'room.error.invalid_name': '이름은 한 줄에 1~24자입니다.',
    'room.error.name_taken': '방에 같은 이름이 이미 있습니다.',
    'room.error.room_full': '방이 가득 찼습니다.',
    'room.error.room_finished': '이 방은 끝났습니다.',
    'room.error.host_not_here': '방장이 아직 들어오지 않았습니다. 잠시 뒤에 다시 해 보세요.',
    'room.error.not_host': '방장만 할 수 있습니다.',
    'room.error.watching': '이번 퀴즈는 관전하고 다음 퀴즈부터 풉니다.',
    'room.error.already_done': '이 퀴즈는 이미 끝났습니다.',
    'guest': '손님',
  },
};

export const languages = Object.keys(tables);
const storageKey = 'uquiz.language';

/// The language chosen with the switch, else the one the server picked from Accept-Language (the page's lang).
export function currentLanguage() {
  const chosen = localStorage.getItem(storageKey);
  if (chosen && tables[chosen]) return chosen;
  const fromServer = document.documentElement.lang;
  return tables[fromServer] ? fromServer : 'en';
}

/// The text of `key` in the current language with `{name}` replaced by `args.name` (as plain text); an argument
/// `{i18n: key}` is itself a text of the table (a level's name), so it follows the language too.
export function t(key, args = {}) {
  const table = tables[currentLanguage()];
  const template = table[key] ?? tables.en[key] ?? key;
  const value = (name) => (args[name]?.i18n ? t(args[name].i18n) : (args[name] ?? '').toString());
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
}
