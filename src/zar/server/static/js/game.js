// A game on screen: the state from the server, the intentions sent back, the computer's
// turns at a pace a person can follow, live updates from other screens, the end.
//
// The status line holds three things, each as long as it is true: the seeds' messages
// that hold now (the board says which), what just happened, and the answer to the last tap
// (a die that cannot be taken), gone with the next tap.

import { follow, get, post } from "./api.js";
import { Coach } from "./coach.js";
import { h, pill, seatClass, text } from "./dom.js";
import { FarkleBoard } from "./farkle.js";
import { celebrate, feel, stayAwake } from "./feedback.js";
import { lang, names, num, t } from "./i18n.js";
import { exportLinks } from "./links.js";
import { InviteDialog } from "./invite.js";
import { PhoneSeats } from "./phones.js";
import { fast, instant, recallChoices, rememberChoices, setFast, setSounds, sounds } from "./prefs.js";
import { reviewOpener } from "./review.js";
import { YamsBoard } from "./yams.js";

const STEP_MS = 700; // one step of the computer's turn, slow enough to follow
const FAST_STEP_MS = 150;
const RETRY_MS = 2000; // after a refused step (the server down, say), before asking again
const BANNER_MS = 1400;
const THINKING_MS = 500; // a computer's step that takes longer says that it is thinking
// A finger has touched a game on this page: the keys' hint stays hidden from then on (the
// styles hide it already where the screen reports a finger for its pointer: `(hover: none)`,
// `(pointer: coarse)`).
let touched = false;

