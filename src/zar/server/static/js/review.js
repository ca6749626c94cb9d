// The review after a game: for each person, every decision next to the perfect player's,
// what it cost (expected points, or the chance of winning), the worst three as the board
// looked, and a verdict; what the decisions were judged by, in words; and the account of
// luck and skill: the start, the dice's luck and the decisions' cost adding up to the
// result, the luckiest and unluckiest throws as the dice fell, and a chart of each
// person's value step by step (GET /api/games/{id}/review). Every figure has one decimal:
// of the points, or of the percent.

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
  const people = response.data.players;
  // The charts' module is read when a review first opens, not with the game's screen.
  const { valueLines } = await import("./charts.js");
  // What the decisions were judged by: the same for every person of a game.
  const model = people.length ? h("p", { class: "model" }, t(`review-model-${people[0].model}`)) : null;
  section.replaceChildren(title, h("p", { class: "about" }, t("review-about")), model,
    people.length ? valuesChart(valueLines, people, game) : null,
    h("div", { class: "review-people" }, people.map((person) => personReview(person, game, players))));
}

/** The unit a person's account is in: `win` (a chance), `final` (Yams: the expected final
 * total), `points` (10 000 alone or with more: the expected points). At a 10 000 table of
 * three or more the decisions' costs are chances (`unit`), the account points. */
function unitOf(person, game) {
  if ((person.account_unit ?? person.unit) === "win") return "win";
  return game === "yams" ? "final" : "points";
}

/** What the person's value is: `Beklenen son puan`, `Kazanma şansı`, `Beklenen puan`. */
function valueName(unit) {
  return t(`value-${unit}`);
}

/** A figure in the person's unit, `digits` after the point (of a percent for a chance). */
function figure(value, unit, digits) {
  return unit === "win" ? pct(value, digits) : dec(value, digits);
}

/** A change in the person's unit, always signed: `+10,6`, `−12,3`, `+%21,4`. */
function signed(value, unit, digits) {
  return (value < 0 ? "−" : "+") + figure(Math.abs(value), unit, digits);
}

/**
 * Parts shown so that they add up, as shown, to the result as shown, all at `digits`
 * places (the review's one style): each rounded if that adds up; else each rounded up or
 * down (the largest remainders up), so that each still differs from its figure by less
 * than the last place shown. The result is exact in them (`parts` add up to it to float
 * noise). Returns the places and the parts, in units of that place.
 */
export function honest(parts, result, digits) {
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  const places = digits;
  const scale = 10 ** places;
  const rounded = parts.map((x) => Math.round(x * scale));
  if (sum(rounded) === Math.round(result * scale)) return { places, units: rounded };
  const units = parts.map((x) => Math.floor(x * scale));
  const rest = parts.map((x, i) => ({ i, left: x * scale - units[i] })).sort((a, b) => b.left - a.left);
  let short = Math.round(result * scale) - sum(units);
  for (const { i } of rest) {
    if (short <= 0) break;
    units[i] += 1;
    short -= 1;
  }
  return { places, units };
}

/**
 * The person's account as an identity true at the figures shown: the start, the dice's
 * luck, the decisions' cost (and at a two-player 10 000 table the other's luck and cost)
 * giving the result; chances in percent.
 */
function identity(person, game) {
  const unit = unitOf(person, game);
  const scale = unit === "win" ? 100 : 1; // a chance's parts are rounded as percents
  const terms = [[t("account-start"), person.start, 1], [t("account-luck"), person.luck, 1],
    [t("account-cost"), person.account_cost ?? person.total_cost, -1]];
  if (person.opponent_luck !== null && person.opponent_luck !== undefined) {
    terms.push([t("account-opponent-luck"), person.opponent_luck, -1],
      [t("account-opponent-cost"), person.opponent_cost, 1]);
  }
  const { places, units } = honest(terms.map(([, value, sign]) => sign * value * scale),
    person.result * scale, 1);
  const shown = (n, digits) => figure(n / 10 ** places / scale, unit, digits);
  // Written as a sum in a column, each figure after its sign (`− Zar şansı 2,3`), the
  // result under a line (`= Sonuç 131`): the same words read in order as an equation.
  const term = (op, name, value, extra = "") => h("span", { class: `term ${extra}`.trim() },
    op ? h("span", { class: "op" }, op) : null, h("span", { class: "what" }, name), " ",
    h("span", { class: "num" }, value));
  const parts = terms.map(([name, , sign], i) => {
    const n = units[i];
    const minus = n < 0 || (n === 0 && sign < 0);
    return term(i === 0 ? "" : minus ? "−" : "+", name, shown(Math.abs(n), places));
  });
  const whole = units.reduce((a, b) => a + b, 0);
  const exact = whole % 10 ** places === 0; // a final total, a win or a loss: no decimals
  const outcome = unit === "win"
    ? ` (${t(person.result > 0.5 ? "account-won" : person.result < 0.5 ? "account-lost" : "account-tied")})` : "";
  return h("p", { class: "identity" }, parts,
    term("=", t("account-result") + outcome, shown(whole, exact ? 0 : places), "result"));
}

/** A cost with one decimal, as every figure of the review: of the points, or of the
 * percent; a cost that one decimal would write as nothing is `< 0,1` (as the verdict). */
function costFigure(value, unit) {
  const least = unit === "win" ? 0.001 : 0.1;
  const tiny = value > 0 && value < least / 2;
  const shown = tiny ? least : value;
  return (tiny ? "< " : "") + (unit === "win" ? pct(shown, 1) : dec(shown, 1));
}

