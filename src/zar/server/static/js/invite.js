// Playing from several phones: `Davet et` (the host's) opens a dialog with a link another
// phone opens to take a seat (its secret after `#`, never sent to a server), the same as a
// QR code, a short code to type, a link for watchers; and the table: who plays each seat,
// where, whether their phone is here, and what the host may do (hand an absent person's
// seat to the computer, take a seat back to this phone, end the game).

import { post } from "./api.js";
import { attr, h, pill, text } from "./dom.js";
import { when } from "./figures.js";
import { label, t } from "./i18n.js";

/** Where a seat is played, as this device sees it, in words. */
export function whereSeat(seat) {
  if (seat.standin) return t("holder-standin");
  return t(`holder-${seat.holder}`);
}

/** Whether a seat's phone is here, else since when it is away, in words. */
export function presence(seat) {
  if (seat.holder === "computer" || seat.holder === "you") return "";
  if (seat.here) return t("here");
  return seat.away_since ? t("away-since", { time: when(seat.away_since, { short: true }) }) : t("away");
}

/** Mark `el` (a player's total, a card's column head) with whether the seat `info` is
 * played on another phone (`far`) and whether that phone is here (else `away`); its title
 * says it. Returns the words, for an accessible description ("" for this phone's seats and
 * the computer's). */
export function markPresence(el, info) {
  const far = Boolean(info && info.holder !== "you" && info.holder !== "computer");
  const said = far ? [whereSeat(info), presence(info)].filter(Boolean).join(", ") : "";
  el.classList.toggle("far", far);
  el.classList.toggle("away", far && !info.here);
  attr(el, "title", said || null);
  return said;
}

export class InviteDialog {
  /** `game` is the game's id; `onView(view)` is told of a state a seat's move brought. */
  constructor(game, onView) {
    this.game = game;
    this.onView = onView;
    this.error = h("p", { class: "error", role: "alert" });
    this.body = h("div", { class: "invite-body" });
    this.table = h("div", { class: "invite-table" });
    const done = h("button", { type: "button", class: "primary" }, t("done"));
    done.addEventListener("click", () => this.el.close());
    this.el = h("dialog", { class: "dialog invite", "aria-labelledby": "invite-title" },
      h("div", { class: "invite-card" },
        h("h2", { id: "invite-title" }, t("invite")),
        this.body, this.table, this.error,
        h("div", { class: "actions" }, done)));
    document.body.append(this.el);
  }

  /** Open with a fresh invitation (each is spent by the first phone that takes a seat). */
  async open(view) {
    this.view = view;
    this.error.textContent = "";
    this.body.replaceChildren(h("p", { class: "about" }, "…"));
    this.drawTable(view);
    this.el.showModal();
    const response = await post(`/api/games/${encodeURIComponent(this.game)}/invitations`);
    if (!response.ok) {
      this.body.replaceChildren();
      this.error.textContent = response.data.detail ?? "";
      return;
    }
    this.drawInvitation(response.data);
  }

  close() {
    this.el.close();
    this.el.remove();
  }

  drawInvitation(invitation) {
    const copy = (what) => {
      const button = h("button", { type: "button", class: "quiet copy" }, t("copy"));
      button.addEventListener("click", async () => {
        try {
          await navigator.clipboard.writeText(what);
          text(button, t("copied"));
        } catch {
          text(button, t("copy"));
        }
      });
      return button;
    };
    const share = navigator.share ? h("button", { type: "button", class: "quiet" }, t("share")) : null;
    share?.addEventListener("click", () => navigator.share({ url: invitation.join }).catch(() => {}));
    const code = invitation.code.replace(/^(...)(...)$/, "$1 $2");
    // Served on this machine only (plain `make run`): the links name 127.0.0.1, which no
    // other phone opens; said first, with how to serve the network.
    const hereOnly = invitation.here_only
      ? h("div", { class: "here-only", id: "here-only" },
        h("p", {}, h("strong", {}, t("here-only"))),
        h("p", {}, t("here-only-how"), " ", h("code", {}, "make run HOST=0.0.0.0")))
      : null;
    this.body.replaceChildren(...[
      hereOnly,
      h("p", { class: "about" }, t("invite-about")),
      h("div", { class: "invite-join" },
        h("img", { src: invitation.qr, alt: t("qr-code"), width: 168, height: 168, class: "qr" }),
        h("div", { class: "invite-links" },
          h("p", {}, h("a", { href: invitation.join, class: "invite-link" }, t("invite-link")), " ", copy(invitation.join), share),
          h("p", { class: "code" }, h("span", { class: "label" }, label(t("invite-code"))), " ",
            h("strong", { class: "num" }, code)),
          h("p", { class: "about" }, t("code-about")))),
      h("p", { class: "watch" }, h("a", { href: invitation.watch }, t("watch-link")), " ", copy(invitation.watch),
        h("span", { class: "about" }, ` ${t("watch-about")}`)),
    ].filter(Boolean));
  }

  /** The table: each person's seat, where it is played, whether its phone is here, and the
   * host's moves for it. */
  drawTable(view) {
    this.view = view;
    if (!view.seats) return;
    const rows = view.players.map((player, seat) => {
      const info = view.seats[seat];
      if (player.computer) return null;
      const actions = [];
      const move = (to, words) => {
        const button = h("button", { type: "button", class: "quiet" }, words,
          h("span", { class: "sr-only" }, ` (${player.name})`));
        button.addEventListener("click", () => this.move(seat, to));
        actions.push(button);
      };
      if (info.holder !== "you" && !info.standin) move("computer", t("to-computer"));
      if (info.holder === "guest" || info.standin) move("host", t("to-this-phone"));
      const where = presence(info);
      return h("li", { class: "invite-seat" }, pill(player, seat),
        h("span", { class: "where" }, whereSeat(info), where ? ` · ${where}` : ""),
        h("span", { class: "moves" }, actions));
    });
    this.table.replaceChildren(h("h3", {}, t("seats-title")), h("ul", {}, rows));
  }

  async move(seat, to) {
    this.error.textContent = "";
    const response = await post(`/api/games/${encodeURIComponent(this.game)}/seats/${seat}`, { to });
    if (!response.ok) {
      this.error.textContent = response.data.detail ?? "";
      return;
    }
    this.drawTable(response.data);
    this.onView(response.data);
  }
}
