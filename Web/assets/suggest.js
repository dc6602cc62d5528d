// Movie titles suggested while a guess is typed, the same list whichever quiz runs (the server's title index, which
// gives nothing away): picked with a tap, or the arrow keys and Enter, a title is sent as the guess, as if typed.
// A list under the answer box, above it on the screen (the box sits at the bottom, over a phone's keyboard).

import { playerApi, encode } from './api.js';
import { currentLanguage } from './i18n.js';
import { element } from './ui.js';

/// How long typing pauses before the server is asked, and how long before a text TMDB was being asked for is asked
/// again (once).
const pauseMs = 120;
const againMs = 700;

/// Suggestions for `input`, inside `row` (the answer row, which the list is placed over); `pick(title)` sends the guess.
export function suggestTitles(input, row, pick) {
  const list = element('ul', { id: `${input.id}-titles`, class: 'titles', role: 'listbox', hidden: '' });
  row.append(list);
  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-controls', list.id);
  input.setAttribute('aria-expanded', 'false');
  let timer = null;
  let asked = 0;
  let active = -1;
  let off = false;

  const options = () => [...list.children];
  const hide = () => {
    list.hidden = true;
    list.replaceChildren();
    active = -1;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
  };
  const mark = (index) => {
    active = index;
    options().forEach((option, i) => option.setAttribute('aria-selected', String(i === index)));
    if (index >= 0) {
      input.setAttribute('aria-activedescendant', options()[index].id);
      options()[index].scrollIntoView({ block: 'nearest' });
    } else {
      input.removeAttribute('aria-activedescendant');
    }
  };
  const choose = (title) => {
    input.value = title;
    hide();
    pick(title);
  };
  const show = (titles) => {
    if (titles.length === 0) return hide();
    list.replaceChildren(...titles.map((line, index) => {
      const option = element('li', { id: `${list.id}-${index}`, role: 'option', 'aria-selected': 'false' }, [
        element('span', { class: 'title', text: line.title }),
      ]);
      if (line.year) option.append(' ', element('span', { class: 'year', text: `(${line.year})` }));
      if (line.originalTitle) option.append(' ', element('span', { class: 'original', text: line.originalTitle }));
      option.dataset.title = line.title;
      // Pressed, the box keeps the focus (and a phone its keyboard); released, the title is sent.
      option.addEventListener('pointerdown', (event) => event.preventDefault());
      option.addEventListener('click', () => choose(line.title));
      return option;
    }));
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
    mark(-1);
  };
  const ask = async (text, again) => {
    const number = ++asked;
    let answer;
    try {
      answer = await playerApi('GET', `/v1/titles?q=${encode(text)}&language=${currentLanguage()}`);
    } catch {
      return; // No list is no loss: the box still takes what is typed.
    }
    if (number !== asked || input.value.trim() !== text) return;
    if (!answer.available) { off = true; return hide(); }
    show(answer.titles);
    if (answer.pending && !again) timer = setTimeout(() => ask(text, true), againMs);
  };

  input.addEventListener('input', () => {
    clearTimeout(timer);
    const text = input.value.trim();
    if (off || [...text.replace(/[\s\p{P}\p{S}]/gu, '')].length < 2) { asked++; return hide(); }
    timer = setTimeout(() => ask(text, false), pauseMs);
  });
  input.addEventListener('keydown', (event) => {
    if (list.hidden) return;
    const count = options().length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      mark(active < 0 ? (step > 0 ? 0 : count - 1) : (active + step + count) % count);
    } else if (event.key === 'Enter' && active >= 0) {
      event.preventDefault();
      choose(options()[active].dataset.title);
    } else if (event.key === 'Escape') {
      hide();
    }
  });
  input.addEventListener('blur', hide);
  return { hide: () => { clearTimeout(timer); asked++; hide(); } };
}
