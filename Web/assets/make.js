// `/make`: a package made in the browser, as a draft on the server (`/v1/drafts`) saved as the maker goes, so another
// tab or device of the player finds it. Every rule is the server's, said beside the field it names. Loaded here only.

import { ApiError, encode, ensurePlayer, playerApi, publicApi, storedPlayer } from './api.js';
import { addTexts, counted, currentLanguage, setText } from './i18n.js';
import { copyButton, element } from './ui.js';

addTexts({
  en: {
    'make.title': 'Make a quiz',
    'make.lead': 'Pick movies, mark on each poster the areas a player sees one by one, and share the link.',
    'make.drafts': 'Your drafts',
    'make.new': 'Start a new package',
    'make.untitled': 'Untitled',
    'make.keptUntil': 'kept until {date} unless you change it',
    'make.packageTitle': 'Title',
    'make.level': 'Level',
    'make.language': 'Language',
    'make.visibility': 'Who finds it',
    'make.public': 'Everyone (listed)',
    'make.unlisted': 'Only who has the link',
    'make.search': 'Add a movie: title',
    'make.find': 'Search',
    'make.noMovie': 'No movie by that title here.',
    'make.quiz': 'Quiz {n}: {movie}',
    'make.howTo': 'Tap the poster to place stage {stage}’s area (at most {max} for this level); tap an area to move it. Arrow keys move the cursor, Enter places or picks up, Delete removes.',
    'make.moving': 'Stage {stage}’s area is picked up: tap (or press Enter) where it goes.',
    'make.year': 'Year (if you know it)',
    'make.area': 'Stage {stage}: row {row}, column {column}',
    'make.remove': 'Remove',
    'make.earlier': 'Earlier',
    'make.removeQuiz': 'Remove this quiz',
    'make.full': 'This level reveals at most {max} areas: remove one first.',
    'make.preview': 'Preview stage {stage}',
    'make.saving': 'Saving\u2026',
    'make.saved': 'Saved.',
    'make.saveFailed': 'Not saved: {message}. Your work stays on this page; it is tried again with your next change.',
    'make.ready': 'Ready to publish.',
    'make.readyUpdate': 'Ready to save.',
    'make.problem': 'Before publishing: {message}',
    'make.publish': 'Publish',
    'make.published': 'Published:',
    'make.playIt': 'Play it',
    'make.another': 'Make another',
    'make.noDraft': 'This draft is not here: it was published or deleted, or it is another player’s.',
    'make.makerName': 'Maker name (shown on the package)',
    'make.edge': 'Too close to the edge: an area’s centre stays {cells} cells inside it.',
    'make.overlap': 'Too close to stage {stage}’s area: areas may not share cells.',
    'make.locked': 'Played packages keep their areas, posters and answers: delete it and publish anew to change them.',
    'make.conflict': 'Not saved: it has just been played, so only its title, maker name and who finds it may change.',
    'make.unknownLanguage': 'language unknown',
    'make.quizNamed': '{movie} (quiz {n})',
    'make.copy': 'Copy the link',
    'make.poster': 'Poster of quiz {n} with the grid; {count} areas placed',
    'make.upload': 'Or your own poster: a JPEG of at most 2 MiB, from 50 x 75 to 2000 x 3000 pixels, about 2:3',
    'make.uploaded': 'Your poster is used for this quiz.',
    'make.uploadFailed': 'The poster was not taken: {message}',
    'make.delete': 'Delete',
    'make.confirmDelete': 'Delete “{title}” for good? Its plays and leaderboard go with it.',
    'make.deleteForGood': 'Delete for good',
    'make.keep': 'Keep it',
    'make.deleteFailed': 'Not deleted: {message}',
    'make.mine': 'Your packages',
    'make.more': 'More of your packages',
    'make.summary': '{plays} · solved {rate} · {visibility}',
    'make.noRate': 'not played yet',
    'make.removed': 'removed by the moderators',
    'make.stats': 'How each quiz fares',
    'make.quizStats': '{quiz}: solved {solved} of {attempts} ({rate}), at stage {stage} on average, hint asked {hinted} times',
    'make.quizUnplayed': '{quiz}: not played yet',
    'make.wrongGuesses': 'Wrong guesses most made: {guesses}',
    'make.edit': 'Edit',
    'make.unlist': 'Unlist',
    'make.list': 'List again',
    'make.editing': 'Editing {code}: Save changes updates it under the same link.',
    'make.playedRule': 'Already played ({plays}): its quizzes, level and language stay as they are; only its title, maker name and who finds it may change.',
    'make.saveChanges': 'Save changes',
    'make.updated': 'Saved:',
    'make.posters': 'Choose another poster',
    'make.posterChoice': 'Poster {n}: {language}',
    'make.textless': 'no text',
    'make.answers': 'Also accepted, besides the movie’s titles in English and Korean (separate answers with commas)',
    'make.playPreview': 'Play the preview',
    'make.previewAt': 'Stage {stage} of {count}, {seconds} s into the quiz',
    'make.chartRate': 'Solve rate per quiz',
    'make.chartRateSummary': 'Solved most: quiz {best} ({bestRate}); least: quiz {worst} ({worstRate}).',
    'make.chartRateOne': 'Quiz {n} is solved in {rate} of its attempts.',
    'make.chartRateSame': 'Every quiz played is solved in {rate} of its attempts.',
    'make.chartQuiz': 'Quiz {n}',
    'make.chartQuizHead': 'Quiz',
    'make.chartRateHead': 'Solve rate',
    'make.chartSolvedHead': 'Solved',
    'make.chartSolvedOf': '{solved} of {attempts}',
    'make.chartHints': 'Hint use per quiz',
    'make.chartHintsSummary': 'The hint was asked in {hinted} of {attempts} attempts.',
    'make.chartHinted': 'Hint asked',
    'make.chartStagesAll': 'The stage players solve each quiz at',
    'make.chartStages': 'Quiz {n}: the stage players solve at',
    'make.chartStagesSummary': 'Most solves came at stage {stage}: {n} of {total}.',
    'make.chartNoSolve': 'Nobody has solved it yet.',
    'make.previewEnd': 'Time is up at {seconds} s: the player sees the whole poster.',
  },
  ko: {
    'make.title': '퀴즈 만들기',
    'make.lead': '영화를 고르고, 포스터마다 한 단계씩 보일 영역을 정한 뒤 링크를 공유하세요.',
    'make.drafts': '만들던 패키지',
    'make.new': '새 패키지 시작',
    'make.untitled': '제목 없음',
    'make.keptUntil': '{date}까지 보관 (고치면 다시 늘어나요)',
    'make.packageTitle': '제목',
    'make.level': '난이도',
    'make.language': '언어',
    'make.visibility': '공개 범위',
    'make.public': '모두 (목록에 표시)',
    'make.unlisted': '링크가 있는 사람만',
    'make.search': '영화 추가: 제목',
    'make.find': '검색',
    'make.noMovie': '그 제목의 영화가 없습니다.',
    'make.quiz': '퀴즈 {n}: {movie}',
    'make.howTo': '포스터를 눌러 {stage}단계 영역을 정하세요 (이 난이도는 최대 {max}개). 영역을 누르면 옮깁니다. 방향키로 움직이고 Enter로 놓거나 집고 Delete로 지웁니다.',
    'make.moving': '{stage}단계 영역을 집었습니다: 놓을 곳을 누르세요 (또는 Enter).',
    'make.year': '개봉 연도 (알면)',
    'make.area': '{stage}단계: {row}행 {column}열',
    'make.remove': '지우기',
    'make.earlier': '앞으로',
    'make.removeQuiz': '이 퀴즈 빼기',
    'make.full': '이 난이도는 영역이 최대 {max}개입니다. 먼저 하나를 지우세요.',
    'make.preview': '{stage}단계 미리 보기',
    'make.saving': '저장 중\u2026',
    'make.saved': '저장했습니다.',
    'make.saveFailed': '저장하지 못했습니다: {message}. 작업은 이 페이지에 남아 있고, 다음에 고칠 때 다시 저장합니다.',
    'make.ready': '공개할 수 있습니다.',
    'make.readyUpdate': '저장할 수 있습니다.',
    'make.problem': '공개 전에: {message}',
    'make.publish': '공개하기',
    'make.published': '공개했습니다:',
    'make.playIt': '풀어 보기',
    'make.another': '하나 더 만들기',
    'make.noDraft': '이 초안은 여기 없습니다: 이미 공개했거나 지웠거나, 다른 플레이어의 것입니다.',
    'make.makerName': '만든 사람 이름 (패키지에 표시)',
    'make.edge': '가장자리에 너무 가깝습니다: 영역의 중심은 {cells}칸 이상 안쪽에 둡니다.',
    'make.overlap': '{stage}단계 영역과 너무 가깝습니다: 영역끼리 겹칠 수 없습니다.',
    'make.locked': '이미 푼 패키지는 영역, 포스터, 정답이 그대로입니다: 바꾸려면 지우고 새로 공개하세요.',
    'make.conflict': '저장하지 못했습니다: 방금 누군가 풀어서 제목, 만든 사람 이름, 공개 범위만 바꿀 수 있습니다.',
    'make.unknownLanguage': '언어 모름',
    'make.quizNamed': '{movie} (퀴즈 {n})',
    'make.copy': '링크 복사',
    'make.poster': '퀴즈 {n} 포스터와 격자, 영역 {count}개',
    'make.upload': '또는 내 포스터: 2 MiB 이하 JPEG, 50 x 75 ~ 2000 x 3000 픽셀, 2:3 비율',
    'make.uploaded': '이 퀴즈에 내 포스터를 씁니다.',
    'make.uploadFailed': '포스터를 받지 않았습니다: {message}',
    'make.posters': '다른 포스터 고르기',
    'make.posterChoice': '포스터 {n}: {language}',
    'make.textless': '글자 없음',
    'make.answers': '영화의 한국어·영어 제목 말고도 맞는 답 (쉼표로 구분)',
    'make.playPreview': '미리 풀어 보기',
    'make.previewAt': '{count}단계 중 {stage}단계, 시작 후 {seconds}초',
    'make.previewEnd': '{seconds}초에 시간이 끝나면 포스터 전체가 보입니다.',
    'make.delete': '삭제',
    'make.confirmDelete': '“{title}”을(를) 완전히 지울까요? 플레이 기록과 순위표도 함께 지워집니다.',
    'make.deleteForGood': '완전히 삭제',
    'make.keep': '그대로 두기',
    'make.deleteFailed': '삭제하지 못했습니다: {message}',
    'make.mine': '내가 만든 패키지',
    'make.more': '내 패키지 더 보기',
    'make.summary': '{plays} · 정답률 {rate} · {visibility}',
    'make.noRate': '아직 푼 사람 없음',
    'make.removed': '운영자가 내림',
    'make.stats': '퀴즈별 기록',
    'make.quizStats': '{quiz}: {attempts}번 중 {solved}번 맞힘 ({rate}), 평균 {stage}단계, 힌트 {hinted}번',
    'make.quizUnplayed': '{quiz}: 아직 푼 사람 없음',
    'make.wrongGuesses': '가장 많이 나온 오답: {guesses}',
    'make.edit': '고치기',
    'make.unlist': '목록에서 내리기',
    'make.list': '다시 목록에 올리기',
    'make.editing': '{code} 고치는 중: 변경 저장을 누르면 같은 링크 그대로 바뀝니다.',
    'make.playedRule': '이미 {plays} 풀었습니다: 퀴즈·난이도·언어는 그대로이고 제목, 만든 사람 이름, 공개 범위만 바꿀 수 있습니다.',
    'make.saveChanges': '변경 저장',
    'make.updated': '저장했습니다:',
    'make.chartRate': '퀴즈별 정답률',
    'make.chartRateSummary': '가장 많이 맞힌 퀴즈 {best} ({bestRate}), 가장 적게 맞힌 퀴즈 {worst} ({worstRate}).',
    'make.chartRateOne': '퀴즈 {n}의 정답률은 {rate}입니다.',
    'make.chartRateSame': '푼 퀴즈의 정답률이 모두 {rate}입니다.',
    'make.chartQuiz': '퀴즈 {n}',
    'make.chartQuizHead': '퀴즈',
    'make.chartRateHead': '정답률',
    'make.chartSolvedHead': '맞힘',
    'make.chartSolvedOf': '{attempts}번 중 {solved}번',
    'make.chartHints': '퀴즈별 힌트 사용',
    'make.chartHintsSummary': '{attempts}번 중 {hinted}번 힌트를 봤습니다.',
    'make.chartHinted': '힌트 봄',
    'make.chartStagesAll': '퀴즈별로 맞히는 단계',
    'make.chartStages': '퀴즈 {n}: 맞히는 단계',
    'make.chartStagesSummary': '{stage}단계에서 가장 많이 맞혔습니다: {total}번 중 {n}번.',
    'make.chartNoSolve': '아직 맞힌 사람이 없습니다.',
  },
});

