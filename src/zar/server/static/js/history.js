// The history: finished games, the latest first; each replayed step by step from its log
// (GET /api/games/{id}/log, and the game as it stood at each version: ?at=N).

import { get } from "./api.js";
import { h, seatClass, text } from "./dom.js";
import { FarkleBoard } from "./farkle.js";
import { tableOf } from "./game.js";
import { when } from "./figures.js";
import { boxName, gameName, names, num, t } from "./i18n.js";
import { exportLinks, screenLink } from "./links.js";
import { reviewOpener } from "./review.js";
import { YamsBoard } from "./yams.js";

function winnersOf(game) {
  const won = game.winners.map((seat) => game.players[seat]);
  return won.length ? t(won.length > 1 ? "winners" : "winner", { names: names(won) }) : "";
}

export class HistoryList {
  constructor(root, nav) {
    this.closed = false;
    this.list = h("div", { class: "history-list", "aria-busy": "true" });
    root.replaceChildren(h("section", { class: "history", "aria-labelledby": "history-title" },
      h("div", { class: "screen-head" }, h("h1", { id: "history-title" }, t("history")),
        screenLink(t("stats"), { view: "stats" }, nav)),
      this.list));
    document.title = `${t("history")} · Zar`;
    this.load(nav);
  }

  async load(nav) {
    const response = await get("/api/games?finished=true&limit=100");
    if (this.closed) return;
    this.list.removeAttribute("aria-busy");
    if (!response.ok) {
      this.list.replaceChildren(h("p", { class: "error" }, response.data.detail ?? ""));
      return;
    }
    if (!response.data.length) {
      this.list.replaceChildren(h("p", { class: "empty" }, t("no-finished-games")));
      return;
    }
    this.list.replaceChildren(h("h2", { class: "sr-only" }, t("finished-games")),
      h("ul", {}, response.data.map((game) => h("li", {}, screenLink([
        h("span", { class: "what" }, t("replay-of", { game: gameName(game.game), date: when(game.updated_at) })),
        h("span", { class: "who" }, game.players.map((name, seat) => `${name} ${num(game.totals[seat])}`).join(" · ")),
        h("span", { class: "won" }, winnersOf(game)),
      ], { replay: game.id }, nav, "history-game")))));
  }

  close() {
    this.closed = true;
  }
}

/** A finished game step by step: `Önceki`, `Sonraki`, a slider; read-only boards. */
export class ReplayScreen {
  constructor(root, gameId, at, nav) {
    this.root = root;
    this.id = gameId;
    this.nav = nav;
    this.closed = false;
    this.views = new Map(); // version → the game as it stood then
    this.wanted = at;
    this.keys = (event) => this.key(event);
    this.start(at);
  }

  async start(at) {
    const path = `/api/games/${encodeURIComponent(this.id)}`;
    const [log, now] = await Promise.all([get(`${path}/log`), get(path)]);
    if (this.closed) return;
    if (!log.ok || !now.ok) {
      this.root.replaceChildren(h("section", { class: "missing" },
        h("h1", {}, (log.ok ? now : log).data.detail ?? "?"), h("p", {}, screenLink(t("history"), { view: "history" }, this.nav))));
      return;
    }
    this.log = log.data;
    this.total = log.data.entries.length;
    this.views.set(this.total, now.data);
    this.build(now.data);
    document.addEventListener("keydown", this.keys);
    await this.step(Math.max(0, Math.min(at, this.total)));
  }

