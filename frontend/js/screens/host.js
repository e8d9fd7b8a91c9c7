// The shared screen (public, readable across a room), with the host's controls when
// this device holds the host token, and the moderator console when a person
// moderates.

import { h, replace } from '../dom.js';
import * as api from '../api.js';
import { Session } from '../session.js';
import { say, canSpeak, hush, cue, unlockAudio } from '../device.js';
import { countdown, timeSignal, remaining } from '../format.js';
import { roleKey, makeT } from '../i18n.js';
import { ruleBook, rulesName } from '../options.js';
import { publicPart } from '../view.js';
import { extraForm, actionError } from './evening.js';
import { EVENING_POLL_MS } from '../poll.js';
import { isolate, playerIndex, playerLabel, eventText, voteLines, lastVote, announcements, tidy, nextStepText, seatsDrawn, SPOKEN } from '../story.js';
import {
  topbar, timer, closingLine, phaseTitle, phaseKey, withLink, seatList, storyList, rolesList, noticeBox, stepData, morningCard, seatingCard, nextLine, soundBar, targetButtons, ICON,
} from '../ui.js';

// hostScreen shows game code; token is the host token, or null for the public screen.
export function hostScreen(app, code, token) {
  // onPhone: the page is one column wide (app.css's breakpoint of its game
  // grid), where a console puts a referee's tools first (inGame).
  const onPhone = window.matchMedia('(max-width: 900px)');
  const relayout = () => render();
  onPhone.addEventListener('change', relayout);
  let spokenUpTo = -1;
  let spokenNext = '';
  let voice = api.prefs.voice();
  let cues = api.prefs.cues();
  let fatal = null;
  let foul = ''; // the foul the next warning or removal names (R-SPORT-16)
  let again = false; // "play again" asked, waiting for the answer
  let controlShown = false; // the host asked for the control link on the shared screen
  // The moderator's console hides every card and night choice until they are
  // switched on or held (cardsPanel), as a phone's card lies face down.
  let cardsOn = false;
  let cardsHeld = 0; // when the switch was pressed, while it is held
  let cardsSeen = false; // the cards were shown once this game: the deal's warning has been read
  // A shared screen opened on the device that made a game a person moderates
  // keeps the host's token only to hand the console to the moderator's phone
  // (consoleOffer); it reads the public view, so no card ever reaches it.
  const consoleToken = token ? null : api.consoleKey.get(code);
  let consoleQr = null; // the console's link as a QR picture, while it is shown
  // The join link the server gives in the lobby: the address the QR code holds
  // (its PUBLIC_URL, locally the LAN address), not this page's own.
  let joinUrl = `${location.origin}/join/${code}`;
  let lastSeconds = null;
  let lastStep = '';
  let gone = false;
  // link is the one-time link this page made to move a seat to another phone
  // (the answer to its reseat, docs/API.md), shown as a QR code until the seat
  // takes it, its time is up or the host hides it. No other page has it: the
  // server keeps only a hash of its key, and no view but that answer holds it.
  let link = null;
  // tapping is the seat the moderator taps for, its phone dead in the wake,
  // while the choice its player said is picked (tapForPanel): {wake, seat,
  // type, pick}; pick is a seat, '' for nobody, or null before a pick.
  let tapping = null;
  // A game of a club's evening whose console a table's referee page opened
  // (evening.js, refereeScreen): the evening's code, the console's token
  // being the table's referee token. At the game's end the console gives
  // the referee's extra points (refereeExtras) and leads to the next round.
  const refereeOf = (token && api.refereeGame.get(code)) || {};
  const evening = refereeOf.evening || null;
  const extras = { view: null, form: {}, busy: false, asked: false, given: null, error: null, timer: null };
  let langPicked = false; // a language was picked on this page's menu
  let book = null; // the rules' schema (ruleBook), to name the rules a game changed
  const has = (v, type) => (v.actions || []).find((a) => a.type === type);
  const act = (a) => session.act(a);
  const session = new Session({
    code,
    token,
    t: () => app.t,
    onChange: (sess, why, prev) => {
      if (why === 'view') {
        const v = sess.view;
        // The shared screen speaks the game's language until someone picks
        // another on it; the host's own page keeps the host's.
        if (!token && !langPicked && v.lang && v.lang !== app.lang) app.setLang(v.lang, false);
        if (v.joinUrl) joinUrl = v.joinUrl;
        if (link && !(v.moving || []).includes(link.target)) link = null; // taken, or closed
        if (v.next) {
          follow(v.next);
          return;
        }
        speakNew(v);
      }
      render();
      // A new phase brings the page back to its top, where its title is.
      if (why === 'view' && prev && phaseKey(prev) !== phaseKey(sess.view)) window.scrollTo(0, 0);
    },
    onFatal: (status) => {
      fatal = status === 404 ? { key: 'err.not_found' } : status === 401 || status === 403 ? { key: 'err.token' } : { key: 'err.generic' };
      if (token && (status === 401 || status === 403)) api.host.clear(code);
      render();
    },
  });
  app.session = session;
  document.documentElement.classList.add('screen-mode');
  // A page may sound only after a tap on it: a tap wakes the time signals. The
  // audio is made just after the tap, not in it: its first start takes half a
  // second, which the tap itself need not wait for.
  const wakeAudio = () => { if (cues) setTimeout(unlockAudio, 0); };
  document.addEventListener('pointerdown', wakeAudio);
  document.addEventListener('pointerup', letGoCards);
  api.loadRules().then((schema) => {
    if (!schema) return;
    book = ruleBook(schema);
    render();
  });
  const signals = setInterval(signal, 250);
  session.start();
  render();

  // follow moves this screen to the next game of the same table: every token of
  // this game holds there (docs/API.md, "play again").
  function follow(next) {
    if (gone) return;
    gone = true;
    if (token) {
      api.host.set(next, token);
      api.prefs.setLast({ code: next, kind: 'host' });
      app.go('/#host=' + next, true);
    } else {
      if (consoleToken) {
        api.consoleKey.set(next, consoleToken);
        api.prefs.setLast({ code: next, kind: 'screen' });
      }
      app.go('/#screen=' + next, true);
    }
  }

  // narrator is the translator the narrator reads in: the game's language,
  // the one the table speaks, whatever this page shows.
  function narrator() {
    const v = session.view;
    return makeT((v && v.lang) || app.lang);
  }

  function speakNew(v) {
    const evs = v.events || [];
    const t = narrator();
    const ctx = { t, players: playerIndex(v.players), rules: v.rules };
    // A hand-over into a speech or a vote is announced as a host would: "Thank
    // you. Player 5, your minute." The night and the morning are read from
    // their events.
    const next = v.phase.closing && v.phase.next ? v.phase.next : null;
    const nextKey = next ? `${v.version}:${next.name}:${next.speaker || ''}` : '';
    const sayNext = next && !['night', 'morning'].includes(next.name) && nextKey !== spokenNext && spokenUpTo >= 0;
    if (nextKey) spokenNext = nextKey;
    if (spokenUpTo < 0 || spokenUpTo > evs.length) {
      spokenUpTo = evs.length; // never read out the past on opening the page
      return;
    }
    const fresh = tidy(evs.slice(spokenUpTo)).filter((e) => SPOKEN.has(e.type) && (!e.to));
    spokenUpTo = evs.length;
    if (!voice) return;
    const lines = fresh.map((e) => e.type === 'night_fell' ? t('voice.night', { night: e.night || 0 }) : eventText(e, ctx)).filter(Boolean);
    if (sayNext) lines.push(nextStepText(t, next, ctx.players, null));
    say(t.lang, lines.filter(Boolean));
  }

  // signal sounds the time signals of the step on screen: ten seconds left, and
  // time up. A hand-over, a pause or a step with no timer sounds nothing.
  function signal() {
    if (link && remaining(link.expiresAt, Date.now(), session.skew) === 0) {
      link = null;
      render();
    }
    const v = session.view;
    const p = v && v.phase;
    const running = p && p.endsAt && !p.paused && !p.closing && !p.resuming && p.name !== 'lobby' && p.name !== 'game_over' && session.live;
    const step = running ? `${p.name}:${p.day}:${p.night}:${p.speaker || ''}:${p.endsAt}` : '';
    const c = running ? countdown(p, Date.now(), session.skew) : null;
    const now = c ? c.seconds : null;
    const kind = step === lastStep ? timeSignal(lastSeconds, now) : null;
    lastStep = step;
    lastSeconds = now;
    if (kind && cues) cue(kind);
  }

  function sounds() {
    return soundBar(app.t, {
      voice, cues, canVoice: canSpeak(),
      onVoice: (on) => {
        voice = on;
        api.prefs.setVoice(on);
        if (on) {
          const t = narrator();
          say(t.lang, [t('voice.on')]);
        } else hush();
        render();
      },
      onCues: (on) => {
        cues = on;
        api.prefs.setCues(on);
        if (on) {
          unlockAudio();
          cue('soon'); // what the signal sounds like
        }
        render();
      },
    });
  }

  function render() {
    const t = app.t;
    const v = session.view;
    const bar = topbar(t, { code, table: v && v.table, session, lang: app.lang, onLang: (l) => { langPicked = true; app.setLang(l); render(); } });
    if (fatal) {
      replace(app.root, bar, h('main', { class: 'screen' }, h('section', { class: 'panel dead-end', dataset: { screen: 'dead_end' } },
        h('p', { class: 'error', role: 'alert' }, t(fatal.key, { code })), h('a', { href: '/', class: 'button secondary' }, t('common.home')))));
      return;
    }
    if (!v) {
      replace(app.root, bar, h('main', { class: 'screen' }, h('p', { class: 'loading', role: 'status' }, '…')));
      return;
    }
    const moderator = !!token && v.moderator === 'host';
    const main = h('main', { class: ['screen', 'phase-' + v.phase.name, moderator && 'console', session.busy && 'busy'], 'aria-busy': session.busy ? 'true' : 'false',
      dataset: { ...stepData(v), winner: v.winner || '' } },
      noticeBox(t, session));
    const inLobby = v.phase.name === 'lobby' && !v.phase.closing;
    if (inLobby) main.append(...lobby(t, v, moderator));
    else if (v.phase.name === 'game_over') main.append(...over(t, v));
    else main.append(...inGame(t, moderator && !cardsShown() ? publicPart(v) : v, moderator));
    if (token) main.append(links(t, v));
    else if (!inLobby) {
      const offer = consoleOffer(t, v);
      if (offer) main.append(offer); // append() would write a null out as the word "null"
    }
    replace(app.root, bar, main);
    session.tick(); // the new timers show the time at once, not at the next tick
  }

  function lobby(t, v, moderator) {
    const n = v.players.length;
    const r = v.rules;
    // An evening's table takes nobody else (phase.seated): no QR code invites
    // a stranger; its players' phones come from the evening by themselves.
    const left = v.phase.seated ? h('section', { class: 'join-panel', dataset: { seated: '' } },
      moderator ? screenPanel(t) : null,
      h('h1', { class: 'scan-title' }, t('host.seated')),
      h('p', null, t('host.seated.help')),
      h('p', { class: 'code-line' }, h('span', { class: 'muted' }, t('host.code')), ' ', h('strong', { class: 'room-code' }, code)))
      : h('section', { class: 'join-panel' },
      moderator ? screenPanel(t) : null,
      h('h1', { class: 'scan-title' }, t('host.scan')),
      h('img', { class: 'qr', src: api.qrUrl(code), alt: t('host.qr_alt', { code }), width: '480', height: '480' }),
      h('p', { class: 'code-line' }, h('span', { class: 'muted' }, t('host.code')), ' ', h('strong', { class: 'room-code' }, code)),
      h('p', { class: 'join-url' }, withLink(t, 'host.or_open', joinUrl)));
    const controls = (pl) => {
      if (!token) return null;
      const seatOpt = has(v, 'seat');
      const kickOpt = has(v, 'kick');
      const banOpt = has(v, 'ban');
      const idxNow = v.players.findIndex((p) => p.id === pl.id);
      return h('span', { class: 'seat-controls' },
        seatOpt ? h('button', { type: 'button', class: 'icon', disabled: idxNow === 0 || session.busy, 'aria-label': t('host.up', { name: isolate(pl.name) }), title: t('host.up', { name: isolate(pl.name) }), dataset: { action: 'up', player: pl.id }, onclick: () => act({ type: 'seat', target: pl.id, seat: pl.seat - 1 }) }, '▲') : null,
        seatOpt ? h('button', { type: 'button', class: 'icon', disabled: idxNow === n - 1 || session.busy, 'aria-label': t('host.down', { name: isolate(pl.name) }), title: t('host.down', { name: isolate(pl.name) }), dataset: { action: 'down', player: pl.id }, onclick: () => act({ type: 'seat', target: pl.id, seat: pl.seat + 1 }) }, '▼') : null,
        kickOpt ? h('button', { type: 'button', class: 'icon danger', disabled: session.busy, 'aria-label': t('host.kick', { name: isolate(pl.name) }), title: t('host.kick', { name: isolate(pl.name) }), dataset: { action: 'kick', player: pl.id }, onclick: () => { if (window.confirm(t('host.kick.confirm', { name: isolate(pl.name) }))) act({ type: 'kick', target: pl.id }); } }, '✕') : null,
        banOpt ? h('button', { type: 'button', class: 'icon danger', disabled: session.busy, 'aria-label': t('host.ban', { name: isolate(pl.name) }), title: t('host.ban', { name: isolate(pl.name) }), dataset: { action: 'ban', player: pl.id }, onclick: () => { if (window.confirm(t('host.ban.confirm', { name: isolate(pl.name) }))) act({ type: 'ban', target: pl.id }); } }, ICON.removed) : null);
    };
    // The lock closes the lobby to newcomers (a troll who comes back, a full room).
    const lock = !token ? null : has(v, 'unlock')
      ? h('p', { class: 'lock-line' }, h('span', { class: 'muted' }, t('host.locked')), ' ',
        h('button', { type: 'button', class: 'secondary', disabled: session.busy, dataset: { action: 'unlock' }, onclick: () => act({ type: 'unlock' }) }, t('host.unlock')))
      : has(v, 'lock') ? h('button', { type: 'button', class: 'secondary', disabled: session.busy, dataset: { action: 'lock' }, onclick: () => act({ type: 'lock' }) }, t('host.lock')) : null;
    const need = r.minPlayers === r.maxPlayers ? t('host.need_exact', { min: r.minPlayers }) : t('host.need_range', { min: r.minPlayers, max: r.maxPlayers });
    // The deal comes first, above the seats: a full table must not push it
    // out of sight.
    const right = h('section', { class: 'lobby-panel' },
      consoleOffer(t, v),
      h('h2', null, t('host.players')),
      h('p', { class: 'muted chips' }, h('span', null, t('host.count', { count: n })), h('span', { dataset: { rules: '' } }, rulesName(t, book, r)), h('span', null, need)),
      token ? h('button', { type: 'button', class: 'primary big', disabled: !has(v, 'start') || session.busy, dataset: { action: 'start' }, onclick: () => act({ type: 'start' }) }, t('host.start')) : null,
      token && has(v, 'maniac_side') && r.maniac ? maniacSide(t, v) : null,
      seatList(t, v, { controls, roles: false }),
      lock,
      reseat(t, v),
      h('div', { class: 'panel sound-panel' }, h('h3', null, t('sound.title')), h('p', { class: 'muted small' }, t('sound.help')), sounds()));
    return [h('div', { class: 'lobby-grid', dataset: { screen: 'host_lobby' } }, left, right)];
  }

  // reseat moves a seat to another phone, for a phone that died or a
  // substitute: the host picks the seat and confirms (on a shared screen
  // everyone sees the code), and the page shows the link's QR code for the new
  // phone to scan. The picture comes in the answer, so the key is in no
  // address this page asks for.
  function reseat(t, v) {
    const opt = has(v, 'reseat');
    if (!token || !opt) return null;
    const P = (id) => playerLabel(t, playerIndex(v.players), id);
    if (link) {
      const name = P(link.target);
      return h('section', { class: 'panel reseat-link', dataset: { screen: 'reseat', target: link.target } },
        h('h2', null, t('reseat.scan', { name })),
        link.qr ? h('img', { class: 'qr', src: link.qr, alt: t('reseat.qr_alt', { name }), width: '320', height: '320' })
          : h('p', { class: 'join-url' }, link.url), // no picture came: the address, to send on
        h('p', { class: 'muted' }, t('reseat.once'), ' ', h('span', { class: 'js-until', dataset: { until: link.expiresAt } })),
        h('button', { type: 'button', class: 'secondary', dataset: { action: 'reseat_done' }, onclick: () => { link = null; render(); } }, t('reseat.done')));
    }
    return h('details', { class: 'panel reseat', open: unfolded('details.reseat') },
      h('summary', null, t('reseat.title')),
      h('p', { class: 'muted small' }, t('reseat.help')),
      targetButtons(t, v, opt.targets, (id) => makeLink(id, P(id)), { disabled: session.busy, focus: 'reseat' }));
  }

  async function makeLink(id, name) {
    if (!window.confirm(app.t('reseat.confirm', { name }))) return;
    const res = await act({ type: 'reseat', target: id });
    if (res && res.status === 200 && res.body && res.body.reseat) {
      link = res.body.reseat;
      render();
    }
  }

  function maniacSide(t, v) {
    return h('div', { class: 'maniac-side' }, h('span', { class: 'label' }, t('host.maniac_side')),
      ['alone', 'mafia'].map((side) => h('button', {
        type: 'button', class: ['chip', v.rules.maniacSide === side && 'on'], 'aria-pressed': v.rules.maniacSide === side ? 'true' : 'false', dataset: { action: 'maniac_side', side },
        disabled: session.busy, onclick: () => act({ type: 'maniac_side', side }),
      }, (v.rules.maniacSide === side ? '✓ ' : '') + t('opt.maniacSide.' + side))));
  }

  function inGame(t, v, moderator) {
    const idx = playerIndex(v.players);
    const P = (id) => playerLabel(t, idx, id);
    const p = v.phase;
    // In a hand-over (closing) the step's lines ("Votes are open.", who speaks)
    // are no longer true: the stage says what comes next and counts down to it.
    const head = h('section', { class: 'stage', dataset: { screen: p.closing ? 'closing' : 'stage' } },
      h('h1', { class: 'phase-title' }, (p.name.startsWith('night') ? '☾ ' : '☀ ') + (p.name === 'lobby' ? t('phase.dealt') : phaseTitle(t, v))),
      p.paused ? h('p', { class: 'banner paused', role: 'status' }, '❚❚ ' + t('phase.paused')) : null,
      p.closing ? null : timer(t, 'big-timer'),
      p.closing ? [nextLine(t, v, null, 'speaker-big'), closingLine('big-line')] : p.resuming ? closingLine('big-line') : stepLines(t, p, P));
    const noms = v.rules.voting === 'nominees' && (p.name === 'day' || p.name === 'defence' || p.name === 'vote')
      ? h('section', { class: 'panel nominations' }, h('h2', null, ICON.nominated + ' ' + t('day.nominations')),
        (p.nominations || []).length ? h('ol', null, p.nominations.map((n) => h('li', null, t('day.nomination', { target: P(n.target), actor: P(n.by) }))))
          : h('p', { class: 'muted' }, t('day.no_nominations')))
      : null;
    const ev = lastVote(v.events);
    const voteBox = ev && (ev.day === p.day)
      ? h('section', { class: 'panel last-vote' }, h('h2', null, t('vote.last')),
        h('ul', { class: 'tally' }, voteLines(ev, { t, players: idx, rules: v.rules }).map((l) => h('li', null, l))))
      : null;
    // The news, newest first, so the latest is where the eye lands.
    const ctx = { t, players: idx, rules: v.rules };
    const news = tidy(announcements(v.events)).filter((e) => (moderator || !e.to) && e.type !== 'vote_result')
      .map((e) => eventText(e, ctx)).filter(Boolean).slice(-6).reverse();
    const newsBox = news.length ? h('section', { class: 'panel news', 'aria-live': 'polite' }, h('h2', null, t('host.announcements')),
      h('ul', null, news.map((s) => h('li', null, s)))) : null;
    const controls = moderator ? (pl) => modControls(t, v, pl) : null;
    const seats = h('section', { class: 'panel seats-panel' }, moderator ? foulPicker(t, v) : null, seatList(t, v, { controls, roles: moderator ? true : 'public' }));
    const bar = token ? hostBar(t, v, moderator) : h('div', { class: 'host-bar' }, sounds());
    const night = moderator ? nightPanel(t, v, P) : null;
    const story = moderator ? h('section', { class: 'panel' }, h('h2', null, t('host.story')), storyList(t, v)) : null;
    let out;
    if (moderator && onPhone.matches) {
      // A referee's console on a phone is one column, in the order a referee
      // reaches for it: the stage and its controls, then the seats with their
      // fouls and removals (a sport referee's main tools), the night's
      // choices, and only then what the room reads and the story.
      out = [h('div', { class: 'game-grid console-phone', dataset: { layout: 'phone' } },
        h('div', { class: 'col-main' }, head, bar, seats, night, morningCard(t, v, 'panel'), reseat(t, v),
          seatsDrawn(v) ? seatingCard(t, v, { cls: 'panel' }) : null, noms, voteBox, newsBox, cardsPanel(t), story))];
    } else {
      // The stage and what the room reads first: the night's outcome, the
      // seats drawn, the votes; the host's controls right under the stage.
      const main = h('div', { class: 'col-main' }, head, morningCard(t, v, 'panel'), bar, reseat(t, v),
        seatsDrawn(v) ? seatingCard(t, v, { cls: 'panel' }) : null, noms, voteBox, newsBox);
      const side = h('div', { class: 'col-side' }, moderator ? cardsPanel(t) : null, night, seats, story);
      out = [h('div', { class: 'game-grid' }, main, side)];
    }
    if (token && !moderator && (has(v, 'warn') || has(v, 'remove'))) {
      // Fouls and removals (R-SPORT-16), folded away on the shared screen.
      out.push(h('details', { class: 'panel moderation', open: unfolded('details.moderation') }, h('summary', null, t('host.moderation')),
        foulPicker(t, v),
        h('ul', { class: 'mod-list' }, v.players.filter((pl) => pl.alive).map((pl) => h('li', null,
          h('span', { class: 'seat-name' }, t('player.label', { seat: pl.seat, name: isolate(pl.name) }),
            pl.warnings ? h('span', { class: 'state warned' }, ' ' + ICON.warning + ' ' + t('seat.warnings', { count: pl.warnings })) : null),
          modControls(t, v, pl))))));
    }
    return out;
  }

  // stepLines tell the room what the step in progress is waiting for.
  function stepLines(t, p, P) {
    return [
      p.speaker ? h('p', { class: 'speaker-big' }, ICON.speaking + ' ' + (p.name === 'last_word' ? t('day.last_word', { name: P(p.speaker) }) : t('phase.speaker', { name: P(p.speaker) }))) : null,
      p.name === 'defence' && p.reason ? h('p', { class: 'reason' }, t('defence.' + p.reason)) : null,
      p.name === 'day' && p.reason === 'extra' ? h('p', { class: 'reason' }, t('day.extra')) : null,
      p.name.startsWith('night') ? h('p', { class: 'big-line' }, t('phase.sleeps')) : null,
      p.name === 'vote' ? h('p', { class: 'big-line' }, t(p.reason === 'half' ? 'vote.half_wait' : 'vote.wait')) : null,
      p.name.startsWith('vote') && p.extended ? h('p', { class: 'reason' }, t('vote.extended')) : null,
      p.name === 'vote' && p.candidates.length ? h('p', { class: 'candidates' }, t('vote.candidates_list', { names: t.list(p.candidates.map(P)) })) : null,
      p.name === 'vote_all' ? h('p', { class: 'big-line' }, p.reason === 'justify' ? t('vote.all.justify', { names: t.list(p.candidates.map(P)) }) : t('vote.all.car_crash', { names: t.list(p.candidates.map(P)) })) : null,
      p.name.startsWith('night') || p.name.startsWith('vote') ? h('p', { class: 'pending' }, t('phase.pending', { count: p.pending || 0 })) : null,
    ];
  }

  // foulPicker names the foul of the next warning or removal (R-SPORT-16). The
  // rules decide what a foul costs, so each button takes only its own fouls.
  function foulPicker(t, v) {
    const named = [...new Set([...((has(v, 'warn') || {}).fouls || []), ...((has(v, 'remove') || {}).fouls || [])])];
    if (!named.length) return null;
    if (!named.includes(foul)) foul = '';
    return h('label', { class: 'foul-pick' }, t('host.foul') + ' ',
      h('select', { dataset: { action: 'foul', focus: 'foul' }, onchange: (e) => { foul = e.target.value; render(); } },
        ['', ...named].map((f) => h('option', { value: f, selected: f === foul }, t(f ? 'foul.' + f : 'foul.none')))));
  }

  function modControls(t, v, pl) {
    if (!pl.alive) return null;
    const warn = has(v, 'warn');
    const rem = has(v, 'remove');
    // A named foul goes only with the action the rules give it.
    const takes = (o) => !foul || (o.fouls || []).includes(foul);
    const named = foul ? { foul } : {};
    return h('span', { class: 'seat-controls' },
      warn && (warn.targets || []).includes(pl.id) ? h('button', { type: 'button', class: 'icon', disabled: session.busy || !takes(warn), 'aria-label': t('host.warn', { name: isolate(pl.name) }), title: t('host.warn', { name: isolate(pl.name) }), dataset: { action: 'warn', player: pl.id }, onclick: () => act({ type: 'warn', target: pl.id, ...named }) }, ICON.warning) : null,
      rem && (rem.targets || []).includes(pl.id) ? h('button', { type: 'button', class: 'icon danger', disabled: session.busy || !takes(rem), 'aria-label': t('host.remove', { name: isolate(pl.name) }), title: t('host.remove', { name: isolate(pl.name) }), dataset: { action: 'remove', player: pl.id }, onclick: () => { if (window.confirm(t('host.remove.confirm', { name: isolate(pl.name) }))) act({ type: 'remove', target: pl.id, ...named }); } }, '✕') : null);
  }

  function nightPanel(t, v, P) {
    if (!v.night) return null;
    if (!cardsShown()) {
      // What a seat may tap tells its card (publicPart leaves it out): the
      // taps for a dead phone wait for the cards.
      return h('section', { class: 'panel night-choices' }, h('h2', null, t('host.night_choices')),
        h('p', { class: 'muted' }, t('host.cards.hidden_night')),
        h('p', { class: 'muted' }, v.night.done.length ? t('host.done', { names: t.list(v.night.done.map(P)) }) : t('host.none_done')),
        has(session.view, 'tap_for') ? h('p', { class: 'muted small' }, t('host.tap_for.hidden')) : null);
    }
    const idx = playerIndex(v.players);
    const who = (id) => {
      const pl = idx.get(id);
      return pl && pl.role ? t('player.with_role', { player: P(id), role: t(roleKey(pl.role, v.rules)) }) : P(id);
    };
    return h('section', { class: 'panel night-choices' }, h('h2', null, t('host.night_choices')),
      v.night.choices.length ? h('ul', null, v.night.choices.map((c) => h('li', null,
        // A shot after the mafia's time counts as none (R-MANIAC-03).
        t(c.type === 'kill' && (v.night.late || []).includes(c.actor) ? 'host.choice.late' : 'host.choice', { actor: who(c.actor), action: t('act.' + c.type), target: c.target ? P(c.target) : '—' }))))
        : h('p', { class: 'muted' }, t('host.no_choices')),
      v.night.victims && v.night.victims.length ? h('p', null, t('host.victims', { names: t.list(v.night.victims.map(P)) })) : null,
      h('p', { class: 'muted' }, v.night.done.length ? t('host.done', { names: t.list(v.night.done.map(P)) }) : t('host.none_done')),
      tapForPanel(t, v, P));
  }

  // tapForPanel lets the moderator tap for a seat whose phone died in the
  // wake, once its player has said the choice (docs/API.md, tap_for): a "Tap
  // for #N" button for each seat still to tap, then that seat's choice, drawn
  // from what its phone is offered. The tap counts as the seat's own.
  function tapForPanel(t, v, P) {
    const opt = has(v, 'tap_for');
    if (!opt) return null;
    const wake = `${v.phase.night}:${v.phase.wake || 1}`;
    // A seat tapped meanwhile (its phone came back) or a wake over drops the
    // choice in progress.
    const seat = tapping && tapping.wake === wake ? (opt.taps || []).find((s) => s.target === tapping.seat) : null;
    const idx = playerIndex(v.players);
    const body = seat ? tapChoice(t, v, P, seat) : h('div', { class: 'tap-for-seats' }, opt.targets.map((id) => h('button', {
      type: 'button', class: 'secondary', disabled: session.busy, dataset: { action: 'tap_for', target: id },
      onclick: () => { tapping = { wake, seat: id, type: null, pick: null }; render(); },
    }, t('host.tap_for', { seat: (idx.get(id) || {}).seat }))));
    return h('div', { class: 'tap-for', dataset: { screen: 'tap_for' } },
      h('h3', null, t('host.tap_for.title')), h('p', { class: 'muted small' }, t('host.tap_for.help')), body);
  }

  // tapChoice is the choice of the seat tapped for: its act, where its card
  // has two (the Commissar who checks or shoots), a seat that act takes or
  // nobody (a sleep), then confirm.
  function tapChoice(t, v, P, seat) {
    const tasks = seat.actions.filter((a) => a.type !== 'sleep');
    const task = tasks.find((a) => a.type === tapping.type) || tasks[0] || null;
    const pick = (id) => { tapping = { ...tapping, pick: id }; render(); };
    const send = () => {
      const tap = tapping.pick && task ? { type: task.type, target: tapping.pick } : { type: 'sleep' };
      tapping = null;
      act({ type: 'tap_for', target: seat.target, tap });
    };
    return h('div', { class: 'tap-choice', dataset: { target: seat.target } },
      h('p', { class: 'picked-line' }, t('host.tap_for.pick', { name: P(seat.target) })),
      tasks.length > 1 ? h('div', { class: 'chips' }, tasks.map((a) => h('button', {
        type: 'button', class: ['chip', a === task && 'on'], 'aria-pressed': a === task ? 'true' : 'false', dataset: { action: 'tap_type', type: a.type },
        disabled: session.busy, onclick: () => { tapping = { ...tapping, type: a.type, pick: null }; render(); },
      }, t('act.' + a.type)))) : null,
      task ? targetButtons(t, v, task.targets, pick, { disabled: session.busy, focus: 'tap_for', picked: tapping.pick }) : null,
      h('div', { class: 'host-bar' },
        h('button', {
          type: 'button', class: ['secondary', tapping.pick === '' && 'on'], 'aria-pressed': tapping.pick === '' ? 'true' : 'false',
          disabled: session.busy, dataset: { action: 'tap_nobody' }, onclick: () => pick(''),
        }, t('night.nobody')),
        h('button', { type: 'button', class: 'primary', disabled: session.busy || tapping.pick === null, dataset: { action: 'confirm_tap' }, onclick: send }, t('night.confirm')),
        h('button', { type: 'button', class: 'secondary', dataset: { action: 'cancel_tap' }, onclick: () => { tapping = null; render(); } }, t('common.cancel'))));
  }

  function hostBar(t, v, moderator) {
    const bar = h('nav', { class: 'host-bar', 'aria-label': t('host.moderation') });
    if (has(v, 'resume')) bar.append(h('button', { type: 'button', class: 'primary', disabled: session.busy, dataset: { action: 'resume' }, onclick: () => act({ type: 'resume' }) }, '▶ ' + t('host.resume')));
    if (has(v, 'pause')) bar.append(h('button', { type: 'button', class: 'secondary', disabled: session.busy, dataset: { action: 'pause' }, onclick: () => act({ type: 'pause' }) }, '❚❚ ' + t('host.pause')));
    // In a hand-over every screen counts down to the same moment; "next" would
    // cut it short for the phones that have not looked in yet, so it waits.
    const handingOver = v.phase.closing || v.phase.resuming;
    if (has(v, 'advance') && !handingOver) bar.append(h('button', { type: 'button', class: moderator ? 'primary' : 'secondary', disabled: session.busy, title: t('host.skip.help'), dataset: { action: 'advance' }, onclick: () => act({ type: 'advance' }) }, '▶▶ ' + (moderator ? t('host.next') : t('host.skip'))));
    if (moderator && has(v, 'maniac_side') && v.rules.maniac) bar.append(maniacSide(t, v));
    const correct = has(v, 'correct');
    if (correct && (correct.undoes || []).length) bar.append(takeBack(t, v, correct.undoes[0]));
    // The moderator's record of the game so far, live, beside the console.
    if (moderator) bar.append(protocolLink(t, { target: '_blank' }));
    bar.append(sounds());
    if (document.fullscreenEnabled) bar.append(h('button', { type: 'button', class: 'secondary', onclick: () => { if (document.fullscreenElement) document.exitFullscreen(); else document.documentElement.requestFullscreen().catch(() => {}); } }, '⤢ ' + t('host.fullscreen')));
    return bar;
  }

  // takeBack offers the correction of the host's latest decision, named, so
  // that a mis-tap costs one tap and no new deal (docs/API.md, corrections).
  function takeBack(t, v, decision) {
    const idx = playerIndex(v.players);
    const what = t('host.correct.' + decision.type, { name: decision.target ? playerLabel(t, idx, decision.target) : '' });
    return h('button', {
      type: 'button', class: 'secondary', disabled: session.busy, title: t('host.correct.help'),
      dataset: { action: 'correct', undoes: decision.type }, onclick: () => act({ type: 'correct' }),
    }, '↶ ' + t('host.correct', { what }));
  }

  function over(t, v) {
    const w = v.winner || 'town';
    // A game of a club's evening goes on at the evening's next round, not by
    // "play again".
    return [h('section', { class: ['winner', 'team-' + w], dataset: { screen: 'game_over' } }, h('h1', null, t('winner.' + w)),
      evening ? h('div', { class: 'again' },
        h('a', { class: 'button primary big', href: refereeHref(), dataset: { action: 'evening' } }, t('evening.referee.back'))) : null,
      token && !evening && !v.table ? h('div', { class: 'again' },
        h('button', { type: 'button', class: 'primary big', disabled: again, dataset: { action: 'again' }, onclick: playAgain }, '↻ ' + t('over.again')),
        h('p', { class: 'muted' }, t('over.again.help'))) : null),
    evening ? refereeExtras(t) : null,
    h('div', { class: 'over-grid' },
      h('section', { class: 'panel' }, h('h2', null, t('over.roles')), rolesList(t, v)),
      h('section', { class: 'panel' }, h('h2', null, t('over.story')), storyList(t, v))),
    // An evening's table (v.table) plays no game of its own: no "new game".
    h('div', { class: 'host-bar' }, protocolLink(t), v.table ? null : h('a', { class: 'button secondary', href: '/' }, t('over.new')))]
      .filter(Boolean); // append() would write a part this page has not (null) out as "null"
  }

  // refereeExtras is the referee's extra points at this game, given from
  // its console at the end, as a club's referee gives them (the evening's
  // extra action, with the table's referee token): the game's players, the
  // extras given so far, and the form. The evening's view, read once here
  // and then from each answer, names the players by their evening ids.
  function refereeExtras(t) {
    if (!extras.asked) {
      extras.asked = true;
      followRound();
    }
    const ev = extras.view;
    const table = ev && ev.round ? ev.rounds.flatMap((r) => r.tables).find((x) => x.game === code) : null;
    if (!table) return null;
    const who = new Map((ev.players || []).map((p) => [p.id, p.name]));
    const given = (table.extras || []).map((x) => h('li', { dataset: { player: x.player } }, h('bdi', null, who.get(x.player) || x.player), ': ',
      h('strong', null, new Intl.NumberFormat(t.lang, { maximumFractionDigits: 2, signDisplay: 'always' }).format(x.points)),
      x.worstMove ? ' · ' + t('evening.extra.worst_short') : null, ' · ', h('bdi', null, x.reason)));
    const groups = [{ label: t('evening.table', { table: table.table }), seats: table.players.map((id) => ({ game: code, id, name: who.get(id) || id })) }];
    return h('section', { class: 'panel ev-extra', dataset: { screen: 'referee_extras' } },
      h('h2', null, t('evening.extra')),
      given.length ? h('ul', { class: 'ev-given' }, given) : null,
      extras.error ? h('p', { class: 'error', role: 'alert' }, extras.error) : null,
      extraForm(t, groups, extras.form, extras.busy, giveExtra));
  }

  // followRound reads the evening now and every EVENING_POLL_MS while the
  // game is over, as a player's end screen does: the extras given show as
  // they come, and once the organiser starts the next round the console goes
  // back to the table's referee page, which opens the next game's console,
  // so the referee's phone follows the room without a tap. A referee still
  // typing extra points is not taken away: the page's own link does it then.
  function followRound() {
    const check = async () => {
      const res = await api.getEvening(evening, token);
      if (res.status === 200 && res.body) {
        extras.view = res.body;
        const mine = (res.body.referees || [])[0];
        const typing = Object.values(extras.form || {}).some((x) => x !== '' && x !== false && x != null);
        if (mine && mine.game && mine.game !== code && !typing && !extras.busy) {
          location.assign(refereeHref());
          return;
        }
        render();
      }
      if (session.view && session.view.phase.name === 'game_over') extras.timer = setTimeout(check, EVENING_POLL_MS);
    };
    check();
  }

  // refereeHref is the table's referee page, with this console's token.
  function refereeHref() {
    return `/#referee=${evening}&table=${refereeOf.table}&t=${encodeURIComponent(token)}`;
  }

  async function giveExtra(extra) {
    extras.busy = true;
    extras.error = null;
    render();
    const res = await api.eveningAction(evening, token, { type: 'extra', ...extra });
    extras.busy = false;
    if (res.status === 200 && res.body) {
      extras.view = res.body;
      extras.form = {};
    } else {
      extras.error = actionError(app, res);
    }
    render();
  }

  function protocolLink(t, attrs = {}) {
    return h('a', { class: 'button secondary', href: '/#protocol=' + code, dataset: { action: 'protocol' }, ...attrs }, '▤ ' + t('proto.open'));
  }

  // playAgain opens the next game for the same table; this screen and every
  // phone follow it (the finished game's view names it: next).
  async function playAgain() {
    again = true;
    render();
    const res = await api.playAgain(code, token);
    again = false;
    if (res.status === 201 && res.body && res.body.code) {
      follow(res.body.code);
      return;
    }
    session.notice = { key: res.status === 0 ? 'err.network' : 'err.action' };
    render();
  }

  // cardsShown: the console shows the cards now (switched on or held), or
  // the game is over and every card is the table's.
  function cardsShown() {
    const v = session.view;
    return cardsOn || cardsHeld > 0 || (!!v && v.phase.name === 'game_over');
  }

  // HOLD_MS tells a press that holds the cards from a tap that switches them.
  const HOLD_MS = 400;

  // cardsPanel is the console's switch of the cards (roles, night choices,
  // the moderator's story), with the deal's warning until they were first
  // shown. The switch works as a phone's card: pressed and held, the cards
  // show until it is let go; tapped, they stay on until tapped again.
  function cardsPanel(t) {
    const on = cardsShown();
    const hold = () => {
      cardsHeld = Date.now();
      cardsSeen = true;
      render();
    };
    const sw = h('button', {
      type: 'button', class: ['secondary', 'toggle', 'cards-switch', on && 'on'], 'aria-pressed': on ? 'true' : 'false', dataset: { action: 'cards', focus: 'cards' },
      onpointerdown: (e) => { e.preventDefault(); hold(); },
      // A key's click has no pointer before it: it switches at once.
      onclick: (e) => { if (e.detail === 0) switchCards(!cardsOn); },
      oncontextmenu: (e) => e.preventDefault(),
    }, h('span', { 'aria-hidden': 'true' }, on ? '◉' : '○'), ' ' + t(on ? 'host.cards.on' : 'host.cards.off'));
    return h('section', { class: ['panel', 'cards-panel', !cardsSeen && 'warned'], dataset: { cards: on ? 'shown' : 'hidden' } },
      !cardsSeen ? h('p', { class: 'warn-text', role: 'status' }, t('host.cards.warning')) : null,
      sw,
      h('p', { class: 'muted small' }, t('host.cards.help')));
  }

  // letGoCards ends a press of the cards' switch: a short one was a tap and
  // switches them, a long one held them and lets them go.
  function letGoCards() {
    if (!cardsHeld) return;
    const tapped = Date.now() - cardsHeld < HOLD_MS;
    cardsHeld = 0;
    if (tapped) switchCards(!cardsOn);
    else render();
  }

  function switchCards(on) {
    cardsOn = on;
    cardsSeen = cardsSeen || on;
    render();
  }

  // screenPanel offers the console's moderator the shared screen's link, as a
  // QR code and as text, for the TV or laptop the table sees: it shows no
  // cards.
  function screenPanel(t) {
    return h('section', { class: 'panel screen-panel', dataset: { screen: 'screen_link' } },
      h('h2', null, t('host.screen_panel')),
      h('img', { class: 'small-qr', src: api.qrUrl(code, 'screen'), alt: t('host.screen_qr_alt', { code }), width: '200', height: '200' }),
      h('p', { class: 'muted small' }, t('host.screen_panel.help')),
      linkRow(t, 'host.screen_link', screenLink()));
  }

  // siteBase is the site's address as the join link has it: reachable from
  // the other devices a link goes to (the server's PUBLIC_URL, locally the
  // LAN address), not necessarily this page's own.
  function siteBase() {
    return joinUrl.replace(/\/join\/[^/]*$/, '') || location.origin;
  }

  // screenLink is the public shared screen's address.
  function screenLink() {
    return `${siteBase()}/#screen=${code}`;
  }

  // consoleOffer is, on a shared screen made by the device that created a
  // game a person moderates, the way to hand the console to the moderator's
  // own phone: its link as a QR code, put on the page only once asked for
  // and confirmed (everyone sees this screen), and gone again when hidden.
  // Nothing of the console is drawn here: it opens on the phone that scans it.
  function consoleOffer(t, v) {
    if (!consoleToken || v.moderator !== 'host') return null;
    const toggle = (action, key, onclick) => h('button', { type: 'button', class: action === 'show_console' ? 'primary' : 'secondary', dataset: { action, focus: 'console_link' }, onclick }, t(key));
    const body = consoleQr
      ? [h('img', { class: 'small-qr', src: consoleQr, alt: t('host.console_qr_alt'), width: '200', height: '200' }),
        linkRow(t, 'host.console_link', `${siteBase()}/#host=${code}&t=${consoleToken}`, true),
        toggle('hide_console', 'host.console_link.hide', () => { consoleQr = null; render(); })]
      : toggle('show_console', 'host.console_link.show', showConsole);
    return h('section', { class: 'panel console-offer', dataset: { screen: 'console_offer' } },
      h('h2', null, t('host.console')), h('p', { class: 'muted' }, t('host.console_offer.help')), body);
  }

  async function showConsole() {
    if (!window.confirm(app.t('host.console_link.confirm'))) return;
    consoleQr = await api.hostQr(code, consoleToken);
    if (!consoleQr) session.notice = { key: 'err.network' };
    render();
  }

  // unfolded tells whether the page has the panel selector finds unfolded now:
  // a redraw keeps each panel as the host left it, where a toggle event would
  // come after the redraw that replaced its element (a poll may redraw the
  // page between the tap and the event).
  function unfolded(selector) {
    return !!(document.querySelector(selector) || {}).open;
  }

  function links(t, v) {
    return h('details', { class: 'links', open: unfolded('details.links') }, h('summary', null, t('host.links')),
      linkRow(t, 'host.join_link', joinUrl), linkRow(t, 'host.screen_link', screenLink()), controlLink(t, v),
      h('p', { class: 'muted small' }, t('host.rules_summary', { preset: rulesName(t, book, v.rules) })));
  }

  // controlLink is the link that runs the game (its token in the fragment),
  // this device's own address. Where the app moderates, this is the room's
  // shared screen: the link is put on the page only once the host asks for it
  // and confirms, and leaves the page when hidden again. A moderator's
  // console is the moderator's own device, and shows it.
  function controlLink(t, v) {
    const link = () => linkRow(t, 'host.control_link', `${location.origin}/#host=${code}&t=${token}`, true);
    if (v.moderator === 'host') return link();
    const toggle = (action, key, onclick) => h('button', { type: 'button', class: 'secondary', dataset: { action, focus: 'control_link' }, onclick }, t(key));
    if (controlShown) return [link(), toggle('hide_control', 'host.control_link.hide', () => { controlShown = false; render(); })];
    return toggle('show_control', 'host.control_link.show', () => {
      if (!window.confirm(t('host.control_link.confirm'))) return;
      controlShown = true;
      render();
    });
  }

  function linkRow(t, labelKey, url, secret) {
    return h('div', { class: 'link-row' }, h('p', { class: secret ? 'warn-text' : '' }, t(labelKey)),
      h('input', { type: 'text', readonly: true, value: url, 'aria-label': t(labelKey), onfocus: (e) => e.target.select() }),
      h('button', { type: 'button', class: 'secondary', onclick: (e) => copy(url, e.target) }, t('common.copy')));
  }

  function copy(text, btn) {
    const done = () => { btn.textContent = app.t('common.copied'); };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, () => {});
    else {
      const input = btn.previousSibling;
      if (input && input.select) {
        input.select();
        try { document.execCommand('copy'); done(); } catch { /* the text is selected for a manual copy */ }
      }
    }
  }

  return {
    unmount() {
      session.stop();
      clearTimeout(extras.timer);
      onPhone.removeEventListener('change', relayout);
      clearInterval(signals);
      document.removeEventListener('pointerdown', wakeAudio);
      document.removeEventListener('pointerup', letGoCards);
      document.documentElement.classList.remove('screen-mode');
    },
    rerender: render,
  };
}
