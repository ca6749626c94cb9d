// A game on screen: the state from the server, the intentions sent back, the computer's
// turns at a pace a person can follow, live updates from other screens, the end.

import { follow, get, post } from "./api.js";
import { Coach } from "./coach.js";
import { h, pill, seatClass, text } from "./dom.js";
import { FarkleBoard } from "./farkle.js";
import { names, num, t } from "./i18n.js";
import { exportLinks } from "./links.js";
import { fast, instant, setFast } from "./prefs.js";
import { reviewOpener } from "./review.js";
import { YamsBoard } from "./yams.js";

const STEP_MS = 700; // one step of the computer's turn, slow enough to follow
const FAST_STEP_MS = 150;
const RETRY_MS = 2000; // after a refused step (the server down, say), before asking again

export class GameScreen {
  /** `view` is the game's state when the caller has it already (a new game, a rematch). */
  constructor(root, gameId, { view = null, onNewGame, onOpen }) {
    this.root = root;
    this.id = gameId;
    this.onNewGame = onNewGame;
    this.onOpen = onOpen;
    this.view = null;
    this.busy = false;
    this.closed = false;
    this.messages = "";
    this.undoing = null; // the version an undo on its way will make
    this.stepTimer = null;
    this.bannerTimer = null;
    this.keys = (event) => this.key(event);
    this.start(view);
  }

  async start(view) {
    if (!view) {
      const response = await get(`/api/games/${encodeURIComponent(this.id)}`);
      if (this.closed) return;
      if (!response.ok) {
        this.root.replaceChildren(
          h("section", { class: "missing" }, h("h1", {}, response.data.detail ?? "?"),
            h("p", {}, h("a", { href: "/", class: "button" }, t("home")))),
        );
        return;
      }
      view = response.data;
    }
    this.build(view);
    this.show(view);
    this.unfollow = follow(this.id, (live) => this.show(live));
    document.addEventListener("keydown", this.keys);
  }

  close() {
    this.closed = true;
    clearTimeout(this.stepTimer);
    this.unfollow?.();
    this.board?.stop();
    document.removeEventListener("keydown", this.keys);
    document.getElementById("turn").replaceChildren();
  }

  build(view) {
    const ctx = {
      act: (intent) => this.act(intent),
      say: (words) => this.say(words),
      render: () => this.render(),
    };
    this.board = view.game === "yams" ? new YamsBoard(view, ctx) : new FarkleBoard(view, ctx);
    this.sticky = h("p", { class: "sticky" });
    this.message = h("p", { class: "message" });
    this.narration = h("p", { class: "say" });
    this.status = h("div", { class: "status", role: "status" }, this.sticky, this.message, this.narration);
    this.end = h("section", { class: "end", hidden: true, "aria-labelledby": "end-title" });
    this.coach = new Coach(this.id, this.board, view.game);
    this.undoButton = h("button", { type: "button", class: "undo", hidden: true }, t("undo"));
    this.undoButton.addEventListener("click", () => this.act({ type: "undo" }));
    const turnTools = h("div", { class: "turn-tools" }, this.coach.button, this.undoButton);
    const tools = h("div", { class: "tools" }, h("p", { class: "keys" }, t("keys-help")));
    if (view.players.some((p) => p.computer)) {
      this.speed = h("button", { type: "button", class: "speed", "aria-pressed": String(fast()) }, t("speed-up"));
      this.speed.addEventListener("click", () => {
        setFast(!fast());
        this.speed.setAttribute("aria-pressed", String(fast()));
        if (!this.busy) this.schedule();
      });
      tools.prepend(this.speed);
    }
    this.playArea = h("div", { class: "play-area" }, this.board.play, turnTools, this.coach.el, this.status, tools);
    this.section = h("section", { class: `game game-${view.game === "yams" ? "yams" : "farkle"}` },
      h("h1", { class: "sr-only" }, t(view.game === "yams" ? "yams" : "10000")),
      this.end, this.playArea, h("div", { class: "board-area" }, this.board.board));
    this.root.replaceChildren(this.section);
    document.title = `${t(view.game === "yams" ? "yams" : "10000")} · Zar`;
  }

