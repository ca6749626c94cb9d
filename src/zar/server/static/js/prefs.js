// What the person chose and the address says: language, theme, pace.

export const LANGS = ["tr", "fr", "en"];
export const LANG_NAMES = { tr: "Türkçe", fr: "Français", en: "English" };
const THEMES = ["auto", "light", "dark"];

function read(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage refused (private mode): nothing is remembered
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // nothing to remember it in
  }
}

const params = () => new URLSearchParams(location.search);

/** ?lang= first (and remembered), then the remembered choice, then Turkish. */
export function chosenLang() {
  const asked = params().get("lang");
  if (LANGS.includes(asked)) {
    write("zar.lang", asked);
    return asked;
  }
  const saved = read("zar.lang");
  return LANGS.includes(saved) ? saved : "tr";
}

export function rememberLang(lang) {
  write("zar.lang", lang);
}

/** ?pace=instant: the computer plays at once and the dice do not tumble. */
export const instant = params().get("pace") === "instant";

export function theme() {
  const saved = read("zar.theme");
  return THEMES.includes(saved) ? saved : "auto";
}

export function applyTheme(mode) {
  if (mode === "auto") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = mode;
}

/** The theme on screen now: the chosen one, or the system's. */
export function shownTheme() {
  const mode = theme();
  if (mode !== "auto") return mode;
  return matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

/** The next theme: from the system's, first the other one (so that the first tap always
 * changes what is seen), then the system's own by name, then back to the system. */
export function nextTheme() {
  const system = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  const other = system === "dark" ? "light" : "dark";
  const order = ["auto", other, system];
  const mode = order[(order.indexOf(theme()) + 1) % order.length];
  write("zar.theme", mode);
  applyTheme(mode);
  return mode;
}

export function fast() {
  return read("zar.fast") === "1";
}

export function setFast(on) {
  write("zar.fast", on ? "1" : "0");
}

/** Sounds and vibration: off unless the person switched them on. */
export function sounds() {
  return read("zar.sounds") === "1";
}

export function setSounds(on) {
  write("zar.sounds", on ? "1" : "0");
}

/** The page's address for a game (or home with null), keeping ?lang and ?pace. */
export function address(gameId) {
  const next = params();
  if (gameId) next.set("game", gameId);
  else next.delete("game");
  const query = next.toString();
  return location.pathname + (query ? `?${query}` : "");
}

export function gameInAddress() {
  return params().get("game");
}

/** What a player chose on a game's screen and has not sent yet (kept dice, a box, the open
 * coach), for this tab only: a reload brings it back, another tab starts afresh. */
export function rememberChoices(gameId, choices) {
  try {
    sessionStorage.setItem(`zar.choices.${gameId}`, JSON.stringify(choices));
  } catch {
    // nothing to remember it in
  }
}

export function recallChoices(gameId) {
  try {
    return JSON.parse(sessionStorage.getItem(`zar.choices.${gameId}`) ?? "null");
  } catch {
    return null;
  }
}
