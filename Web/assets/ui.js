// What every page of the game draws with: elements whose texts follow the language, the poster's canvas, the dock of
// a play or a room, the copy, shortcut and "How to play" buttons. Loaded on every page; the play itself (play.js)
// only where one is.

import { setText } from './i18n.js';

function element(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'text') node.textContent = value;
    else if (name === 'i18n') setText(node, value[0], value[1]);
    else node.setAttribute(name, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function clearText(node) {
  delete node.dataset.i18n;
  delete node.dataset.i18nArgs;
  node.textContent = '';
}

/// The poster canvas: stage posters over black, each fading in over the ones before it. Stage k's poster holds the
/// areas of stages 1 to k, so drawing it over stage k-1's fades in only stage k's area. A play and a live room draw
/// with it; the canvas says the stage fully shown (`data-stage`) and the whole poster (`data-whole`) to tests.
export class PosterLayers {
  constructor(canvas) {
    this.canvas = canvas;
    this.context = canvas.getContext('2d');
    this.layers = [];
  }

  get isEmpty() {
    return this.layers.length === 0;
  }

  /// Forgets every poster: a black canvas for the next quiz.
  clear() {
    this.layers = [];
    this.canvas.dataset.stage = '0';
    delete this.canvas.dataset.whole;
    this.paintBlack();
  }

  paintBlack() {
    this.context.globalAlpha = 1;
    this.context.fillStyle = '#000';
    this.context.fillRect(0, 0, this.canvas.width, this.canvas.height);
  }

  /// Stage `stage`'s poster (`null`: the whole one) fading in over `fadeMs` from now; the first sets the canvas's size.
  add(bitmap, stage, fadeMs) {
    if (this.layers.length === 0 && (this.canvas.width !== bitmap.width || this.canvas.height !== bitmap.height)) {
      this.canvas.width = bitmap.width;
      this.canvas.height = bitmap.height;
    }
    this.layers.push({ bitmap, stage, start: performance.now(), fadeMs });
    cue('poster', stage);
  }

  /// Draws the frame at `now` (a `performance.now()` time); whether a fade is still running.
  draw(now) {
    let moving = false;
    this.paintBlack();
    let lastOpaque = -1;
    this.layers.forEach((layer, index) => {
      const alpha = Math.min(1, Math.max(0, (now - layer.start) / layer.fadeMs));
      if (alpha < 1) moving = true;
      else lastOpaque = index;
      this.context.globalAlpha = alpha;
      this.context.drawImage(layer.bitmap, 0, 0, this.canvas.width, this.canvas.height);
    });
    // Layers under an opaque one are hidden for good.
    if (lastOpaque > 0) this.layers.splice(0, lastOpaque);
    this.context.globalAlpha = 1;
    const opaque = this.layers.filter((layer) => (now - layer.start) >= layer.fadeMs);
    const shownStage = Math.max(0, ...opaque.map((layer) => layer.stage ?? 0));
    if (shownStage > Number(this.canvas.dataset.stage ?? 0)) this.canvas.dataset.stage = String(shownStage);
    if (opaque.some((layer) => layer.stage === null)) this.canvas.dataset.whole = 'true';
    return moving;
  }
}

/// A button with a keyboard shortcut, shown beside its text where there is a keyboard to use it (not on a phone).
function shortcutButton(id, key, shortcut) {
  return element('button', { type: 'button', id, 'aria-keyshortcuts': shortcut }, [
    element('span', { i18n: [key] }), ' ', element('kbd', { class: 'shortcut', text: shortcut }),
  ]);
}

/// The way from the end of a play to making a quiz of one's own.
const makeYourOwn = () => element('a', { href: '/make', id: 'make-own', i18n: ['end.make'] });

/// A button copying `line`'s text, saying in `status` that it did, or selecting the line for the person to copy when
/// the browser refuses.
function copyButton({ id, label }, line, status) {
  const button = element('button', { type: 'button', id, i18n: [label] });
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(line.textContent);
      setText(status, 'end.copied');
    } catch {
      getSelection().selectAllChildren(line);
      setText(status, 'end.copyFailed');
    }
  });
  return button;
}

/// Whole seconds left in `node` (text `key` with `args` and the seconds), written only when the number changes.
function showSeconds(node, key, leftMs, args = {}) {
  const seconds = Math.max(0, Math.ceil(leftMs / 1000));
  if (node.dataset.seconds === String(seconds) && node.dataset.i18n === key) return;
  node.dataset.seconds = String(seconds);
  setText(node, key, { ...args, seconds });
  cue(key, seconds);
}

/// The dock of a play or a room, holding `children` (what the game says, then the answer form): fixed at the bottom
/// of the screen, so the answer box stays at hand, with the page keeping room for it below its end (`with-dock`,
/// and `--dock` its height as it changes) so that it covers nothing, and lifted above a phone's keyboard.
function dock(main, children) {
  const node = element('div', { id: 'dock', class: 'dock' }, children);
  main.classList.add('with-dock');
  const root = document.documentElement;
  // A hidden dock keeps its last height: the poster keeps its size, so what was just scrolled into view stays there.
  new ResizeObserver(() => {
    if (node.offsetHeight > 0) root.style.setProperty('--dock', `${node.offsetHeight}px`);
  }).observe(node);
  keepAboveKeyboard(node);
  return node;
}

/// Keeps the dock in sight above a phone's on-screen keyboard: the visual viewport shrinks when the keyboard
/// opens while the layout viewport (where a fixed bar sits) may not, so the bar is lifted by the difference.
function keepAboveKeyboard(bar) {
  const viewport = window.visualViewport;
  if (!viewport) return;
  const place = () => {
    const hidden = Math.max(0, window.innerHeight - viewport.height - viewport.offsetTop);
    bar.style.transform = hidden > 0 ? `translateY(${-hidden}px)` : '';
  };
  viewport.addEventListener('resize', place);
  viewport.addEventListener('scroll', place);
  place();
}

/// Sound, off until the toggle's click (which makes the audio context) loads sound.js.
let sound;
const cue = (...args) => sound?.cue(...args);
function soundToggle() {
  const button = element('button', { type: 'button', class: 'sound-toggle', 'aria-pressed': 'false', i18n: ['sound.off'] });
  const load = (context) => import('./sound.js').then((module) => (sound = module).take(button, context));
  if (localStorage.getItem('uquiz.sound') === 'on') load();
  else button.addEventListener('click', () => load(new AudioContext()), { once: true });
  return button;
}

/// "How to play" (howto.js, loaded on first need): the "?" of every play screen, and the dialog before the first play
/// this browser starts (called before the play is made: reading costs no time on the server's clock), resolving once
/// closed. One not loaded or not shown is offered again next time, the play going on.
const howTo = () => import('./howto.js');
function howToButton() {
  const button = element('button', {
    type: 'button', class: 'howto-open', 'aria-haspopup': 'dialog', 'data-i18n-attr': 'aria-label', i18n: ['howto.open'],
    text: '?',
  });
  button.addEventListener('click', () => howTo().then((module) => module.showHowTo(button)));
  return button;
}
async function howToFirstTime() {
  if (localStorage.getItem('uquiz.howto.seen')) return;
  const shown = await howTo().then((module) => module.showHowTo()).then(() => true, () => false);
  if (shown) localStorage.setItem('uquiz.howto.seen', '1');
}

export {
  clearText, copyButton, cue, dock, element, howToButton, howToFirstTime, makeYourOwn, shortcutButton, showSeconds,
  soundToggle,
};
