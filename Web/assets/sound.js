// Sound while solving, off until the person turns it on: a quiet loop while a quiz runs and short cues for a stage
// opening, a wrong guess, a right guess, the last seconds and the end, all synthesized with the Web Audio API
// (oscillators through gain envelopes: no audio files). ui.js draws the toggle and loads this module only once sound
// is on, so a page with sound off loads none of it. The audio context is made only in a gesture: the toggle's click,
// or, on a page that remembers sound on, the person's next key or tap there. It is suspended while the tab is hidden.
//
// The cues follow what the page shows on the server's clock (ui.js, play.js and room.js call `cue`): a stage as its
// poster starts fading in, the last seconds as the time bar counts them, a guess's verdict as it arrives, the end as it
// shows. Each cue scheduled is noted in the page's `data-cues` (its name and start on the audio clock) for tests.

import { addTexts, setText } from './i18n.js';
import { element } from './ui.js';

addTexts({
  en: { 'sound.on': 'Sound: on', 'sound.volume': 'Volume' },
  ko: { 'sound.on': '소리: 켬', 'sound.volume': '음량' },
});

const onKey = 'uquiz.sound';
const volumeKey = 'uquiz.sound.volume';
/// The volume at first, out of 100.
const defaultVolume = 60;
/// The master gain at volume 100; below, it follows the volume's square, closer to how loudness is heard.
const loudest = 0.6;
/// The loop: an A minor arpeggio in eighths (semitones from A3) over a bass note each half bar, quiet under the cues.
const loopNotes = [0, 7, 12, 7, 3, 7, 10, 7];
const loopBass = [-12, -9];
const beatSeconds = 0.3;
const loopGain = 0.22;
/// How far ahead on the audio clock the loop's notes are scheduled, and how often the scheduler looks.
const lookaheadSeconds = 0.5;
const scheduleEveryMs = 200;
/// The last seconds of a quiz that tick.
const tickFrom = 5;
/// The judgements of a guess that was not it (an empty guess says nothing).
const wrongJudgements = new Set(['wrong', 'wrong_number', 'another_movie']);
/// How many cues `data-cues` keeps.
const cueLogLength = 20;
/// Events that may carry a gesture, waited for to make (or resume) the context on a page that remembers sound on.
const gestures = ['pointerdown', 'pointerup', 'keydown'];

/// Each cue's notes: [semitones from A4, start (s), length (s), peak gain, oscillator type].
const cueNotes = {
  wrong: [[-9, 0, 0.15, 0.18, 'square'], [-15, 0.13, 0.28, 0.18, 'square']],
  right: [[3, 0, 0.12, 0.5, 'triangle'], [7, 0.09, 0.12, 0.5, 'triangle'], [10, 0.18, 0.12, 0.5, 'triangle'],
    [15, 0.27, 0.4, 0.5, 'triangle']],
  end: [[3, 0, 0.15, 0.5, 'triangle'], [7, 0.15, 0.15, 0.5, 'triangle'], [10, 0.3, 0.15, 0.5, 'triangle'],
    [15, 0.45, 0.9, 0.45, 'triangle'], [10, 0.45, 0.9, 0.3, 'triangle'], [7, 0.45, 0.9, 0.3, 'triangle']],
};
/// Stage k's chime, a step higher each stage.
const stageNotes = (stage) => [[2 * stage - 5, 0, 0.3, 0.4, 'sine'], [2 * stage + 2, 0.06, 0.45, 0.25, 'sine']];
/// A tick of the last seconds, higher at the last one.
const tickNotes = (seconds) => [[seconds === 1 ? 19 : 12, 0, 0.07, 0.3, 'triangle']];

const hz = (semitones) => 440 * 2 ** (semitones / 12);
const hidden = () => document.visibilityState === 'hidden';

function storedVolume() {
  const stored = localStorage.getItem(volumeKey);
  const value = Number(stored);
  return stored !== null && value >= 0 && value <= 100 ? value : defaultVolume;
}

const gainOf = (volume) => loudest * (volume / 100) ** 2;

let on = localStorage.getItem(onKey) === 'on';
let volume = storedVolume();
let context = null;
let master = null;
let loopBus = null;
let toggle = null;
let volumeRow = null;
let loopTimer = null;
let nextBeat = 0;
let beat = 0;
/// When the last cue scheduled ends, on the audio clock: the end's fanfare waits for it.
let cuesEnd = 0;

/// Takes over the toggle ui.js drew: from now on it turns sound on and off, with the volume under it while on.
/// `made` is the audio context its first click made (sound is turned on now); without it, sound was remembered on,
/// and the context is made at the person's next key or tap on the page.
export function take(button, made) {
  toggle = button;
  volumeRow = volumeControl();
  toggle.parentNode?.after(volumeRow);
  toggle.addEventListener('click', () => (on ? turnOff() : turnOn()));
  document.addEventListener('visibilitychange', followVisibility);
  if (made) {
    turnOn(made);
    return;
  }
  show();
  if (on) for (const type of gestures) document.addEventListener(type, wake, true);
}

/// What the page shows, as it shows it: 'poster' (stage `value`'s poster starts fading in; null, the whole poster:
/// the quiz is over), 'room.timeLeft' (the time bar's whole seconds left, `value`, written as they change; the
/// countdown before a quiz, 'play.getReady', likewise), a guess's judgement as the server sent it ('accepted',
/// 'wrong', ...), and 'end' (a play's result or a room's podium).
export function cue(name, value) {
  if (name === 'poster') {
    if (value === null) stopLoop();
    else play(`stage${value}`, stageNotes(value));
  } else if (name === 'room.timeLeft') {
    if (value > 0) startLoop();
    else stopLoop();
    if (value > 0 && value <= tickFrom) play(`tick${value}`, tickNotes(value));
  } else if (name === 'play.getReady') {
    stopLoop();
  } else if (name === 'accepted') {
    play('right', cueNotes.right);
  } else if (wrongJudgements.has(name)) {
    play('wrong', cueNotes.wrong);
  } else if (name === 'end') {
    stopLoop();
    play('end', cueNotes.end, { afterCues: true });
  }
}

