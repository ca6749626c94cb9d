// Yams on screen: five dice, the throws left, every player's scorecard, the auto-fill.

import { markDice } from "./coach.js";
import { Tray } from "./dice.js";
import { attr, describe, h, labelled, seatClass, text } from "./dom.js";
import { boxName, num, t } from "./i18n.js";

const UPPER_BOXES = 6; // Ones to Sixes come first in the card
const UPPER_BONUS_AT = 63;

export class YamsBoard {
  constructor(view, ctx) {
    this.ctx = ctx;
    this.kept = new Set(); // positions kept for the next throw
    this.box = null; // the box tapped, waiting for "Turu onayla"
    this.hinted = null; // the dice the coach points at
    this.clock = null; // the auto-fill countdown
    this.boxes = Object.keys(view.cards[0].boxes);
    this.tray = new Tray(5, t("dice"), (position) => this.pressDie(position));
    this.throwButton = labelled(t("throw"), "primary throw");
    this.throwButton.addEventListener("click", () => this.throw());
    this.confirmButton = labelled(t("confirm-round"), "confirm");
    this.confirmButton.addEventListener("click", () => this.confirm());
    this.countdown = h("p", { class: "countdown", hidden: true, "aria-hidden": "true" });
    this.why = h("p", { class: "why" }); // why the box tapped scores what it does
    this.play = h("div", { class: "play" }, this.tray.el,
      h("div", { class: "controls" }, this.throwButton, this.confirmButton), this.why, this.countdown);
    this.board = this.card(view);
  }

  card(view) {
    this.cells = view.players.map(() => ({}));
    this.columns = [];
    const head = h("tr", {}, h("th", { scope: "col", class: "corner" }, t("box")),
      view.players.map((player, seat) => {
        const th = h("th", { scope: "col", class: `player ${seatClass(seat)}` },
          h("span", { class: "swatch", "aria-hidden": "true" }), h("span", { class: "name" }, player.name));
        this.columns.push([th]);
        return th;
      }));
    const rows = [];
    const row = (label, key, className = "") => {
      const cells = view.players.map((_, seat) => {
        const td = h("td", { class: "num" });
        this.columns[seat].push(td);
        this.cells[seat][key] = { td, button: null };
        return td;
      });
      rows.push(h("tr", { class: className }, h("th", { scope: "row" }, label), cells));
    };
    this.boxes.forEach((box, i) => {
      row(boxName(box), box, i === UPPER_BOXES - 1 ? "box end-upper" : "box");
      if (i === UPPER_BOXES - 1) {
        row(t("upper-total"), "upper_total", "sub");
        row(t("upper-bonus"), "upper_bonus", "sub");
      }
    });
    row(t("penta-bonus"), "penta_bonus", "sub");
    row(t("total"), "total", "total");
    return h("div", { class: "card-wrap" },
      h("table", { class: "card" }, h("caption", { class: "sr-only" }, t("scorecard")),
        h("thead", {}, head), h("tbody", {}, rows)));
  }

  info(view) {
    return t("round-of", { round: view.round });
  }

  sticky(view) {
    return view.sacrifice_message ?? "";
  }

  celebrates(view) {
    return view.events.some((e) => e.type === "filled" && (e.penta_bonus > 0 || (e.box === "PENTA" && e.points > 0)));
  }

  narrate(view, prev) {
    const said = [];
    for (const event of view.events) {
      if (event.type !== "filled") continue;
      const name = view.players[event.seat].name;
      said.push(t("writes", { name, box: boxName(event.box), points: num(event.points) }));
      if (event.penta_bonus) said.push(t("penta-bonus-won"));
      if (event.upper_bonus) said.push(t("upper-bonus-won"));
    }
    if (this.threw(view, prev)) {
      said.push(t("throws", { name: view.players[view.seat].name, dice: view.dice.join(", ") }));
    }
    if (this.clock) said.push(t("autofill-in", { n: view.autofill }));
    return said;
  }

  /** Whether `view` comes from a throw made since `prev`. */
  threw(view, prev) {
    if (!view.dice.length) return false;
    return !prev || prev.seat !== view.seat || prev.round !== view.round || prev.throws !== view.throws;
  }

  render(view, { mine, busy, prev, fresh }) {
    this.view = view;
    this.mine = mine && !busy;
    if (fresh) {
      if (!prev || prev.seat !== view.seat || view.throws === 0) this.kept.clear();
      this.box = null;
      this.hinted = null;
      this.stop();
      if (mine && view.throws_left === 0 && view.dice.length && view.autofill !== null) {
        this.startCountdown(view.autofill);
      }
    }
    this.renderDice(view, fresh && prev !== null && this.threw(view, prev));
    const left = view.throws_left;
    this.throwButton.disabled = !this.mine || left === 0;
    describe(this.throwButton, view.over ? "" : `(${left})`, view.over ? null : t("throws-left", { n: left }));
    const chosen = this.box && this.box in view.options;
    this.confirmButton.disabled = !this.mine || !chosen;
    describe(this.confirmButton, chosen ? `(${boxName(this.box)} ${num(view.options[this.box])})` : "",
      chosen ? t("box-points", { box: boxName(this.box), points: num(view.options[this.box]) }) : null);
    text(this.why, (chosen && view.notes?.[this.box]) || "");
    this.renderCard(view);
  }