  build(view) {
    const ctx = { act: () => {}, tell: () => {}, render: () => this.draw(), owns: () => false };
    this.board = view.game === "yams" ? new YamsBoard(view, ctx) : new FarkleBoard(view, ctx);
    this.previous = h("button", { type: "button" }, t("previous"));
    this.previous.addEventListener("click", () => this.step(this.at - 1));
    this.next = h("button", { type: "button", class: "primary" }, t("next"));
    this.next.addEventListener("click", () => this.step(this.at + 1));
    this.slider = h("input", { type: "range", min: 0, max: this.total, value: 0, "aria-label": t("step") });
    this.slider.addEventListener("input", () => this.step(Number(this.slider.value)));
    this.counter = h("p", { class: "counter num", "aria-hidden": "true" });
    this.said = h("p", { class: "said", "aria-live": "polite" });
    const seats = view.players.map((p) => p.name);
    const label = `${gameName(view.game)} · ${seats.join(", ")}`;
    const date = when(this.log.entries.at(-1)?.at);
    const title = date ? t("replay-of", { game: label, date }) : label;
    const head = h("div", { class: "replay-head" },
      h("div", { class: "screen-head" }, h("h1", {}, title), screenLink(t("history"), { view: "history" }, this.nav)),
      h("div", { class: "stepper" }, this.previous, this.slider, this.next),
      this.counter, this.said);
    const extras = [];
    if (view.over) {
      // The review judges people: a game of computers alone has none.
      const people = view.players.some((p) => !p.computer);
      const [open, review] = people ? reviewOpener(this.id, view.game, seats) : [];
      extras.push(h("div", { class: "actions" }, open), exportLinks(`/api/games/${encodeURIComponent(this.id)}/export`), review);
    }
    this.section = tableOf(view.game, this.board, { end: h("div", { class: "end replay-bar" }, head, ...extras) });
    this.section.classList.add("replay");
    this.root.replaceChildren(this.section);
    document.title = `${title} · Zar`;
  }

  /** Show the game as it stood at version `n` (0: before the first action). */
  async step(n) {
    if (!this.board || n < 0 || n > this.total) return;
    this.wanted = n;
    let view = this.views.get(n);
    if (!view) {
      const response = await get(`/api/games/${encodeURIComponent(this.id)}?at=${n}`);
      if (this.closed || this.wanted !== n) return; // another step was asked meanwhile
      if (!response.ok) {
        text(this.said, response.data.detail ?? "");
        return;
      }
      view = response.data;
      this.views.set(n, view);
    }
    this.at = n;
    this.view = view;
    // A step is shown afresh: what the step before flashed (a box an undo took back) goes.
    this.board.scores?.quiet();
    this.draw(true);
    text(this.said, this.describe(n, view));
    const params = new URLSearchParams(location.search);
    params.set("at", String(n));
    history.replaceState(null, "", `${location.pathname}?${params}`);
  }

  draw(fresh = false) {
    const view = this.view;
    this.board.render(view, { mine: false, busy: false, prev: null, fresh });
    this.section.dataset.version = view.version;
    this.previous.disabled = this.at === 0;
    this.next.disabled = this.at === this.total;
    this.slider.value = String(this.at);
    this.slider.setAttribute("aria-valuetext", t("step-of", { n: this.at, total: this.total }));
    text(this.counter, t("step-of", { n: num(this.at), total: num(this.total) }));
    const turn = document.getElementById("turn");
    turn.replaceChildren(view.over
      ? h("span", { class: "info" }, t("game-over"))
      : h("span", { class: `pill ${seatClass(view.seat)}` }, t("turn-of", { name: view.players[view.seat].name })),
    view.over ? "" : h("span", { class: "info" }, this.board.info(view)));
  }

  /** What the action that made version `n` did, in words. */
  describe(n, view) {
    if (n === 0) return t("game-start");
    const entry = this.log.entries[n - 1];
    const name = view.players[entry.seat]?.name ?? "";
    const event = (type) => view.events.find((e) => e.type === type);
    let said = "";
    switch (entry.type) {
      case "throw":
        said = t("throws", { name, dice: (view.game === "yams" ? view.dice : entry.dice).join(", ") });
        break;
      case "fill":
        said = t("writes", { name, box: boxName(entry.box), points: num(event("filled")?.points ?? 0) });
        break;
      case "set_aside": {
        const group = view.groups.at(-1);
        said = t("sets-aside", { name, dice: group?.dice.join(", ") ?? "", points: num(group?.points ?? 0) });
        break;
      }
      case "bank":
        said = t("banks", { name, points: num(event("banked")?.points ?? 0) });
        break;
      case "undo":
        said = t("undone", { name });
        break;
      default:
        said = entry.type;
    }
    if (entry.undone) said += ` (${t("undone-mark")})`;
    return [said, ...view.messages].join(" ");
  }

  /** ← and → step back and forth (unless a field has the keys). */
  key(event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest?.("input, select, textarea")) return;
    if (event.key === "ArrowLeft") this.step(this.at - 1);
    else if (event.key === "ArrowRight") this.step(this.at + 1);
    else return;
    event.preventDefault();
  }

  close() {
    this.closed = true;
    document.removeEventListener("keydown", this.keys);
    this.board?.close();
  }
}
