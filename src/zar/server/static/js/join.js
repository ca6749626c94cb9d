// Joining a game from another phone: the invitation's link (`/#join=…`, its secret after
// `#`, which no server sees) or its short code (`Kodla katıl` on the home screen) shows the
// seats the host's phone still holds, each a button named by the person's name, and
// `İzle`; a watch link (`/#watch=…`) watches at once. The secret is kept for this tab only,
// and the address becomes the game's own (`/?game=ID`) as soon as it is used.

import { post } from "./api.js";
import { h } from "./dom.js";
import { names, t } from "./i18n.js";

const KEPT = "zar.joining"; // the invitation being used, for a reload of the join screen

/** The invitation in the address (`#join=…`, `#watch=…`), taken out of it at once. */
export function invitationInAddress() {
  const found = /^#(join|watch)=([\w-]+)$/.exec(location.hash);
  if (!found) return null;
  history.replaceState(null, "", `${location.pathname}${location.search}`);
  return { kind: found[1], secret: found[2] };
}

export function keep(invitation) {
  try {
    sessionStorage.setItem(KEPT, JSON.stringify(invitation));
  } catch {
    // nothing to keep it in: a reload shows the home screen
  }
}

export function kept() {
  try {
    return JSON.parse(sessionStorage.getItem(KEPT) ?? "null");
  } catch {
    return null;
  }
}

function forget() {
  try {
    sessionStorage.removeItem(KEPT);
  } catch {
    // nothing kept
  }
}

export class JoinScreen {
  /** `invitation`: {secret} of a link or a typed code; `onGame(id, view)` opens the game. */
  constructor(root, invitation, onGame) {
    this.root = root;
    this.invitation = invitation;
    this.onGame = onGame;
    this.closed = false;
    this.error = h("p", { class: "error", role: "alert" });
    this.body = h("div", { class: "join-body", "aria-busy": "true" });
    root.replaceChildren(h("section", { class: "join", "aria-labelledby": "join-title" },
      h("h1", { id: "join-title" }, t("join-title")), this.body, this.error));
    document.title = `${t("join-title")} · Zar`;
    this.start();
  }

  async start() {
    const opened = await post("/api/invitations/open", { invitation: this.invitation.secret });
    if (this.closed) return;
    this.body.removeAttribute("aria-busy");
    if (!opened.ok) {
      forget();
      this.body.replaceChildren(h("p", {}, h("a", { href: "/", class: "button" }, t("home"))));
      this.error.textContent = opened.data.detail ?? "";
      return;
    }
    if (opened.data.kind === "watch") {
      await this.watch();
      return;
    }
    const offer = opened.data;
    const seats = offer.seats.map(({ seat, name }) => {
      const button = h("button", { type: "button", class: "seat-choice" }, name);
      button.addEventListener("click", () => this.claim(seat, button));
      return button;
    });
    const watch = h("button", { type: "button", class: "quiet watch" }, t("watch"));
    watch.addEventListener("click", () => this.watch());
    // replaceChildren writes a null as the text "null": what is not shown is left out.
    this.body.replaceChildren(...[
      h("p", { class: "about" }, t("join-who", { names: names(offer.players) })),
      seats.length ? h("p", {}, t("join-pick")) : h("p", {}, t("join-none")),
      h("div", { class: "seat-choices" }, seats),
      offer.yours.length ? this.goOn(offer.game) : null,
      h("p", { class: "watch-line" }, watch, " ", h("span", { class: "about" }, t("watch-about"))),
    ].filter(Boolean));
  }

  goOn(game) {
    const link = h("button", { type: "button", class: "primary" }, t("to-game"));
    link.addEventListener("click", () => this.done(game, null));
    return h("p", {}, link);
  }

  async claim(seat, button) {
    button.disabled = true;
    this.error.textContent = "";
    const response = await post("/api/invitations/claim", { invitation: this.invitation.secret, seat });
    button.disabled = false;
    if (!response.ok) {
      this.error.textContent = response.data.detail ?? "";
      return;
    }
    this.done(response.data.id, response.data);
  }

  async watch() {
    const response = await post("/api/invitations/watch", { invitation: this.invitation.secret });
    if (this.closed) return;
    if (!response.ok) {
      this.error.textContent = response.data.detail ?? "";
      return;
    }
    this.done(response.data.id, response.data);
  }

  done(game, view) {
    forget();
    this.onGame(game, view);
  }

  close() {
    this.closed = true;
  }
}
