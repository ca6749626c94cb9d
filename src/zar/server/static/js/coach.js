// The coach: what the perfect player would do now, and what each choice is worth (the
// server's strategies, GET /api/games/{id}/hint). It opens when a player asks, follows
// their decisions for the rest of that turn (or until they close it), and is closed again
// at their next turn, until they ask again.

import { get } from "./api.js";
import { attr, h } from "./dom.js";
import { dec } from "./figures.js";
import { boxName, num, pct, t } from "./i18n.js";

/** The faces of a 10 000 tray, by position (a tray lists faces or {face, aside}). */
export function facesOf(tray = []) {
  return tray.map((die) => (typeof die === "object" && die !== null ? die.face : die));
}

/** An option of the coach or the review, in words: what it does. */
export function optionLabel(option, faces = []) {
  switch (option.kind) {
    case "keep":
      return option.faces?.length ? t("coach-keep", { dice: option.faces.join(", ") }) : t("coach-keep-none");
    case "box":
      return t("coach-box", { box: boxName(option.box), points: num(option.points) });
    case "set_aside":
      return t("coach-set-aside", {
        dice: option.positions.map((p) => faces[p] ?? "?").join(", "),
        points: num(option.points),
      });
    case "bank":
      return t("coach-bank");
    case "throw":
      return t("coach-throw");
    default:
      return String(option.kind);
  }
}

/** What an option is worth, figure by figure: the expected final score (Yams) or turn
 * points, the chance of winning, the risk of a throw scoring nothing. */
function figuresOf(option, game) {
  const said = [];
  if (typeof option.expected === "number") {
    said.push(t(game === "yams" ? "coach-final" : "coach-turn", { value: dec(option.expected) }));
  }
  if (typeof option.win === "number") said.push(t("coach-win", { chance: pct(option.win) }));
  if (typeof option.risk === "number") said.push(t("risk", { risk: pct(option.risk) }));
  return said;
}

/** An option's figures, each in a span of its own; `behind` says how far it is from the best. */
export function optionFigures(option, game, behind = "") {
  return h("span", { class: "figures num" },
    figuresOf(option, game).flatMap((part, i) => [i ? " · " : null, h("span", { class: "figure" }, part)]),
    behind ? [" ", h("span", { class: "figure behind" }, behind)] : null);
}

/** How far an option is behind the best: in chance of winning when the coach weighs that,
 * else in expected points. */
function behind(option, best) {
  if (typeof option.win === "number" && typeof best.win === "number") return `(−${pct(best.win - option.win)})`;
  if (typeof option.expected === "number" && typeof best.expected === "number") {
    return `(−${dec(best.expected - option.expected)})`;
  }
  return "";
}

/** The dice an option points at: those to keep, or to set aside. */
function positionsOf(option) {
  if (option?.kind === "keep") return option.keep;
  if (option?.kind === "set_aside") return option.positions;
  return null;
}

/** The turn a state is in: a seat's round (Yams) or its count of turns played (10 000).
 * The coach opened in a turn stays open for that turn only (an undo comes back to it). */
export function turnOf(view) {
  const turn = view.game === "yams" ? view.round : view.turns?.[view.seat];
  return `${view.seat}:${turn}`;
}

export class Coach {
  /** `onToggle(open)` is told when a player has opened or closed the panel (the auto-fill
   * waits for a player reading it; the screen makes room for it; a reload brings it back). */
  constructor(gameId, board, game, onToggle = () => {}) {
    this.onToggle = onToggle;
    this.id = gameId;
    this.board = board;
    this.game = game;
    this.view = null;
    this.open = new Set(); // the turns (turnOf) in which a player opened the coach
    this.asked = null; // the version of the hint on screen, or on its way
    this.button = h("button", { type: "button", class: "hint-button", hidden: true,
      "aria-expanded": "false", "aria-controls": "coach" }, t("hint"));
    this.button.addEventListener("click", () => this.toggle());
    this.lead = h("p", { class: "lead" });
    this.list = h("ol", { class: "options" });
    // No close button of its own, `İpucu` closes it: a button `Kapat` would also be found by
    // a search for the button `At` by part of its name.
    this.el = h("section", { id: "coach", class: "coach", role: "region", "aria-labelledby": "coach-title",
      hidden: true }, h("h2", { id: "coach-title" }, t("coach")), this.lead, this.list);
  }

