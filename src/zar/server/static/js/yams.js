// Yams on screen: five dice, the throws left, the scorecard, every player's total, the
// auto-fill countdown.
//
// The card is two tables, the upper and the lower section: stacked, one column per player,
// on a desktop; side by side on a phone, where only one player's column shows (the player
// on turn, or whoever's total was tapped), so that all thirteen boxes, the dice and both
// buttons fit one screen. A box of the player on turn is a button holding the box's name
// and what the throw would score there ("Bir 4").

import { markDice } from "./coach.js";
import { Tray } from "./dice.js";
import { attr, describe, h, labelled, seatClass, text } from "./dom.js";
import { markPresence } from "./invite.js";
import { boxName, num, t } from "./i18n.js";
import { instant } from "./prefs.js";
import { Scoreboard } from "./scores.js";

const UPPER_BOXES = 6; // Ones to Sixes come first in the card
const UPPER_BONUS_AT = 63;
const KEEP_MS = 450; // the computer's kept dice shown lifted before its throw lands
const BEAT_MS = 1300; // the card of a player who wrote elsewhere stays a moment on a phone

const roundOf = (view) => `${view.seat}:${view.round}`;

export class YamsBoard {
  constructor(view, ctx) {
    this.ctx = ctx;
    this.kept = new Set(); // positions kept for the next throw
    this.box = null; // the box tapped, waiting for "Turu onayla"
    this.hinted = null; // the dice the coach points at
    this.clock = null; // the auto-fill countdown
    this.held = new Set(); // the rounds (seat:round) whose auto-fill a player stopped
    this.holdNext = false; // the next state's round is held too (an undo's)
    this.picked = null; // the seat whose card a phone shows instead of the player on turn's
    this.written = null; // {seat, box}: the box just written, outlined until the next throw
    this.beat = null; // while the card of who wrote it elsewhere stays on a phone
    this.stage = null; // the computer's kept dice, shown before its throw lands
    this.rolling = false; // a throw to tumble once it is shown
    this.boxes = Object.keys(view.cards[0].boxes);
    this.tray = new Tray(5, t("dice"), (position) => this.pressDie(position));
    // Touching the dice after the third throw stops the countdown: the player is thinking.
    this.tray.el.addEventListener("pointerdown", () => this.hold());
    this.throwButton = labelled(t("throw"), "primary throw");
    this.throwButton.addEventListener("click", () => this.throw());
    this.confirmButton = labelled(t("confirm-round"), "confirm");
    this.confirmButton.addEventListener("click", () => this.confirm());
    this.secondButton = this.confirmButton;
    this.countdown = h("p", { class: "countdown", hidden: true, "aria-hidden": "true" });
    this.why = h("p", { class: "why" }); // why the box tapped scores what it does
    this.line = h("div", { class: "felt-line", hidden: true }, this.countdown, this.why);
    this.play = h("div", { class: "play" }, this.tray.el,
      h("div", { class: "controls" }, this.throwButton, this.confirmButton), this.line);
    this.scores = new Scoreboard(view.players, { onPick: (seat) => this.pick(seat) });
    this.card = this.buildCard(view);
  }

  buildCard(view) {
    this.cells = view.players.map(() => ({}));
    this.columns = view.players.map(() => []);
    this.heads = view.players.map(() => []);
    const part = (name, rows) => {
      const head = h("tr", {}, h("th", { scope: "col", class: "corner" }, t("box")),
        view.players.map((player, seat) => {
          const th = h("th", { scope: "col", class: `player ${seatClass(seat)}` },
            h("span", { class: "swatch", "aria-hidden": "true" }), h("span", { class: "name" }, player.name),
            h("span", { class: "where", "aria-hidden": "true" }));
          this.heads[seat].push(th);
          this.columns[seat].push(th);
          return th;
        }));
      const body = rows.map(([key, label, className]) => h("tr", { class: className },
        h("th", { scope: "row" }, label),
        view.players.map((_, seat) => {
          const td = h("td", { class: "num" });
          this.columns[seat].push(td);
          this.cells[seat][key] = { td, label, button: null, plain: null };
          return td;
        })));
      return h("table", { class: `card card-${name}` },
        h("caption", { class: "sr-only" }, t(`scorecard-${name}`)), h("thead", {}, head), h("tbody", {}, body));
    };
    const boxRows = (boxes) => boxes.map((box) => [box, boxName(box), "box"]);
    // The Penta bonus's row only under rules that give one (not Scandinavian Yatzy's).
    const pentaBonus = view.penta_bonus_counts ? [["penta_bonus", t("penta-bonus"), "sub penta-bonus"]] : [];
    return h("div", { class: `card-wrap${this.boxes.length > 13 ? " long-card" : ""}` },
      part("upper", [...boxRows(this.boxes.slice(0, UPPER_BOXES)),
        ["upper_total", t("upper-total"), "sub"], ["upper_bonus", t("upper-bonus"), "sub bonus"]]),
      part("lower", [...boxRows(this.boxes.slice(UPPER_BOXES)), ...pentaBonus, ["total", t("total"), "total"]]));
  }

