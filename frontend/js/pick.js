// A pick of several seats to confirm, such as a best move's: which seats are
// picked. No DOM access.

// togglePick is picked with id taken out if it is in, else added at the end,
// while fewer than max are picked; at max a new seat changes nothing, so
// that a pick never names more than the action takes.
export function togglePick(picked, id, max) {
  if (picked.includes(id)) return picked.filter((x) => x !== id);
  return picked.length < max ? [...picked, id] : picked;
}
