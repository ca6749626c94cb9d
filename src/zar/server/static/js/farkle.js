// 10 000 on screen: the scoreboard toward the target, the tray, the dice set aside by
// throw, the turn's points, the selection's value before it is taken, the risk.

import { markDice } from "./coach.js";
import { face as faceOf, shake, still, Tray } from "./dice.js";
import { attr, describe, h, labelled, text } from "./dom.js";
import { num, pct, t } from "./i18n.js";
import { Scoreboard } from "./scores.js";

const DICE = 6;
// The chance that n dice score nothing (docs/rules.md: 2.3 % with six dice, 66.7 % with one);
// the server sends it for the dice in play, the page needs it for the dice a selection leaves.
const RISK = [0, 2 / 3, 4 / 9, 5 / 18, 17 / 108, 25 / 324, 5 / 216];

export class FarkleBoard {
  constructor(view, ctx) {
    this.ctx = ctx;
    this.selected = new Set(); // tray positions tapped, to set aside with the next throw or bank
    this.lost = null; // the throw that lost the last turn, shown dimmed until the next throw
    this.refused = null; // why the die just tapped cannot be taken, until the next tap
    this.hinted = null; // the dice the coach points at
    this.tray = new Tray(DICE, t("dice"), (position, button) => this.pressDie(position, button));
    this.points = h("span", { class: "big num" });
    this.lostPoints = h("s", { class: "lost num" });
    this.selection = h("span", { class: "selection num" });
    // By the dice, one line that never moves them: why a die or a selection is refused, else
    // the seeds' message that holds (a lost turn, hot dice, the last round), else what to do.
    this.line = h("p", { class: "felt-say" });
    this.strip = h("ol", { class: "strip", "aria-label": t("set-aside-strip") });
    this.risk = h("span", { class: "risk num" });
    this.riskBox = h("span", { class: "risk-box" }, this.risk, h("span", { class: "risk-label" }, t("risk-label")));
    this.throwButton = labelled(t("throw"), "primary throw");
    this.throwButton.addEventListener("click", () => this.throw());
    this.bankButton = labelled(t("bank"), "bank");
    this.bankButton.addEventListener("click", () => this.bank());
    this.secondButton = this.bankButton;
    this.tray.el.append(this.strip); // the dice set aside stay in the group "Zarlar"
    this.play = h("div", { class: "play" },
      h("p", { class: "turn-points" }, h("span", { class: "label" }, t("turn-label")),
        this.lostPoints, this.points, this.selection),
      this.line, this.tray.el,
      h("div", { class: "controls" }, h("div", { class: "throw-with-risk" }, this.throwButton, this.riskBox), this.bankButton));
    this.scores = new Scoreboard(view.players, { target: view.target });
    this.card = null;
  }

  info(view) {
    return t("of-target", { total: num(view.totals[view.seat]), target: num(view.target) });
  }

  /** The seeds' messages while they are true: the lost turn while its throw shows, hot dice
   * until the next set-aside, the last round (and the score to beat) until the end. */
  notices(view) {
    const said = [];
    // The six come back hot and thrown at once, nothing scoring: both, in their order.
    if (view.hot_dice || this.lost?.after_hot_dice) said.push(t("hot-dice"));
    if (this.lost) said.push(t("turn-lost"));
    if (this.lost?.penalty) {
      said.push(t("three-lost", { name: view.players[this.lost.seat].name, points: num(this.lost.penalty) }));
    }
    if (this.lastRound(view)) said.push(t("last-round"), this.toBeat(view));
    // Under a penalty for three lost turns in a row (house rules): the player on turn has
    // lost two, and the next lost one costs.
    if (view.three_lost && !view.over && view.lost_in_row[view.seat] === 2) {
      said.push(t("two-lost", { points: num(view.three_lost) }));
    }
    return said;
  }

  lastRound(view) {
    return view.last_round_by !== null && !view.over;
  }

  /** The last round: the best total of the others, which the player on turn must pass. */
  toBeat(view) {
    const best = Math.max(...view.totals.filter((_, seat) => seat !== view.seat));
    return t("to-beat", { points: num(best) });
  }

  /** The seeds' message the felt shows now, short, or null. */
  feltNotice(view) {
    if (this.lost) return t("felt-turn-lost");
    if (view.hot_dice) return t("felt-hot-dice");
    if (this.lastRound(view)) return `${t("last-round-short")} · ${this.toBeat(view)}`;
    return null;
  }

  /** A burst when the dice come back hot (once: the computer's set-aside and its throw of
   * the six that follows are two states of the same hot dice). */
  celebrates(view, prev) {
    if (!view.hot_dice) return null;
    const same = prev && prev.hot_dice && prev.seat === view.seat && prev.groups.length === view.groups.length;
    return same ? null : "hot-dice";
  }