// MARK: On and off

/// In the toggle's click, a gesture: sound on, the context made (by ui.js for the first click) or resumed.
function turnOn(made) {
  on = true;
  localStorage.setItem(onKey, 'on');
  if (made) start(made);
  else if (!context) start(new AudioContext());
  else context.resume();
  show();
}

function turnOff() {
  on = false;
  localStorage.setItem(onKey, 'off');
  stopLoop();
  context?.suspend();
  show();
}

function show() {
  setText(toggle, on ? 'sound.on' : 'sound.off');
  toggle.setAttribute('aria-pressed', String(on));
  volumeRow.style.display = on ? 'flex' : 'none';
}

/// A key or tap on a page that remembers sound on: the context is made, or resumed, once the browser counts it as a
/// gesture (a touch's pointerdown is not one; its pointerup is).
function wake() {
  if (!on || hidden() || (navigator.userActivation && !navigator.userActivation.isActive)) return;
  if (!context) start(new AudioContext());
  else if (context.state === 'suspended') context.resume();
}

function stopWaking() {
  for (const type of gestures) document.removeEventListener(type, wake, true);
}

function start(made) {
  context = made;
  master = context.createGain();
  master.gain.value = gainOf(volume);
  master.connect(context.destination);
  loopBus = context.createGain();
  loopBus.gain.value = loopGain;
  loopBus.connect(master);
  context.addEventListener('statechange', () => {
    if (context.state === 'running') stopWaking();
  });
  if (context.state === 'running') stopWaking();
  if (hidden()) context.suspend();
}

/// Silent while the tab is hidden: the context is suspended, and resumed when the tab shows again with sound on.
function followVisibility() {
  if (!context) return;
  if (hidden()) context.suspend();
  else if (on) context.resume();
}

/// The volume, a labelled range under the toggle's row, remembered in this browser.
function volumeControl() {
  const range = element('input', {
    type: 'range', id: 'sound-volume', min: '0', max: '100', step: '5', value: String(volume),
  });
  range.style.flex = '1';
  range.addEventListener('input', () => {
    volume = Number(range.value);
    localStorage.setItem(volumeKey, String(volume));
    // Glided to, so that dragging it does not click.
    if (master) master.gain.setTargetAtTime(gainOf(volume), context.currentTime, 0.02);
  });
  const row = element('label', {}, [element('span', { i18n: ['sound.volume'] }), range]);
  Object.assign(row.style, { display: 'none', gap: '.5rem', alignItems: 'center', marginTop: '.45rem' });
  return row;
}

// MARK: Notes

const playing = () => on && context?.state === 'running' && !hidden();

/// One note of `frequency` Hz from `at` (audio clock) for `length` s, its gain rising to `peak` and dying away.
function note(output, frequency, at, length, peak, type) {
  const oscillator = context.createOscillator();
  const envelope = context.createGain();
  oscillator.type = type;
  oscillator.frequency.value = frequency;
  envelope.gain.setValueAtTime(0, at);
  envelope.gain.linearRampToValueAtTime(peak, at + 0.01);
  envelope.gain.exponentialRampToValueAtTime(0.001, at + length);
  oscillator.connect(envelope).connect(output);
  oscillator.addEventListener('ended', () => envelope.disconnect());
  oscillator.start(at);
  oscillator.stop(at + length + 0.05);
}

/// Schedules a cue's notes now (or, `afterCues`, once the cues already scheduled have ended) and notes it.
function play(name, notes, { afterCues = false } = {}) {
  if (!playing()) return;
  const start = Math.max(context.currentTime + 0.01, afterCues ? cuesEnd : 0);
  for (const [semitones, offset, length, peak, type] of notes) {
    note(master, hz(semitones), start + offset, length, peak, type);
  }
  cuesEnd = Math.max(cuesEnd, start + Math.max(...notes.map(([, offset, length]) => offset + length)));
  const root = document.documentElement;
  const log = (root.dataset.cues ?? '').split(' ').filter(Boolean);
  log.push(`${name}@${start}`);
  root.dataset.cues = log.slice(-cueLogLength).join(' ');
}

// MARK: The loop

function startLoop() {
  if (loopTimer !== null || !playing()) return;
  nextBeat = context.currentTime + 0.05;
  beat = 0;
  scheduleLoop();
  loopTimer = setInterval(scheduleLoop, scheduleEveryMs);
}

function stopLoop() {
  clearInterval(loopTimer);
  loopTimer = null;
}

/// The loop's notes due within the lookahead. While the context is suspended its clock stands still, so nothing
/// piles up; a timer late for another reason skips the beats it missed rather than playing them at once.
function scheduleLoop() {
  if (!playing()) return;
  nextBeat = Math.max(nextBeat, context.currentTime);
  while (nextBeat < context.currentTime + lookaheadSeconds) {
    const step = beat % loopNotes.length;
    note(loopBus, hz(loopNotes[step] - 12), nextBeat, beatSeconds * 0.9, 0.3, 'triangle');
    if (step % 4 === 0) note(loopBus, hz(loopBass[step / 4] - 12), nextBeat, beatSeconds * 3.8, 0.5, 'sine');
    nextBeat += beatSeconds;
    beat += 1;
  }
}
