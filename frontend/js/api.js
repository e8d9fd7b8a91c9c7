// The HTTP API (docs/API.md) and what this browser remembers of its games.

const TIMEOUT_MS = 10000;

// request sends one API request and resolves to {status, body, etag, date,
// retryAfterMs}; a network failure or timeout resolves with status 0.
export async function request(method, path, { token, body, etag } = {}) {
  const headers = { Accept: 'application/json' };
  if (token) headers.Authorization = 'Bearer ' + token;
  if (etag) headers['If-None-Match'] = etag;
  const text = body === undefined ? '' : padded(JSON.stringify(body));
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET') {
    const hash = await bodyHash(text);
    if (hash) headers['x-amz-content-sha256'] = hash;
  }
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), TIMEOUT_MS);
  try {
    const res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : text,
      cache: 'no-store',
      signal: ctrl.signal,
    });
    let data = null;
    if (res.status !== 304 && res.status !== 204) {
      const text = await res.text();
      if (text) {
        try {
          data = JSON.parse(text);
        } catch {
          data = null;
        }
      }
    }
    const hint = Number(res.headers.get('X-Poll-After-Ms'));
    const after = Number(res.headers.get('Retry-After'));
    return {
      status: res.status, body: data, etag: res.headers.get('ETag'), date: res.headers.get('Date'),
      pollAfterMs: hint > 0 ? hint : null, retryAfterMs: after >= 0 && res.headers.get('Retry-After') ? after * 1000 : null,
    };
  } catch {
    return { status: 0, body: null };
  } finally {
    clearTimeout(timer);
  }
}

// PAD_BLOCK is the block every request body is padded to. Through TLS,
// anyone on the table's Wi-Fi sees how long each request is, and a night
// tap's bare body would tell a "sleep" from a shot or a check, and one seat
// from another (docs/API.md, "Padding"). Any tap, vote or nomination fits in
// one block.
export const PAD_BLOCK = 128;

// padded is a JSON text followed by spaces, which JSON skips, up to the next
// multiple of PAD_BLOCK bytes of UTF-8.
export function padded(text) {
  const n = new TextEncoder().encode(text).length;
  return text + ' '.repeat((PAD_BLOCK - (n % PAD_BLOCK)) % PAD_BLOCK);
}

// bodyHash is the hex SHA-256 of a request's body. Deployed, CloudFront signs
// each request to the functions with it and Lambda checks it (docs/API.md);
// the browser has the digest only on a secure page (https, or localhost),
// which the deployed site always is. Elsewhere (make run on the LAN) it is
// null, and the local server needs none.
export async function bodyHash(text) {
  if (!globalThis.crypto || !crypto.subtle) return null;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (x) => x.toString(16).padStart(2, '0')).join('');
}

const enc = encodeURIComponent;

export const createGame = (req) => request('POST', '/api/games', { body: req });
export const getView = (code, token, etag) => {
  if (early && early.code === code && !token && !etag) {
    const res = early.res;
    early = null;
    return res;
  }
  return request('GET', `/api/games/${enc(code)}`, { token, etag });
};

// early is a join link's first look at its game, started as the page starts
// (readEarly), beside the loading of its language rather than after it; the
// join page's first getView without a token takes it, once.
let early = null;
export function readEarly(code) {
  early = { code, res: request('GET', `/api/games/${enc(code)}`) };
}
export const postAction = (code, token, action) => request('POST', `/api/games/${enc(code)}/actions`, { token, body: action });
export const playAgain = (code, token) => request('POST', `/api/games/${enc(code)}/next`, { token });
export const getProtocol = (code, token) => request('GET', `/api/games/${enc(code)}/protocol`, { token });
// qrUrl is one of a game's links as a QR code (docs/API.md): the join link,
// or with link 'screen' the public shared screen.
export const qrUrl = (code, link) => `/api/games/${enc(code)}/qr.svg` + (link ? `?link=${enc(link)}` : '');

// hostQr resolves to the host's control link as a QR picture (a data: address,
// since an <img> cannot send the token), or null when the server refused.
export const hostQr = (code, token) => secretQr(qrUrl(code, 'host'), token);

