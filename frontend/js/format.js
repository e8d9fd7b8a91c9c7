// Formatting helpers with no DOM access: countdowns and clock skew.

// clock formats a duration in milliseconds as m:ss, rounding up so that a timer
// shows 0:00 only when time is really up.
export function clock(ms) {
  const total = Math.max(0, Math.ceil((Number(ms) || 0) / 1000));
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}

// remaining returns the milliseconds left until endsAt (an RFC 3339 string or
// null) at local time nowMs, corrected by skewMs (server clock minus local clock).
// It returns null when there is no deadline.
export function remaining(endsAt, nowMs, skewMs = 0) {
  if (!endsAt) return null;
  const end = Date.parse(endsAt);
  if (!Number.isFinite(end)) return null;
  return Math.max(0, end - (nowMs + skewMs));
}

// countdown describes a phase's timer for display: text (m:ss), seconds left, and
// urgent when ten seconds or fewer remain. A paused phase, and one about to go on
// after a pause (resuming), shows the time it had left. Returns null when the
// phase has no timer.
export function countdown(phase, nowMs, skewMs = 0) {
  if (!phase) return null;
  const frozen = !!(phase.paused || phase.resuming);
  const ms = frozen ? Number(phase.pausedLeftMs) || 0 : remaining(phase.endsAt, nowMs, skewMs);
  if (ms === null) return null;
  const seconds = Math.ceil(ms / 1000);
  return { ms, seconds, text: clock(ms), urgent: seconds <= 10, paused: frozen };
}

// closingSeconds returns the whole seconds left of a hand-over: the step is over
// and the next opens by itself at endsAt (phase.closing), or a paused step goes
// on then (phase.resuming). It is null when no hand-over is running.
export function closingSeconds(phase, nowMs, skewMs = 0) {
  if (!phase || !(phase.closing || phase.resuming)) return null;
  const ms = remaining(phase.endsAt, nowMs, skewMs);
  return ms === null ? null : Math.ceil(ms / 1000);
}

// skewFrom estimates the server clock minus the local clock from a response's Date
// header (one-second resolution) and the local time the response arrived. Small
// differences are within the header's resolution and count as zero.
export function skewFrom(dateHeader, receivedMs) {
  if (!dateHeader) return 0;
  const server = Date.parse(dateHeader);
  if (!Number.isFinite(server)) return 0;
  const skew = server + 500 - receivedMs;
  return Math.abs(skew) < 1500 ? 0 : skew;
}

// timeSignal says which time signal a countdown that went from prev to now
// seconds left sounds: 'soon' as it reaches ten seconds, 'end' as it reaches
// zero, otherwise null. prev is null when the countdown was not running before
// (a new step, or a page just opened), which sounds nothing.
export function timeSignal(prev, now) {
  if (prev === null || prev === undefined || now === null || now === undefined || now >= prev) return null;
  if (now <= 0) return 'end';
  if (now <= 10 && prev > 10) return 'soon';
  return null;
}