  info(view) {
    return t("round-of", { round: view.round, rounds: view.rounds });
  }

  /** The messages true now: the sacrifice, once the player is to write. */
  notices(view) {
    const writing = view.throws_left === 0 || (this.box && this.box in view.options);
    const person = !view.players[view.seat].computer;
    return view.must_sacrifice && person && writing ? [t("must-sacrifice")] : [];
  }

  /** What to celebrate in `view`: a Penta written (or its bonus). */
  celebrates(view) {
    const penta = view.events.some((e) => e.type === "filled" && (e.penta_bonus > 0 || ((e.box === "PENTA" || e.box === "YATZY") && e.points > 0)));
    return penta ? "penta" : null;
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
      const name = view.players[view.seat].name;
      const kept = (view.kept ?? []).map((p) => view.dice[p]);
      if (kept.length) said.push(t("keeps", { name, dice: kept.join(", ") }));
      said.push(t("throws", { name, dice: view.dice.join(", ") }));
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
    if (fresh) this.arrive(view, prev, mine);
    this.renderDice(view);
    const left = view.throws_left;
    this.throwButton.disabled = !this.mine || left === 0;
    describe(this.throwButton, view.over ? "" : `(${left})`, view.over ? null : t("throws-left", { n: left }));
    const chosen = this.box && this.box in view.options;
    this.confirmButton.disabled = !this.mine || !chosen;
    const points = chosen ? view.options[this.box] : null;
    describe(this.confirmButton, chosen ? `(${boxName(this.box)} ${num(points)})` : "",
      chosen ? t(points === 1 ? "box-points-one" : "box-points", { box: boxName(this.box), points: num(points) }) : null);
    text(this.why, (chosen && view.notes?.[this.box]) || "");
    this.showLine();
    this.renderCard(view);
    this.scores.render(view, { shown: this.shown(view) });
  }

  /** A new state: what was kept, what was written, whether the auto-fill counts down. */
  arrive(view, prev, mine) {
    const newRound = !prev || prev.seat !== view.seat || prev.round !== view.round;
    this.kept = new Set(view.throws ? view.kept ?? [] : []);
    this.box = null;
    this.hinted = null;
    this.stop();
    if (newRound) this.picked = null;
    const threw = this.threw(view, prev);
    // The computer's (or another screen's) kept dice lift first, then the others fall.
    clearTimeout(this.stage?.timer);
    this.stage = null;
    if (threw && !mine && !instant && prev && !newRound && this.kept.size) {
      this.stage = { dice: prev.dice, timer: setTimeout(() => { this.stage = null; this.ctx.render(); }, KEEP_MS) };
    }
    this.rolling = threw && prev !== null; // a state shown afresh (a reload, an undo) does not tumble
    const filled = view.events.find((e) => e.type === "filled");
    clearTimeout(this.beat);
    this.beat = null;
    this.written = filled ? { seat: filled.seat, box: filled.box } : null;
    if (filled) {
      this.scores.flash(filled.seat, `${boxName(filled.box)} ${num(filled.points)}`);
      // Written by the computer or on another screen: on a phone, its card stays a moment.
      if (!this.ctx.owns(filled.seat) && !instant && filled.seat !== view.seat) {
        this.beat = setTimeout(() => {
          this.beat = null;
          this.ctx.render();
        }, BEAT_MS);
      }
    }
    // An undo's round, or a round whose player reads the coach, is theirs to write.
    if (this.holdNext || this.ctx.coaching?.(view)) this.held.add(roundOf(view));
    this.holdNext = false;
    if (mine && view.throws_left === 0 && view.dice.length && view.autofill !== null && !this.held.has(roundOf(view))) {
      this.startCountdown(view.autofill);
    }
  }

  /** The seat whose column a phone shows: a moment the writer's, else the one tapped, else
   * the player on turn. */
  shown(view) {
    if (this.beat) return this.written.seat;
    return this.picked ?? (view.over ? view.winners[0] ?? 0 : view.seat);
  }

  pick(seat) {
    this.picked = seat === this.view.seat ? null : seat;
    clearTimeout(this.beat);
    this.beat = null;
    this.ctx.render();
  }

  renderDice(view) {
    markDice(this.tray, this.hinted);
    if (!view.dice.length) {
      this.tray.show([0, 1, 2, 3, 4].map(() => (view.over ? null : { blank: true })));
      return;
    }
    const canKeep = this.mine && view.throws_left > 0;
    const faces = this.stage ? this.stage.dice : view.dice;
    const rolling = this.rolling && !this.stage;
    if (rolling) this.rolling = false;
    this.tray.show(faces.map((face, position) => {
      const kept = this.kept.has(position);
      return {
        face,
        pressed: kept,
        label: kept ? t("die-kept", { face }) : String(face),
        note: kept ? t("kept") : "",
        disabled: !canKeep,
        rolled: rolling && !kept,
      };
    }));
  }

