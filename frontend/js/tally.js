// Vote tallies from the ballots of a vote_result event. No DOM access.

// tally counts a vote over candidates: one row per player voted for, most votes
// first (ties keep the order of the candidates, then of first appearance), each
// with the voters' ids; abstentions separately. A half vote (R-CLASSIC-10) counts
// as 0.5.
export function tally(ballots, candidates = []) {
  const rows = new Map();
  const order = [];
  const abstained = [];
  for (const c of candidates) {
    if (!rows.has(c)) {
      rows.set(c, { target: c, votes: 0, voters: [], half: [] });
      order.push(c);
    }
  }
  for (const b of ballots || []) {
    if (!b.target) {
      abstained.push(b.voter);
      continue;
    }
    if (!rows.has(b.target)) {
      rows.set(b.target, { target: b.target, votes: 0, voters: [], half: [] });
      order.push(b.target);
    }
    const r = rows.get(b.target);
    if (b.half) {
      r.votes += 0.5;
      r.half.push(b.voter);
    } else {
      r.votes += 1;
      r.voters.push(b.voter);
    }
  }
  const list = order.map((id) => rows.get(id));
  const index = new Map(order.map((id, i) => [id, i]));
  list.sort((a, b) => b.votes - a.votes || index.get(a.target) - index.get(b.target));
  const top = list.length ? list[0].votes : 0;
  const leaders = top > 0 ? list.filter((r) => r.votes === top).map((r) => r.target) : [];
  return { rows: list, abstained, leaders };
}

// yesNo counts a "shall they leave?" vote: the ids voting yes and no.
export function yesNo(ballots) {
  const yes = [];
  const no = [];
  for (const b of ballots || []) (b.yes ? yes : no).push(b.voter);
  return { yes, no };
}

// isYesNo tells a vote_all result (it carries the reason) from a vote over
// candidates.
export function isYesNo(event) {
  return !!(event && event.type === 'vote_result' && event.result);
}
