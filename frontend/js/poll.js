// Polling: when to ask the server again, and a Poller that does it with
// If-None-Match. No DOM access: the fetch function, the timers and "is the page
// hidden" are passed in, so the node tests drive it with fake ones.
//
// When to poll is the server's decision (docs/API.md, "Polling"): every answer
// to a poll, a 304 included, carries it in the X-Poll-After-Ms header, and every
// view as pollAfterMs. The page only backs off after failures and slows down
// while hidden.

export const DEFAULT_POLL_MS = 2000;
export const MIN_POLL_MS = 250;
export const MAX_POLL_MS = 30000;
export const HIDDEN_MIN_MS = 5000;
export const HIDDEN_MAX_MS = 60000;
export const BACKOFF_START_MS = 1000;
export const BACKOFF_MAX_MS = 15000;
// EVENING_POLL_MS is how often a phone or a referee's console at the end of
// an evening's game asks whether the next round has begun.
export const EVENING_POLL_MS = 4000;

// nextDelay is how long to wait before the next poll. After failures it backs off
// exponentially (1 s, 2 s, 4 s … up to 15 s, with ±25% jitter so that a room full of
// phones does not retry in step); otherwise it follows the server's hint, five
// times slower (at least 5 s) while the page is hidden.
export function nextDelay({ failures = 0, pollAfterMs, hidden = false, random = Math.random } = {}) {
  if (failures > 0) {
    const base = Math.min(BACKOFF_MAX_MS, BACKOFF_START_MS * 2 ** Math.min(failures - 1, 20));
    return Math.min(BACKOFF_MAX_MS, Math.round(base * (0.75 + random() * 0.5)));
  }
  let d = Number(pollAfterMs);
  if (!Number.isFinite(d) || d <= 0) d = DEFAULT_POLL_MS;
  d = Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, d));
  if (hidden) return Math.min(HIDDEN_MAX_MS, Math.max(HIDDEN_MIN_MS, d * 5));
  return d;
}

// isTransient tells errors worth retrying (network failures, 408, 429, 5xx) from
// final answers (401, 403, 404…), after which polling stops.
export function isTransient(status) {
  return !status || status === 408 || status === 429 || status >= 500;
}

// Poller asks for the view again and again.
//
//   fetchView(etag) resolves to {status, body, etag, date, pollAfterMs} (status 0
//   or a throw for a network failure; pollAfterMs from the answer's header);
//   onView(view, meta) gets each new view; onStatus({failures, live}) hears of
//   connection changes; onFatal(status, body) gets a final error.
//
// Views are ordered by (version, tick): the stored version, then the deadlines
// that passed since it. An older one never replaces a newer one.
export class Poller {
  constructor({ fetchView, onView, onStatus = () => {}, onFatal = () => {}, timers, isHidden = () => false, random = Math.random }) {
    this.fetchView = fetchView;
    this.onView = onView;
    this.onStatus = onStatus;
    this.onFatal = onFatal;
    this.timers = timers || { setTimeout: (f, ms) => setTimeout(f, ms), clearTimeout: (id) => clearTimeout(id), now: () => Date.now() };
    this.isHidden = isHidden;
    this.random = random;
    this.etag = null;
    this.version = -1;
    this.tick = 0;
    this.pollAfterMs = DEFAULT_POLL_MS;
    this.failures = 0;
    this.timer = null;
    this.inFlight = false;
    this.again = false;
    this.running = false;
    this.lastOkAt = 0;
  }

  start() {
    if (this.running) return;
    this.running = true;
    this.poll();
  }

  stop() {
    this.running = false;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }

  // now polls at once (page became visible, the network came back); a poll already
  // under way is followed by another.
  now() {
    if (!this.running) return;
    if (this.inFlight) {
      this.again = true;
      return;
    }
    this.poll();
  }

  // accept takes a view that came another way (the answer to an action) and shows
  // it if it is not older than the one shown.
  accept(view, pollAfterMs) {
    if (!view || typeof view.version !== 'number') return false;
    if (!this.newer(view)) return false;
    this.version = view.version;
    this.tick = view.tick || 0;
    this.etag = null; // the next GET returns the whole view with its own ETag
    if (pollAfterMs) this.pollAfterMs = pollAfterMs;
    this.ok();
    this.onView(view, { source: 'action' });
    if (this.running && !this.inFlight) this.schedule();
    return true;
  }

  // newer reports whether view is not older than the one shown.
  newer(view) {
    if (typeof view.version !== 'number') return true;
    if (view.version !== this.version) return view.version > this.version;
    return (view.tick || 0) >= this.tick;
  }

  schedule() {
    if (!this.running) return;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    const ms = nextDelay({ failures: this.failures, pollAfterMs: this.pollAfterMs, hidden: this.isHidden(), random: this.random });
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      this.poll();
    }, ms);
    return ms;
  }

  ok() {
    this.lastOkAt = this.timers.now();
    if (this.failures !== 0) {
      this.failures = 0;
      this.onStatus({ failures: 0, live: true });
    }
  }

  fail() {
    this.failures += 1;
    this.onStatus({ failures: this.failures, live: false });
  }

  async poll() {
    if (!this.running) return;
    if (this.timer !== null) {
      this.timers.clearTimeout(this.timer);
      this.timer = null;
    }
    this.inFlight = true;
    this.again = false;
    let res;
    try {
      res = await this.fetchView(this.etag);
    } catch {
      res = { status: 0 };
    }
    this.inFlight = false;
    if (!this.running) return;
    const status = res.status || 0;
    if (status === 304) {
      // The view has not changed, but the time to the next poll has: the
      // header says it.
      if (res.pollAfterMs) this.pollAfterMs = res.pollAfterMs;
      this.ok();
    } else if (status >= 200 && status < 300 && res.body) {
      const view = res.body;
      this.pollAfterMs = res.pollAfterMs || view.pollAfterMs || DEFAULT_POLL_MS;
      this.ok();
      if (this.newer(view)) {
        if (typeof view.version === 'number') {
          this.version = view.version;
          this.tick = view.tick || 0;
        }
        this.etag = res.etag || null;
        this.onView(view, { source: 'poll', date: res.date });
      }
    } else if (isTransient(status)) {
      this.fail();
    } else {
      this.running = false;
      this.onFatal(status, res.body);
      return;
    }
    if (this.again) {
      this.poll();
      return;
    }
    this.schedule();
  }
}