  renderCard(view) {
    const shown = this.shown(view);
    this.card.dataset.shown = String(shown);
    view.players.forEach((_, seat) => {
      const card = view.cards[seat];
      const now = !view.over && seat === view.seat;
      for (const el of this.columns[seat]) {
        el.classList.toggle("now", now);
        el.classList.toggle("shown", seat === shown);
      }
      for (const th of this.heads[seat]) markPresence(th, view.seats?.[seat]); // its title says it
      for (const box of this.boxes) {
        const value = card.boxes[box];
        if (now && value === null) this.openBox(view, seat, box);
        else this.put(seat, box, value === null ? "" : num(value));
      }
      const bonus = card.upper_bonus ? ` +${num(card.upper_bonus)}` : "";
      this.put(seat, "upper_total", `${card.upper_total}/${UPPER_BONUS_AT}${bonus}`);
      this.cells[seat].upper_total.td.classList.toggle("reached", card.upper_total >= UPPER_BONUS_AT);
      this.put(seat, "upper_bonus", card.upper_bonus ? num(card.upper_bonus) : "–");
      if (view.penta_bonus_counts) this.put(seat, "penta_bonus", card.penta_bonus ? num(card.penta_bonus) : "–");
      this.put(seat, "total", num(card.total));
    });
    const pentaBonus = view.cards[shown]?.penta_bonus ?? 0;
    this.card.classList.toggle("penta-bonus-won", pentaBonus > 0);
    // The box just written stays outlined until the next throw, whoever wrote it.
    for (const row of this.cells) for (const cell of Object.values(row)) cell.td.classList.remove("just");
    if (this.written) this.cells[this.written.seat][this.written.box].td.classList.add("just");
  }

  /** A cell that is not a button: the box's name (shown on a phone) and its value. */
  put(seat, key, value) {
    const cell = this.cells[seat][key];
    if (!cell.plain) {
      cell.plain = [h("span", { class: "box-name" }, cell.label), " ", h("span", { class: "value" })];
    }
    if (cell.td.firstChild !== cell.plain[0]) cell.td.replaceChildren(...cell.plain);
    text(cell.plain[2], value);
    cell.td.classList.remove("open");
  }

  /** An open box of the player on turn: a button named by the box and, when the throw is
   * this screen's to write, what it would score ("Bir 4"). */
  openBox(view, seat, box) {
    const cell = this.cells[seat][box];
    if (!cell.button) {
      cell.button = h("button", { type: "button", class: "box", "aria-pressed": "false" },
        h("span", { class: "box-name" }, boxName(box)), " ", h("span", { class: "would" }));
      cell.button.addEventListener("click", () => this.pressBox(box));
    }
    if (cell.td.firstChild !== cell.button) cell.td.replaceChildren(cell.button);
    cell.td.classList.add("open");
    const legal = box in view.options;
    // Would-be scores only for the player who writes here: never in the computer's column.
    const own = this.ctx.owns(seat);
    const shows = own && legal;
    const would = shows ? num(view.options[box]) : own && view.dice.length ? "–" : "";
    text(cell.button.lastChild, would);
    cell.button.classList.toggle("zero", shows && view.options[box] === 0);
    cell.button.disabled = !this.mine || !legal;
    attr(cell.button, "aria-pressed", String(this.box === box));
    attr(cell.button, "aria-description", shows ? t(view.options[box] === 1 ? "points-one" : "points", { points: num(view.options[box]) }) : null);
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
    this.hold(); // the player chose: no auto-fill this round
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
      this.hold();
    }
    this.ctx.render();
  }

  /** What the player chose and has not sent yet, to come back after a reload. */
  choices() {
    return { kept: [...this.kept], box: this.box };
  }

  restore({ kept = [], box = null }) {
    if (this.view.throws_left > 0) this.kept = new Set(kept);
    if (box && box in this.view.options) {
      this.box = box;
      this.hold();
    }
  }

  /** Where the keyboard's focus goes when what had it is gone or disabled. */
  focusTarget() {
    if (!this.throwButton.disabled) return this.throwButton;
    if (!this.confirmButton.disabled) return this.confirmButton;
    return this.card.querySelector("button.box:not(:disabled)") ?? this.throwButton;
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
    this.showLine();
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

  /** The player acts (a tap on the dice or a box, the coach): no auto-fill this round;
   * they write it themselves. */
  hold() {
    if (!this.view) return;
    this.held.add(roundOf(this.view));
    this.stop();
  }

  /** An undo on its way: the round it goes back to is the player's to write. */
  holdArrival() {
    this.holdNext = true;
    this.stop();
  }

  stop() {
    clearInterval(this.clock);
    this.clock = null;
    this.countdown.hidden = true;
    this.showLine();
  }

  /** The line under the buttons, while the countdown or the box's words have something to
   * say: set where they change (WebKit and Firefox do not redo a `:has()` rule when a
   * child's text changes). */
  showLine() {
    this.line.hidden = this.countdown.hidden && !this.why.textContent;
  }

  close() {
    this.stop();
    clearTimeout(this.stage?.timer);
    clearTimeout(this.beat);
  }
}
