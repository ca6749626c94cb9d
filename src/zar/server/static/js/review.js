// The review after a game: for each person, every decision next to the perfect player's,
// what it cost (expected points, or the chance of winning), the worst three as the board
// looked, and a verdict (GET /api/games/{id}/review).

import { get } from "./api.js";
import { facesOf, optionFigures, optionLabel } from "./coach.js";
import { still } from "./dice.js";
import { h, pill } from "./dom.js";
import { dec } from "./figures.js";
import { boxName, label, num, pct, t } from "./i18n.js";

/**
 * The button `İnceleme` and the section it opens, filled from the server the first time.
 * `game` is the game's kind, `players` the names of its seats.
 */
export function reviewOpener(gameId, game, players) {
  const section = h("section", { class: "review", id: "review", hidden: true, "aria-labelledby": "review-title" });
  const button = h("button", { type: "button", "aria-expanded": "false", "aria-controls": "review" }, t("review"));
  button.addEventListener("click", async () => {
    const open = section.hidden;
    section.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    if (!open) return;
    if (!section.childElementCount) await fill(section, gameId, game, players);
    section.querySelector("h2")?.focus();
  });
  return [button, section];
}

async function fill(section, gameId, game, players) {
  section.setAttribute("aria-busy", "true");
  const response = await get(`/api/games/${encodeURIComponent(gameId)}/review`);
  section.removeAttribute("aria-busy");
  const title = h("h2", { id: "review-title", tabindex: "-1" }, t("review"));
  if (!response.ok) {
    section.replaceChildren(title, h("p", { class: "error" }, response.data.detail ?? ""));
    return;
  }
  section.replaceChildren(title, h("p", { class: "about" }, t("review-about")),
    h("div", { class: "review-people" }, response.data.players.map((person) => personReview(person, game, players))));
}

function personReview(person, game, players) {
  // Chances of winning move by hundredths of a percent: two places; points, one (two on average).
  const cost = (value, digits = 1) => (person.unit === "win"
    ? t("cost-win", { value: pct(value, 2) }) : t("cost-points", { value: dec(value, digits) }));
  const id = `review-${person.seat}`;
  return h("article", { class: "review-person", "aria-labelledby": id },
    h("h3", { id }, pill({ name: person.name }, person.seat)),
    h("p", { class: "verdict" }, person.verdict),
    h("dl", { class: `review-figures ${person.unit === "win" ? "win" : ""}`.trim() },
      h("div", {}, h("dt", {}, t("total-cost")), h("dd", { class: "num" }, cost(person.total_cost))),
      h("div", {}, h("dt", {}, t("mean-cost")), h("dd", { class: "num" }, cost(person.mean_cost, 2)))),
    h("p", { class: "count" }, t("decisions", { n: num(person.decisions) })),
    h("h4", {}, t("worst-decisions")),
    person.worst.length
      ? h("ol", { class: "worst" }, person.worst.map((worst) => decision(worst, game, players, cost)))
      : h("p", {}, t("no-costly-decision")));
}

function decision(worst, game, players, cost) {
  const faces = facesOf(worst.board.tray);
  const choice = (key, option) => h("div", { class: key },
    h("dt", {}, t(key)),
    h("dd", {}, h("span", { class: "what" }, optionLabel(option, faces)), optionFigures(option, game)));
  return h("li", { class: "decision" },
    h("p", { class: "when" }, h("span", { class: "round" }, t("round-n", { round: worst.round })),
      h("strong", { class: "num" }, t("cost", { cost: cost(worst.cost) }))),
    game === "yams" ? yamsBoard(worst) : farkleBoard(worst.board, players),
    h("dl", { class: "choices" }, choice("chosen", worst.chosen), choice("best", worst.best)));
}

/** The dice, the throws left and the card as they were; the boxes chosen and best marked. */
function yamsBoard(worst) {
  const board = worst.board;
  const keep = worst.best.kind === "keep" ? worst.best.keep : [];
  const mark = (box) => [worst.chosen.box === box ? "chosen" : "", worst.best.box === box ? "best" : ""].join(" ").trim();
  return h("div", { class: "mini-board" },
    h("p", { class: "mini-dice" },
      h("span", { class: "mini", "aria-hidden": "true" },
        (board.dice ?? []).map((face, position) => still(face, keep.includes(position) ? "hinted" : ""))),
      h("span", { class: "sr-only" }, `${label(t("dice"), (board.dice ?? []).join(", "))}.`),
      h("span", { class: "left" }, t("throws-left", { n: board.throws_left }))),
    h("ul", { class: "mini-card" }, Object.entries(board.card ?? {}).map(([box, points]) =>
      h("li", { class: mark(box) || null }, h("span", {}, boxName(box)),
        h("span", { class: "num" }, points === null ? "–" : num(points))))));
}

function farkleBoard(board, players) {
  const tray = board.tray ?? [];
  return h("div", { class: "mini-board" },
    h("p", { class: "mini-dice" },
      h("span", { class: "mini", "aria-hidden": "true" },
        tray.map((die) => (typeof die === "object" && die?.aside ? still(die.face, "aside") : still(facesOf([die])[0])))),
      h("span", { class: "sr-only" }, `${label(t("dice"), facesOf(tray).join(", "))}.`),
      h("span", { class: "left" }, t("turn-points", { points: num(board.turn_points ?? 0) }))),
    h("p", { class: "mini-totals num" },
      (board.totals ?? []).map((total, seat) => `${players[seat] ?? ""} ${num(total)}`).join(" · ")));
}