/// The grid areas are placed on, as the server's draft says it (`grid`; the standard one until a draft arrives): 50
/// columns, 75 rows, 5 x 5 areas kept 2 cells from the edge. An area is given by its centre as [row, column], `reach`
/// cells or more from the edge.
const grid = { columns: 50, rows: 75, area: 5, margin: 2 };
let reach = (grid.area - 1) / 2 + grid.margin;

/// Takes the server's grid (a draft's `grid`), which a server may set otherwise than the standard one.
function useGrid(server) {
  if (!server) return;
  Object.assign(grid, { columns: server.columns, rows: server.rows, area: server.areaSize, margin: server.margin });
  reach = (grid.area - 1) / 2 + grid.margin;
}
const saveDelayMs = 600;

export async function showMake(main) {
  // The maker's styles, beside this module: no other page loads them.
  document.head.append(element('link', { rel: 'stylesheet', href: new URL('./make.css', import.meta.url).pathname }));
  const maker = new Maker(main);
  try {
    await ensurePlayer();
    const wanted = Number(new URLSearchParams(location.search).get('draft'));
    if (wanted) await maker.open(wanted);
    else maker.chooser((await playerApi('GET', '/v1/drafts')).drafts, await playerApi('GET', ownedPage()));
  } catch (error) {
    maker.failed(error);
  }
}

