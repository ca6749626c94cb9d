// Zar in the browser: the home screen, a game (?game=ID), the unfinished games
// (?view=games), the history (?view=history) and a game's replay (?replay=ID&at=N), the
// statistics (?view=stats&kind=yams), in the chosen language. The history and the
// statistics load their modules when first opened. While the server cannot be reached the
// app shows its own screen, and comes back by itself.

import { whenUnreachable } from "./api.js";
import { h } from "./dom.js";
import { GameScreen } from "./game.js";
import { GamesScreen } from "./games.js";
import { homeData, showHome } from "./home.js";
import { loadWords, t } from "./i18n.js";
import { invitationInAddress, JoinScreen, keep, kept } from "./join.js";
import { NewGameDialog } from "./newgame.js";
import { Offline } from "./offline.js";
import {
  applyTheme, chosenLang, gameInAddress, instant, nextTheme, rememberLang, theme,
} from "./prefs.js";

const app = document.getElementById("app");
let screen = null;
let dialog = null;
let routes = 0; // which route is the latest, when a module arrives late
const offline = new Offline(() => (words ? route() : boot()));
let words = false; // whether the page's words are loaded

/** The page's address for these fields (?game, ?view, ?replay…), keeping ?lang and ?pace. */
function place(fields) {
  const now = new URLSearchParams(location.search);
  const next = new URLSearchParams();
  for (const key of ["lang", "pace"]) if (now.has(key)) next.set(key, now.get(key));
  for (const [key, value] of Object.entries(fields)) if (value !== null && value !== undefined) next.set(key, value);
  const query = next.toString();
  return location.pathname + (query ? `?${query}` : "");
}

function go(fields) {
  history.pushState(null, "", place(fields));
  route();
}

const nav = { go, place };

function newGame(kind) {
  dialog ??= new NewGameDialog((view) => open(view.id, view));
  dialog.open(kind);
}

function open(gameId, view = null) {
  history.pushState(null, "", place({ game: gameId }));
  route(view);
}

function home() {
  go({});
}

/** Join with an invitation (a link's secret, a typed code): its screen, at ?view=join. */
function join(invitation) {
  keep(invitation);
  history.pushState(null, "", place({ view: "join" }));
  route();
}

async function language(code) {
  rememberLang(code);
  const params = new URLSearchParams(location.search);
  if (params.has("lang")) {
    params.set("lang", code);
    history.replaceState(null, "", `${location.pathname}?${params}`);
  }
  await loadWords(code);
  dialog?.el?.remove();
  dialog = null;
  labelHeader();
  route();
}

function route(view = null, data = null) {
  screen?.close();
  screen = null;
  const ticket = ++routes;
  const params = new URLSearchParams(location.search);
  const gameId = gameInAddress();
  const later = async (module, make) => {
    const loaded = await import(module);
    if (ticket === routes) screen = make(loaded);
  };
  document.getElementById("turn").replaceChildren();
  if (gameId) {
    screen = new GameScreen(app, gameId, { view, onNewGame: newGame, onOpen: open });
  } else if (params.get("replay")) {
    const at = Number.parseInt(params.get("at") ?? "0", 10) || 0;
    later("./history.js", (m) => new m.ReplayScreen(app, params.get("replay"), at, nav));
  } else if (params.get("view") === "history") {
    later("./history.js", (m) => new m.HistoryList(app, nav));
  } else if (params.get("view") === "stats") {
    later("./stats.js", (m) => new m.StatsScreen(app, params.get("kind"), nav));
  } else if (params.get("view") === "games") {
    screen = new GamesScreen(app, nav, open);
  } else if (params.get("view") === "join" && kept()) {
    screen = new JoinScreen(app, kept(), (game, view) => {
      history.replaceState(null, "", place({ game }));
      route(view);
    });
  } else {
    showHome(app, { onNewGame: newGame, onOpen: open, onLanguage: language, onJoin: join, nav,
      data: data ?? homeData(), current: () => ticket === routes });
  }
  window.scrollTo(0, 0);
}

function labelHeader() {
  const link = document.getElementById("home-link");
  link.setAttribute("aria-label", `Zar, ${t("home")}`);
  // On a phone the words give way to a sign (app.css), so that whose turn it is shows whole.
  const words = t("theme", { mode: t(`theme-${theme()}`) });
  const button = document.getElementById("theme");
  button.setAttribute("aria-label", words);
  button.replaceChildren(h("span", { class: "words" }, words));
}

async function boot() {
  // The home screen's games are asked for with the words, not after them, in their language
  // (the computer named in it).
  const loading = loadWords(chosenLang());
  const home = !gameInAddress() && !location.search.includes("view=") && !location.search.includes("replay=")
    ? homeData() : null;
  try {
    await loading;
  } catch {
    offline.show();
    return;
  }
  words = true;
  labelHeader();
  // An invitation's link: its secret is taken out of the address at once.
  const invitation = invitationInAddress();
  if (invitation) {
    join(invitation);
    return;
  }
  route(null, home);
}

applyTheme(theme());
if (instant) document.documentElement.classList.add("instant");
whenUnreachable(() => offline.show());
document.getElementById("home-link").addEventListener("click", (event) => {
  event.preventDefault();
  home();
});
document.getElementById("theme").addEventListener("click", () => {
  nextTheme();
  labelHeader();
});
window.addEventListener("popstate", () => route());
boot();

// Keep the page's files so that it opens at once, and offline (/sw.js).
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch(() => {});
}