// secretQr fetches a QR picture that holds a secret with the token that may
// see it, as a data: address, or null when the server refused.
async function secretQr(url, token) {
  try {
    const res = await fetch(url, { headers: { Authorization: 'Bearer ' + token }, cache: 'no-store' });
    if (!res.ok) return null;
    return 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(await res.text());
  } catch {
    return null;
  }
}

// A club's evening (docs/API.md, "Evenings"): made by its organiser, joined
// once by each phone, read by everyone (the organiser's token, a player's, or
// none for the TV).
export const createEvening = (req) => request('POST', '/api/evenings', { body: req });
export const getEvening = (code, token, etag) => request('GET', `/api/evenings/${enc(code)}`, { token, etag });
export const eveningQr = (code) => `/api/evenings/${enc(code)}/qr.svg`;

// refereeQr resolves to table's referee link as a QR picture (a data:
// address, since an <img> cannot send the organiser's token), or null when
// the server refused.
export const refereeQr = (code, table, token) => secretQr(`${eveningQr(code)}?table=${enc(String(table))}`, token);

// joinEvening takes a name on the evening's roster, retrying with the same
// join id: a join whose answer was lost gets the same player, not "name taken".
export function joinEvening(code, name, joinId, opts) {
  return retried(() => request('POST', `/api/evenings/${enc(code)}/players`, { body: { name, joinId } }), opts);
}

// takeEveningPlace takes the place on the evening's roster that the
// organiser's "Another phone" link moved to this phone, retrying with the same
// join id: the key is used by the first try that lands, and the same join
// sent again gets that place back. A player's seat in a game the app
// moderates moves with the seat's code once its card is dealt.
export function takeEveningPlace(code, seatKey, joinId, seatCode, opts) {
  return retried(() => request('POST', `/api/evenings/${enc(code)}/players`, { body: { seatKey, joinId, ...(seatCode ? { seatCode } : {}) } }), opts);
}

// eveningAction sends one of the organiser's actions, retrying with the same id.
export function eveningAction(code, token, action, opts) {
  const a = { ...action, id: action.id || newId() };
  return retried(() => request('POST', `/api/evenings/${enc(code)}/actions`, { token, body: a }), opts);
}

let rules = null;

// loadRules resolves to the rules' schema (GET /api/rules), fetched once per
// page; to null when the server could not be reached, and then the next call
// asks again.
export function loadRules() {
  if (!rules) {
    rules = retried(() => request('GET', '/api/rules')).then((res) => {
      if (res.status === 200 && res.body) return res.body;
      rules = null;
      return null;
    });
  }
  return rules;
}

// newId makes a client id (an action's, a join's, this device's): 128 random
// bits, so that a retried request is applied once and nobody can guess it.
export function newId() {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

// RETRY_MAX_MS caps how long one retry waits, whatever Retry-After says.
export const RETRY_MAX_MS = 10000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// retried sends a request again while the answer says it may pass (no
// connection, 503 busy or unavailable, 429), up to tries times, waiting what
// the server's Retry-After says (or 400 ms, doubling) between tries. The
// request must be safe to repeat: an action with its id, a join with its join
// id. It resolves to the last answer.
export async function retried(send, { tries = 4, wait = sleep } = {}) {
  let res;
  for (let i = 0; i < tries; i++) {
    res = await send();
    if (res.status !== 0 && res.status !== 503 && res.status !== 429) return res;
    if (i + 1 < tries) await wait(Math.min(RETRY_MAX_MS, res.retryAfterMs ?? 400 * 2 ** i));
  }
  return res;
}

// sendAction posts an action, retrying with the same id (the server applies it
// once).
export function sendAction(code, token, action, opts) {
  const a = { ...action, id: action.id || newId() };
  return retried(() => postAction(code, token, a), opts);
}

// joinGame takes a seat as name, retrying with the same join id: a join whose
// answer was lost gets the same seat and token, not "name taken". The device
// id lets the host ban this phone from the lobby.
export function joinGame(code, name, joinId, opts) {
  return postJoin(code, { name, joinId, device: deviceId() }, opts);
}

// takeSeat takes the seat a host's reseat link moved to this phone, retrying
// with the same join id: the key is used by the first try that lands, and the
// same join sent again gets that seat back.
// In a game the app moderates the link takes its seat only with the seat's
// code, from the card of the seat's own phone.
export function takeSeat(code, seatKey, joinId, seatCode, opts) {
  return postJoin(code, { seatKey, joinId, device: deviceId(), ...(seatCode ? { seatCode } : {}) }, opts);
}

function postJoin(code, body, opts) {
  return retried(() => request('POST', `/api/games/${enc(code)}/players`, { body }), opts);
}

export function errorCode(res) {
  return (res && res.body && res.body.error && res.body.error.code) || '';
}

export function errorMessage(res) {
  return (res && res.body && res.body.error && res.body.error.message) || '';
}

// Local memory: a player's seat per game, the host token per game, the language.
function get(key) {
  try {
    return JSON.parse(localStorage.getItem(key));
  } catch {
    return null;
  }
}
function set(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private mode without storage: the page still works until it is reloaded.
  }
}

