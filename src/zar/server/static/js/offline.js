// The app's own screen while the server cannot be reached, in the player's language and the
// app's look: it asks the server again by itself, and once the server answers it goes and
// the screen that was showing comes back where the game stands. Games need the server:
// nothing is played meanwhile.

import { still } from "./dice.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const FIRST_TRY_MS = 1000;
const LAST_TRY_MS = 5000;

// When the words could not be loaded either (a first visit with the server down).
const FALLBACK = {
  "offline-title": "Sunucuya ulaşılamıyor · The server cannot be reached",
  "offline-text": "Zar kaldığı yerden sürecek. · Zar will carry on where it was.",
  "offline-retrying": "…",
};

const say = (key) => (t(key) === key ? FALLBACK[key] : t(key));

export class Offline {
  /** `onBack()` is called once the server answers again. */
  constructor(onBack) {
    this.onBack = onBack;
    this.el = null;
    this.timer = null;
  }

  get shown() {
    return this.el !== null;
  }

  show() {
    if (this.el) return;
    this.el = h("section", { class: "offline", role: "alert", "aria-labelledby": "offline-title" },
      h("div", { class: "offline-card" },
        h("span", { class: "offline-die", "aria-hidden": "true" }, still(5)),
        h("h1", { id: "offline-title" }, say("offline-title")),
        h("p", {}, say("offline-text")),
        h("p", { class: "retrying" }, say("offline-retrying"))));
    document.body.append(this.el);
    document.body.classList.add("unreachable");
    this.wait = FIRST_TRY_MS;
    this.try();
  }

  /** Ask the server again, less often as the wait goes on. */
  try() {
    clearTimeout(this.timer);
    this.timer = setTimeout(async () => {
      let back = false;
      try {
        back = (await fetch("/api/setup", { cache: "no-store" })).ok;
      } catch {
        back = false;
      }
      if (!this.el) return;
      if (back) {
        this.hide();
        this.onBack();
        return;
      }
      this.wait = Math.min(LAST_TRY_MS, this.wait * 1.5);
      this.try();
    }, this.wait);
  }

  hide() {
    clearTimeout(this.timer);
    this.el?.remove();
    this.el = null;
    document.body.classList.remove("unreachable");
  }
}
