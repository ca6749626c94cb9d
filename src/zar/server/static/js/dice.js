// Dice: ivory rounded squares with real pips (inline SVG), the tray they lie in, a tumble.

import { attr, h } from "./dom.js";
import { reducedMotion } from "./feedback.js";

const SVG = "http://www.w3.org/2000/svg";
const SPOTS = { tl: [28, 28], tr: [72, 28], ml: [28, 50], c: [50, 50], mr: [72, 50], bl: [28, 72], br: [72, 72] };
const FACES = {
  1: ["c"],
  2: ["tr", "bl"],
  3: ["tr", "c", "bl"],
  4: ["tl", "tr", "bl", "br"],
  5: ["tl", "tr", "c", "bl", "br"],
  6: ["tl", "tr", "ml", "mr", "bl", "br"],
};

function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
  return el;
}

/** A die's face as an SVG picture (hidden from screen readers: the button names the face). */
export function face(n) {
  const picture = svg("svg", { viewBox: "0 0 100 100", "aria-hidden": "true", focusable: "false" });
  picture.append(svg("rect", { x: 4, y: 4, width: 92, height: 92, rx: 20, class: "body" }));
  for (const spot of FACES[n] ?? []) {
    const [cx, cy] = SPOTS[spot];
    picture.append(svg("circle", { cx, cy, r: 9.5, class: "pip" }));
  }
  return picture;
}

/** A short tumble for a die just thrown (none under reduced motion or ?pace=instant); the
 * Web Animations API plays it without asking the page to lay itself out again. */
export function tumble(el) {
  if (reducedMotion()) return;
  const spin = (Math.random() < 0.5 ? -1 : 1) * (200 + Math.random() * 160);
  const hop = -8 - Math.random() * 10;
  el.animate([
    { transform: `translateY(${hop}px) rotate(${spin}deg) scale(.8)` },
    { transform: "translateY(3px) rotate(-8deg) scale(1.03)", offset: 0.65 },
    { transform: "none" },
  ], { duration: 500, easing: "cubic-bezier(.2, .7, .3, 1)" });
}

/** A die that cannot be taken shakes its head. */
export function shake(el) {
  if (reducedMotion()) return;
  el.animate([
    { transform: "none" },
    { transform: "translateX(-7px) rotate(-4deg)", offset: 0.2 },
    { transform: "translateX(7px) rotate(4deg)", offset: 0.4 },
    { transform: "translateX(-4px)", offset: 0.6 },
    { transform: "translateX(4px)", offset: 0.8 },
    { transform: "none" },
  ], { duration: 350 });
}

/** A die as a picture only (the strip of dice set aside, a lost throw). */
export function still(n, extra = "") {
  return h("span", { class: `die still ${extra}`.trim(), "data-face": n }, face(n));
}

/**
 * The tray: a group named "Zarlar" of die buttons, one per position. Each die shown is a
 * button with aria-pressed and data-face; positions without a face show a blank die. (10 000
 * adds its strip of dice set aside to the group: buttons too, pressed and disabled.)
 */
export class Tray {
  constructor(count, label, onPress) {
    this.row = h("div", { class: `tray tray-${count}` });
    this.el = h("div", { class: "dice", role: "group", "aria-label": label }, this.row);
    this.slots = [];
    for (let position = 0; position < count; position++) {
      const button = h("button", { type: "button", class: "die", "aria-pressed": "false" });
      button.addEventListener("click", () => onPress(position, button));
      const blank = h("span", { class: "die blank", "aria-hidden": "true" });
      const slot = h("div", { class: "slot" }, button, blank);
      this.row.append(slot);
      this.slots.push({ slot, button, blank, face: null });
    }
  }

  /**
   * Show the dice: `dice[position]` is null (no die there: set aside), {blank: true} (a
   * die waiting to be thrown) or {face, pressed, label, note, disabled, rolled, dim}.
   */
  show(dice) {
    dice.forEach((die, position) => {
      const s = this.slots[position];
      s.slot.hidden = die === null;
      if (die === null) return;
      const showing = !die.blank;
      s.button.hidden = !showing;
      s.blank.hidden = showing;
      s.blank.classList.toggle("dim", Boolean(die.dim));
      if (die.blank) {
        s.blank.replaceChildren(die.face ? face(die.face) : "");
        return;
      }
      if (s.face !== die.face) {
        s.button.replaceChildren(face(die.face), h("span", { class: "note", "aria-hidden": "true" }));
        s.face = die.face;
      }
      attr(s.button, "data-face", die.face);
      attr(s.button, "aria-pressed", die.pressed ? "true" : "false");
      attr(s.button, "aria-label", die.label);
      s.button.disabled = Boolean(die.disabled);
      s.button.lastChild.textContent = die.note ?? "";
      if (die.rolled) tumble(s.button);
    });
  }

  /** The die buttons a person sees, in order (keys 1 to 6 press them). */
  visible() {
    return this.slots.filter((s) => !s.slot.hidden && !s.button.hidden).map((s) => s.button);
  }
}
