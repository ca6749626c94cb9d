// A game played from several phones, as this phone sees it: whose turn it is and on which
// phone, the host's choices when a guest's phone is away on its turn, and a seat of this
// phone's that the computer plays meanwhile, taken back in one tap with an account of what
// the computer did.

import { post } from "./api.js";
import { h, text } from "./dom.js";
import { boxName, num, t } from "./i18n.js";

const AWAY_MS = 8000; // a guest's phone away on its turn this long: the host's choices show

/** This phone's seats that the computer plays meanwhile. */
function standins(view) {
  return (view.you?.seats ?? []).filter((seat) => view.seats[seat].standin);
}

/** Whose turn it is and where, when it is played on another phone (or this one watches). */
function whereTurn(view) {
  if (view.over || !view.you) return "";
  const name = view.players[view.seat].name;
  const seat = view.seats[view.seat];
  if (view.you.role === "watcher") return t("you-watch", { name });
  if (seat.standin) return t("turn-standin", { name });
  if (seat.holder === "guest") return t("turn-elsewhere", { name });
  if (seat.holder === "host") return t("turn-host-phone", { name });
  return "";
}

export class PhoneSeats {
  /** `show(view)` puts a new state on screen; `tell(words)` answers the player. */
  constructor(gameId, { show, tell }) {
    this.id = gameId;
    this.showState = show;
    this.tell = tell;
    this.closed = false;
    this.view = null;
    this.elsewhere = h("p", { class: "elsewhere" }); // whose turn it is, on which phone
    // The seat on turn is a guest's whose phone went away: the host's choices, on the felt.
    this.awayChoices = h("div", { class: "away-choices", hidden: true });
    this.awaySeat = null;
    this.awayTimer = null;
    // Back from the computer (`Yerime dön`): what it did meanwhile, until the next move here.
    this.account = h("p", { class: "stood-in", "aria-live": "polite", hidden: true });
    // A seat of this phone's that the computer plays meanwhile: taken back in one tap.
    this.resumeButton = h("button", { type: "button", class: "resume-seat", hidden: true }, t("resume-seat"));
    this.resumeButton.addEventListener("click", () => this.resume());
  }

  render(view) {
    this.view = view;
    text(this.elsewhere, whereTurn(view));
    this.offerAway(view);
    this.resumeButton.hidden = !standins(view).length;
  }

  /** A move of this phone's person: the account of the computer's stand-in is done with. */
  moved() {
    this.account.hidden = true;
  }

  close() {
    this.closed = true;
    clearTimeout(this.awayTimer);
  }

  async resume() {
    for (const seat of standins(this.view)) {
      const response = await post(`/api/games/${encodeURIComponent(this.id)}/seats/${seat}`, { to: "holder" });
      if (!response.ok) {
        this.tell(response.data.detail);
        return;
      }
      this.showState(response.data);
      if (response.data.stood_in) this.tellStoodIn(response.data.stood_in);
    }
  }

  /** What the computer did for this phone's seat while it stood in, from the server's
   * reading of the log: the boxes it wrote (Yams), its turns and points (10 000). */
  tellStoodIn(done) {
    let words;
    if (done.boxes) {
      const boxes = done.boxes.map((b) => `${boxName(b.box)} ${num(b.points)}`).join(", ");
      words = done.rounds ? t(done.rounds === 1 ? "stood-in-yams-one" : "stood-in-yams", { n: done.rounds, boxes }) : null;
    } else {
      const points = num(done.points);
      words = done.turns ? t(done.turns === 1 ? "stood-in-10000-one" : "stood-in-10000", { n: done.turns, points }) : null;
    }
    text(this.account, words ?? t("stood-in-none"));
    this.account.hidden = false;
  }

  /** On the host's phone, when the seat on turn is a guest's whose phone is away: after a
   * short wait (a phone reloading comes back at once), `IA'ya ver` and `Bu telefona al`
   * for it there, as in the invitation's table. */
  offerAway(view) {
    const seat = view.seats?.[view.seat];
    const away = !view.over && view.you?.role === "host" && seat?.holder === "guest" && !seat.standin && !seat.here;
    const waiting = away ? view.seat : null;
    if (waiting === this.awaySeat) return;
    this.awaySeat = waiting;
    clearTimeout(this.awayTimer);
    this.awayChoices.hidden = true;
    this.awayChoices.replaceChildren();
    if (waiting !== null) this.awayTimer = setTimeout(() => this.showAway(waiting), AWAY_MS);
  }

  showAway(seat) {
    if (this.closed || this.awaySeat !== seat) return;
    const name = this.view.players[seat].name;
    const move = (to, words) => {
      const button = h("button", { type: "button" }, words, h("span", { class: "sr-only" }, ` (${name})`));
      button.addEventListener("click", () => this.moveSeat(seat, to, button));
      return button;
    };
    this.awayChoices.replaceChildren(
      h("p", {}, t("away-turn", { name })),
      h("div", { class: "away-moves" }, move("computer", t("to-computer")), move("host", t("to-this-phone"))));
    this.awayChoices.hidden = false;
  }

  /** The host hands a seat over (`computer`, `host`): the seats' route, as the dialog's. */
  async moveSeat(seat, to, button) {
    button.disabled = true;
    const response = await post(`/api/games/${encodeURIComponent(this.id)}/seats/${seat}`, { to });
    button.disabled = false;
    if (this.closed) return;
    if (!response.ok) {
      this.tell(response.data.detail);
      return;
    }
    this.showState(response.data);
  }
}
