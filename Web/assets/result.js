// A finished play's result, `/s/{id}`: the link a player shares after a package (the daily quiz's stays `/d`). It
// shows what the share line shows (the package, the score, a square a quiz) and a link to play the package; never a
// quiz's title or poster. The server wrote the page's Open Graph tags for link previews; this is for people. Loaded
// only on that path; everything the API says is shown as text.

import { encode, publicApi } from './api.js';
import { addTexts } from './i18n.js';
import { element, makeYourOwn } from './ui.js';

addTexts({
  en: {
    'result.loading': 'Loading the result…',
    'result.heading': 'A UQuiz result',
    'result.about': '{maker} \u00b7 {level}',
    'result.score': '{solved} of {count} solved \u00b7 {score} points',
    'result.play': 'Play this package',
    'result.notFound': 'No finished play has this link here.',
  },
  ko: {
    'result.loading': '결과를 불러오는 중…',
    'result.heading': 'UQuiz 결과',
    'result.about': '{maker} \u00b7 {level}',
    'result.score': '{count}문제 중 {solved}문제 정답 \u00b7 {score}점',
    'result.play': '이 패키지 풀기',
    'result.notFound': '이 링크의 끝난 플레이가 없습니다.',
  },
});

export async function showResult(main, id) {
  main.replaceChildren(element('p', { i18n: ['result.loading'] }));
  let result;
  try {
    result = await publicApi('GET', `/v1/results/${encode(id)}`);
  } catch (error) {
    main.replaceChildren(
      element('p', {
        id: 'problem', class: 'problem', role: 'alert',
        i18n: error.status === 404 ? ['result.notFound'] : ['error.generic', { message: error.message }],
      }),
      element('p', {}, [element('a', { href: '/', i18n: ['error.home'] })]));
    return;
  }
  const play = element('a', { href: `/p/${encode(result.shareCode)}`, id: 'play-package', class: 'button', i18n: ['result.play'] });
  main.replaceChildren(element('section', { id: 'result', class: 'intro' }, [
    element('p', { class: 'note', i18n: ['result.heading'] }),
    element('h1', { id: 'result-title', text: result.packageTitle }),
    element('p', { class: 'meta', i18n: ['result.about', { maker: result.maker, level: { i18n: `level.${result.level}` } }] }),
    element('p', { id: 'result-score', i18n: ['result.score', { solved: result.solved, count: result.quizCount, score: result.score }] }),
    element('output', { id: 'result-line', class: 'share-line', text: result.shareLine }),
    element('div', { class: 'actions' }, [play, makeYourOwn()]),
  ]));
  play.focus();
}
