// What a table feels besides the screen: a short celebration for a Penta, hot dice and a
// win (none under reduced motion), sounds and vibration if the person switched them on
// (off by default), and the screen kept awake while a game is played.

import { h } from "./dom.js";
import { instant, sounds } from "./prefs.js";

const CELEBRATION_MS = 1400;

export const reducedMotion = () => instant || matchMedia("(prefers-reduced-motion: reduce)").matches;

/** A burst of gold over `place` with `words` in it, gone after a moment. */
export function celebrate(place, words) {
  if (reducedMotion()) return;
  place.querySelector(".celebration")?.remove();
  const sparks = Array.from({ length: 14 }, (_, i) => {
    const spark = h("span", { class: "spark" });
    spark.style.setProperty("--a", `${(360 / 14) * i}deg`); // the CSSOM: the CSP allows it
    spark.style.setProperty("--d", `${70 + (i % 3) * 28}px`);
    return spark;
  });
  const burst = h("div", { class: "celebration", "aria-hidden": "true" }, sparks, h("strong", {}, words));
  place.append(burst);
  setTimeout(() => burst.remove(), CELEBRATION_MS);
}

let audio = null;

function context() {
  audio ??= new AudioContext();
  if (audio.state === "suspended") audio.resume();
  return audio;
}

/** A short tone: `freq` Hz, starting `at` seconds from now, lasting `length` seconds. */
function tone(freq, at = 0, length = 0.12, type = "triangle", gain = 0.18) {
  const ctx = context();
  const start = ctx.currentTime + at;
  const osc = ctx.createOscillator();
  const level = ctx.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  level.gain.setValueAtTime(gain, start);
  level.gain.exponentialRampToValueAtTime(0.001, start + length);
  osc.connect(level).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length);
}

const SOUNDS = {
  // Dice on the felt: a few dry knocks.
  throw: () => [0, 0.05, 0.11, 0.16].forEach((at, i) => tone(180 + 60 * (i % 2), at, 0.05, "square", 0.08)),
  // A Penta, hot dice, a win: a rising chord.
  celebrate: () => [523, 659, 784, 1047].forEach((freq, i) => tone(freq, i * 0.09, 0.25)),
  refused: () => tone(150, 0, 0.15, "sawtooth", 0.1),
};

const BUZZ = { throw: [25], celebrate: [40, 60, 40, 60, 90], refused: [80] };

/** A sound and a buzz for `what` (throw, celebrate, refused), if switched on. */
export function feel(what) {
  if (!sounds()) return;
  try {
    SOUNDS[what]?.();
  } catch {
    // no audio here: the buzz alone
  }
  navigator.vibrate?.(BUZZ[what] ?? []);
}

/** Keep the screen awake while a game is on screen (where the browser can); returns the
 * function that lets it sleep again. */
export function stayAwake() {
  if (!navigator.wakeLock) return () => {};
  let lock = null;
  let done = false;
  const ask = async () => {
    if (done || document.visibilityState !== "visible") return;
    try {
      lock = await navigator.wakeLock.request("screen");
    } catch {
      lock = null; // refused (battery saver, say): the screen sleeps as usual
    }
  };
  // The lock goes whenever the page is hidden; it is asked again when the page is back.
  document.addEventListener("visibilitychange", ask);
  ask();
  return () => {
    done = true;
    document.removeEventListener("visibilitychange", ask);
    lock?.release().catch(() => {});
  };
}