function personReview(person, game, players) {
  const cost = (value) => (person.unit === "win"
    ? t("cost-win", { value: costFigure(value, "win") }) : t("cost-points", { value: costFigure(value, "points") }));
  // A Yams game of two reads its costs in chance of winning too (`win_cost`).
  const inChance = (win) => (typeof win === "number" ? t("cost-win", { value: costFigure(win, "win") }) : null);
  const figureOf = (value, win) => h("dd", { class: "num" }, cost(value),
    inChance(win) ? h("span", { class: "in-chance" }, inChance(win)) : null);
  const costOf = (worst) => [cost(worst.cost), inChance(worst.win_cost)].filter(Boolean).join(" · ");
  const id = `review-${person.seat}`;
  return h("article", { class: "review-person", "aria-labelledby": id },
    h("h3", { id }, pill({ name: person.name }, person.seat)),
    h("p", { class: "verdict" }, person.verdict),
    h("h4", {}, t("luck-and-skill")),
    identity(person, game),
    h("dl", { class: `review-figures ${person.unit === "win" ? "win" : ""}`.trim() },
      h("div", {}, h("dt", {}, t("total-cost")), figureOf(person.total_cost, person.win_cost)),
      h("div", {}, h("dt", {}, t("mean-cost")), figureOf(person.mean_cost, person.mean_win_cost))),
    h("p", { class: "count" }, t("decisions", { n: num(person.decisions) })),
    h("h4", {}, t("worst-decisions")),
    person.worst.length
      ? h("ol", { class: "worst" }, person.worst.map((worst) => decision(worst, game, players, costOf)))
      : h("p", {}, t("no-costly-decision")),
    throws(t("luckiest"), person.luckiest, person, game, players),
    throws(t("unluckiest"), person.unluckiest, person, game, players));
}

/** The throws of most (or least) luck, as the dice fell, each with the value before and after. */
function throws(title, list, person, game, players) {
  if (!list?.length) return null;
  const unit = unitOf(person, game);
  return [h("h4", {}, title), h("ol", { class: "throws" }, list.map((thrown) => h("li", { class: "decision throw" },
    h("p", { class: "when" }, h("span", { class: "round" }, t("round-n", { round: thrown.round })),
      h("strong", { class: `num ${thrown.luck < 0 ? "bad" : "good"}` },
        // a chance's luck alone (`+%8,3`): the line under the board says of what
        label(t("account-luck"), unit === "win" ? signed(thrown.luck, unit, 1)
          : t("cost-points", { value: signed(thrown.luck, unit, 1) })))),
    game === "yams" ? yamsBoard(thrown.board) : farkleBoard(thrown.board, players),
    h("p", { class: "before-after num" }, label(valueName(unit),
      `${figure(thrown.before, unit, 1)} → ${figure(thrown.after, unit, 1)}`)))))];
}

/** A chart of each person's value after every step, one line per person. */
function valuesChart(valueLines, people, game) {
  const unit = unitOf(people[0], game);
  const series = people.map((person) => ({ seat: person.seat, name: person.name,
    values: person.values.map((at) => (unit === "win" ? 100 * at.value : at.value)) }));
  const format = unit === "win" ? (v, digits = 0) => pct(v / 100, digits) : (v, digits = 0) => dec(v, digits);
  return h("div", { class: "chart-box review-chart" },
    valueLines(series, t(`chart-values-${unit}`), valueName(unit), format, { chance: unit === "win" }));
}

function decision(worst, game, players, cost) {
  const faces = facesOf(worst.board.tray);
  const choice = (key, option) => h("div", { class: key },
    h("dt", {}, t(key)),
    h("dd", {}, h("span", { class: "what" }, optionLabel(option, faces)), optionFigures(option, game)));
  return h("li", { class: "decision" },
    h("p", { class: "when" }, h("span", { class: "round" }, t("round-n", { round: worst.round })),
      h("strong", { class: "num" }, t("cost", { cost: cost(worst) }))),
    game === "yams" ? yamsBoard(worst.board, worst) : farkleBoard(worst.board, players),
    h("dl", { class: "choices" }, choice("chosen", worst.chosen), choice("best", worst.best)));
}

/** The dice, the throws left and the card as they were, each open box with what the dice
 * would score there (muted, as the game's card shows it); of a decision (`worst`), the
 * boxes chosen and best marked, the best dice to keep outlined. */
function yamsBoard(board, worst = null) {
  const keep = worst?.best.kind === "keep" ? worst.best.keep : [];
  const mark = (box) => (worst
    ? [worst.chosen.box === box ? "chosen" : "", worst.best.box === box ? "best" : ""].join(" ").trim() : "");
  return h("div", { class: "mini-board" },
    h("p", { class: "mini-dice" },
      h("span", { class: "mini", "aria-hidden": "true" },
        (board.dice ?? []).map((face, position) => still(face, keep.includes(position) ? "hinted" : ""))),
      h("span", { class: "sr-only" }, `${label(t("dice"), (board.dice ?? []).join(", "))}.`),
      h("span", { class: "left" }, t("throws-left", { n: board.throws_left }))),
    h("ul", { class: "mini-card" }, Object.entries(board.card ?? {}).map(([box, points]) => {
      const would = points === null ? board.options?.[box] : undefined;
      const open = points === null;
      const shown = open ? (typeof would === "number" ? num(would) : "–") : num(points);
      return h("li", { class: [mark(box), open ? "open" : ""].join(" ").trim() || null },
        h("span", {}, boxName(box)),
        h("span", { class: "num" }, open && typeof would === "number"
          ? [h("span", { "aria-hidden": "true" }, shown), h("span", { class: "sr-only" }, t("review-would", { points: shown }))]
          : shown));
    })));
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
