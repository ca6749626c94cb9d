// Statistics per player name and per game (GET /api/stats), in three small tables that fit
// a phone's width (the main figures, the game's own, luck and skill), with the charts: the
// distribution of final totals, one game's totals turn by turn, the cost per decision.
// One set of rules at a time (totals under other house rules do not compare): the game's
// own by default, the others one select away.

import { get } from "./api.js";
import { costLines, histogram, lines } from "./charts.js";
import { attr, h } from "./dom.js";
import { dec, when } from "./figures.js";
import { gameName, num, pct, t } from "./i18n.js";
import { exportLinks, screenLink } from "./links.js";

const KINDS = ["yams", "10000"];
let setup = null; // the games' house rules (GET /api/setup)

// The table's columns: the word, and how a figure is written.
const whole = (n) => num(n);
const mean = (x) => dec(x, 1);
// Luck and cost per game: Yams points, or a 10 000 chance of winning (zar.history.stats).
const points = (x) => dec(x, 1);
const chance = (x) => pct(x, 1);
const LUCK_COLUMNS = {
  yams: [["mean-luck", "mean_luck", points], ["stats-mean-cost", "mean_cost", points]],
  10000: [["mean-luck", "mean_luck", chance], ["stats-mean-cost", "mean_cost", chance]],
};
// The cost per decision, finer: a good player's is a few tenths of a point, or of a percent.
const PER_DECISION = { yams: (x) => dec(x, 2), 10000: (x) => pct(x, 2) };

// Tom Verhoeff's Yahtzee Proficiency Test, "How to Read the Analysis": "the mean difference
// in expected final score per choice is shown. Aim for a value below 0.2."
// (www-set.win.tue.nl/~wstomv/misc/yahtzee/instr-pt.html, 1999). His test gives no other
// grade of the scale, so the chart draws that one mark, named in a player's words (an
// expert's play); 10 000 has none.
const VERHOEFF_AIM = 0.2;

// The main figures, the same for both games; then each game's own.
const MAIN = [["games-played", "games", whole], ["wins", "wins", whole],
  ["mean-total", "mean_total", mean], ["best-total", "best_total", whole]];
const OWN = {
  yams: [["upper-bonus-rate", "upper_bonus_rate", pct], ["pentas", "pentas", whole],
    ["penta-bonuses", "penta_bonuses", whole]],
  10000: [["lost-turns", "lost_turns", whole], ["hot-dice-count", "hot_dice", whole],
    ["points-per-turn", "points_per_turn", mean]],
};
// Scandinavian Yatzy's card: its five of a kind is a Yatzy, and no later one earns a bonus.
const YATZY_OWN = [["upper-bonus-rate", "upper_bonus_rate", pct], ["yatzys", "pentas", whole]];

/**
 * The table in an area that scrolls sideways when its columns are wider than the screen
 * (they fit a phone's, but larger text or long names may not): the players' names stay put on the left, a shade at each edge says that columns
 * are hidden beyond it, and the area is then a tab stop, scrolled with the arrow keys. With
 * the observer that follows its size, to disconnect once the table is gone.
 */
function scrolling(table, name) {
  const area = h("div", { class: "table-wrap", role: "region", "aria-labelledby": name }, table);
  const before = h("div", { class: "shade before", "aria-hidden": "true", hidden: true });
  const after = h("div", { class: "shade after", "aria-hidden": "true", hidden: true });
  const update = () => {
    const beyond = area.scrollWidth - area.clientWidth; // how far it scrolls
    const scrolled = Math.abs(area.scrollLeft);
    const names = table.tHead.rows[0].cells[0].offsetWidth;
    attr(area, "tabindex", beyond > 1 ? "0" : null);
    area.style.setProperty("--names", `${names}px`); // the columns snap to the names' edge
    before.style.insetInlineStart = `${names}px`;
    before.hidden = beyond <= 1 || scrolled < 1;
    after.hidden = beyond <= 1 || scrolled > beyond - 1;
  };
  area.addEventListener("scroll", update, { passive: true });
  const observer = new ResizeObserver(update);
  observer.observe(area);
  observer.observe(table);
  return { frame: h("div", { class: "table-frame" }, area, before, after), observer };
}

function select(label, options, onChange) {
  const el = h("select", {}, options.map(([value, words]) => h("option", { value }, words)));
  el.addEventListener("change", () => onChange(el.value));
  return h("label", { class: "picker" }, h("span", {}, label), el);
}

export class StatsScreen {
  constructor(root, kind, nav) {
    this.closed = false;
    this.nav = nav;
    this.kind = KINDS.includes(kind) ? kind : "yams";
    this.rules = {}; // the rules chosen for each game, while the screen lives
    this.tabs = KINDS.map((k) => {
      const tab = h("button", { type: "button", "aria-pressed": String(k === this.kind) }, gameName(k));
      tab.addEventListener("click", () => this.show(k));
      return tab;
    });
    this.body = h("div", { class: "stats-body" });
    root.replaceChildren(h("section", { class: "stats", "aria-labelledby": "stats-title" },
      h("div", { class: "screen-head" }, h("h1", { id: "stats-title" }, t("stats")),
        screenLink(t("history"), { view: "history" }, nav)),
      h("div", { class: "tabs", role: "group", "aria-label": t("game") }, this.tabs),
      this.body));
    document.title = `${t("stats")} · Zar`;
    this.show(this.kind);
  }

