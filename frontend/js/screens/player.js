// The player's phone: join, lobby, role card, night task, day, votes, the end.

import { h, replace } from '../dom.js';
import * as api from '../api.js';
import { Session } from '../session.js';
import { buzz, wakeCard } from '../device.js';
import { roleKey, sheriffVariant } from '../i18n.js';
import { playerIndex, playerLabel, lastVote, voteLines, seatsDrawn, bestMoveOf, eventText } from '../story.js';
import { togglePick } from '../pick.js';
import { EVENING_POLL_MS } from '../poll.js';
import {
  topbar, timer, closingLine, seatCodeForm, phaseTitle, phaseKey, seatList, storyList, rolesList, targetButtons, noticeBox, stepData, morningCard, seatingCard, nextLine, ICON,
} from '../ui.js';

// JOIN_ERRORS are the join page's messages for the API's refusals (docs/API.md).
const JOIN_ERRORS = {
  name_taken: 'err.name_taken', table_full: 'err.table_full', wrong_phase: 'err.started',
  lobby_locked: 'err.locked', table_seated: 'err.seated', banned: 'err.banned', join_limited: 'err.join_limited',
  name_empty: 'err.name', name_too_long: 'err.name', name_invisible: 'err.name_invisible',
  name_invisible_chars: 'err.name_invisible_chars', name_invalid_encoding: 'err.name_invisible_chars',
  name_marks: 'err.name_marks', name_lookalike: 'err.name_lookalike', name_reserved: 'err.name_reserved',
  seat_key_invalid: 'err.seat_key_invalid', seat_key_expired: 'err.seat_key_expired',
  seat_code_needed: 'err.seat_code_needed', seat_code_wrong: 'err.seat_code_wrong',
};

// SEAT_KEY_ERRORS are the messages of a seat key refused: the join page has no
// seat for this phone then, in whatever phase, and says so.
const SEAT_KEY_ERRORS = new Set(['err.seat_key_invalid', 'err.seat_key_expired']);

