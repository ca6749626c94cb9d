// The first screen: games to continue, the two games, a new game, the rules, the language;
// and, when the server serves the network, its address and a QR code for a phone. It is
// drawn once what it shows is known, so that nothing moves under a finger after it appears.

import { get } from "./api.js";
import { still } from "./dice.js";
import { h } from "./dom.js";
import { unfinishedItems } from "./games.js";
import { gameName, lang, t } from "./i18n.js";
import { screenLink } from "./links.js";
import { LANG_NAMES, LANGS } from "./prefs.js";

const SHOWN = 3; // unfinished games on the home screen; the others one tap away

/** What the home screen shows besides its own words: the latest unfinished games, and
 * where a phone opens the app. Asked for together, as early as the page starts. */
export function homeData() {
  return Promise.all([get(`/api/games?finished=false&limit=${SHOWN + 1}`), get("/api/network")]);
}

export async function showHome(root, {
  onNewGame, onOpen, onLanguage, onJoin, nav, data = homeData(), current = () => true,
}) {
  const [games, network] = await data;
  if (!current()) return; // another screen was asked for meanwhile
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
        h("a", { href: `/static/rules/${lang}.html#${kind === "yams" ? "yams" : "farkle"}`, class: "rules-link" },
          t("rules"), h("span", { class: "sr-only" }, ` (${gameName(kind)})`))));
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
    resume(games.ok ? games.data : [], onOpen, nav),
    h("div", { class: "start" }, fresh),
    joinByCode(onJoin),
    h("div", { class: "more" }, screenLink(t("history"), { view: "history" }, nav),
      screenLink(t("stats"), { view: "stats" }, nav)),
    h("div", { class: "cards" }, card("yams", t("yams-about"), [5, 5, 5, 5, 5]),
      card("10000", t("10000-about"), [1, 5, 1, 2, 3, 6])),
    phone(network.ok ? network.data : null),
    languages));
  document.title = "Zar";
}

/** The latest unfinished games, and a link to them all when there are more. */
function resume(games, onOpen, nav) {
  if (!games.length) return null;
  const section = h("section", { class: "resume", "aria-labelledby": "resume-title" });
  const list = h("ul", { class: "resume-list" }, unfinishedItems(games.slice(0, SHOWN), onOpen, () => {
    if (!list.children.length && !all) section.remove();
  }));
  const all = games.length > SHOWN ? screenLink(t("see-all"), { view: "games" }, nav, "see-all") : null;
  section.append(h("h2", { id: "resume-title" }, t("unfinished-games")), list, all ?? "");
  return section;
}

/** `Kodla katıl`: the short code another phone's host read out, when no camera is at hand. */
function joinByCode(onJoin) {
  const input = h("input", { type: "text", name: "code", id: "join-code", autocomplete: "off",
    autocapitalize: "characters", spellcheck: "false", maxlength: 9, enterkeyhint: "go",
    placeholder: "K7M 2QX" });
  const form = h("form", { class: "join-code" },
    h("label", { for: "join-code" }, t("join-by-code")), h("div", { class: "row" }, input,
      h("button", { type: "submit" }, t("join"))));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (input.value.trim()) onJoin({ secret: input.value.trim() });
  });
  return form;
}

/** Where a phone on the same network opens the app: the address and its QR code. */
function phone(network) {
  const first = network?.addresses?.[0];
  if (!first) return null;
  return h("section", { class: "phone", "aria-labelledby": "phone-title" },
    h("div", {},
      h("h2", { id: "phone-title" }, t("open-on-phone")),
      h("p", {}, t("open-on-phone-about")),
      h("p", { class: "addresses" }, network.addresses.map((url) => h("a", { href: url }, url)))),
    h("img", { src: network.qr, alt: t("qr-code"), width: 132, height: 132, class: "qr" }));
}