/// JSON with every object's keys in order, to compare documents.
const canonical = (value) => JSON.stringify(value, (_, part) => (part && typeof part === 'object' && !Array.isArray(part)
  ? Object.fromEntries(Object.entries(part).sort(([a], [b]) => (a < b ? -1 : 1))) : part));

const stored = (key, fallback) => { try { return JSON.parse(localStorage.getItem(key)) ?? fallback; } catch { return fallback; } };
/// Movies' titles as this browser's maker picked them ({movie: title}): a spec names only its movies' ids.
const titlesKey = 'uquiz.maker.titles';
const titleOf = (quiz) => quiz.title ?? stored(titlesKey, {})[quiz.movie];
function rememberTitles(quizzes) {
  const titles = stored(titlesKey, {});
  for (const quiz of quizzes) if (quiz.title) titles[quiz.movie] = quiz.title;
  try { localStorage.setItem(titlesKey, JSON.stringify(titles)); } catch { /* full: untitled */ }
}
/// A draft's edit until the server has it: {document, base (the draft's updatedAt), sent (documents sent since)}.
const pendingKey = (id) => `uquiz.maker.pending.${id}`;
/// A quiz by its movie's title when known, else by its number ([key, args] of a text).
const quizName = (n, movie) => (movie ? ['make.quizNamed', { n, movie }] : ['make.chartQuiz', { n }]);