  /** A state from the server: shown if it is newer than the one on screen. */
  show(view) {
    if (this.closed || !this.board) return false;
    const prev = this.view;
    if (prev && view.version <= prev.version) return false;
    this.view = view;
    // The seeds' messages stay until the next one, or until a person here acts again.
    if (view.messages.length) this.messages = view.messages.join(" ");
    // An undo shows the decision's moment again: no throw to tell, no dice to tumble.
    const undone = this.undoing === view.version;
    this.render(undone ? null : prev, true);
    const said = undone ? [t("undone", { name: view.players[view.seat].name })] : [...this.board.narrate(view, prev)];
    const passed = prev && prev.seat !== view.seat && !view.over && !undone;
    if (passed) said.push(t("turn-of", { name: view.players[view.seat].name }));
    this.say(said);
    if (passed) this.banner(view);
    else if (view.over) this.hideBanner(); // nobody's turn now: the winner shows unhidden
    if (this.board.celebrates(view)) this.celebrate();
    if (view.over) this.finish(view);
    else if (prev?.over) this.unfinish();
    this.schedule();
    return true;
  }

  /** Draw the current state; `fresh` when it is new, `prev` the one before it (or null). */
  render(prev = null, fresh = false) {
    const view = this.view;
    const mine = !view.over && !view.players[view.seat].computer;
    this.board.render(view, { mine, busy: this.busy, prev, fresh });
    this.section.dataset.version = view.version; // which state is on screen, for tests and bug reports
    this.coach.update(view);
    this.undoButton.hidden = !view.can_undo;
    this.undoButton.disabled = this.busy;
    const sticky = this.board.sticky(view);
    text(this.sticky, sticky);
    text(this.message, this.messages === sticky ? "" : this.messages);
    this.header(view);
  }

  header(view) {
    const turn = document.getElementById("turn");
    if (view.over) {
      turn.replaceChildren(h("span", { class: "info" }, t("game-over")));
      return;
    }
    turn.replaceChildren(
      h("span", { class: `pill ${seatClass(view.seat)}` }, t("turn-of", { name: view.players[view.seat].name })),
      h("span", { class: "info" }, this.board.info(view)),
    );
  }

  /** Tell what happened: a line each (a throw, a box written, whose turn it is now). */
  say(lines) {
    const said = (Array.isArray(lines) ? lines : [lines]).filter(Boolean);
    this.narration.replaceChildren(...said.map((line) => h("span", {}, line)));
  }

  banner(view) {
    const banner = document.getElementById("banner");
    banner.className = `banner show ${seatClass(view.seat)}`;
    banner.textContent = t("turn-of", { name: view.players[view.seat].name });
    clearTimeout(this.bannerTimer);
    this.bannerTimer = setTimeout(() => banner.classList.remove("show"), instant ? 500 : 1400);
  }

  hideBanner() {
    clearTimeout(this.bannerTimer);
    document.getElementById("banner").classList.remove("show");
  }

  celebrate() {
    this.playArea.classList.remove("celebrate");
    void this.playArea.offsetWidth;
    this.playArea.classList.add("celebrate");
  }

  /** Send an intention on the version on screen; a 409 shows the game as it is now. */
  async act(intent) {
    if (this.busy || !this.view || this.closed) return;
    this.busy = true;
    if (intent.type !== "computer") this.messages = "";
    this.undoing = intent.type === "undo" ? this.view.version + 1 : null;
    this.render();
    const path = `/api/games/${encodeURIComponent(this.id)}/actions`;
    const response = await post(path, { version: this.view.version, ...intent });
    this.busy = false;
    if (response.ok) {
      // A live update may have shown this state first, while the controls were busy.
      if (!this.show(response.data)) this.render();
      this.schedule();
      return;
    }
    if (response.status === 409) await this.refresh();
    // A step of the computer or the auto-fill raced another screen's: nothing to tell.
    const background = intent.type === "computer" || intent.type === "autofill";
    if (!(background && response.status === 409)) this.say(response.data.detail);
    this.render();
    this.schedule(response.status === 409 ? undefined : RETRY_MS);
  }

