// Reporting a package to the server's moderators, from its page: loaded only when someone opens "Report".

import { ApiError, encode, ensurePlayer, playerApi } from './api.js';
import { addTexts, setText } from './i18n.js';
import { element } from './ui.js';

const reasons = ['offensive', 'spam', 'wrong_answer', 'copyright', 'other'];

addTexts({
  en: {
    'report.reason': 'What is wrong with it?',
    'report.offensive': 'Offensive words or images',
    'report.spam': 'Spam or gibberish',
    'report.wrong_answer': 'A wrong answer or poster',
    'report.copyright': 'Someone else’s work',
    'report.other': 'Something else',
    'report.text': 'Anything to add (optional)',
    'report.send': 'Send the report',
    'report.sent': 'Thank you: the moderators will look at it.',
    'report.hidden': 'Thank you: enough players reported it, so it is hidden until the moderators look.',
    'report.again': 'You reported this package already.',
    'report.failed': 'The report was not sent: {message}',
  },
  ko: {
    'report.reason': '무엇이 문제인가요?',
    'report.offensive': '불쾌한 말이나 그림',
    'report.spam': '스팸이나 의미 없는 내용',
    'report.wrong_answer': '틀린 정답이나 포스터',
    'report.copyright': '다른 사람의 작품',
    'report.other': '그 밖의 문제',
    'report.text': '덧붙일 말 (선택)',
    'report.send': '신고 보내기',
    'report.sent': '고맙습니다. 운영자가 살펴보겠습니다.',
    'report.hidden': '고맙습니다. 신고가 충분히 모여 운영자가 볼 때까지 숨겨졌습니다.',
    'report.again': '이미 이 패키지를 신고했습니다.',
    'report.failed': '신고를 보내지 못했습니다: {message}',
  },
});

/// The report form for package `code`, filling `into` (the open "Report" section).
export function reportForm(into, code) {
  const reason = element('select', { id: 'report-reason', name: 'reason' },
    reasons.map((value) => element('option', { value, i18n: [`report.${value}`] })));
  const text = element('textarea', { id: 'report-text', name: 'text', maxlength: '500', rows: '3' });
  const send = element('button', { type: 'submit', i18n: ['report.send'] });
  const outcome = element('p', { id: 'report-outcome', role: 'status' });
  const form = element('form', { id: 'report-form' }, [
    element('label', { for: 'report-reason', i18n: ['report.reason'] }), reason,
    element('label', { for: 'report-text', i18n: ['report.text'] }), text,
    send, outcome,
  ]);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    send.disabled = true;
    try {
      await ensurePlayer();
      const body = { reason: reason.value };
      if (text.value.trim()) body.text = text.value;
      const filed = await playerApi('POST', `/v1/packages/${encode(code)}/reports`, body);
      setText(outcome, filed.hidden ? 'report.hidden' : 'report.sent');
      reason.disabled = true;
      text.disabled = true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        setText(outcome, 'report.again');
      } else {
        setText(outcome, 'report.failed', { message: error.message });
        send.disabled = false;
      }
    }
  });
  into.append(form);
}