  /** A state on screen: the button when the seat may ask, the panel while it is open. */
  update(view) {
    this.view = view;
    this.button.hidden = !view.can_hint;
    const open = this.opened(view);
    attr(this.button, "aria-expanded", String(open));
    this.el.hidden = !open;
    if (open && this.asked !== view.version) this.ask();
    if (!open) {
      this.asked = null;
      this.board.hint(null);
    }
  }

  /** Whether the panel is open in `view`: asked for in this turn, and the seat may ask. */
  opened(view) {
    return Boolean(view?.can_hint) && this.open.has(turnOf(view));
  }

  toggle(on = !this.opened(this.view)) {
    // The seat's earlier turns are forgotten (an undo comes back to this one at most).
    const turn = turnOf(this.view);
    const seat = `${this.view.seat}:`;
    for (const old of [...this.open]) if (old.startsWith(seat) && old !== turn) this.open.delete(old);
    if (on) this.open.add(turn);
    else this.open.delete(turn);
    this.update(this.view);
    this.onToggle(on);
  }

  /** The turns whose coach was open, as a reload finds them. */
  restore(turns = []) {
    for (const turn of turns) if (typeof turn === "string") this.open.add(turn);
  }

  async ask() {
    const version = this.view.version;
    this.asked = version;
    this.el.setAttribute("aria-busy", "true");
    this.lead.textContent = t("coach-thinking");
    this.list.replaceChildren();
    this.board.hint(null);
    const response = await get(`/api/games/${encodeURIComponent(this.id)}/hint`);
    if (this.asked !== version || this.view.version !== version) return; // the game moved on
    this.el.removeAttribute("aria-busy");
    if (!response.ok) {
      this.lead.textContent = response.data.detail ?? "";
      return;
    }
    this.show(response.data);
  }

  show(hint) {
    const options = hint.options ?? [];
    const faces = facesOf(this.view.tray);
    const best = options[0];
    const notes = this.view.notes ?? {};
    this.lead.textContent = hint.text ?? "";
    this.list.replaceChildren(...options.map((option, i) => {
      const label = optionLabel(option, faces);
      const li = h("li", { class: i === 0 ? "option best" : "option" },
        h("span", { class: "what" }, label, i === 0 ? h("span", { class: "badge" }, t("coach-best")) : null),
        optionFigures(option, this.game, i > 0 ? behind(option, best) : ""),
        option.kind === "box" && notes[option.box] ? h("span", { class: "why" }, notes[option.box]) : null);
      if (["keep", "box", "set_aside"].includes(option.kind)) {
        const apply = h("button", { type: "button", class: "apply",
          "aria-label": t("coach-apply-to", { option: label }) }, t("coach-apply"));
        apply.addEventListener("click", () => {
          this.board.apply(option);
          // The option taken, the next thing to do has the focus (`At`, or `Turu onayla`
          // for a box): Enter then throws or confirms instead of taking it again.
          const confirm = option.kind === "box" && !this.board.secondButton.disabled;
          (confirm ? this.board.secondButton : this.board.focusTarget())?.focus({ preventScroll: true });
        });
        li.append(apply);
      }
      // Pointing at an option shows its dice on the tray; leaving it, the best option's again.
      const positions = positionsOf(option);
      if (positions) {
        const mark = () => this.board.hint(positions);
        const unmark = () => this.board.hint(positionsOf(best));
        li.addEventListener("mouseenter", mark);
        li.addEventListener("mouseleave", unmark);
        li.addEventListener("focusin", mark);
        li.addEventListener("focusout", unmark);
      }
      return li;
    }));
    this.board.hint(positionsOf(best));
  }
}

/** Outline the dice of a tray the coach points at (positions), or none. */
export function markDice(tray, positions) {
  tray.slots.forEach((slot, position) =>
    slot.button.classList.toggle("hinted", Boolean(positions?.includes(position))));
}
