// Zar in the browser: the home screen or a game (?game=ID), in the chosen language.

import { h } from "./dom.js";
import { GameScreen } from "./game.js";
import { showHome } from "./home.js";
import { loadWords, t } from "./i18n.js";
import { NewGameDialog } from "./newgame.js";
import {
  address, applyTheme, chosenLang, gameInAddress, instant, nextTheme, rememberLang, theme,
} from "./prefs.js";

const app = document.getElementById("app");
let screen = null;
let dialog = null;

function newGame(kind) {
  dialog ??= new NewGameDialog((view) => open(view.id, view));
  dialog.open(kind);
}

function open(gameId, view = null) {
  history.pushState(null, "", address(gameId));
  route(view);
}

function home() {
  history.pushState(null, "", address(null));
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

function route(view = null) {
  screen?.close();
  screen = null;
  const gameId = gameInAddress();
  if (gameId) {
    screen = new GameScreen(app, gameId, { view, onNewGame: newGame, onOpen: open });
  } else {
    document.getElementById("turn").replaceChildren();
    showHome(app, { onNewGame: newGame, onOpen: open, onLanguage: language });
  }
  window.scrollTo(0, 0);
}

function labelHeader() {
  const link = document.getElementById("home-link");
  link.setAttribute("aria-label", `Zar, ${t("home")}`);
  document.getElementById("theme").textContent = t("theme", { mode: t(`theme-${theme()}`) });
}

async function boot() {
  applyTheme(theme());
  if (instant) document.documentElement.classList.add("instant");
  await loadWords(chosenLang());
  labelHeader();
  document.getElementById("home-link").addEventListener("click", (event) => {
    event.preventDefault();
    home();
  });
  document.getElementById("theme").addEventListener("click", () => {
    nextTheme();
    labelHeader();
  });
  window.addEventListener("popstate", () => route());
  route();
}

boot().catch(() => {
  app.replaceChildren(h("p", { class: "error" }, "Zar: the server cannot be reached."));
});
