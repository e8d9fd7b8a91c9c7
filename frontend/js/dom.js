// A tiny element builder. Text always goes in as text nodes or textContent, never
// as HTML, so player names and server strings cannot inject markup.

// h creates an element: h('button', {class: 'big', onclick: fn, 'aria-label': x}, 'text', child…).
// Attribute values that are false, null or undefined are left out; true sets an
// empty attribute. Keys starting with "on" add event listeners. "text" sets
// textContent. "dataset" takes an object of data-* values.
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'text') el.textContent = String(v);
      else if (k === 'class') el.className = Array.isArray(v) ? v.filter(Boolean).join(' ') : String(v);
      else if (k === 'dataset') for (const [dk, dv] of Object.entries(v)) { if (dv !== undefined && dv !== null) el.dataset[dk] = String(dv); }
      else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2).toLowerCase(), v);
      else if (k === 'value' && 'value' in el) el.value = String(v);
      else if (k === 'checked' || k === 'selected') el[k] = !!v;
      else el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

// replace swaps the children of root for new ones, keeping the focus on the element
// with the same data-focus key when there was one.
export function replace(root, ...children) {
  const active = document.activeElement;
  const key = active && root.contains(active) && active.dataset ? active.dataset.focus : undefined;
  root.replaceChildren();
  append(root, children);
  if (key) {
    const again = root.querySelector(`[data-focus="${CSS.escape(key)}"]`);
    if (again) again.focus({ preventScroll: true });
  }
}