  narrate(view, prev) {
    const said = [];
    const name = (seat) => view.players[seat].name;
    const sameTurn = prev && prev.seat === view.seat;
    const before = sameTurn ? prev.groups.length : 0;
    const added = view.groups.slice(before);
    for (const group of added) {
      said.push(t("sets-aside", { name: name(view.seat), dice: group.dice.join(", "), points: num(group.points) }));
    }
    for (const event of view.events) {
      if (event.type === "turn_lost") {
        said.push(t("throws", { name: name(event.seat), dice: event.dice.join(", ") }));
      } else if (event.type === "banked") {
        said.push(t("banks", { name: name(event.seat), points: num(event.points) }));
      }
    }
    if (view.phase === "set-aside") {
      const faces = view.tray.filter((d) => !d.aside).map((d) => d.face);
      said.push(t("throws", { name: name(view.seat), dice: faces.join(", ") }));
    }
    return said;
  }

  /** Whether `view` comes from a throw (dice to set aside, or a lost turn). */
  threw(view) {
    return view.phase === "set-aside" || view.events.some((e) => e.type === "turn_lost");
  }

  /** The selection's mask (sum of 1 << position) and what it is worth or why it is refused. */
  choice() {
    if (!this.selected.size) return null;
    let mask = 0;
    for (const position of this.selected) mask += 1 << position;
    return this.view.selections[String(mask)] ?? null;
  }

  render(view, { mine, busy, fresh }) {
    this.view = view;
    this.mine = mine && !busy;
    if (fresh) {
      this.selected.clear();
      this.hinted = null;
      this.refused = null;
      const lost = view.events.find((e) => e.type === "turn_lost");
      // The house rules' penalty for the third lost turn in a row, said with the lost turn.
      const penalty = view.events.find((e) => e.type === "three_lost");
      if (lost) this.lost = { ...lost, penalty: penalty?.points ?? 0 };
      else if (view.phase === "set-aside" || view.over) this.lost = null;
      const banked = view.events.find((e) => e.type === "banked");
      if (banked) this.scores.flash(banked.seat, `+${num(banked.points)}`);
    }
    const throwing = view.phase === "set-aside";
    const choice = throwing ? this.choice() : null;
    const worth = choice && "points" in choice ? choice.points : 0;

    this.renderDice(view, fresh && throwing);
    this.renderStrip(view);
    text(this.points, num(view.turn_points));
    text(this.lostPoints, this.lost ? num(this.lost.points) : "");
    this.lostPoints.hidden = !this.lost || !this.lost.points;
    attr(this.lostPoints, "aria-label", this.lost ? t("lost-points", { points: num(this.lost.points) }) : null);
    text(this.selection, worth ? `+${num(worth)}` : "");
    const banks = view.turn_points + worth;
    // Under an entry or a bank minimum (house rules), a bank takes that many points at least.
    const short = banks > 0 && banks < view.bank_floor ? view.bank_floor - banks : 0;
    this.renderLine(view, choice, short);
    this.play.classList.toggle("lost-turn", Boolean(this.lost));

    const left = throwing ? view.dice_in_play - this.selected.size : view.dice_in_play;
    const risk = throwing ? (this.selected.size ? RISK[left || DICE] : null) : view.risk;
    text(this.risk, risk === null || view.over ? "" : pct(risk));
    // No risk to say (nothing chosen yet): its place kept, so that `At` does not change size.
    this.riskBox.classList.toggle("none", risk === null || view.over);
    this.throwButton.disabled = !this.mine || (throwing && !worth);
    attr(this.throwButton, "aria-description", risk === null || view.over ? null : t("throw-risk", { risk: pct(risk) }));

    this.bankButton.disabled = !this.mine || short > 0 || (throwing ? !worth : !view.can_bank);
    describe(this.bankButton, banks && !view.over ? `(+${num(banks)})` : "",
      short ? t("bank-short", { points: num(short) }) : banks && !view.over ? `+${num(banks)}` : null);

    this.scores.render(view);
  }

  /** The line by the dice: a refusal first, then the seeds' message, then, nothing chosen
   * yet after a throw, what to do (so that greyed buttons never puzzle); `short`: the points
   * a bank still needs, the dice chosen counted. */
  renderLine(view, choice, short) {
    const throwing = view.phase === "set-aside";
    const refusal = this.refused ?? (choice && "refused" in choice ? choice.refused : null);
    const notice = refusal ? null : this.feltNotice(view);
    // Nothing chosen yet after a throw: what to do; a turn short of the bank's floor (an
    // entry, a bank minimum): why `Kasaya yatır` waits.
    const hint = throwing && this.mine && !this.selected.size ? t("pick-dice")
      : this.mine && short ? t("bank-short", { points: num(short) }) : "";
    const words = refusal ?? notice ?? hint;
    if (this.line.textContent !== words) {
      // The status line says the seeds' messages to screen readers: here they are not said twice.
      this.line.replaceChildren(notice ? h("span", { "aria-hidden": "true" }, words) : words);
      this.line.className = `felt-say ${refusal ? "refusal" : notice ? "notice" : "hint"}`;
      // A long refusal takes a smaller font rather than a second line: nothing moves.
      for (const smaller of ["long", "longer"]) {
        if (words && this.line.scrollWidth > this.line.clientWidth) this.line.classList.add(smaller);
      }
    }
  }