  async show(kind) {
    this.kind = kind;
    setup ??= (await get("/api/setup")).data;
    const names = setup?.rules?.[kind] ?? [];
    const rules = this.rules[kind] ?? setup?.default_rules?.[kind] ?? null;
    const query = `game=${kind}${rules ? `&rules=${encodeURIComponent(rules)}` : ""}`;
    // The rules picker, kept on every outcome (no games under these rules: switch back).
    let picker = null;
    if (names.length > 1) {
      picker = select(t("rules"), names.map((name) => [name, t(`rules-${kind}-${name}`)]), (name) => {
        this.rules[kind] = name;
        this.show(kind);
      });
      picker.querySelector("select").value = rules;
    }
    this.observers?.forEach((observer) => observer.disconnect());
    this.tabs.forEach((tab, i) => tab.setAttribute("aria-pressed", String(KINDS[i] === kind)));
    const params = new URLSearchParams(location.search);
    params.set("kind", kind);
    history.replaceState(null, "", `${location.pathname}?${params}`);
    this.body.setAttribute("aria-busy", "true");
    const [stats, games] = await Promise.all([
      get(`/api/stats?${query}`),
      get("/api/games?finished=true&limit=100"),
    ]);
    if (this.closed || this.kind !== kind) return;
    this.body.removeAttribute("aria-busy");
    if (!stats.ok) {
      this.body.replaceChildren(picker ?? "", h("p", { class: "error" }, stats.data.detail ?? ""));
      return;
    }
    const data = stats.data;
    if (!data.players.length) {
      this.body.replaceChildren(picker ?? "", h("p", { class: "empty" }, t("no-stats")));
      return;
    }
    // A game's progress chart offers the games of these rules (a game listed before house
    // rules named none: the seeds').
    const finished = games.ok
      ? games.data.filter((g) => g.game === kind && (g.rules ?? setup?.default_rules?.[kind]) === data.rules)
      : [];
    this.totalsChart = h("div", { class: "chart-slot" });
    this.progressChart = h("div", { class: "chart-slot" });
    const everyone = "";
    const players = select(t("player"), [[everyone, t("everyone")], ...Object.keys(data.totals).map((n) => [n, n])],
      (name) => this.drawTotals(data, name));
    const charts = [h("div", { class: "chart-box" }, players, this.totalsChart)];
    if (finished.length) {
      const which = select(t("which-game"), finished.map((g) => [g.id, `${when(g.updated_at)} · ${
        g.players.map((name, seat) => `${name} ${num(g.totals[seat])}`).join(", ")}`]), (id) => this.drawProgress(id));
      charts.push(h("div", { class: "chart-box" }, which, this.progressChart));
    }
    const covered = h("p", { class: "luck-covered", id: "luck-covered" }, t("luck-covered", {
      n: num(data.accounted ?? 0), unit: t(data.unit === "win" ? "luck-unit-win" : "luck-unit-points") }));
    const cost = this.costChart(kind, data);
    if (cost) charts.push(h("div", { class: "chart-box" }, cost));
    this.observers = [];
    const tables = h("div", { class: "stats-tables" },
      this.table(data, h("h2", { id: "stats-table-title" }, gameName(kind)), MAIN),
      this.table(data, h("h3", { id: "stats-own-title" }, t("stats-own")),
        data.rules === "scandinavian" ? YATZY_OWN : OWN[kind]),
      h("div", { class: "stats-luck" },
        this.table(data, h("h3", { id: "stats-luck-title" }, t("luck-and-skill")), LUCK_COLUMNS[kind]),
        covered));
    this.body.replaceChildren(picker ?? "", tables, h("div", { class: "charts" }, charts),
      exportLinks(`/api/stats/export?${query}`));
    this.drawTotals(data, everyone);
    if (finished.length) await this.drawProgress(finished[0].id);
  }

  costChart(kind, data) {
    const write = PER_DECISION[kind];
    const reference = kind === "yams"
      ? { value: VERHOEFF_AIM, label: t("verhoeff-mark", { value: dec(VERHOEFF_AIM, 1) }) }
      : null;
    return costLines(data.cost_per_decision ?? {}, t("chart-cost"), write, reference);
  }

  /** One table of `columns`, a row per player, captioned by `heading`: the first (h2) is the
   * heading of what follows under the page's h1, the others' (h3) are under it. */
  table(data, heading, columns) {
    const table = h("table", { class: "stats-table" },
      h("caption", {}, heading),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("player")),
        columns.map(([word]) => h("th", { scope: "col" }, t(word))))),
      h("tbody", {}, data.players.map((player) => h("tr", {},
        h("th", { scope: "row" }, player.name),
        columns.map(([, key, write]) => h("td", { class: "num" }, typeof player[key] === "number" ? write(player[key]) : "–"))))));
    const { frame, observer } = scrolling(table, heading.id);
    this.observers.push(observer);
    return frame;
  }

  drawTotals(data, name) {
    const totals = name ? data.totals[name] ?? [] : Object.values(data.totals).flat();
    const title = name ? `${t("chart-totals")}: ${name}` : t("chart-totals");
    this.totalsChart.replaceChildren(histogram(totals, title) ?? "");
  }

  async drawProgress(gameId) {
    this.progressChart.setAttribute("aria-busy", "true");
    const response = await get(`/api/games/${encodeURIComponent(gameId)}/progress`);
    if (this.closed) return;
    this.progressChart.removeAttribute("aria-busy");
    if (!response.ok) {
      this.progressChart.replaceChildren(h("p", { class: "error" }, response.data.detail ?? ""));
      return;
    }
    const { players, turns } = response.data;
    this.progressChart.replaceChildren(lines(players, turns, t("chart-progress")) ?? "");
  }

  close() {
    this.closed = true;
    this.observers?.forEach((observer) => observer.disconnect());
  }
}