export const seat = {
  get: (code) => get('cs.seat.' + code),
  set: (code, v) => set('cs.seat.' + code, v),
  clear: (code) => set('cs.seat.' + code, null),
};

export const host = {
  get: (code) => get('cs.host.' + code),
  set: (code, token) => set('cs.host.' + code, token),
  clear: (code) => set('cs.host.' + code, null),
};

// organizer is the organiser's token per evening; eveningSeat a phone's place
// on an evening's roster: {playerId, token, name, went}, went being the last
// game this phone was sent to, so that it goes to each round's seat once and
// a player who came back to the evening's page stays there.
export const organizer = {
  get: (code) => get('cs.organizer.' + code),
  set: (code, token) => set('cs.organizer.' + code, token),
};
// referee is a table's referee token, kept by the device that opened the
// table's referee link, by evening and table ('CODE&table=N'); refereeGame
// names, for each game that device's console was taken to, its evening and
// table ({evening, table}), so that the console's end leads back to the
// table's next round and the referee's page takes the device to each game
// once.
export const referee = {
  get: (code) => get('cs.referee.' + code),
  set: (code, token) => set('cs.referee.' + code, token),
};
export const refereeGame = {
  get: (game) => get('cs.refgame.' + game),
  set: (game, evening) => set('cs.refgame.' + game, evening),
};
export const eveningSeat = {
  get: (code) => get('cs.evening.' + code),
  set: (code, v) => set('cs.evening.' + code, v),
  clear: (code) => set('cs.evening.' + code, null),
};

// consoleKey is the host's token as a shared screen keeps it where a person
// moderates: only to hand the console to the moderator's phone (qr.svg?link=
// host), never to read the host's view. It is kept apart from host, so that
// no address without the token in it opens the console on that screen.
export const consoleKey = {
  get: (code) => get('cs.console.' + code),
  set: (code, token) => set('cs.console.' + code, token),
};

// deviceId is this browser's own random id, kept for good: the host can ban a
// phone from a lobby by it. It names nothing but this browser.
export function deviceId() {
  let id = get('cs.device');
  if (typeof id !== 'string' || !/^[0-9a-f]{32}$/.test(id)) {
    id = newId();
    set('cs.device', id);
  }
  return id;
}

export const prefs = {
  lang: () => get('cs.lang'),
  setLang: (l) => set('cs.lang', l),
  voice: () => get('cs.voice') === true,
  setVoice: (on) => set('cs.voice', !!on),
  // The time signals are on unless switched off.
  cues: () => get('cs.cues') !== false,
  setCues: (on) => set('cs.cues', !!on),
  last: () => get('cs.last'),
  setLast: (v) => set('cs.last', v),
};

// normCode tidies a typed room code.
export function normCode(s) {
  return String(s || '').trim().toUpperCase().replace(/[^A-Z0-9]/g, '');
}