// playerScreen is the phone of game code. seatKey, when the page was opened by
// a host's link that moves a seat to this phone, takes that seat.
export function playerScreen(app, code, seatKey) {
  let session = null;
  let publicView = null;
  let joinError = null;
  let joining = false;
  let looked = false; // the game has been looked up: no seat is offered before
  let lost = false; // this phone's seat moved to another phone mid-game
  let taking = false; // a seat key is on its way
  // pendingJoin is a join that got no answer ({name, joinId}): sent again with
  // the same id, it gets the seat it may have taken rather than a second one.
  let pendingJoin = null;
  let holding = false; // the role card is pressed and held, face up
  const act = (a) => session.act(a);
  const has = (v, type) => (v.actions || []).find((a) => a.type === type);

  // A card drawn again while held (a new view came in) missed the press that
  // opened it: the finger lifted anywhere turns it face down.
  const letGo = () => {
    if (!holding) return;
    holding = false;
    for (const card of document.querySelectorAll('.role-card.open')) faceDown(card);
  };
  document.addEventListener('pointerup', letGo);

  const stored = api.seat.get(code);
  if (seatKey) takeSeat(seatKey);
  else if (stored && stored.token) startSession(stored);
  else showJoin();

  // takeSeat takes the seat a host's link moved to this phone (docs/API.md,
  // "A seat on a new device"): it comes with its card, and this phone's seat in
  // the game, if it had one, gives way to it. A key refused says why.
  async function takeSeat(key, seatCode) {
    taking = true;
    renderTaking();
    const res = await api.takeSeat(code, key, api.newId(), seatCode);
    taking = false;
    if (res.status === 201 && res.body && res.body.game) {
      const mine = (res.body.game.players || []).find((p) => p.id === res.body.playerId);
      seated({ playerId: res.body.playerId, token: res.body.token, name: mine ? mine.name : '' }, res.body.game);
      return;
    }
    const c = api.errorCode(res);
    // The seat's code is asked for, or was wrong (a link closed by it says
    // so at the next try).
    if (c === 'seat_code_needed' || c === 'seat_code_wrong') {
      askSeatCode(key, c === 'seat_code_wrong');
      return;
    }
    showJoin(JOIN_ERRORS[c] || (res.status === 404 ? 'err.not_found' : res.status === 0 ? 'err.network' : 'err.generic'));
  }

  // askSeatCode asks for the seat's code (seatCodeForm).
  function askSeatCode(key, wrong) {
    const t = app.t;
    const form = seatCodeForm(t, wrong, (seatCode) => takeSeat(key, seatCode));
    replace(app.root, topbar(t, { code, lang: app.lang, onLang: (l) => { app.setLang(l); askSeatCode(key, wrong); } }), h('main', { class: 'phone' }, form));
  }

  function renderTaking() {
    replace(app.root, topbar(app.t, { code, lang: app.lang, onLang: (l) => { app.setLang(l); renderTaking(); } }),
      h('main', { class: 'phone' }, h('p', { class: 'loading', role: 'status' }, app.t('seat.taking'))));
  }

  // seated keeps the seat this phone took, and plays it from its first view.
  function seated(s, firstView) {
    api.seat.set(code, s);
    api.prefs.setLast({ code, kind: 'player' });
    startSession(s, firstView);
  }

  function showJoin(errKey, params) {
    joinError = errKey ? { key: errKey, params } : null;
    renderJoin();
    api.getView(code, null, null).then(async (res) => {
      looked = true;
      if (res.status === 200 && res.body) {
        publicView = res.body;
        // The name is asked for in the game's language, once it is loaded.
        if (!api.prefs.lang() && publicView.lang) await app.setLang(publicView.lang, false);
      } else if (res.status === 404) {
        joinError = { key: 'err.not_found', params: { code } };
      }
      renderJoin();
    });
  }

  function renderJoin() {
    const t = app.t;
    const end = looked ? deadEnd() : h('p', { class: 'loading', role: 'status' }, '…');
    if (end) {
      replace(app.root, topbar(t, { code, lang: app.lang, onLang: (l) => { app.setLang(l); renderJoin(); } }), h('main', { class: 'phone' }, end));
      return;
    }
    const input = h('input', {
      id: 'name', name: 'name', type: 'text', maxlength: '24', required: true, autocomplete: 'nickname',
      autocapitalize: 'words', enterkeyhint: 'go', dataset: { focus: 'name' }, value: app.draftName || '',
      oninput: (e) => { app.draftName = e.target.value; },
    });
    const form = h('form', {
      class: 'card join', onsubmit: async (e) => {
        e.preventDefault();
        const name = input.value.trim().normalize('NFC'); // accents as part of their letters
        if (!name || [...name].length > 24) {
          showJoinError('err.name');
          return;
        }
        if (!pendingJoin || pendingJoin.name !== name) pendingJoin = { name, joinId: api.newId() };
        joining = true;
        renderJoin();
        const res = await api.joinGame(code, name, pendingJoin.joinId);
        joining = false;
        if (res.status === 201 || res.status === 200) {
          pendingJoin = null;
          seated({ playerId: res.body.playerId, token: res.body.token, name }, res.body.game);
          return;
        }
        if (res.status !== 0 && res.status < 500) pendingJoin = null; // refused: no seat was taken
        const c = api.errorCode(res);
        showJoinError(JOIN_ERRORS[c] || (res.status === 404 ? 'err.not_found' : res.status === 0 ? 'err.network' : 'err.generic'));
      },
    },
    h('h1', null, t('join.title', { code })),
    publicView ? h('p', { class: 'muted chips' }, h('span', null, t('preset.' + ((publicView.rules && publicView.rules.preset) || 'custom'))),
      h('span', null, t('host.count', { count: (publicView.players || []).length }))) : null,
    joinError ? h('p', { class: 'error', role: 'alert', dataset: { error: joinError.key } }, t(joinError.key, joinError.params || {})) : null,
    h('label', { for: 'name', class: 'field-label' }, t('join.name')),
    input,
    h('button', { type: 'submit', class: 'primary big', disabled: joining }, joining ? t('join.joining') : t('join.button')),
    h('p', null, h('a', { href: '/#screen=' + code, class: 'link' }, t('join.watch'))));
    replace(app.root, topbar(t, { code, lang: app.lang, onLang: (l) => { app.setLang(l); renderJoin(); } }), h('main', { class: 'phone' }, form));
    if (!joining) setTimeout(() => { if (document.activeElement === document.body) input.focus(); }, 0);
  }

  function showJoinError(key) {
    joinError = { key, params: { code } };
    renderJoin();
  }

  // deadEnd explains a join link that leads nowhere, and offers the ways on: a
  // game that does not exist (a mistyped code), a seat that moved to another
  // phone or a seat key refused (watch the game), one already under way (watch
  // it), one that is over (see how it ended, or join the table's next game).
  // It is null while a seat can be taken.
  function deadEnd() {
    const t = app.t;
    const home = h('a', { class: 'button secondary', href: '/' }, t('common.home'));
    const card = (kind, title, help, ...ways) => h('section', { class: 'card dead-end', dataset: { screen: 'dead_end', end: kind } },
      h('h1', null, title), h('p', null, help), h('div', { class: 'ways' }, ways));
    if (joinError && joinError.key === 'err.not_found') {
      return card('unknown', t('end.unknown', { code }), t('end.unknown.help'),
        h('a', { class: 'button primary', href: '/' }, t('end.other_code')));
    }
    const p = publicView && publicView.phase;
    if (!p) return null;
    const watch = (key, cls = 'primary') => h('a', { class: ['button', cls], href: '/#screen=' + code }, t(key));
    if (lost) return card('lost', t('end.lost'), t('end.lost.help', { code }), watch('end.watch'), home);
    if (joinError && SEAT_KEY_ERRORS.has(joinError.key)) return card('seat_key', t('end.seat_key'), t(joinError.key), watch('end.watch'), home);
    if (p.name === 'lobby' && !p.closing) {
      // A table that takes nobody says so before it asks for a name; a seat
      // may come free (a player leaves, the host opens the table), so it
      // offers to look again.
      const again = h('button', { type: 'button', class: 'primary', dataset: { action: 'look_again' }, onclick: () => showJoin() }, t('end.look_again'));
      if (p.seated) return card('seated', t('end.seated'), t('end.seated.help'), watch('end.watch_lobby'), home);
      if (p.locked) return card('locked', t('end.locked'), t('end.locked.help'), again, watch('end.watch_lobby', 'secondary'), home);
      if (p.full) return card('full', t('end.full'), t('end.full.help'), again, watch('end.watch_lobby', 'secondary'), home);
      return null;
    }
    if (p.name === 'game_over') {
      const next = publicView.next;
      return card('over', t('end.over'), next ? t('end.over.next', { code: next }) : t('end.over.help'),
        next ? h('a', { class: 'button primary', href: '/join/' + next, dataset: { action: 'join_next' } }, t('end.join_next', { code: next })) : null,
        watch('end.see_end'), home);
    }
    return card('started', t('end.started'), t('end.started.help'), watch('end.watch'), home);
  }

  function startSession(s, firstView) {
    session = new Session({
      code,
      token: s.token,
      t: () => app.t,
      onChange: (sess, why, prev) => {
        if (why === 'view') {
          const v = sess.view;
          if (!api.prefs.lang() && v.lang && v.lang !== app.lang) app.setLang(v.lang, false);
          if (v.next) {
            follow(v.next);
            return;
          }
          // A seat the evening's page sent here learns its id in the game
          // from the game's first view.
          if (v.you && v.you.id && session.me.playerId !== v.you.id) {
            session.me = { ...session.me, playerId: v.you.id };
            api.seat.set(code, session.me);
          }
          if (v.phase.name === 'game_over' && session.me.evening) backToEvening(session.me.evening);
          wakeUp(prev, v);
        }
        render();
        // A new phase brings the page back to its top, where its title is.
        if (why === 'view' && prev && phaseKey(prev) !== phaseKey(sess.view)) window.scrollTo(0, 0);
      },
      onFatal: (status) => {
        session.stop();
        if (status === 401 || status === 403) {
          // Past the lobby a token stops only when its seat moves to
          // another phone (kicks, bans and leaving are the lobby's).
          const p = session.view && session.view.phase;
          lost = !!p && (p.name !== 'lobby' || !!p.closing);
          api.seat.clear(code);
          session = null;
          showJoin('err.token', { code });
        } else if (status === 404) {
          api.seat.clear(code);
          session = null;
          showJoin('err.not_found', { code });
        }
      },
    });
    session.me = s;
    app.session = session;
    if (firstView) session.poller.accept(firstView);
    session.start();
    render();
  }

  // backToEvening waits, at the end of an evening's game, for the evening's
  // next round, and then takes the phone back to the evening's page, which
  // sends it to its next seat (or says it sits out): the phone lying on the
  // table needs no tap between rounds.
  let eveningTimer = null;
  function backToEvening(ev) {
    if (eveningTimer) return;
    const check = async () => {
      const mine = api.eveningSeat.get(ev);
      const res = mine && mine.token ? await api.getEvening(ev, mine.token) : null;
      if (!eveningTimer) return;
      if (res && res.status === 200 && res.body && res.body.you && res.body.you.game !== code) {
        app.go('/evening/' + ev);
        return;
      }
      if (res && res.status === 401) {
        // The organiser moved this player's place to another phone: this
        // one is out of the evening, and stops asking.
        api.eveningSeat.clear(ev);
        return;
      }
      eveningTimer = setTimeout(check, EVENING_POLL_MS);
    };
    eveningTimer = setTimeout(check, EVENING_POLL_MS);
  }

  // follow takes this seat to the next game of the same table, where its token
  // holds (docs/API.md, "play again"): no scan, no name to type.
  function follow(next) {
    if (!session) return;
    session.stop();
    api.seat.set(next, { ...session.me, playerId: session.view.you ? session.view.you.id : session.me.playerId });
    api.prefs.setLast({ code: next, kind: 'player' });
    session = null;
    app.go('/join/' + next, true);
  }

  // wakeUp vibrates and shows a wake card when the game turns to this phone: its
  // step opens (a speech, a vote, a wake of the night: the same words for every
  // card), or the town wakes up. A first view (a reload) wakes nobody.
  function wakeUp(prev, v) {
    if (!prev || v.phase.closing || v.phase.resuming) return;
    const needs = (view) => (view.actions || []).some((a) => a.type !== 'leave' && a.type !== 'raise_hand' && a.type !== 'reveal' && a.type !== 'withdraw');
    const key = (view) => `${view.phase.name}:${view.phase.day}:${view.phase.night}:${view.phase.wake || 0}:${view.phase.speaker || ''}:${view.phase.reason || ''}`;
    // A vote taken back to be cast again is the player's own doing, not a turn.
    const unvoted = key(prev) === key(v) && (prev.actions || []).some((a) => a.type === 'withdraw');
    let text = null;
    if (prev.phase.name === 'night' && v.phase.name !== 'night') text = app.t('wake.morning');
    else if (needs(v) && !unvoted && (!needs(prev) || key(prev) !== key(v))) text = wakeText(app.t, v);
    if (!text) return;
    buzz();
    wakeCard(text);
  }

  // wakeText says what the step that opened asks of this phone.
  function wakeText(t, v) {
    switch (v.phase.name) {
      case 'night': return t('wake.night', { night: v.phase.night });
      case 'intro': return t('day.intro');
      case 'day': return v.phase.speaker === session.me.playerId ? t('day.your_speech') : phaseTitle(t, v);
      case 'defence': return t('day.your_defence');
      case 'last_word': return t('day.your_last_word');
      case 'vote': return t('vote.prompt');
      default: return phaseTitle(t, v);
    }
  }

  function render() {
    const t = app.t;
    const v = session && session.view;
    if (!v) {
      replace(app.root, topbar(t, { code, table: session.view && session.view.table, session, lang: app.lang, onLang: (l) => { app.setLang(l); render(); } }),
        h('main', { class: 'phone' }, h('p', { class: 'loading', role: 'status' }, '…')));
      return;
    }
    const me = v.you || { id: session.me.playerId };
    const idx = playerIndex(v.players);
    const mine = idx.get(me.id);
    const who = mine ? t('player.label', { seat: mine.seat, name: mine.name }) : session.me.name;
    const body = [noticeBox(t, session)];
    if (v.phase.paused) body.push(h('div', { class: 'banner paused', role: 'status' }, '❚❚ ' + t('ev.paused')));
    body.push(...phaseBody(t, v, me, idx));
    if (v.phase.name !== 'lobby' && v.phase.name !== 'game_over' && me.role) body.push(roleCard(t, v, me));
    replace(app.root,
      topbar(t, { code, table: session.view && session.view.table, who, session, lang: app.lang, onLang: (l) => { app.setLang(l); render(); } }),
      h('main', { class: ['phone', 'phase-' + v.phase.name, picking(v, me) && 'fit', session.busy && 'busy'], 'aria-busy': session.busy ? 'true' : 'false', dataset: stepData(v) }, body));
    session.tick(); // the new timers show the time at once, not at the next tick
  }

  // picking: the page is a pick to confirm, the night's tap or a vote, which
  // fits one screen (main.fit in app.css): the seats, and Confirm in view.
  function picking(v, me) {
    const p = v.phase;
    if (!me.alive || p.closing || p.resuming) return false;
    return (p.name === 'night' && (v.actions || []).length > 0) || (p.name === 'vote' && !!has(v, 'vote'));
  }

  function phaseBody(t, v, me, idx) {
    const P = (id) => playerLabel(t, idx, id);
    const name = v.phase.name;
    if (name === 'lobby' && !v.phase.closing) return lobby(t, v, me);
    if (name === 'game_over') return gameOver(t, v, me);
    const out = [h('div', { class: 'phase-head' },
      h('h1', { class: 'phase-title' }, name === 'lobby' ? t('phase.dealt') : phaseTitle(t, v)),
      timer(t, 'phone-timer'))];
    const speakingNow = v.phase.speaker === me.id;
    // A hand-over (closing) shows every phone the same card: the step is over, its
    // speaker keeps the floor in the view but nobody acts until the next opens.
    const step = v.phase.closing || v.phase.resuming ? 'closing' : name;
    // A day opens with what the night brought; a first night, with the seats
    // drawn by lot. Both are public: the same on every phone (at night without
    // the phone's own seat, so that every night page is the same).
    out.push(morningCard(t, v));
    const pick = picking(v, me);
    if (seatsDrawn(v) && !pick) out.push(seatingCard(t, v, { me: name === 'night' ? undefined : me.id }));
    if (!me.alive && !speakingNow && step !== 'closing') {
      out.push(h('section', { class: 'card dead', dataset: { screen: 'dead' } },
        h('h2', null, ICON.dead + ' ' + t('dead.title')),
        h('p', null, (idx.get(me.id) || {}).removed ? t('dead.removed') : t('dead.help')),
        has(v, 'vote') || (v.phase.name === 'vote' && has(v, 'withdraw')) ? votePanel(t, v, me, P) : null));
      if (v.phase.speaker) out.push(h('p', { class: 'speaker-line' }, t('phase.speaker', { name: P(v.phase.speaker) })));
      out.push(lastVoteBox(t, v, idx));
      out.push(seatList(t, v, { me: me.id, compact: true, roles: 'public' }));
      return out;
    }
    switch (step) {
      case 'closing':
        out.push(h('section', { class: 'card closing', dataset: { screen: 'closing' } }, nextLine(t, v, me.id, 'big-line'), closingLine()));
        break;
      case 'night':
        out.push(night(t, v, me, P));
        break;
      case 'intro':
      case 'day':
      case 'defence':
      case 'last_word':
        out.push(...speech(t, v, me, P));
        break;
      case 'vote':
        out.push(votePanel(t, v, me, P));
        break;
      case 'vote_all':
        out.push(voteAllPanel(t, v, me, P));
        break;
      default:
        break;
    }
    // A pick shows its seats itself, and nothing below its Confirm.
    if (name !== 'night' && !pick) {
      out.push(lastVoteBox(t, v, idx));
      out.push(seatList(t, v, { me: me.id, compact: true, roles: 'public' }));
    }
    return out;
  }

  function lobby(t, v, me) {
    const mine = v.players.find((p) => p.id === me.id);
    return [h('section', { class: 'card', dataset: { screen: 'lobby' } },
      h('h1', null, v.table ? t('lobby.seated_at', { table: v.table, seat: mine ? mine.seat : '?' }) : t('lobby.seated', { seat: mine ? mine.seat : '?' })),
      h('p', null, t('lobby.wait')),
      h('p', { class: 'muted' }, t('lobby.players', { count: v.players.length }))),
    seatList(t, v, { me: me.id, compact: true, roles: 'public' }),
    has(v, 'leave') ? h('button', {
      type: 'button', class: 'secondary', onclick: async () => {
        if (!window.confirm(t('common.confirm'))) return;
        const res = await session.act({ type: 'leave' });
        if (res && res.status >= 200 && res.status < 300) {
          session.stop();
          api.seat.clear(code);
          session = null;
          showJoin('lobby.left');
        }
      },
    }, t('lobby.leave')) : null];
  }

  function gameOver(t, v, me) {
    const w = v.winner || 'town';
    // A Maniac wins with the side he plays for (R-MANIAC-11): the mafia's, or the
    // town's when a lone Maniac is read as the town's.
    const maniacSide = v.rules.maniacSide === 'mafia' ? 'mafia' : v.rules.loneManiac === 'town' ? 'town' : null;
    const won = me.team && (me.team === w || (me.role === 'maniac' && maniacSide === w));
    return [h('section', { class: ['card', 'winner', 'team-' + w], dataset: { screen: 'game_over' } },
      h('h1', null, t('winner.' + w)),
      me.team ? h('p', { class: 'big-line' }, won ? '★ ' + t('over.you_won') : t('over.you_lost')) : null),
    h('section', { class: 'card' }, h('h2', null, t('over.roles')), rolesList(t, v)),
    h('section', { class: 'card' }, h('h2', null, t('over.story')), storyList(t, v)),
    h('div', { class: 'ways' },
      session.me.evening ? h('a', { class: 'button primary', href: '/evening/' + session.me.evening, dataset: { action: 'evening' } }, t('evening.back')) : null,
      h('a', { class: ['button', session.me.evening ? 'secondary' : 'primary'], href: '/#protocol=' + code, dataset: { action: 'protocol' } }, '▤ ' + t('proto.open')),
      session.me.evening ? null : h('a', { class: 'button secondary', href: '/' }, t('over.new')))];
  }

  // night: one screen for every living player, whatever their card: the same
  // headline, the same seats, the same buttons in the same places. A phone lying
  // on the table shows nothing of its holder's role; what a tap means tonight
  // (a shot, a check, a save, a suspicion) is only on the card, while it is held.
  // Each living player taps once in each wake: pick a seat, or nobody, then
  // confirm.
  function night(t, v, me, P) {
    const sec = h('section', { class: 'card night', dataset: { screen: 'night' } });
    const open = (v.actions || []).length > 0;
    if (!open) {
      sec.append(h('h2', null, '☾ ' + t('night.asleep')),
        h('p', { class: 'muted' }, t('phase.pending', { count: v.phase.pending || 0 })));
      return sec;
    }
    const key = 'night:' + nightKey(v);
    const picked = pickOf(key);
    const seats = v.players.filter((p) => p.alive).map((p) => p.id);
    sec.classList.add('fit-card');
    // Seats drawn by lot are told in a line: the grid shows them in their new
    // order, the viewer's own marked, and the page stays one screen.
    if (seatsDrawn(v)) sec.append(h('p', { class: 'seating-line', dataset: { screen: 'seating' } }, '⚄ ' + t('seats.below')));
    sec.append(h('p', { class: 'task-title' }, t('night.prompt')),
      pickGrid(t, v, seats, key, { focus: 'night', me: me.id, none: 'night.nobody' }),
      h('p', { class: 'picked-line', role: 'status' }, picked === null ? t('night.pick') : picked ? t('night.picked', { target: P(picked) }) : t('night.picked_nobody')),
      confirmButton(t, picked, () => act(nightAction(v, picked))));
    return sec;
  }

  // pickOf is the seat picked, not yet confirmed, in the pick named key ("" for
  // nobody), or null before a pick. A pick is forgotten when the next opens.
  function pickOf(key) {
    return app.pick && app.pick.key === key ? app.pick.id : null;
  }

  // pickGrid is a pick to confirm, in the compact grid that keeps the night's
  // and the vote's page on one screen: a button per seat in targets and one for
  // none (opts.none, the key of its words: nobody tonight, an abstention),
  // the picked one pressed. opts: {focus, me, previous, none}.
  function pickGrid(t, v, targets, key, { focus, me, previous, none }) {
    const picked = pickOf(key);
    const pick = (id) => { app.pick = { key, id }; render(); };
    const grid = targetButtons(t, v, targets, pick, { disabled: session.busy, focus, me, picked, previous, compact: true });
    if (none) {
      grid.append(h('button', {
        type: 'button', class: ['target', 'nobody', picked === '' && 'picked', previous === '' && 'previous'], disabled: session.busy,
        'aria-pressed': picked === '' ? 'true' : 'false', dataset: { target: '', focus: focus + ':nobody' }, onclick: () => pick(''),
      }, h('span', { class: 'target-seat', 'aria-hidden': 'true' }, '–'), h('span', { class: 'target-name' }, t(none))));
    }
    return grid;
  }

  // confirmButton sends a pick once it is made, and forgets it: a vote taken
  // back to be cast again starts from no pick (its last choice marked).
  function confirmButton(t, picked, onConfirm) {
    return h('button', {
      type: 'button', class: 'primary big confirm', disabled: session.busy || picked === null, dataset: { action: 'confirm' },
      onclick: () => { app.pick = null; onConfirm(); },
    }, t('night.confirm'));
  }

  // nightKey names one wake of one night, so that a pick is forgotten when the
  // next opens.
  function nightKey(v) {
    return `${v.phase.night}:${v.phase.wake || 1}`;
  }

  // nightTasks are the acts the player's tap may mean in this wake.
  function nightTasks(v) {
    return (v.actions || []).filter((a) => a.type !== 'sleep' && a.type !== 'reveal');
  }

  // nightTask is the act this player's tap means now: the one chosen on the card
  // where the role has two (the Sheriff who checks or shoots), else the only one.
  function nightTask(v) {
    const tasks = nightTasks(v);
    const mode = app.nightMode && app.nightMode.key === nightKey(v) ? app.nightMode.type : null;
    return tasks.find((a) => a.type === mode) || tasks[0] || null;
  }

  // nightAction turns a confirmed pick into the action it means for this role:
  // the role's act on a seat it may take, else "sleep" (a citizen's suspicion,
  // "nobody", or a seat the act does not take).
  function nightAction(v, pick) {
    const task = nightTask(v);
    if (pick && task && (task.targets || []).includes(pick)) return { type: task.type, target: pick };
    return { type: 'sleep' };
  }

  function taskTitle(t, v, me, type) {
    switch (type) {
      case 'kill': return me.role === 'maniac' ? t('task.kill.maniac') : t('task.kill');
      case 'check': return me.role === 'don' ? t('task.check.don') : t(sheriffVariant('task.check', v.rules));
      case 'heal': return v.phase.wake === 2 ? t('task.heal.victims') : t('task.heal');
      case 'protect': return me.role === 'lover' ? t('task.protect.lover') : t('task.protect');
      case 'defend': return t('task.defend');
      case 'shoot': return t('task.shoot');
      default: return type;
    }
  }

  // tonight is what the held card says about this wake: what a tap means, the
  // team's shots where the team sees them, the Doctor's victims, a choice
  // between two acts.
  function tonight(t, v, me, P) {
    if (v.phase.name !== 'night' || !me.alive) return null;
    const meeting = v.rules.firstNightMeeting && v.phase.night === 1;
    const mates = v.players.filter((p) => p.id !== me.id && p.team === 'mafia');
    const out = h('div', { class: 'tonight' }, h('h3', null, t('card.tonight')));
    if (meeting) {
      out.append(h('p', null, t('night.meeting')));
      if (me.team === 'mafia' && mates.length) out.append(h('p', { class: 'mates' }, ICON.mafia + ' ' + t('night.meet_mafia', { names: t.list(mates.map((p) => P(p.id))) })));
      return out;
    }
    const tasks = nightTasks(v);
    const task = nightTask(v);
    if (!(v.actions || []).length) out.append(h('p', null, t('night.asleep')));
    else if (!task) out.append(h('p', null, t('task.none')));
    else if (tasks.length > 1) {
      // Two acts: the finger slides onto one and lets go (or the arrow keys).
      out.append(h('p', null, t('card.mode')), h('div', { class: 'modes', role: 'radiogroup' }, tasks.map((o) => h('span', {
        class: ['mode', o.type === task.type && 'chosen'], role: 'radio', 'aria-checked': o.type === task.type ? 'true' : 'false',
        dataset: { nightMode: o.type },
      }, taskTitle(t, v, me, o.type)))));
    } else out.append(h('p', { class: 'big-line' }, taskTitle(t, v, me, task.type)));
    if (me.shootBy && (v.actions || []).some((a) => a.type === 'kill')) {
      // R-MANIAC-03: the team's time to agree, counted on the card only.
      out.append(h('p', { class: 'reason' }, t('night.shoot_by'), ' ', h('span', { class: 'js-until', dataset: { until: me.shootBy } })));
    }
    if (me.victims && me.victims.length) out.append(h('p', null, t('night.victims', { names: t.list(me.victims.map(P)) })));
    if (me.shots && me.shots.length) {
      out.append(h('div', { class: 'shots' }, h('h3', null, t('night.shots')),
        h('ul', null, me.shots.map((s) => h('li', null, t('night.shot', { actor: P(s.actor), target: P(s.target) }))))));
    }
    return out;
  }

  function latestCheck(me, v) {
    const checks = me.checks || [];
    const c = checks[checks.length - 1];
    return c && c.night === v.phase.night ? c : null;
  }

  function checkText(t, v, c, P) {
    const params = { night: c.night, target: P(c.target) };
    if (c.kind === 'sheriff') return t(sheriffVariant(c.yes ? 'check.sheriff' : 'check.not_sheriff', v.rules), params);
    return t(c.yes ? 'check.black' : 'check.red', params);
  }

  function speech(t, v, me, P) {
    const name = v.phase.name;
    const out = [];
    const sp = v.phase.speaker;
    if (name === 'defence' && v.phase.reason) out.push(h('p', { class: 'reason' }, t('defence.' + v.phase.reason)));
    if (name === 'day' && v.phase.reason === 'extra') out.push(h('p', { class: 'reason' }, t('day.extra')));
    if (sp === me.id) {
      const title = { intro: 'day.intro', day: 'day.your_speech', defence: 'day.your_defence', last_word: 'day.your_last_word' }[name];
      const sec = h('section', { class: 'card mine', dataset: { screen: 'speech' } }, h('h2', null, ICON.speaking + ' ' + t(title)));
      const nom = has(v, 'nominate');
      if (nom) sec.append(h('h3', null, t('day.nominate')), targetButtons(t, v, nom.targets, (id) => act({ type: 'nominate', target: id }), { disabled: session.busy, focus: 'nominate', me: me.id }));
      if (has(v, 'withdraw')) sec.append(h('button', { type: 'button', class: 'secondary', disabled: session.busy, dataset: { action: 'withdraw' }, onclick: () => act({ type: 'withdraw' }) }, t('day.withdraw')));
      const test = has(v, 'testament');
      if (test) {
        sec.append(h('h3', null, t('day.testament')));
        for (const id of test.targets || []) {
          sec.append(h('div', { class: 'pair' }, (test.verdicts || ['mafia', 'honest']).map((verdict) => h('button', {
            type: 'button', class: 'target', disabled: session.busy, dataset: { target: id, verdict },
            onclick: () => act({ type: 'testament', target: id, verdict }),
          }, t('day.testament.' + verdict, { target: P(id) })))));
        }
      }
      const best = name === 'last_word' ? bestMove(t, v, me, P) : null;
      if (best) sec.append(best);
      if (has(v, 'end_speech')) sec.append(h('button', { type: 'button', class: 'primary big end-speech', disabled: session.busy, dataset: { action: 'end_speech' }, onclick: () => act({ type: 'end_speech' }) }, t('day.end_speech')));
      out.push(sec);
    } else if (sp) {
      const queue = v.phase.queue || [];
      const pos = queue.indexOf(me.id);
      const title = name === 'last_word' ? t('day.last_word', { name: P(sp) }) : t('phase.speaker', { name: P(sp) });
      out.push(h('section', { class: 'card', dataset: { screen: 'listen' } },
        h('h2', { class: 'speaker-line' }, ICON.speaking + ' ' + title),
        name === 'day' || name === 'intro' ? h('p', null, t('day.listen', { name: P(sp) })) : null,
        name === 'last_word' ? bestMoveLine(t, v, sp) : null,
        pos > 0 && (name === 'day' || name === 'intro') ? h('p', { class: 'muted' }, t('day.next', { count: pos })) : null));
    }
    if (has(v, 'raise_hand')) {
      out.push(h('button', { type: 'button', class: 'secondary wide', disabled: session.busy, dataset: { action: 'raise_hand' }, onclick: () => act({ type: 'raise_hand' }) }, '☝ ' + t('day.raise_hand')));
    } else if (name === 'day' && handRaised(v, me)) {
      out.push(h('p', { class: 'muted' }, '✓ ' + t('day.hand_raised')));
    }
    if (name === 'day' || name === 'defence') out.push(nominations(t, v, P));
    return out;
  }

  // bestMove is the last word's best move (the option bestMove): the seats to
  // name, picked up to the action's most and confirmed, as the night's and the
  // vote's picks are; once made, what the table heard. Nothing before or
  // after it says anything of the seats' cards.
  function bestMove(t, v, me, P) {
    const opt = has(v, 'best_move');
    if (!opt) return bestMoveLine(t, v, me.id);
    const key = `best:${v.phase.night}:${me.id}`;
    const picked = app.pick && app.pick.key === key ? app.pick.ids : [];
    const toggle = (id) => { app.pick = { key, ids: togglePick(picked, id, opt.max) }; render(); };
    return h('section', { class: 'best-move', dataset: { screen: 'best_move' } },
      h('h3', null, t('day.best_move')),
      h('p', { class: 'small' }, t('day.best_move.help', { count: opt.max })),
      targetButtons(t, v, opt.targets, toggle, { disabled: session.busy, focus: 'best_move', me: me.id, picked, compact: true }),
      h('p', { class: 'picked-line', role: 'status' }, picked.length ? t('day.best_move.picked', { names: t.list(picked.map(P)) }) : t('day.best_move.pick')),
      confirmButton(t, picked.length ? picked : null, () => act({ type: 'best_move', targets: picked })));
  }

  // bestMoveLine says the best move the speaker id made, if any.
  function bestMoveLine(t, v, id) {
    const made = bestMoveOf(v.events, id);
    return made ? h('p', { class: 'big-line', dataset: { screen: 'best_move_made' } },
      eventText(made, { t, players: playerIndex(v.players), rules: v.rules })) : null;
  }

  // handRaised: this player raised a hand since the day began (R-MANIAC-09).
  function handRaised(v, me) {
    for (let i = v.events.length - 1; i >= 0; i--) {
      const e = v.events[i];
      if (e.type === 'day_began') return false;
      if (e.type === 'hand' && e.target === me.id) return v.phase.reason !== 'extra';
    }
    return false;
  }

  function nominations(t, v, P) {
    const list = v.phase.nominations || [];
    if (v.rules.voting !== 'nominees') return null;
    return h('section', { class: 'card nominations' },
      h('h3', null, ICON.nominated + ' ' + t('day.nominations')),
      list.length ? h('ol', null, list.map((n) => h('li', null, t('day.nomination', { target: P(n.target), actor: P(n.by) }))))
        : h('p', { class: 'muted' }, t('day.no_nominations')));
  }

  function voteKey(v) {
    return `${v.phase.day}:${v.phase.name}:${(v.phase.candidates || []).join(',')}:${v.events.length}`;
  }

  // votePanel: the candidates to vote against, the player's own seat marked,
  // picked and then confirmed, as at night, so that a slip of the finger is
  // not a vote; once voted, the vote as the server has it (you.vote) and,
  // where the rules let a vote change, the way to take it back. A vote taken
  // back marks the choice it was, so a slip is easy to see.
  function votePanel(t, v, me, P) {
    const opt = has(v, 'vote');
    const sec = h('section', { class: 'card vote', dataset: { screen: 'vote' } });
    const key = voteKey(v);
    if (me.vote) session.local.vote = { key, target: me.vote.target || '' };
    const before = session.local.vote && session.local.vote.key === key ? session.local.vote.target : undefined;
    if (opt) {
      const pickKey = 'vote:' + key;
      const picked = pickOf(pickKey);
      const cast = () => {
        session.local.vote = { key, target: picked };
        act(picked ? { type: 'vote', target: picked } : { type: 'vote' });
      };
      sec.classList.add('fit-card');
      if (!me.alive) sec.append(h('p', null, t('vote.half')));
      if (v.phase.extended) sec.append(h('p', { class: 'reason' }, t('vote.extended')));
      sec.append(h('h2', null, t('vote.prompt')),
        pickGrid(t, v, opt.targets, pickKey, { focus: 'vote', me: me.id, previous: before, none: opt.abstain ? 'vote.abstain' : null }),
        h('p', { class: 'picked-line', role: 'status' }, picked === null ? t('vote.pick') : picked ? t('vote.picked', { target: P(picked) }) : t('vote.picked_abstain')),
        confirmButton(t, picked, cast),
        h('p', { class: 'muted small' }, t(v.rules.voteChange && v.phase.reason !== 'half' ? 'vote.change.help' : 'vote.final.help')));
    } else if (v.phase.reason === 'half') {
      // R-CLASSIC-10: the living have voted; last night's victim decides.
      sec.append(h('p', { class: 'big-line' }, t('vote.half_wait')));
    } else {
      const mine = me.vote || null;
      sec.append(h('h2', null, ICON.voted + ' ' + t('vote.cast')));
      if (mine) sec.append(h('p', { class: 'big-line' }, mine.target ? t('vote.you_voted', { target: P(mine.target) }) : t('vote.you_abstained')));
      if (has(v, 'withdraw')) sec.append(changeButton(t));
      sec.append(h('p', { class: 'muted' }, t('phase.pending', { count: v.phase.pending || 0 })));
    }
    return sec;
  }

  function changeButton(t) {
    return h('button', { type: 'button', class: 'secondary wide', disabled: session.busy, dataset: { action: 'withdraw' }, onclick: () => act({ type: 'withdraw' }) }, '↺ ' + t('vote.change'));
  }

  function voteAllPanel(t, v, me, P) {
    const names = t.list((v.phase.candidates || []).map(P));
    const q = v.phase.reason === 'justify' ? t('vote.all.justify', { names }) : t('vote.all.car_crash', { names });
    const sec = h('section', { class: 'card vote', dataset: { screen: 'vote_all' } }, h('h2', null, q));
    if (has(v, 'vote_all')) {
      if (v.phase.extended) sec.append(h('p', { class: 'reason' }, t('vote.extended')));
      sec.append(h('div', { class: 'pair' },
        h('button', { type: 'button', class: 'target yes', disabled: session.busy, dataset: { action: 'yes' }, onclick: () => act({ type: 'vote_all', yes: true }) }, '✓ ' + t('vote.all.yes')),
        h('button', { type: 'button', class: 'target no', disabled: session.busy, dataset: { action: 'no' }, onclick: () => act({ type: 'vote_all', yes: false }) }, '✗ ' + t('vote.all.no'))));
      sec.append(h('p', { class: 'muted small' }, t(v.rules.voteChange ? 'vote.change.help' : 'vote.final.help')));
    } else {
      const mine = me.vote || null;
      sec.append(h('h2', null, ICON.voted + ' ' + t('vote.cast')));
      if (mine) sec.append(h('p', { class: 'big-line' }, mine.yes ? t('vote.all.you_yes') : t('vote.all.you_no')));
      if (has(v, 'withdraw')) sec.append(changeButton(t));
      sec.append(h('p', { class: 'muted' }, t('phase.pending', { count: v.phase.pending || 0 })));
    }
    return sec;
  }

  function lastVoteBox(t, v, idx) {
    const ev = lastVote(v.events);
    if (!ev || ev.day !== v.phase.day) return null;
    return h('section', { class: 'card last-vote' }, h('h3', null, t('vote.last')),
      h('ul', { class: 'tally' }, voteLines(ev, { t, players: idx, rules: v.rules }).map((l) => h('li', null, l))));
  }

  // roleCard is the player's card, face down until pressed and held. Its face
  // (cardFace) is built on the press and leaves the page on the release, so
  // that a phone lying on the table holds none of it, not even hidden. Where
  // the role has two acts tonight the finger slides onto one and lets go to
  // choose it (arrow keys while Space holds the card); the Commissar's reveal
  // is made the same way (Enter while Space holds the card).
  function roleCard(t, v, me) {
    const faceUp = () => {
      holding = true;
      btn.classList.add('open');
      btn.setAttribute('aria-pressed', 'true');
      const old = btn.querySelector('.card-face');
      if (old) old.remove();
      btn.append(cardFace(t, v, me));
      session.tick(); // the mafia's countdown on the face shows at once
    };
    const hide = () => { holding = false; faceDown(btn); };
    // choose keeps the act chosen for this wake; nothing outside the card changes.
    const choose = (type) => { app.nightMode = { key: nightKey(v), type }; };
    const reveal = () => { if (window.confirm(t('day.reveal.help'))) act({ type: 'reveal' }); };
    const btn = h('button', {
      type: 'button', class: 'role-card', 'aria-pressed': 'false', dataset: { focus: 'rolecard' },
      onpointerdown: (e) => { e.preventDefault(); faceUp(); },
      onpointerup: (e) => {
        // What the finger lets go on is read before the face leaves the page.
        const under = document.elementFromPoint(e.clientX, e.clientY);
        const on = under && btn.contains(under) ? under.closest('[data-night-mode], [data-card-act]') : null;
        hide();
        if (on && on.dataset.nightMode) choose(on.dataset.nightMode);
        else if (on && on.dataset.cardAct === 'reveal') reveal();
      },
      onpointercancel: hide, onpointerleave: hide,
      onkeydown: (e) => {
        if (e.key === ' ' || e.key === 'Enter') {
          e.preventDefault();
          if (!holding) faceUp();
          else if (e.key === 'Enter' && !e.repeat && has(v, 'reveal')) { hide(); reveal(); }
          return;
        }
        const tasks = nightTasks(v);
        if (holding && tasks.length > 1 && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
          e.preventDefault();
          const i = tasks.indexOf(nightTask(v));
          choose(tasks[(i + (e.key === 'ArrowRight' ? 1 : tasks.length - 1)) % tasks.length].type);
          faceUp();
        }
      },
      onkeyup: (e) => { if (e.key === ' ' || e.key === 'Enter') hide(); },
      onblur: hide, oncontextmenu: (e) => e.preventDefault(),
    },
    h('span', { class: 'hold-label' }, t('card.hold')),
    h('span', { class: 'small muted hold-hint' }, t('card.hint')));
    if (holding) faceUp(); // drawn again while held: a new view came in
    return h('div', { class: 'role-card-wrap' }, btn);
  }

  // cardFace is what the held card shows: role, team, teammates, the
  // Commissar's reveal, tonight's meaning of a tap and the checks. Everything
  // a neighbour must not read is here and nowhere else. It is no live region:
  // a screen reader reads it where its focus is, on the held card, and never
  // announces it by itself through the phone's speaker.
  function cardFace(t, v, me) {
    const mates = v.players.filter((p) => p.id !== me.id && p.team === 'mafia');
    const idx = playerIndex(v.players);
    const P = (id) => playerLabel(t, idx, id);
    const latest = latestCheck(me, v);
    return h('div', { class: 'card-face' },
      h('p', { class: 'small muted' }, t('card.your_role')),
      h('p', { class: 'role-name' }, (ICON[me.team] || '') + ' ' + t(roleKey(me.role, v.rules))),
      h('p', null, t('card.team', { team: t('team.' + me.team) })),
      has(v, 'reveal') ? revealAct(t) : null,
      h('p', { class: 'small' }, t(roleKey(me.role, v.rules) + '.help')),
      me.seatCode ? h('p', { class: 'small seat-code' }, t('card.seat_code', { code: me.seatCode })) : null,
      me.team === 'mafia' && mates.length ? h('p', { class: 'mates' }, t('card.mates', { names: t.list(mates.map((p) => t('player.with_role', { player: P(p.id), role: t(roleKey(p.role, v.rules)) }))) })) : null,
      tonight(t, v, me, P),
      latest ? h('p', { class: 'check-result' }, checkText(t, v, latest, P)) : null,
      me.checks && me.checks.length ? h('div', null, h('h3', null, t('check.title')),
        h('ul', null, me.checks.map((c) => h('li', null, checkText(t, v, c, P))))) : null);
  }

  // revealAct is the Commissar's reveal (R-PARTY-04) on his held card: a
  // button anywhere else would tell a neighbour who he is. It sits at the top
  // of the face, away from where the finger that opened the card lets go.
  function revealAct(t) {
    return h('div', { class: 'card-acts' },
      h('p', null, t('card.reveal')),
      h('span', { class: 'card-act', dataset: { cardAct: 'reveal' } }, t('day.reveal')),
      h('p', { class: 'small muted' }, t('day.reveal.help')));
  }

  return {
    unmount() {
      if (session) session.stop();
      clearTimeout(eveningTimer);
      eveningTimer = null;
      document.removeEventListener('pointerup', letGo);
    },
    rerender() {
      if (session) render();
      else if (taking) renderTaking();
      else renderJoin();
    },
  };
}

// faceDown turns a held role card over again: its face leaves the page.
function faceDown(card) {
  card.classList.remove('open');
  card.setAttribute('aria-pressed', 'false');
  const face = card.querySelector('.card-face');
  if (face) face.remove();
}
