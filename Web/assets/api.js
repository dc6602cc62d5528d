// The documented /v1 API of the server that served this page, and the guest player kept in local storage.
// Nothing here talks to another origin: every path is relative to the page's own server.

import { t } from './i18n.js';

export class ApiError extends Error {
  constructor(status, code, message, retryAfter) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

const playerKey = 'uquiz.player';

/// The guest player made on this browser's first play: {id, name, token}, or null.
export function storedPlayer() {
  try {
    const player = JSON.parse(localStorage.getItem(playerKey) ?? 'null');
    return player && typeof player.token === 'string' ? player : null;
  } catch {
    return null;
  }
}

async function send(method, path, { body, token, as = 'json' } = {}) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store',
  });
  if (!response.ok) {
    let code = 'http', message = `${response.status}`;
    try {
      const error = (await response.json()).error;
      code = error.code;
      message = error.message;
    } catch { /* not the API's error shape: keep the status */ }
    throw new ApiError(response.status, code, message, Number(response.headers.get('Retry-After')) || undefined);
  }
  if (as === 'blob') return response.blob();
  return response.status === 204 ? null : response.json();
}

/// A request anyone may make.
export function publicApi(method, path, body) {
  return send(method, path, { body });
}

let makingPlayer = null;

/// The guest player, made now (named `name`, else "Guest" and four digits) if this browser has none. Callers at the
/// same moment (a play starting and a room being opened) share one making, so they act as the same player.
export async function ensurePlayer(name = `${t('guest')} ${String(Math.floor(1000 + Math.random() * 9000))}`) {
  const known = storedPlayer();
  if (known) return known;
  makingPlayer ??= send('POST', '/v1/players', { body: { name } }).then(keepPlayer)
    .finally(() => { makingPlayer = null; });
  return makingPlayer;
}

/// Makes `player` ({id, name, token}, as the server answers a new or linked player) this browser's.
export function keepPlayer({ id, name, token }) {
  const player = { id, name, token };
  localStorage.setItem(playerKey, JSON.stringify(player));
  return player;
}

/// Keeps the guest player's new name, as the server now has it.
export function rememberName(name) {
  const player = storedPlayer();
  if (player) localStorage.setItem(playerKey, JSON.stringify({ ...player, name }));
}

/// A request as the guest player. A token the server does not know (its database was replaced) is forgotten and a new
/// guest made, once.
export async function playerApi(method, path, body, as) {
  let player = await ensurePlayer();
  try {
    return await send(method, path, { body, token: player.token, as });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) throw error;
    localStorage.removeItem(playerKey);
    player = await ensurePlayer();
    return send(method, path, { body, token: player.token, as });
  }
}

/// As the guest player when there is one, else anonymously (the daily quiz and leaderboards answer both).
export async function optionalPlayerApi(method, path) {
  const player = storedPlayer();
  if (!player) return send(method, path);
  try {
    return await send(method, path, { token: player.token });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) throw error;
    return send(method, path);
  }
}

export const codePattern = /^[23456789ABCDEFGHJKMNPQRSTVWXYZ]{6}$/;
/// A live room's code: 4 of the same letters and digits.
export const roomCodePattern = /^[23456789ABCDEFGHJKMNPQRSTVWXYZ]{4}$/;
export const encode = encodeURIComponent;
