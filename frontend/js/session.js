// A Session follows one game for one viewer (a player, the host, or the public
// screen): it polls, keeps the view, sends actions, ticks the timers and tells the
// screen to redraw.

import { getView, sendAction, errorCode } from './api.js';
import { Poller } from './poll.js';
import { clock, countdown, closingSeconds, remaining, skewFrom } from './format.js';
import { keepAwake } from './device.js';
import { normalize } from './view.js';

export class Session {
  // opts: {code, token, t() (the current translator: the language may change during
  // the game), onChange(session), onFatal(status, body)}
  constructor({ code, token, t, onChange, onFatal }) {
    this.code = code;
    this.token = token || null;
    this.t = t;
    this.onChange = onChange;
    this.onFatalCb = onFatal;
    this.view = null;
    this.skew = 0;
    this.live = true;
    this.failures = 0;
    this.busy = false;
    this.notice = null; // {key, params} of a message to show once
    this.local = {}; // what the screen remembers between views (my last vote…)
    this.poller = new Poller({
      fetchView: async (etag) => {
        const res = await getView(this.code, this.token, etag);
        if (res.date) this.skew = skewFrom(res.date, Date.now());
        return res;
      },
      onView: (view) => this.setView(view),
      onStatus: ({ failures, live }) => {
        this.failures = failures;
        this.live = live;
        document.body.classList.toggle('stale', !live);
        this.changed('status');
      },
      onFatal: (status, body) => this.onFatalCb && this.onFatalCb(status, body),
      isHidden: () => document.visibilityState === 'hidden',
    });
    this.onVisible = () => {
      if (document.visibilityState === 'visible') this.poller.now();
    };
    this.onOnline = () => this.poller.now();
    this.ticker = null;
  }

  start() {
    document.addEventListener('visibilitychange', this.onVisible);
    window.addEventListener('online', this.onOnline);
    window.addEventListener('pageshow', this.onVisible);
    this.ticker = setInterval(() => this.tick(), 250);
    this.poller.start();
  }

  stop() {
    this.poller.stop();
    document.removeEventListener('visibilitychange', this.onVisible);
    window.removeEventListener('online', this.onOnline);
    window.removeEventListener('pageshow', this.onVisible);
    clearInterval(this.ticker);
    document.body.classList.remove('stale');
    keepAwake(false);
  }

  setView(view) {
    const prev = this.view;
    view = normalize(view);
    this.view = view;
    const playing = view.phase && view.phase.name !== 'lobby' && view.phase.name !== 'game_over';
    keepAwake(playing);
    this.changed('view', prev);
  }

  changed(why, prev) {
    if (this.onChange) this.onChange(this, why, prev);
    this.tick();
  }

  // act sends an action and shows its result; it resolves to the response.
  async act(action) {
    if (this.busy) return null;
    this.busy = true;
    this.changed('busy');
    const res = await sendAction(this.code, this.token, action);
    this.busy = false;
    if (res.status >= 200 && res.status < 300 && res.body) {
      const view = res.body.game || res.body;
      if (!this.poller.accept(view, res.body.pollAfterMs)) this.changed('busy');
    } else {
      this.notice = { key: res.status === 0 ? 'err.network' : 'err.action', code: errorCode(res) };
      this.changed('error');
      this.poller.now();
    }
    return res;
  }

  // tick redraws every countdown on the page: the timers, and the words of a
  // hand-over ("Next step in 3 seconds"), which a stale page hides (app.css).
  tick() {
    const phase = this.view && this.view.phase;
    const c = this.live ? countdown(phase, Date.now(), this.skew) : null;
    for (const el of document.querySelectorAll('.js-timer')) {
      const text = !this.live ? '–:––' : c ? c.text : '';
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle('urgent', !!(c && c.urgent && !c.paused));
      el.classList.toggle('none', !c);
    }
    // Other deadlines a page counts down (data-until), such as the mafia's time
    // to agree on the held card.
    for (const el of document.querySelectorAll('.js-until')) {
      const left = remaining(el.dataset.until, Date.now(), this.skew);
      const text = left === null ? '' : clock(left);
      if (el.textContent !== text) el.textContent = text;
    }
    const n = closingSeconds(phase, Date.now(), this.skew);
    for (const el of document.querySelectorAll('.js-closing')) {
      const text = n === null ? '' : this.t()(phase.resuming ? 'phase.resuming' : 'phase.closing', { count: n });
      if (el.textContent !== text) el.textContent = text;
    }
  }
}