/// The address of a page of the maker's own packages, after `cursor` when given.
const ownedPage = (cursor) => `/v1/players/me/packages?limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;

const percent = (rate) => `${Math.round(rate * 100)}%`;

/// How the quizzes of the package `code` fare, as charts once some quiz has been played: the solve rate and the hint
/// use of each quiz, and the stage each quiz is solved at.
async function quizCharts(box, code, quizzes, titles) {
  const played = quizzes.filter((quiz) => quiz.attempts > 0);
  if (!played.length) return;
  const { barChart } = await import('./charts.js');
  const rate = (quiz) => quiz.solveRate ?? 0;
  const rated = [...played].sort((a, b) => rate(b) - rate(a));
  const [best, worst] = [rated[0], rated.at(-1)];
  const rates = barChart({
    id: `${code}-solve-rate`, className: 'solve-rate', title: ['make.chartRate'],
    summary: rate(best) === rate(worst)
      ? [played.length > 1 ? 'make.chartRateSame' : 'make.chartRateOne', { n: best.number, rate: percent(rate(best)) }]
      : ['make.chartRateSummary', {
        best: best.number, bestRate: percent(rate(best)), worst: worst.number, worstRate: percent(rate(worst)),
      }],
    head: ['make.chartQuizHead', 'make.chartRateHead', 'make.chartSolvedHead'],
    max: 100,
    items: quizzes.map((quiz) => ({
      label: quiz.number, value: rate(quiz) * 100, text: quiz.attempts ? percent(rate(quiz)) : '-',
    })),
    rows: quizzes.map((quiz) => [quizName(quiz.number, titles[quiz.number - 1]), quiz.attempts ? percent(rate(quiz)) : ['make.noRate'],
      ['make.chartSolvedOf', { solved: quiz.solved, attempts: quiz.attempts }]]),
  });
  const hinted = (quiz) => quiz.hinted ?? 0;
  const hints = barChart({
    id: `${code}-hints`, className: 'hints', title: ['make.chartHints'],
    summary: ['make.chartHintsSummary', {
      hinted: played.reduce((sum, quiz) => sum + hinted(quiz), 0), attempts: played.reduce((sum, quiz) => sum + quiz.attempts, 0),
    }],
    head: ['make.chartQuizHead', 'make.chartHinted'],
    max: 100,
    items: quizzes.map((quiz) => ({
      label: quiz.number, value: quiz.attempts ? (hinted(quiz) / quiz.attempts) * 100 : 0, text: `${hinted(quiz)}/${quiz.attempts}`,
    })),
    rows: quizzes.map((quiz) => [quizName(quiz.number, titles[quiz.number - 1]), ['make.chartSolvedOf', { solved: hinted(quiz), attempts: quiz.attempts }]]),
  });
  const stages = played.filter((quiz) => quiz.solvedAtStage?.length).map((quiz) => {
    const counts = quiz.solvedAtStage;
    const total = counts.reduce((sum, stage) => sum + stage.solved, 0);
    const most = counts.reduce((top, stage) => (stage.solved > top.solved ? stage : top));
    return barChart({
      id: `${code}-stages-${quiz.number}`, className: 'quiz-stages', height: 120,
      title: ['make.chartStages', { n: quiz.number }],
      summary: total ? ['make.chartStagesSummary', { stage: most.stage, n: most.solved, total }] : ['make.chartNoSolve'],
      head: ['chart.stage', 'chart.solves'],
      items: counts.map((stage) => ({ label: stage.stage, value: stage.solved })),
      rows: counts.map((stage) => [stage.stage, stage.solved]),
    });
  });
  box.replaceChildren(rates, hints, ...(stages.length
    ? [element('h3', { i18n: ['make.chartStagesAll'] }), element('div', { class: 'charts-grid' }, stages)] : []));
}

/// The maker's packages from `first` on, and a button that adds the next page below them while there is one.
function ownedList(first) {
  const list = element('ul', { class: 'packages', id: 'my-packages' });
  const more = element('button', { type: 'button', id: 'more-packages', i18n: ['make.more'] });
  const failed = element('p', { class: 'problem', role: 'status', 'aria-live': 'polite' });
  let cursor = null;
  const add = (page) => {
    list.append(...page.packages.map(ownedPackage));
    cursor = page.nextCursor;
    more.hidden = !cursor;
  };
  more.addEventListener('click', async () => {
    more.disabled = true;
    try {
      add(await playerApi('GET', ownedPage(cursor)));
      failed.replaceChildren();
    } catch (error) {
      setText(failed, 'error.generic', { message: error.message });
    } finally {
      more.disabled = false;
    }
  });
  add(first);
  return [list, more, failed];
}

/// One published package in the maker's list: its link, plays and solve rate, and on demand how each quiz fares
/// (from its leaderboard, which shows that to its maker).
function ownedPackage(owned) {
  const stats = element('ul', { class: 'maker-stats' });
  const charts = element('div', { class: 'maker-charts' });
  const details = element('details', {}, [element('summary', { i18n: ['make.stats'] }), stats, charts]);
  details.addEventListener('toggle', async () => {
    if (!details.open || stats.childElementCount) return;
    const [board, spec] = await Promise.all([playerApi('GET', `/v1/packages/${code}/leaderboard`),
      playerApi('GET', `/v1/packages/${code}/spec`).catch(() => null)]);
    const titles = (spec?.quizzes ?? []).map(titleOf);
    quizCharts(charts, owned.shareCode, board.quizzes ?? [], titles).catch(() => charts.replaceChildren());
    stats.replaceChildren(...(board.quizzes ?? []).map((quiz) => element('li', {}, [
      element('span', {
        i18n: [quiz.attempts === 0 ? 'make.quizUnplayed' : 'make.quizStats', {
          quiz: Object.fromEntries(quizName(quiz.number, titles[quiz.number - 1]).map((part, i) => [['i18n', 'args'][i], part])),
          solved: quiz.solved, attempts: quiz.attempts, rate: percent(quiz.solveRate ?? 0),
          stage: quiz.averageStage?.toFixed(1) ?? '-', hinted: quiz.hinted ?? 0,
        }],
      }),
      ...(quiz.commonWrongGuesses?.length
        ? [element('span', { class: 'meta', i18n: ['make.wrongGuesses', { guesses: quiz.commonWrongGuesses.join(' · ') }] })] : []),
    ])));
  });
  const visibility = () => owned.removed ? 'make.removed' : owned.visibility === 'public' ? 'make.public' : 'make.unlisted';
  const code = encode(owned.shareCode);
  // An edit is a draft of the package's spec (with its share code): publishing it updates the package.
  const edit = element('button', { type: 'button', i18n: ['make.edit'] });
  // What an edit, a listing or a deletion could not do, said beside the package.
  const failed = element('p', { class: 'problem', role: 'status', 'aria-live': 'polite' });
  const trying = (action) => () => action().catch((error) => setText(failed, 'error.generic', { message: error.message }));
  edit.addEventListener('click', trying(async () => {
    const spec = await playerApi('GET', `/v1/packages/${code}/spec`);
    for (const quiz of spec.quizzes) quiz.title = titleOf(quiz);
    const draft = await playerApi('POST', '/v1/drafts', spec);
    location.assign(`/make?draft=${draft.id}`);
  }));
  // Unlisting keeps the package and its link; only the lists stop showing it.
  const listing = element('button', { type: 'button' });
  const showListing = () => setText(listing, owned.visibility === 'public' ? 'make.unlist' : 'make.list');
  listing.addEventListener('click', trying(async () => {
    const spec = await playerApi('GET', `/v1/packages/${code}/spec`);
    spec.visibility = owned.visibility === 'public' ? 'unlisted' : 'public';
    await playerApi('PUT', `/v1/packages/${code}`, spec);
    owned.visibility = spec.visibility;
    showListing();
    setText(meta, 'make.summary', summary());
  }));
  showListing();
  const summary = () => ({
    plays: counted('count.plays', owned.plays),
    rate: owned.solveRate === null ? { i18n: 'make.noRate' } : percent(owned.solveRate),
    visibility: { i18n: visibility() },
  });
  const meta = element('div', { class: 'meta', i18n: ['make.summary', summary()] });
  // Deleting asks once more, naming the package: nothing brings it back.
  const actions = element('div', { class: 'answer-row' });
  const ask = () => {
    const remove = element('button', { type: 'button', i18n: ['make.delete'] });
    remove.addEventListener('click', confirm);
    actions.replaceChildren(...(owned.removed ? [] : [edit, listing]), remove);
  };
  const confirm = () => {
    const sure = element('button', { type: 'button', class: 'primary', i18n: ['make.deleteForGood'] });
    const keep = element('button', { type: 'button', i18n: ['make.keep'] });
    const said = element('p', { role: 'status', i18n: ['make.confirmDelete', { title: owned.title }] });
    keep.addEventListener('click', ask);
    sure.addEventListener('click', async () => {
      try {
        await playerApi('DELETE', `/v1/packages/${encode(owned.shareCode)}`);
        item.remove();
      } catch (error) {
        setText(said, 'make.deleteFailed', { message: error.message });
      }
    });
    actions.replaceChildren(said, sure, keep);
    sure.focus();
  };
  ask();
  const item = element('li', { 'data-code': owned.shareCode }, [
    element('a', { href: `/p/${encode(owned.shareCode)}`, class: 'package-title', text: owned.title }),
    meta, details, actions, failed,
  ]);
  return item;
}

class Maker {
  constructor(main) {
    this.main = main;
    this.draft = null;
    this.document = null;
    this.saveTimer = null;
    this.saving = Promise.resolve();
    /// Documents (canonical) sent since the last save answered.
    this.sent = [];
    /// A played package: only its title, maker and visibility may change.
    this.played = false;
    this.posterURLs = new Map();
    /// The quizzes whose poster choices are open.
    this.choosing = new Set();
    /// Each quiz's keyboard cursor, [row, column]: the page's, not the draft's.
    this.cursors = new Map();
  }

  /// The start of making: a new package, the drafts, and the maker's packages a page at a time (`page` the first).
  chooser(drafts, page) {
    const list = element('ul', { class: 'packages', id: 'drafts' }, drafts.map((draft) => element('li', {}, [
      element('a', { href: `/make?draft=${draft.id}`, text: draft.title || '' }, []),
      // A draft nobody changes is removed after a while: its maker is told when, before it happens.
      element('span', {
        class: 'draft-expiry',
        i18n: ['make.keptUntil', { date: new Date(draft.expiresAt).toLocaleDateString(currentLanguage()) }],
      }),
    ])));
    for (const link of list.querySelectorAll('a')) if (!link.textContent) setText(link, 'make.untitled');
    this.main.replaceChildren(
      element('h1', { i18n: ['make.title'] }), element('p', { class: 'lead', i18n: ['make.lead'] }), this.startButton(),
      ...(drafts.length ? [element('h2', { i18n: ['make.drafts'] }), list] : []),
      ...(page.packages.length ? [element('h2', { i18n: ['make.mine'] }), ...ownedList(page)] : []));
  }

  startButton() {
    const start = element('button', { type: 'button', class: 'primary', id: 'new-package', i18n: ['make.new'] });
    start.addEventListener('click', () => this.create().catch((error) => this.failed(error)));
    return start;
  }

  /// What could not be opened (a draft not here, a server not answering), with the ways on.
  failed(error) {
    history.replaceState(null, '', '/make');
    this.main.replaceChildren(element('h1', { i18n: ['make.title'] }),
      element('p', {
        class: 'lead', id: 'make-missing', role: 'status',
        i18n: error instanceof ApiError && error.status === 404 ? ['make.noDraft'] : ['error.generic', { message: error.message }],
      }),
      element('div', { class: 'actions' }, [this.startButton(), element('a', { href: '/make', i18n: ['make.mine'] })]));
  }

  async create() {
    const document = { format: 1, title: '', level: 'beginner', language: currentLanguage(), visibility: 'public', quizzes: [] };
    const draft = await playerApi('POST', '/v1/drafts', document);
    history.replaceState(null, '', `/make?draft=${draft.id}`);
    this.played = false;
    this.plays = 0;
    this.show(draft);
  }

  async open(id) {
    const draft = await playerApi('GET', `/v1/drafts/${encode(id)}`);
    // An edit the server may not have had (a reload right after typing), unless the draft changed elsewhere since.
    const pending = stored(pendingKey(id), null);
    const now = canonical(draft.document);
    const restore = pending && now !== canonical(pending.document)
      && (draft.updatedAt === pending.base || pending.sent?.includes(now));
    if (restore) draft.document = pending.document;
    else localStorage.removeItem(pendingKey(id));
    let unsaved = restore;
    const code = draft.document.shareCode;
    if (code) {
      // A played package keeps its quizzes, level and language as published: the server refuses any other change.
      this.plays = (await publicApi('GET', `/v1/packages/${encode(code)}`).catch(() => null))?.plays ?? 0;
      if (this.plays > 0) unsaved = await this.keepPublished(draft.document) || unsaved;
    }
    this.show(draft, unsaved);
  }

  /// The package's published quizzes, level and language back into `document`; whether it changed.
  async keepPublished(document) {
    this.played = true;
    const spec = await playerApi('GET', `/v1/packages/${encode(document.shareCode)}/spec`);
    const before = canonical(document);
    rememberTitles(document.quizzes ?? []);
    for (const quiz of spec.quizzes) quiz.title = titleOf(quiz);
    Object.assign(document, { level: spec.level, language: spec.language, quizzes: spec.quizzes });
    return canonical(document) !== before;
  }

  /// The editor of `draft`, saved now when `unsaved`.
  show(draft, unsaved = false) {
    useGrid(draft.grid);
    this.draft = draft;
    this.sent = [];
    this.document = { quizzes: [], ...draft.document };
    rememberTitles(this.document.quizzes);
    this.pagehide ??= this.flushOnLeaving();
    this.render();
    if (unsaved) this.changed(true);
  }

  render() {
    this.status = element('p', { class: 'status', id: 'save-status', role: 'status', 'aria-live': 'polite' });
    this.problem = element('p', { class: 'problem', id: 'draft-problem', role: 'status', 'aria-live': 'polite' });
    this.quizList = element('div', { id: 'quizzes' });
    const publish = element('button', { type: 'button', class: 'primary', id: 'publish', i18n: ['make.publish'] });
    publish.addEventListener('click', () => this.publish());
    const editing = element('div', {});
    const code = this.document.shareCode;
    if (code) {
      setText(publish, 'make.saveChanges');
      editing.append(element('p', { class: 'lead', id: 'editing', i18n: ['make.editing', { code }] }));
      // The rule an update keeps, said before the maker tries: once played, only the title, maker and visibility.
      if (this.plays > 0) {
        editing.append(element('p', { class: 'note', id: 'played-rule', i18n: ['make.playedRule', { plays: counted('count.plays', this.plays) }] }));
      }
    }
    this.main.replaceChildren(
      element('h1', { i18n: ['make.title'] }), editing, this.fields(), this.quizList, ...(this.played ? [] : [this.search()]),
      this.problem, element('div', { class: 'answer-row' }, [publish]), this.status);
    this.showProblem(this.draft.problem);
    this.drawQuizzes();
  }

  fields() {
    const input = (id, key, fallback = '') => {
      const node = element('input', { id, type: 'text', maxlength: '100', value: this.document[key] ?? fallback });
      // No maker name: the server's, the player's name.
      node.addEventListener('input', () => {
        if (node.value.trim() || key === 'title') this.document[key] = node.value; else delete this.document[key];
        this.changed();
      });
      return node;
    };
    const field = (id, label, control) => element('div', { class: 'field' }, [element('label', { for: id, i18n: [label] }), control]);
    const select = (id, label, key, options) => {
      const node = element('select', { id }, options.map(([value, text]) => {
        const option = element('option', { value, i18n: [text] });
        option.selected = this.document[key] === value;
        return option;
      }));
      node.disabled = this.played && key !== 'visibility';
      node.addEventListener('change', () => { this.document[key] = node.value; this.changed(); this.drawQuizzes(); });
      return field(id, label, node);
    };
    return element('div', { class: 'filters' }, [
      field('package-title', 'make.packageTitle', input('package-title', 'title')),
      field('package-maker', 'make.makerName', input('package-maker', 'maker', storedPlayer()?.name)),
      select('package-level', 'make.level', 'level',
        [['beginner', 'level.beginner'], ['intermediate', 'level.intermediate'], ['expert', 'level.expert']]),
      select('package-language', 'make.language', 'language', [['en', 'filter.en'], ['ko', 'filter.ko']]),
      select('package-visibility', 'make.visibility', 'visibility', [['public', 'make.public'], ['unlisted', 'make.unlisted']]),
    ]);
  }
  /// Movie search: the server's (TMDB, or its catalog when TMDB cannot be reached), in the package's language.
  search() {
    const input = element('input', { id: 'movie-search', type: 'search', maxlength: '200', enterkeyhint: 'search' });
    const year = element('input', { id: 'movie-year', type: 'text', maxlength: '4', inputmode: 'numeric' });
    const results = element('ul', { class: 'packages', id: 'movie-results', 'aria-live': 'polite' });
    const form = element('form', { class: 'code-form', role: 'search' }, [
      element('label', { for: 'movie-search', i18n: ['make.search'] }),
      element('div', { class: 'answer-row' }, [input, element('button', { type: 'submit', i18n: ['make.find'] })]),
      element('label', { for: 'movie-year', i18n: ['make.year'] }), year,
      results,
    ]);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const query = input.value.trim();
      if (!query) return;
      const inYear = /^\d{4}$/.test(year.value) ? `&year=${year.value}` : '';
      const page = await playerApi(
        'GET', `/v1/movies?q=${encodeURIComponent(query)}&language=${encode(this.document.language ?? 'en')}${inYear}`)
        .catch((error) => { results.replaceChildren(element('li', { i18n: ['error.generic', { message: error.message }] })); });
      if (!page) return;
      results.replaceChildren(...page.results.slice(0, 8).map((movie) => {
        const year = movie.releaseDate ? ` (${movie.releaseDate.slice(0, 4)})` : '';
        const pick = element('button', { type: 'button', class: 'link maker-result', text: `${movie.title}${year}` });
        if (movie.posterPath) {
          // The movie's poster beside it, when the server can show it; none said otherwise.
          const image = element('img', { alt: '' });
          pick.prepend(image);
          this.blob(`/v1/movies/searched-poster?poster=${encodeURIComponent(movie.posterPath)}`, undefined, { quiet: true })
            .then((url) => { if (url) image.src = url; else image.remove(); });
        }
        pick.addEventListener('click', () => {
          const quiz = { movie: movie.tmdbId ?? movie.catalogKey, areas: [], title: movie.title };
          rememberTitles([quiz]);
          this.document.quizzes.push(quiz);
          results.replaceChildren();
          input.value = '';
          this.changed(true);
        });
        return element('li', {}, [pick]);
      }));
      if (page.results.length === 0) results.append(element('li', { i18n: ['make.noMovie'] }));
    });
    return form;
  }

  drawQuizzes() {
    this.quizList.replaceChildren(...this.document.quizzes.map((quiz, index) => this.quizEditor(quiz, index)));
  }

  quizEditor(quiz, index) {
    // The server's level rules, which it sends with the draft: its areas a quiz, and its timing for the preview.
    const rule = this.draft.levels[this.document.level] ?? this.draft.levels.beginner;
    const max = rule.areas;
    const locked = this.played;
    const section = element('section', { class: 'maker-quiz', id: `quiz-${index + 1}` });
    const title = titleOf(quiz);
    const heading = element('h2', { i18n: title ? ['make.quiz', { n: index + 1, movie: title }] : ['make.chartQuiz', { n: index + 1 }] });
    const howTo = element('p', { class: 'lead', i18n: locked ? ['make.locked'] : ['make.howTo', { stage: quiz.areas.length + 1, max }] });
    const board = element('div', {
      class: `maker-board${locked ? ' locked' : ''}`, tabindex: '0', role: 'application',
      'aria-label': '', 'data-i18n-attr': 'aria-label',
    });
    setText(board, 'make.poster', { n: index + 1, count: quiz.areas.length });
    const image = element('img', { alt: '', class: 'maker-poster' });
    board.append(image);
    this.poster(index, null).then((url) => { if (url) image.src = url; });
    // Positioned through the CSSOM: the page's Content-Security-Policy refuses style attributes.
    const at = (node, [row, column]) => {
      node.style.left = `${((column - (grid.area - 1) / 2) / grid.columns) * 100}%`;
      node.style.top = `${((row - (grid.area - 1) / 2) / grid.rows) * 100}%`;
      return node;
    };
    quiz.areas.forEach((centre, area) => board.append(at(element('span', { class: 'maker-area', text: String(area + 1) }), centre)));
    let cursor = this.cursors.get(quiz) ?? [Math.floor(grid.rows / 2), Math.floor(grid.columns / 2)];
    const mark = element('span', { class: 'maker-cursor' });
    const moveMark = () => at(mark, cursor);
    moveMark();
    board.append(mark);
    const note = element('p', { class: 'problem', role: 'status', 'aria-live': 'polite' });
    const say = (key, args) => { setText(note, key, args); note.scrollIntoView({ block: 'nearest' }); };
    // A tap on a placed area picks it up; the next tap puts it there (its stage unchanged).
    const picked = this.moving?.quiz === quiz ? this.moving.area : -1;
    if (picked >= 0) {
      board.querySelectorAll('.maker-area')[picked]?.classList.add('picked');
      setText(note, 'make.moving', { stage: picked + 1 });
    }
    const near = (row, column, cells) => quiz.areas.findIndex(([r, c], area) => area !== picked
      && Math.abs(r - row) <= cells && Math.abs(c - column) <= cells);
    const place = (row, column) => {
      if (locked) { howTo.scrollIntoView({ block: 'nearest' }); return; }
      this.cursors.set(quiz, [row, column]);
      if (picked < 0) {
        const under = near(row, column, 2);
        if (under >= 0) { this.moving = { quiz, area: under }; this.drawQuizzes(); this.main.querySelector(`#quiz-${index + 1} .maker-board`)?.focus(); return; }
        if (quiz.areas.length >= max) { say('make.full', { max }); return; }
      }
      // The server's rules, before placing: off the margin, no cell shared.
      if (Math.min(row, column, grid.rows - 1 - row, grid.columns - 1 - column) < reach) { say('make.edge', { cells: reach }); return; }
      const overlapped = near(row, column, grid.area - 1);
      if (overlapped >= 0) { say('make.overlap', { stage: overlapped + 1 }); return; }
      if (picked >= 0) {
        quiz.areas[picked] = [row, column];
        this.moving = null;
      } else {
        quiz.areas.push([row, column]);
      }
      this.changed(true, `#quiz-${index + 1} .maker-board`);
    };
    board.addEventListener('click', (event) => {
      const box = board.getBoundingClientRect();
      const column = Math.floor(((event.clientX - box.left) / box.width) * grid.columns);
      const row = Math.floor(((event.clientY - box.top) / box.height) * grid.rows);
      place(Math.min(grid.rows - 1, Math.max(0, row)), Math.min(grid.columns - 1, Math.max(0, column)));
    });
    board.addEventListener('keydown', (event) => {
      const steps = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
      if (steps[event.key]) {
        event.preventDefault();
        cursor = [Math.min(grid.rows - 1 - reach, Math.max(reach, cursor[0] + steps[event.key][0])),
          Math.min(grid.columns - 1 - reach, Math.max(reach, cursor[1] + steps[event.key][1]))];
        this.cursors.set(quiz, cursor);
        moveMark();
      } else if (event.key === 'Enter') {
        event.preventDefault();
        place(cursor[0], cursor[1]);
      } else if (event.key === 'Delete' || event.key === 'Backspace') {
        event.preventDefault();
        const hit = locked ? -1 : quiz.areas.findIndex(([row, column]) => Math.abs(row - cursor[0]) <= 2 && Math.abs(column - cursor[1]) <= 2);
        if (hit >= 0) { quiz.areas.splice(hit, 1); this.changed(true, `#quiz-${index + 1} .maker-board`); }
      }
    });
    const areas = element('ol', { class: 'maker-areas' }, quiz.areas.map(([row, column], area) => {
      const line = element('li', {}, [element('span', { i18n: ['make.area', { stage: area + 1, row, column }] })]);
      if (locked) return line;
      const remove = element('button', { type: 'button', class: 'link', i18n: ['make.remove'] });
      remove.addEventListener('click', () => { quiz.areas.splice(area, 1); this.changed(true); });
      const earlier = element('button', { type: 'button', class: 'link', i18n: ['make.earlier'] });
      earlier.disabled = area === 0;
      earlier.addEventListener('click', () => {
        [quiz.areas[area - 1], quiz.areas[area]] = [quiz.areas[area], quiz.areas[area - 1]];
        this.changed(true);
      });
      line.append(' ', earlier, ' ', remove);
      return line;
    }));
    const previews = element('div', { class: 'answer-row maker-previews' }, quiz.areas.map((_, area) => {
      const button = element('button', { type: 'button', i18n: ['make.preview', { stage: area + 1 }] });
      button.addEventListener('click', async () => {
        const url = await this.poster(index, area + 1);
        if (url) { image.src = url; image.dataset.stage = String(area + 1); }
      });
      return button;
    }));
    const play = element('button', { type: 'button', i18n: ['make.playPreview'] });
    const timing = element('p', { class: 'meta', role: 'status', 'aria-live': 'polite' });
    play.addEventListener('click', () => this.playPreview(index, image, timing, rule));
    if (quiz.areas.length) previews.append(play);
    const aliases = element('input', { id: `aliases-${index + 1}`, type: 'text', value: (quiz.aliases ?? []).join(', ') });
    aliases.disabled = locked;
    aliases.addEventListener('input', () => {
      const answers = aliases.value.split(',').map((answer) => answer.trim()).filter(Boolean);
      if (answers.length) quiz.aliases = answers; else delete quiz.aliases;
      this.changed();
    });
    const answersField = element('div', { class: 'field' }, [element('label', { for: aliases.id, i18n: ['make.answers'] }), aliases]);
    section.append(heading, howTo, note, board, areas, previews, timing);
    if (locked) {
      section.append(answersField);
      return section;
    }
    const upload = element('input', { id: `poster-file-${index + 1}`, type: 'file', accept: 'image/jpeg' });
    upload.addEventListener('change', () => this.upload(quiz, upload.files[0], note));
    const uploadField = element('div', { class: 'field' }, [
      element('label', { for: `poster-file-${index + 1}`, i18n: ['make.upload'] }), upload]);
    if (quiz.poster?.startsWith('upload-')) uploadField.append(element('p', { class: 'meta', i18n: ['make.uploaded'] }));
    const drop = element('button', { type: 'button', class: 'link', i18n: ['make.removeQuiz'] });
    drop.addEventListener('click', () => { this.document.quizzes.splice(index, 1); this.changed(true); });
    section.append(this.posterChoices(quiz), uploadField, answersField, drop);
    return section;
  }

  /// The movie's posters as the server offers them (its default first), shown once asked for and kept open across
  /// redraws; choosing one names it as the quiz's poster. A TMDB poster (a path) with no language has no text.
  posterChoices(quiz) {
    const list = element('div', { class: 'answer-row maker-choices' });
    const query = `movie=${encodeURIComponent(quiz.movie)}&language=${encode(this.document.language ?? 'en')}`;
    const show = async () => {
      this.choosing.add(quiz);
      const { posters } = await playerApi('GET', `/v1/movies/posters?${query}`);
      const current = quiz.poster ?? posters[0]?.poster;
      list.replaceChildren(...posters.map((choice, n) => {
        const button = element('button', {
          type: 'button', class: 'maker-choice', 'aria-pressed': String(choice.poster === current), 'data-i18n-attr': 'aria-label',
        });
        const { language } = choice;
        const said = language === 'ko' || language === 'en' ? { i18n: `filter.${language}` }
          : language ?? { i18n: choice.poster.startsWith('/') ? 'make.textless' : 'make.unknownLanguage' };
        setText(button, 'make.posterChoice', { n: n + 1, language: said });
        const image = element('img', { alt: '' });
        button.append(image, element('span', said.i18n ? { i18n: [said.i18n] } : { text: said }));
        this.blob(`/v1/movies/posters/${n + 1}?${query}`).then((url) => { if (url) image.src = url; });
        button.addEventListener('click', () => { quiz.poster = choice.poster; this.changed(true); });
        return button;
      }));
    };
    const open = element('button', { type: 'button', class: 'link', i18n: ['make.posters'] });
    open.addEventListener('click', () => show().catch((error) => setText(this.status, 'make.saveFailed', { message: error.message })));
    if (this.choosing.has(quiz)) show().catch(() => {});
    return element('div', {}, [open, list]);
  }
  /// The quiz's stages at the level's real timing, from the stage posters the server cuts for the draft: stage k
  /// shows (k - 1) stage durations after the start, and the whole poster when the time limit ends the quiz.
  async playPreview(index, image, timing, rule) {
    const count = this.document.quizzes[index].areas.length;
    const stages = await Promise.all(Array.from({ length: count }, (_, stage) => this.poster(index, stage + 1)));
    const whole = await this.poster(index, null);
    clearTimeout(this.previewTimer);
    const started = performance.now();
    const show = (stage) => {
      if (stage > count) {
        image.src = whole;
        delete image.dataset.stage;
        setText(timing, 'make.previewEnd', { seconds: this.draft.timeLimitSeconds });
        return;
      }
      image.src = stages[stage - 1];
      image.dataset.stage = String(stage);
      setText(timing, 'make.previewAt', { stage, count, seconds: (stage - 1) * rule.stageSeconds });
      const due = stage < count ? stage * rule.stageSeconds : this.draft.timeLimitSeconds;
      this.previewTimer = setTimeout(() => show(stage + 1), started + due * 1000 - performance.now());
    };
    show(1);
  }

  /// The maker's own JPEG as `quiz`'s poster: stored by the server (`POST /v1/posters`, its rules said beside the
  /// field), then named in the draft.
  async upload(quiz, file, note) {
    if (!file) return;
    try {
      const response = await fetch('/v1/posters', {
        method: 'POST', body: file, cache: 'no-store',
        headers: { 'Content-Type': 'image/jpeg', Authorization: `Bearer ${(await ensurePlayer()).token}` },
      });
      const answer = await response.json();
      if (!response.ok) throw new Error(answer.error?.message ?? `${response.status}`);
      quiz.poster = answer.poster;
      this.changed(true);
    } catch (error) {
      setText(note, 'make.uploadFailed', { message: error.message });
    }
  }

  /// Quiz `index`'s poster as the server cuts it for the draft (the whole poster, or stage `stage`), once saved.
  async poster(index, stage) {
    await this.saving;
    const quiz = this.document.quizzes[index];
    const key = `${quiz?.movie}:${quiz?.poster ?? ''}:${stage ?? 'whole'}:${stage ? JSON.stringify(quiz.areas.slice(0, stage)) : ''}`;
    return this.blob(`/v1/drafts/${encode(this.draft.id)}/quizzes/${index + 1}/poster${stage ? `?stage=${stage}` : ''}`, key);
  }

  /// An image of the server's as an object URL, asked for once per `key`; `quiet`, a failure says nothing.
  async blob(path, key = path, { quiet = false } = {}) {
    if (this.posterURLs.has(key)) return this.posterURLs.get(key);
    try {
      const url = URL.createObjectURL(await playerApi('GET', path, undefined, 'blob'));
      this.posterURLs.set(key, url);
      return url;
    } catch (error) {
      if (!quiet) setText(this.status, 'make.saveFailed', { message: error.message });
      return null;
    }
  }

  /// A change of shape is saved at once (the posters drawn next are cut from the saved draft), typing a moment later;
  /// local storage keeps it until then.
  changed(redraw = false, refocus) {
    clearTimeout(this.saveTimer);
    this.saveTimer = null;
    this.keepPending();
    setText(this.status, 'make.saving');
    if (redraw) {
      this.save();
      this.drawQuizzes();
      if (refocus) this.main.querySelector(refocus)?.focus();
    } else {
      this.saveTimer = setTimeout(() => this.save(), saveDelayMs);
    }
  }

  keepPending() {
    try {
      localStorage.setItem(pendingKey(this.draft.id),
        JSON.stringify({ document: this.document, base: this.draft.updatedAt, sent: this.sent }));
    } catch { /* no storage: the server's copy is all */ }
  }

  /// Saves the document as it is now, after any save under way.
  save() {
    clearTimeout(this.saveTimer);
    this.saveTimer = null;
    const sent = canonical(this.document);
    this.sent.push(sent);
    this.keepPending();
    this.saving = this.saving.then(async () => {
      try {
        const saved = await playerApi('PUT', `/v1/drafts/${encode(this.draft.id)}`, JSON.parse(sent));
        this.draft = saved;
        this.sent = this.sent.slice(this.sent.indexOf(sent) + 1);
        if (!this.sent.length && canonical(this.document) === sent) localStorage.removeItem(pendingKey(saved.id));
        else this.keepPending();
        if (!this.saveTimer) setText(this.status, 'make.saved');
        this.showProblem(saved.problem);
      } catch (error) {
        setText(this.status, 'make.saveFailed', { message: error.message });
      }
    });
    return this.saving;
  }

  /// Typing not yet saved is sent when the page is hidden or left.
  flushOnLeaving() {
    const flush = () => { if (this.saveTimer) this.save(); };
    addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', () => { if (document.hidden) flush(); });
    return true;
  }

  /// The first rule the draft breaks, beside what it names: a quiz's own problems under that quiz.
  showProblem(problem) {
    for (const note of this.main.querySelectorAll('.maker-quiz .problem')) note.textContent = '';
    this.problem.textContent = '';
    this.problem.classList.toggle('ready', !problem);
    // A picked-up area stays said until it is put down, whatever a save answers meanwhile.
    const moving = this.moving ? this.document.quizzes.indexOf(this.moving.quiz) : -1;
    const movingNote = moving >= 0 ? this.main.querySelector(`#quiz-${moving + 1} .problem`) : null;
    if (movingNote) setText(movingNote, 'make.moving', { stage: this.moving.area + 1 });
    if (!problem) { setText(this.problem, this.document.shareCode ? 'make.readyUpdate' : 'make.ready'); return; }
    const quiz = problem.path.match(/^\$\.quizzes\[(\d+)\]/);
    const near = quiz ? this.main.querySelector(`#quiz-${Number(quiz[1]) + 1} .problem`) : null;
    setText(near ?? this.problem, 'make.problem', { message: problem.message });
    // A place just refused is said where the maker looks, in view.
    near?.scrollIntoView({ block: 'nearest' });
  }

  async publish() {
    await this.save();
    try {
      const { shareCode } = await playerApi('POST', `/v1/drafts/${encode(this.draft.id)}/publish`);
      localStorage.removeItem(pendingKey(this.draft.id));
      this.showPublished(shareCode);
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) {
        const [path, ...rest] = error.message.split(': ');
        this.showProblem({ path, message: rest.join(': ') || error.message });
      } else if (error instanceof ApiError && error.status === 409 && this.document.shareCode) {
        // Played meanwhile: the quizzes go back as published, the rest stays.
        try {
          await this.keepPublished(this.document);
          await this.save();
        } catch { /* said below; the next Save tries again */ }
        this.render();
        setText(this.problem, 'make.conflict');
        this.problem.classList.remove('ready');
        this.problem.scrollIntoView({ block: 'nearest' });
      } else {
        setText(this.status, 'make.saveFailed', { message: error.message });
      }
    }
  }

  /// The package published: its link, to copy or play, and the next one.
  showPublished(shareCode) {
    history.replaceState(null, '', '/make');
    const line = element('a', { href: `/p/${shareCode}`, text: `${location.origin}/p/${shareCode}` });
    const status = element('p', { role: 'status' });
    const play = element('button', { type: 'button', i18n: ['make.playIt'] });
    play.addEventListener('click', () => location.assign(`/p/${shareCode}`));
    const another = element('button', { type: 'button', i18n: ['make.another'] });
    another.addEventListener('click', () => this.create().catch((error) => this.failed(error)));
    this.main.replaceChildren(
      element('h1', { text: this.document.title }),
      element('div', { id: 'published', class: 'code-form' }, [
        element('p', { class: 'maker-link' }, [element('span', { i18n: [this.document.shareCode ? 'make.updated' : 'make.published'] }), ' ', line]),
        element('div', { class: 'actions' }, [copyButton({ id: 'copy-link', label: 'make.copy' }, line, status), play, another]),
        status]),
      element('p', {}, [element('a', { href: '/make', i18n: ['make.mine'] })]));
    scrollTo(0, 0);
  }
}