  renderDice(view, threw) {
    markDice(this.tray, this.hinted);
    if (!view.dice.length) {
      this.tray.show([0, 1, 2, 3, 4].map(() => (view.over ? null : { blank: true })));
      return;
    }
    const canKeep = this.mine && view.throws_left > 0;
    this.tray.show(view.dice.map((face, position) => {
      const kept = this.kept.has(position);
      return {
        face,
        pressed: kept,
        label: kept ? t("die-kept", { face }) : String(face),
        note: kept ? t("kept") : "",
        disabled: !canKeep,
        rolled: threw && !kept,
      };
    }));
  }

  renderCard(view) {
    view.players.forEach((_, seat) => {
      const card = view.cards[seat];
      const now = !view.over && seat === view.seat;
      for (const el of this.columns[seat]) el.classList.toggle("now", now);
      for (const box of this.boxes) {
        const value = card.boxes[box];
        if (now && value === null) this.openBox(view, seat, box);
        else this.put(seat, box, value === null ? "" : num(value));
      }
      const upper = this.cells[seat].upper_total.td;
      this.put(seat, "upper_total", `${card.upper_total}/${UPPER_BONUS_AT}`);
      upper.classList.toggle("reached", card.upper_total >= UPPER_BONUS_AT);
      this.put(seat, "upper_bonus", card.upper_bonus ? num(card.upper_bonus) : "–");
      this.put(seat, "penta_bonus", card.penta_bonus ? num(card.penta_bonus) : "–");
      this.put(seat, "total", num(card.total));
    });
  }

  put(seat, key, value) {
    const cell = this.cells[seat][key];
    if (cell.button && cell.td.firstChild === cell.button) cell.td.replaceChildren();
    text(cell.td, value);
    cell.td.classList.remove("open");
  }

  /** An open box of the player whose round it is: a button named by the box alone. */
  openBox(view, seat, box) {
    const cell = this.cells[seat][box];
    if (!cell.button) {
      cell.button = h("button", { type: "button", class: "box", "aria-label": boxName(box), "aria-pressed": "false" },
        h("span", { class: "would", "aria-hidden": "true" }));
      cell.button.addEventListener("click", () => this.pressBox(box));
    }
    if (cell.td.firstChild !== cell.button) cell.td.replaceChildren(cell.button);
    cell.td.classList.add("open");
    const legal = box in view.options;
    const would = legal ? num(view.options[box]) : view.dice.length ? "–" : "";
    text(cell.button.firstChild, would);
    cell.button.classList.toggle("zero", legal && view.options[box] === 0);
    cell.button.disabled = !this.mine || !legal;
    attr(cell.button, "aria-pressed", String(this.box === box));
    attr(cell.button, "aria-description", legal ? t("points", { points: num(view.options[box]) }) : null);
  }

  pressDie(position) {
    if (!this.mine || !this.view.dice.length || this.view.throws_left === 0) return;
    if (this.kept.has(position)) this.kept.delete(position);
    else this.kept.add(position);
    this.ctx.render();
  }

  pressBox(box) {
    if (!this.mine || !(box in this.view.options)) return;
    this.box = this.box === box ? null : box;
    this.stop(); // the player chose: no auto-fill
    this.ctx.render();
  }

  /** The coach points at dice to keep (positions), or at none. */
  hint(positions) {
    this.hinted = positions ?? null;
    markDice(this.tray, this.hinted);
  }

  /** The coach's option, taken: its dice kept, or its box chosen (the player still confirms). */
  apply(option) {
    if (!this.mine) return;
    if (option.kind === "keep" && this.view.throws_left > 0) this.kept = new Set(option.keep);
    else if (option.kind === "box" && option.box in this.view.options) {
      this.box = option.box;
      this.stop();
    }
    this.ctx.render();
  }

  throw() {
    this.stop();
    const keep = this.view.dice.length ? [...this.kept].sort() : [];
    this.ctx.act({ type: "throw", keep });
  }

  confirm() {
    if (!this.box) return;
    this.stop();
    this.ctx.act({ type: "fill", box: this.box });
  }

  /** After the third throw: the seconds of the game's auto-fill, then the computer's box. */
  startCountdown(seconds) {
    let left = seconds;
    const tick = () => text(this.countdown, `${t("autofill")}: ${left}`);
    this.countdown.hidden = false;
    tick();
    this.clock = setInterval(() => {
      left -= 1;
      if (left > 0) {
        tick();
        return;
      }
      this.stop();
      this.ctx.act({ type: "autofill" });
    }, 1000);
  }

  stop() {
    clearInterval(this.clock);
    this.clock = null;
    this.countdown.hidden = true;
  }
}