/** The parts of a board laid out on a game's (or a replay's) screen. */
export function tableOf(kind, board, { end = null, coach = null, side = [] } = {}) {
  return h("section", { class: `game game-${kind === "yams" ? "yams" : "farkle"}` },
    h("h1", { class: "sr-only" }, t(kind === "yams" ? "yams" : "10000")),
    end,
    h("div", { class: "scores-area" }, board.scores.el),
    h("div", { class: "play-area" }, board.play),
    coach,
    board.card ? h("div", { class: "card-area" }, board.card) : null,
    h("div", { class: "side-area" }, side));
}

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
    this.feedback = ""; // the answer to the last tap, until the next one
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
        if (response.status === 0) return; // the app's offline screen says it
        this.root.replaceChildren(
          h("section", { class: "missing" }, h("h1", {}, response.data.detail ?? "?"),
            h("p", {}, h("a", { href: "/", class: "button" }, t("home")))),
        );
        return;
      }
      view = response.data;
    }
    const saved = recallChoices(this.id); // read before the first state is drawn and kept
    this.build(view);
    // The coach open before the reload is open from the first state on: it holds the auto-fill.
    this.coach.restore(saved?.coach);
    this.show(view);
    this.restore(saved);
    this.unfollow = follow(this.id, (live) => this.show(live), (up) => this.link(up));
    this.visible = () => this.titled();
    document.addEventListener("visibilitychange", this.visible);
    this.sleep = stayAwake();
    document.addEventListener("keydown", this.keys);
    this.resized = () => this.fitCoach();
    window.addEventListener("resize", this.resized);
  }

  close() {
    this.closed = true;
    clearTimeout(this.stepTimer);
    clearTimeout(this.thinkingTimer);
    this.phones?.close();
    this.unfollow?.();
    this.sleep?.();
    this.board?.close();
    this.invite?.close();
    this.hideBanner();
    document.removeEventListener("visibilitychange", this.visible);
    document.removeEventListener("keydown", this.keys);
    window.removeEventListener("resize", this.resized);
    document.getElementById("turn").replaceChildren();
  }

  /** Whether this screen plays `seat`: a seat this device holds, and the computer does
   * not play meanwhile (on one phone passed around: every person's seat). */
  owns(seat) {
    const view = this.view;
    if (!view?.you) return !this.players[seat].computer;
    return view.you.seats.includes(seat) && !view.seats[seat].standin;
  }

  /** Whether the computer plays the seat on turn: its own, or an absent person's. */
  computerPlays(view) {
    return view.players[view.seat].computer || Boolean(view.seats?.[view.seat]?.standin);
  }

  /** Whether this screen steps the computer's turns: the host's, or, when the host's phone
   * is away, a player's (several may: the server takes one step a version). */
  drives(view) {
    const role = view.you?.role;
    if (role === undefined) return true;
    if (role === "host") return true;
    if (role !== "player") return false;
    return !view.seats.some((seat) => seat.holder === "host" && seat.here);
  }

  /** The live stream dropped (the controls wait: what the phone shows may be old, and an
   * action would not get through) or came back, with the state as it stands. */
  link(up) {
    if (this.connected === up) return;
    this.connected = up;
    text(this.linkLine, up ? "" : t("reconnecting"));
    if (this.view) this.render();
  }

  /** The tab's title says it is this phone's turn when the tab is out of sight. */
  titled() {
    const view = this.view;
    if (!view) return;
    const name = t(view.game === "yams" ? "yams" : "10000");
    const mine = !view.over && view.you && this.owns(view.seat);
    document.title = mine && document.hidden ? `● ${t("your-turn")} · ${name} · Zar` : `${name} · Zar`;
  }

  build(view) {
    this.players = view.players;
    const ctx = {
      act: (intent) => this.act(intent),
      tell: (words, how) => this.tell(words, how),
      render: () => {
        this.feedback = "";
        this.render();
      },
      owns: (seat) => this.owns(seat),
      coaching: (shown) => Boolean(this.coach?.opened(shown)),
    };
    this.board = view.game === "yams" ? new YamsBoard(view, ctx) : new FarkleBoard(view, ctx);
    this.connected = true;
    this.linkLine = h("p", { class: "link-line" });
    // A computer's step the server is slow to answer (its tables being read, say).
    this.thinking = h("p", { class: "thinking", "aria-live": "polite", hidden: true });
    this.thinkingTimer = null;
    this.phones = new PhoneSeats(this.id, { show: (state) => this.show(state), tell: (words) => this.tell(words) });
    this.notices = h("p", { class: "notices" });
    this.narration = h("p", { class: "say" });
    this.answer = h("p", { class: "answer" });
    this.status = h("div", { class: "status", role: "status" },
      this.linkLine, this.notices, this.answer, this.narration);
    this.end = h("section", { class: "end", hidden: true, "aria-labelledby": "end-title" });
    this.coach = new Coach(this.id, this.board, view.game, (open) => {
      if (open) this.board.hold(); // a player reading the coach is not rushed
      this.fitCoach();
      this.remember();
    });
    this.undoButton = h("button", { type: "button", class: "undo", hidden: true }, t("undo"));
    this.undoButton.addEventListener("click", () => this.undo());
    this.turnTools = h("div", { class: "turn-tools" }, this.coach.button, this.undoButton, this.phones.resumeButton);
    const { elsewhere, awayChoices, account } = this.phones;
    this.board.play.append(this.thinking, elsewhere, awayChoices, account, this.turnTools);
    const tools = h("div", { class: "tools" });
    if (view.players.some((p) => p.computer)) {
      this.speed = this.toggle(t("speed-up"), fast, setFast, () => {
        if (!this.busy) this.schedule();
      });
      tools.append(this.speed);
    }
    if (view.you?.role === "host") {
      this.inviteButton = h("button", { type: "button", class: "invite-button" }, t("invite"));
      this.inviteButton.addEventListener("click", () => {
        this.invite ??= new InviteDialog(this.id, (moved) => this.show(moved));
        this.invite.open(this.view);
      });
      tools.append(this.inviteButton);
    }
    // The rules the game plays by, their section of the rules page one tap away (at its
    // end too, beside the review).
    const rulesLine = h("p", { class: "rules-line" },
      h("a", { href: `/static/rules/${lang}.html#rules-${view.game}-${view.rules}` },
        t("rules-of", { name: t(`rules-${view.game}-${view.rules}`) })));
    const keys = h("p", { class: "keys", hidden: touched }, t(`keys-help-${view.game === "yams" ? "yams" : "10000"}`));
    tools.append(this.toggle(t("sounds"), sounds, setSounds, () => feel("throw")), keys);
    this.section = tableOf(view.game, this.board, { end: this.end, coach: this.coach.el, side: [this.status, rulesLine, tools] });
    this.section.addEventListener("pointerdown", (event) => {
      if (event.pointerType !== "touch") return;
      touched = true;
      keys.hidden = true;
    });
    // Whether the keyboard's focus is in the game: a control that had it may be redrawn away.
    this.focused = false;
    this.section.addEventListener("focusin", () => { this.focused = true; });
    this.section.addEventListener("focusout", (event) => {
      if (event.relatedTarget && !this.section.contains(event.relatedTarget)) this.focused = false;
    });
    this.root.replaceChildren(this.section);
    document.title = `${t(view.game === "yams" ? "yams" : "10000")} · Zar`;
  }

  /** A switch (aria-pressed) remembered in `read`/`write`; `then` after each change. */
  toggle(words, read, write, then) {
    const button = h("button", { type: "button", class: "switch", "aria-pressed": String(read()) }, words);
    button.addEventListener("click", () => {
      write(!read());
      button.setAttribute("aria-pressed", String(read()));
      if (read()) then();
    });
    return button;
  }

  /** A state from the server: shown if it is newer than the one on screen. */
  show(view) {
    if (this.closed || !this.board) return false;
    const prev = this.view;
    if (prev && view.version < prev.version) return false;
    if (prev && view.version === prev.version) {
      // The same moves, another table: a seat taken or handed over, a phone come or gone.
      if ((view.seating_rev ?? 0) < (prev.seating_rev ?? 0)) return false;
      this.view = view;
      this.render();
      this.schedule();
      return JSON.stringify(view.seats) !== JSON.stringify(prev.seats);
    }
    this.view = view;
    this.feedback = "";
    // An undo shows the decision's moment again: no throw to tell, no dice to tumble.
    const undone = this.undoing === view.version;
    this.render(undone ? null : prev, true);
    const said = undone ? [t("undone", { name: view.players[view.seat].name })] : [...this.board.narrate(view, prev)];
    const passed = prev && prev.seat !== view.seat && !view.over && !undone;
    if (passed) said.push(t("turn-of", { name: view.players[view.seat].name }));
    this.say(said);
    if (passed) this.banner(view);
    else if (view.seat !== this.bannerSeat || view.over) this.hideBanner(); // never a seat that is not on turn
    const party = view.over && !prev?.over ? "win" : undone ? null : this.board.celebrates(view, prev);
    if (party && prev) this.celebrate(party, view);
    else if (!undone && this.board.threw?.(view, prev) && prev) feel("throw");
    if (view.over) this.finish(view);
    else if (prev?.over) this.unfinish();
    this.schedule();
    return true;
  }

  /** Draw the current state; `fresh` when it is new, `prev` the one before it (or null). */
  render(prev = null, fresh = false) {
    const view = this.view;
    const mine = !view.over && this.owns(view.seat);
    this.board.render(view, { mine, busy: this.busy || !this.connected, prev, fresh });
    this.section.dataset.version = view.version; // which state is on screen, for tests and bug reports
    this.coach.update(view);
    this.fitCoach();
    this.undoButton.hidden = !view.can_undo;
    this.undoButton.disabled = this.busy;
    // Redrawn only when they change: a live region says again whatever is put in it anew.
    const notices = this.board.notices(view);
    if (notices.join("\n") !== this.shownNotices) {
      this.shownNotices = notices.join("\n");
      this.notices.replaceChildren(...notices.map((words) => h("span", {}, words)));
    }
    text(this.answer, this.feedback);
    this.phones.render(view);
    this.showTools();
    this.invite?.drawTable(view);
    this.header(view);
    this.titled();
    this.remember();
    this.keepFocus();
  }

  /** The coach open, its panel scrolls within what is left of the screen under it, so that
   * the totals, the dice and the buttons above it stay where they are, in view. */
  fitCoach() {
    if (!this.section || this.closed || this.coach.el.hidden) return;
    const top = this.coach.el.getBoundingClientRect().top + window.scrollY;
    const room = Math.floor(window.innerHeight - top - 8);
    this.coach.el.style.setProperty("--coach-room", `${Math.max(room, 0)}px`);
  }

  /** Focus on something sensible when what had it (in the game) is gone or disabled. */
  keepFocus() {
    if (!this.focused || this.busy || this.view.over) return;
    const now = document.activeElement;
    const lost = !now || now === document.body || now.disabled || now.closest("[hidden]");
    if (lost) this.board.focusTarget()?.focus({ preventScroll: true });
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

  /** Answer a tap (a die that cannot be taken): said until the next tap or state; shown
   * here, or `onFelt` by the dice (the board shows it) and here to screen readers only. */
  tell(words, { onFelt = false } = {}) {
    this.feedback = words;
    text(this.answer, words);
    this.answer.classList.toggle("sr-only", onFelt);
    feel("refused");
  }

  /** "Sıra: Ali" over the header, in the player's colour: it names the next person without
   * covering the dice they are about to throw. */
  banner(view) {
    const banner = document.getElementById("banner");
    banner.className = `banner show ${seatClass(view.seat)}`;
    banner.textContent = t("turn-of", { name: view.players[view.seat].name });
    this.bannerSeat = view.seat;
    clearTimeout(this.bannerTimer);
    this.bannerTimer = setTimeout(() => this.hideBanner(), instant ? 500 : BANNER_MS);
  }

  hideBanner() {
    clearTimeout(this.bannerTimer);
    this.bannerSeat = null;
    document.getElementById("banner").classList.remove("show");
  }

  celebrate(kind, view) {
    const words = kind === "win"
      ? t(view.winners.length > 1 ? "winners" : "winner", { names: names(view.winners.map((s) => view.players[s].name)) })
      : t(kind === "penta" ? "penta" : "hot-dice-short");
    celebrate(this.board.play, words);
    feel("celebrate");
  }

  /** What the player chose, kept for a reload of this tab. */
  remember() {
    if (!this.view || this.view.over) return;
    rememberChoices(this.id, {
      version: this.view.version,
      seat: this.view.seat,
      coach: [...this.coach.open],
      ...this.board.choices(),
    });
  }

  /** After a reload: the kept dice, the chosen box, as they were (the coach is open already). */
  restore(saved) {
    if (!saved || !this.view) return;
    if (saved.version === this.view.version && saved.seat === this.view.seat && this.owns(this.view.seat)) {
      this.board.restore(saved);
    }
    this.render();
  }

  undo() {
    this.board.holdArrival(); // undoing is choosing: no auto-fill to rush the choice again
    this.act({ type: "undo" });
  }

  /** Send an intention on the version on screen; a 409 shows the game as it is now. */
  async act(intent) {
    if (this.busy || !this.view || this.closed) return;
    if (intent.type !== "computer" && intent.type !== "autofill") this.phones.moved();
    this.busy = true;
    this.undoing = intent.type === "undo" ? this.view.version + 1 : null;
    this.render();
    const path = `/api/games/${encodeURIComponent(this.id)}/actions`;
    if (intent.type === "computer") {
      const name = this.view.players[this.view.seat].name;
      this.thinkingTimer = setTimeout(() => this.think(name), THINKING_MS);
    }
    const response = await post(path, { version: this.view.version, ...intent });
    this.think(null);
    this.busy = false;
    if (this.closed) return;
    if (response.ok) {
      // A live update may have shown this state first, while the controls were busy.
      if (!this.show(response.data)) this.render();
      this.schedule();
      return;
    }
    if (response.status === 409) await this.refresh();
    // A step of the computer or the auto-fill raced another screen's: nothing to tell.
    const background = intent.type === "computer" || intent.type === "autofill";
    if (!(background && response.status === 409) && response.status !== 0) this.tell(response.data.detail);
    this.render();
    this.schedule(response.status === 409 ? undefined : RETRY_MS);
  }

  /** Say that `name` (the computer) is thinking, or no longer (null). */
  think(name) {
    clearTimeout(this.thinkingTimer);
    text(this.thinking, name ? t("computer-thinking", { name }) : "");
    this.thinking.hidden = !name;
  }

  async refresh() {
    const fresh = await get(`/api/games/${encodeURIComponent(this.id)}`);
    if (fresh.ok) this.show(fresh.data);
  }

  /** While the computer's seat plays, ask the server for its next step, one at a time. */
  schedule(wait = instant ? 0 : fast() ? FAST_STEP_MS : STEP_MS) {
    clearTimeout(this.stepTimer);
    const view = this.view;
    if (this.closed || !view || view.over || !this.computerPlays(view) || !this.drives(view)) return;
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
    // The review judges people: a game of computers alone has none.
    const people = view.players.some((p) => !p.computer);
    const [open, review] = people ? reviewOpener(this.id, view.game, view.players.map((p) => p.name)) : [];
    this.end.replaceChildren(
      title,
      h("h3", {}, t("final-scores")),
      h("ol", { class: "final" },
        totals.map(({ total, seat }) => h("li", { class: view.winners.includes(seat) ? "won" : "" },
          pill(view.players[seat], seat), h("span", { class: "num" }, num(total))))),
      // The last box of a game may still be undone: its button moves here from the felt.
      h("div", { class: "actions" }, rematch, open, fresh, this.undoButton),
      exportLinks(`/api/games/${encodeURIComponent(this.id)}/export`),
      review,
    );
    this.end.hidden = false;
    this.showTools();
    this.section.classList.add("over");
    title.focus();
  }

  /** The coach, undo and `Yerime dön` under the buttons: their row only while one shows. */
  showTools() {
    this.turnTools.hidden = [...this.turnTools.children].every((button) => button.hidden);
  }

  /** The last decision undone: the game goes on. */
  unfinish() {
    this.turnTools.append(this.undoButton);
    this.showTools();
    this.end.hidden = true;
    this.end.replaceChildren();
    this.section.classList.remove("over");
  }

  /** The same players and settings again. */
  async rematch(button) {
    const view = this.view;
    button.disabled = true;
    const body = {
      game: view.game,
      rules: view.rules, // the same house rules
      players: view.players.filter((p) => !p.computer).map((p) => p.name),
      computers: view.players.filter((p) => p.computer).map((p) => p.level),
    };
    if (view.hints) body.hints = view.hints.map((seat) => view.players[seat].name);
    if (view.game === "10000") body.target = view.target;
    else body.autofill = view.autofill;
    const response = await post("/api/games", body);
    button.disabled = false;
    if (response.ok) this.onOpen(response.data.id, response.data);
    else this.tell(response.data.detail);
  }

  /** Keys 1 to 6 press the dice, Enter throws, a letter confirms the round or banks (when
   * no field has the focus, and Enter only when no button or link has it). */
  key(event) {
    if (event.altKey || event.ctrlKey || event.metaKey || document.querySelector("dialog[open]")) return;
    const target = event.target;
    if (target.closest?.("input, select, textarea")) return;
    const press = (button) => {
      if (!button || button.disabled) return;
      button.click();
      event.preventDefault();
    };
    if (/^[1-6]$/.test(event.key)) {
      press(this.board.tray.visible()[Number(event.key) - 1]);
    } else if (event.key === "Enter" && !target.closest?.("button, a")) {
      press(this.board.throwButton);
    } else if (event.key.toLowerCase() === t(this.view?.game === "yams" ? "key-confirm" : "key-bank")) {
      press(this.board.secondButton);
    }
  }
}