  async refresh() {
    const fresh = await get(`/api/games/${encodeURIComponent(this.id)}`);
    if (fresh.ok) this.show(fresh.data);
  }

  /** While the computer's seat plays, ask the server for its next step, one at a time. */
  schedule(wait = instant ? 0 : fast() ? FAST_STEP_MS : STEP_MS) {
    clearTimeout(this.stepTimer);
    const view = this.view;
    if (this.closed || !view || view.over || !view.players[view.seat].computer) return;
    this.stepTimer = setTimeout(() => this.act({ type: "computer" }), wait);
  }

  finish(view) {
    const winners = view.winners.map((seat) => view.players[seat].name);
    const totals = view.totals.map((total, seat) => ({ total, seat }));
    totals.sort((a, b) => b.total - a.total || a.seat - b.seat);
    const title = h("h2", { id: "end-title", tabindex: "-1" },
      t(winners.length > 1 ? "winners" : "winner", { names: names(winners) }));
    const rematch = h("button", { type: "button", class: "primary" }, t("rematch"));
    rematch.addEventListener("click", () => this.rematch(rematch));
    const fresh = h("button", { type: "button" }, t("new-game"));
    fresh.addEventListener("click", () => this.onNewGame(view.game));
    const [open, review] = reviewOpener(this.id, view.game, view.players.map((p) => p.name));
    this.end.replaceChildren(
      title,
      h("h3", {}, t("final-scores")),
      h("ol", { class: "final" },
        totals.map(({ total, seat }) => h("li", { class: view.winners.includes(seat) ? "won" : "" },
          pill(view.players[seat], seat), h("span", { class: "num" }, num(total))))),
      h("div", { class: "actions" }, rematch, open, fresh),
      exportLinks(`/api/games/${encodeURIComponent(this.id)}/export`),
      review,
    );
    this.end.hidden = false;
    this.section.classList.add("over");
    title.focus();
  }

  /** The last decision undone: the game goes on. */
  unfinish() {
    this.end.hidden = true;
    this.end.replaceChildren();
    this.section.classList.remove("over");
  }

  /** The same players and settings again. */
  async rematch(button) {
    const view = this.view;
    button.disabled = true;
    const people = view.players.filter((p) => !p.computer);
    const computer = view.players.find((p) => p.computer);
    const body = {
      game: view.game,
      players: people.map((p) => p.name),
      computer: Boolean(computer),
      level: computer?.level ?? null,
    };
    if (view.hints) body.hints = view.hints.map((seat) => view.players[seat].name);
    if (view.game === "10000") body.target = view.target;
    else body.autofill = view.autofill;
    const response = await post("/api/games", body);
    button.disabled = false;
    if (response.ok) this.onOpen(response.data.id, response.data);
    else this.say(response.data.detail);
  }

  /** Keys 1 to 6 press the dice, Enter throws (when no button or field has the focus). */
  key(event) {
    if (event.altKey || event.ctrlKey || event.metaKey || document.querySelector("dialog[open]")) return;
    const target = event.target;
    if (target.closest?.("input, select, textarea")) return;
    if (/^[1-6]$/.test(event.key)) {
      const die = this.board.tray.visible()[Number(event.key) - 1];
      if (die && !die.disabled) {
        die.click();
        event.preventDefault();
      }
    } else if (event.key === "Enter" && !target.closest?.("button, a")) {
      const throwButton = this.board.throwButton;
      if (!throwButton.disabled) {
        throwButton.click();
        event.preventDefault();
      }
    }
  }
}
