// The unfinished games: each with its date, its players, how far it is and whose turn,
// one tap to continue; abandoned after a confirmation (the server keeps it, out of every
// list). The home screen shows the latest; the screen ?view=games shows them all.

import { get, post } from "./api.js";
import { h } from "./dom.js";
import { when } from "./figures.js";
import { gameName, label, num, t } from "./i18n.js";
import { address } from "./prefs.js";

const PAGE = 50;

/** How far a game is: the round (Yams), or the leader against the target (10 000). */
function progress(game) {
  // A game listed before its summary said its rounds: ours, 13.
  if (game.game === "yams") return t("round-of", { round: game.round, rounds: game.rounds ?? 13 });
  return t("of-target", { total: num(Math.max(0, ...game.totals)), target: num(game.target) });
}

/** Ask before abandoning: true when the person confirms. */
function confirmAbandon(game) {
  return new Promise((resolve) => {
    const no = h("button", { type: "button" }, t("cancel"));
    const yes = h("button", { type: "button", class: "danger" }, t("abandon-game"));
    const dialog = h("dialog", { class: "dialog confirm", "aria-labelledby": "abandon-title", "aria-describedby": "abandon-about" },
      h("div", { class: "confirm-body" },
        h("h2", { id: "abandon-title" }, t("abandon-title")),
        h("p", { class: "what" }, `${gameName(game.game)} · ${game.players.join(", ")}`),
        h("p", { id: "abandon-about" }, t("abandon-about")),
        h("div", { class: "actions" }, no, yes)));
    const done = (answer) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    no.addEventListener("click", () => done(false));
    yes.addEventListener("click", () => done(true));
    dialog.addEventListener("cancel", () => done(false));
    document.body.append(dialog);
    dialog.showModal();
    no.focus();
  });
}

/** A game to continue, and its abandon button; `onGone()` once it is abandoned. */
export function unfinishedItem(game, { onOpen, onGone }) {
  const scores = game.players.map((name, seat) => `${name} ${num(game.totals[seat])}`).join(" · ");
  const turn = game.players[game.seat];
  const link = h("a", { href: address(game.id), class: "resume-game" },
    game.my_turn ? h("span", { class: "my-turn" }, t("your-turn")) : null,
    h("span", { class: "what" }, label(t("continue"), gameName(game.game)),
      h("span", { class: "where" }, ` · ${progress(game)} · ${t("turn-of", { name: turn })}`)),
    h("span", { class: "who" }, scores,
      h("span", { class: "when" }, " · ", h("span", { class: "sr-only" }, label(t("last-played"))), " ",
        when(game.updated_at, { short: true }))));
  link.addEventListener("click", (event) => {
    event.preventDefault();
    onOpen(game.id);
  });
  const error = h("p", { class: "error", role: "alert" });
  const abandon = h("button", { type: "button", class: "quiet abandon" }, t("abandon"),
    h("span", { class: "sr-only" }, ` (${gameName(game.game)}, ${when(game.updated_at)})`));
  abandon.addEventListener("click", async () => {
    if (!(await confirmAbandon(game))) {
      abandon.focus();
      return;
    }
    const response = await post(`/api/games/${encodeURIComponent(game.id)}/actions`,
      { version: game.version, type: "abandon" });
    if (response.ok) onGone();
    else error.textContent = response.data.detail ?? "";
  });
  // Only the host ends a game; a guest's or a watcher's list just continues it.
  return h("li", { class: "resume-item" }, link, game.host ? abandon : null, error);
}

/** The items of unfinished games; each goes once abandoned (then `onGone()`), the focus
 * moving to its neighbour. */
export function unfinishedItems(games, onOpen, onGone = () => {}) {
  return games.map((game) => {
    const item = unfinishedItem(game, {
      onOpen,
      onGone: () => {
        const next = item.nextElementSibling ?? item.previousElementSibling;
        item.remove();
        (next?.querySelector("a") ?? document.getElementById("app"))?.focus();
        onGone();
      },
    });
    return item;
  });
}

/** Every unfinished game, the latest first, page by page. */
export class GamesScreen {
  constructor(root, nav, onOpen) {
    this.closed = false;
    this.offset = 0;
    this.onOpen = onOpen;
    this.body = h("div", { class: "games-body", "aria-busy": "true" });
    this.more = h("button", { type: "button", hidden: true }, t("more-games"));
    this.more.addEventListener("click", () => this.load());
    root.replaceChildren(h("section", { class: "history", "aria-labelledby": "games-title" },
      h("div", { class: "screen-head" }, h("h1", { id: "games-title" }, t("all-unfinished"))),
      this.body, h("div", { class: "actions" }, this.more)));
    document.title = `${t("all-unfinished")} · Zar`;
    this.load();
  }

  async load() {
    const response = await get(`/api/games?finished=false&limit=${PAGE + 1}&offset=${this.offset}`);
    if (this.closed) return;
    this.body.removeAttribute("aria-busy");
    if (!response.ok) {
      this.body.replaceChildren(h("p", { class: "error" }, response.data.detail ?? ""));
      return;
    }
    const games = response.data.slice(0, PAGE);
    this.more.hidden = response.data.length <= PAGE;
    this.offset += games.length;
    if (!this.list) {
      this.list = h("ul", { class: "resume-list" });
      this.body.replaceChildren(this.list);
    }
    this.list.append(...unfinishedItems(games, this.onOpen, () => this.gone()));
    if (!this.list.children.length) this.empty();
  }

  /** A game abandoned: the next page starts one earlier. */
  gone() {
    this.offset -= 1;
    if (!this.list.children.length) this.empty();
  }

  empty() {
    this.body.replaceChildren(h("p", { class: "empty" }, t("no-unfinished")));
  }

  close() {
    this.closed = true;
  }
}