  renderDice(view, rolled) {
    markDice(this.tray, this.hinted);
    if (view.over) {
      this.tray.show(view.tray.map(() => null));
      return;
    }
    if (view.phase !== "set-aside") {
      // Waiting for a throw: blank dice for those in play, or the lost throw, dimmed.
      const lostFaces = this.lost?.dice ?? [];
      this.tray.show(view.tray.map((die, position) => {
        if (lostFaces.length) return position < lostFaces.length ? { blank: true, face: lostFaces[position], dim: true } : null;
        return die.aside ? null : { blank: true };
      }));
      return;
    }
    this.tray.show(view.tray.map((die, position) => {
      if (die.aside) return null;
      const chosen = this.selected.has(position);
      return {
        face: die.face,
        pressed: chosen,
        label: chosen ? t("die-selected", { face: die.face }) : String(die.face),
        note: chosen ? t("selected") : "",
        disabled: !this.mine,
        rolled,
      };
    }));
  }

  /**
   * The dice set aside in this turn, a group per throw with its points. Those still out of
   * play (since the last hot dice) are die buttons, pressed and disabled; the dice that came
   * back hot are pictures, one group with their points, so that the strip keeps to a line.
   */
  renderStrip(view) {
    const key = JSON.stringify([view.groups, view.tray]);
    if (this.stripKey === key) return;
    this.stripKey = key;
    const aside = view.tray.filter((die) => die.aside);
    let first = view.groups.length; // the first group of dice still out of play
    for (let left = aside.length; left > 0 && first > 0; ) left -= view.groups[--first].dice.length;
    const past = view.groups.slice(0, first);
    const back = past.flatMap((group) => group.dice);
    const points = past.reduce((sum, group) => sum + group.points, 0);
    const pictures = past.length
      ? [h("li", { class: "group past" },
        h("span", { class: "mini", "aria-hidden": "true" }, back.map((face) => still(face))),
        h("span", { class: "sr-only" }, `${back.join(", ")}:`), h("span", { class: "plus num" }, `+${num(points)}`))]
      : [];
    this.strip.replaceChildren(...pictures, ...view.groups.slice(first).map((group) => {
      const plus = h("span", { class: "plus num" }, `+${num(group.points)}`);
      const dice = group.dice.map((face) => {
        const taken = aside.findIndex((die) => die.face === face);
        if (taken >= 0) aside.splice(taken, 1);
        return h("button", { type: "button", class: "die still", disabled: true, "aria-pressed": "true",
          "data-face": face, "aria-label": t("die-aside", { face }) }, faceOf(face));
      });
      return h("li", { class: "group" }, h("span", { class: "mini" }, dice), plus);
    }));
    this.strip.hidden = !view.groups.length;
  }

  pressDie(position, button) {
    const view = this.view;
    if (!this.mine || view.phase !== "set-aside") return;
    const refused = view.refusals[String(position)];
    if (refused) {
      // The die stays in play, and the line by the dice says why until the next tap (the
      // status line says it to screen readers).
      shake(button);
      this.refused = refused;
      this.ctx.render();
      this.ctx.tell(refused, { onFelt: true });
      return;
    }
    this.refused = null;
    if (this.selected.has(position)) this.selected.delete(position);
    else this.selected.add(position);
    this.ctx.render();
  }

  positions() {
    return [...this.selected].sort();
  }

  /** The coach points at dice to set aside (tray positions), or at none. */
  hint(positions) {
    this.hinted = positions ?? null;
    markDice(this.tray, this.hinted);
  }

  /** The coach's selection, taken: its dice chosen (the player still throws or banks). */
  apply(option) {
    if (!this.mine || option.kind !== "set_aside" || this.view.phase !== "set-aside") return;
    this.selected = new Set(option.positions);
    this.ctx.render();
  }

  /** What the player chose and has not sent yet, to come back after a reload. */
  choices() {
    return { selected: this.positions() };
  }

  restore({ selected = [] }) {
    if (this.view.phase !== "set-aside") return;
    const inPlay = selected.filter((p) => this.view.tray[p] && !this.view.tray[p].aside);
    this.selected = new Set(inPlay);
  }

  /** Where the keyboard's focus goes when what had it is gone or disabled. */
  focusTarget() {
    if (!this.throwButton.disabled) return this.throwButton;
    if (!this.bankButton.disabled) return this.bankButton;
    return this.tray.visible().find((die) => !die.disabled) ?? this.throwButton;
  }

  throw() {
    const view = this.view;
    if (view.phase !== "set-aside") {
      this.ctx.act({ type: "throw" });
      return;
    }
    // Every die in play set aside too: hot dice, and the six are thrown in the same tap.
    this.ctx.act({ type: "throw", set_aside: this.positions() });
  }

  bank() {
    const view = this.view;
    this.ctx.act(view.phase === "set-aside" ? { type: "bank", set_aside: this.positions() } : { type: "bank" });
  }

  hold() {}

  holdArrival() {}

  stop() {}

  close() {}
}
