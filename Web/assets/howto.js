// "How to play": the game's rules in six short sections, in a modal dialog. ui.js loads this module on first need: the
// first time this browser starts a play (before the play is made) and when a play screen's "?" is pressed.
//
// What it says is what the server does: the stages and the time limit are PosterGrid's `LevelRules.standard`, the
// points QuizCore's `Scoring`, the hint its `Hint.firstHint`, a guess is judged by `AnswerJudge` (`TitleNormalizer`),
// and a play ranks as the stores' `insertServerPlay` and `UnrankedReason` say.

import { addTexts } from './i18n.js';
import { element } from './ui.js';

addTexts({
  en: {
    'howto.reveal.title': 'The poster',
    'howto.reveal': 'A black poster shows one area at a time: a new one every 2 s (3 s at expert), up to 5 areas at beginner, 4 at intermediate, 3 at expert. A quiz lasts 20 s on the server\u2019s clock, which never pauses.',
    'howto.guess.title': 'Your guess',
    'howto.guess': 'Type the title and press Enter, or pick a suggested title. The server judges it: case, accents and punctuation do not matter, the original title and other accepted names count too, and a wrong guess costs nothing.',
    'howto.points.title': 'Points',
    'howto.points': 'A right answer scores 100, plus 20 for each area still hidden and up to 100 for the time left. A quiz skipped or out of time scores 0.',
    'howto.hint.title': 'Hint',
    'howto.hint': 'The hint shows the title\u2019s first letters (T__ S____ 2), or a Korean title\u2019s initial consonants (\u3131\u3145\u314a), and halves the quiz\u2019s points.',
    'howto.skip.title': 'Skip',
    'howto.skip': 'Skipping gives the quiz up for 0 points and shows its answer. In a live room only the host skips, for everyone.',
    'howto.rank.title': 'Ranking',
    'howto.rank': 'Only your first play of a package ranks on its leaderboard, and not if you made the package or saw one of its answers before (in a play, a daily quiz or a live room). The daily quiz counts for your streak instead.',
    'howto.close': 'Close',
  },
  ko: {
    'howto.reveal.title': '포스터',
    'howto.reveal': '검은 포스터가 한 곳씩 드러납니다. 2초마다(고급은 3초) 새 영역이 보이며, 초급은 최대 5곳, 중급은 4곳, 고급은 3곳입니다. 퀴즈 하나는 서버의 시계로 20초이며, 시계는 멈추지 않습니다.',
    'howto.guess.title': '정답 입력',
    'howto.guess': '제목을 입력하고 Enter를 누르거나 추천 제목을 고르세요. 판정은 서버가 합니다. 대소문자, 악센트, 문장 부호는 상관없고 원제와 다른 인정된 이름도 정답이며, 틀려도 감점은 없습니다.',
    'howto.points.title': '점수',
    'howto.points': '정답은 100점에, 아직 가려진 영역마다 20점과 남은 시간에 따라 최대 100점을 더합니다. 건너뛰거나 시간이 다 된 퀴즈는 0점입니다.',
    'howto.hint.title': '힌트',
    'howto.hint': '힌트는 제목의 첫 글자(T__ S____ 2)나 한국어 제목의 초성(\u3131\u3145\u314a)을 보여 주며, 그 퀴즈의 점수가 절반이 됩니다.',
    'howto.skip.title': '건너뛰기',
    'howto.skip': '건너뛰면 0점이 되고 정답이 공개됩니다. 실시간 방에서는 방장만 모두의 퀴즈를 건너뛸 수 있습니다.',
    'howto.rank.title': '순위',
    'howto.rank': '패키지의 순위표에는 처음 푼 플레이만 오르며, 직접 만든 패키지이거나 앞서 플레이, 오늘의 퀴즈, 실시간 방에서 정답을 본 적이 있으면 오르지 않습니다. 오늘의 퀴즈는 순위 대신 연속 기록에 들어갑니다.',
    'howto.close': '닫기',
  },
});

const sections = ['reveal', 'guess', 'points', 'hint', 'skip', 'rank'];

/// The dialog, made on first use and kept in the page (its texts follow the language switch like the rest).
let dialog = null;
/// Resolves when the open dialog closes.
let closed = null;

function build() {
  const close = element('button', { type: 'button', id: 'howto-close', class: 'primary', i18n: ['howto.close'] });
  const node = element('dialog', { id: 'howto', class: 'howto', 'aria-labelledby': 'howto-title' }, [
    element('h2', { id: 'howto-title', i18n: ['howto.open'] }),
    ...sections.map((name) => element('section', { class: 'howto-part', 'data-part': name }, [
      element('h3', { i18n: [`howto.${name}.title`] }), element('p', { i18n: [`howto.${name}`] }),
    ])),
    element('div', { class: 'actions' }, [close]),
  ]);
  close.addEventListener('click', () => node.close());
  document.body.append(node);
  return node;
}

/// Opens "How to play" as a modal dialog (Escape or Close closes it) and resolves once it is closed, with focus back
/// on `opener` (what had it before, when the page still shows it).
export function showHowTo(opener = document.activeElement) {
  dialog ??= build();
  if (dialog.open) return closed;
  closed = new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      if (opener?.isConnected && opener !== document.body) opener.focus();
      resolve();
    }, { once: true });
  });
  dialog.showModal();
  // The Close button has focus, so Enter or a tap there closes it; the text is read from the top.
  dialog.querySelector('#howto-close').focus({ preventScroll: true });
  dialog.scrollTop = 0;
  return closed;
}
