// Every player's total, always in view: a row per seat in its colour, the seat on turn
// marked, a bar toward the target (10 000). In Yams each row is a button that shows that
// player's card on a phone, where one card is shown at a time.

import { attr, h, pill, seatClass, text } from "./dom.js";
import { label, num, t } from "./i18n.js";
import { markPresence } from "./invite.js";

const FLASH_MS = 1800; // a bank's "+450" or a box written, beside the total

export class Scoreboard {
  /** `target`: the 10 000 target (draws the bars); `onPick(seat)`: rows are buttons. */
  constructor(players, { target = null, onPick = null } = {}) {
    this.target = target;
    this.rows = players.map((player, seat) => {
      const total = h("span", { class: "total num" });
      const flash = h("span", { class: "flash num", "aria-hidden": "true" });
      const where = h("span", { class: "where", "aria-hidden": "true" });
      const parts = [pill(player, seat), total, flash, where];
      const fill = h("span", { class: "fill" });
      if (target) parts.push(h("span", { class: "track", "aria-hidden": "true" }, fill));
      const who = onPick
        ? h("button", { type: "button", class: "who", "aria-pressed": "false", onclick: () => onPick(seat) }, parts)
        : h("span", { class: "who" }, parts);
      const li = h("li", { class: `score ${seatClass(seat)}` }, who);
      return { li, who, total, fill, flash, where, timer: null };
    });
    this.targetLine = target ? h("p", { class: "target num" }) : null;
    this.el = h("section", { class: `scores scores-${players.length > 3 ? "many" : "few"}`, "aria-label": t("scoreboard") },
      this.targetLine, h("ol", {}, this.rows.map((row) => row.li)));
  }

  /** The totals of `view`; `shown` is the seat whose card is on screen (Yams, a phone). */
  render(view, { shown = null } = {}) {
    if (this.targetLine) text(this.targetLine, label(t("target"), num(this.target)));
    this.rows.forEach((row, seat) => {
      text(row.total, num(view.totals[seat]));
      row.li.classList.toggle("now", !view.over && seat === view.seat);
      if (this.target) row.fill.style.width = `${Math.min(100, (100 * view.totals[seat]) / this.target)}%`;
      // Played on another phone: whether it is here, quietly (a dot; in words for screen
      // readers and a pointer's title).
      const said = markPresence(row.li, view.seats?.[seat]);
      if (row.who.tagName === "BUTTON") {
        attr(row.who, "aria-pressed", String(seat === shown));
        attr(row.who, "aria-description", [t("show-card"), said].filter(Boolean).join("; "));
      } else {
        attr(row.who, "aria-description", said || null);
      }
    });
  }

  /** A few words beside a seat's total for a moment: what it just banked or wrote. */
  flash(seat, words) {
    const row = this.rows[seat];
    if (!row) return;
    clearTimeout(row.timer);
    row.flash.textContent = words;
    row.li.classList.add("flashing");
    row.timer = setTimeout(() => this.unflash(row), FLASH_MS);
  }

  /** No words beside any total: a replay's step shows only what its own move did. */
  quiet() {
    this.rows.forEach((row) => this.unflash(row));
  }

  unflash(row) {
    clearTimeout(row.timer);
    row.flash.textContent = "";
    row.li.classList.remove("flashing");
  }
}
