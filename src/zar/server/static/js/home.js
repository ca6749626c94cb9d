// The first screen: games to continue, the two games, a new game, the rules, the language.

import { get } from "./api.js";
import { still } from "./dice.js";
import { h } from "./dom.js";
import { gameName, label, lang, num, t } from "./i18n.js";
import { screenLink } from "./links.js";
import { address, LANG_NAMES, LANGS } from "./prefs.js";

export function showHome(root, { onNewGame, onOpen, onLanguage, nav }) {
  const resume = h("section", { class: "resume", hidden: true, "aria-labelledby": "resume-title" });
  const fresh = h("button", { type: "button", class: "primary big-button" }, t("new-game"));
  fresh.addEventListener("click", () => onNewGame());
  const card = (kind, about, faces) => {
    const play = h("button", { type: "button", "aria-label": t("play-game", { game: gameName(kind) }) }, t("play"));
    play.addEventListener("click", () => onNewGame(kind));
    return h("article", { class: `game-card game-card-${kind === "yams" ? "yams" : "farkle"}` },
      h("h2", {}, gameName(kind)),
      h("span", { class: "mini", "aria-hidden": "true" }, faces.map((face) => still(face))),
      h("p", {}, about),
      h("div", { class: "card-actions" }, play,
        h("a", { href: `/static/rules/${lang}.html#${kind === "yams" ? "yams" : "farkle"}`, class: "rules-link",
          "aria-label": t("rules-of", { game: gameName(kind) }) }, t("rules"))));
  };
  const languages = h("nav", { class: "languages", "aria-label": t("language") },
    LANGS.map((code) => {
      const link = h("a", { href: `?lang=${code}`, lang: code, hreflang: code,
        "aria-current": code === lang ? "true" : null }, LANG_NAMES[code]);
      link.addEventListener("click", (event) => {
        event.preventDefault();
        onLanguage(code);
      });
      return link;
    }));
  root.replaceChildren(h("section", { class: "home" },
    h("h1", { class: "tagline" }, t("tagline")),
    resume,
    h("div", { class: "start" }, fresh),
    h("div", { class: "more" }, screenLink(t("history"), { view: "history" }, nav),
      screenLink(t("stats"), { view: "stats" }, nav)),
    h("div", { class: "cards" }, card("yams", t("yams-about"), [5, 5, 5, 5, 5]),
      card("10000", t("10000-about"), [1, 5, 1, 2, 3, 6])),
    languages));
  document.title = "Zar";
  listUnfinished(resume, onOpen);
}

async function listUnfinished(section, onOpen) {
  const response = await get("/api/games?finished=false&limit=5");
  if (!response.ok || !response.data.length) return;
  section.replaceChildren(
    h("h2", { id: "resume-title" }, t("unfinished-games")),
    h("ul", {}, response.data.map((game) => {
      const scores = game.players.map((name, seat) => `${name} ${num(game.totals[seat])}`).join(" · ");
      const where = game.game === "yams"
        ? t("round-of", { round: game.round })
        : label(t("target"), num(game.target));
      const link = h("a", { href: address(game.id), class: "resume-game" },
        h("span", { class: "what" }, label(t("continue"), gameName(game.game))),
        h("span", { class: "who" }, scores),
        h("span", { class: "where" }, where));
      link.addEventListener("click", (event) => {
        event.preventDefault();
        onOpen(game.id);
      });
      return h("li", {}, link);
    })));
  section.hidden = false;
}
