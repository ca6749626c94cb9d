// Building elements: h("button", {class: "x", onclick: f}, "text", child).

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  el.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

/** Set or remove an attribute: null and false remove it. */
export function attr(el, name, value) {
  if (value === null || value === undefined || value === false) el.removeAttribute(name);
  else el.setAttribute(name, value === true ? "" : String(value));
}

/** A text that changes only when it differs (a live region announces only real changes). */
export function text(el, value) {
  if (el.textContent !== value) el.textContent = value;
}

/**
 * A seat's colour: six that stay apart for colour-blind eyes (Okabe and Ito) for the six
 * people at most, and a grey for a seventh seat, the computer's.
 */
export function seatClass(seat) {
  return `seat-${Math.min(seat, 6)}`;
}

/** The pill naming a player in their colour. */
export function pill(player, seat, extra = "") {
  return h("span", { class: `pill ${seatClass(seat)} ${extra}`.trim() }, player.name);
}

/**
 * A button whose accessible name is `name` alone: what it will do (`At (2)`,
 * `Kasaya yatır (+450)`) is shown beside the name, hidden from it, and said in
 * aria-description instead.
 */
export function labelled(name, className = "") {
  const extra = h("span", { class: "extra", "aria-hidden": "true" });
  const button = h("button", { type: "button", class: className }, h("span", {}, name), extra);
  button.extra = extra;
  return button;
}

export function describe(button, extra, description) {
  text(button.extra, extra);
  attr(button, "aria-description", description || null);
}
