// Figures that are not whole points: expected scores (254,3), dates, in the language's format.

import { lang, num } from "./i18n.js";

/** `254,3` (tr, fr) or `254.3` (en), grouped as points are (`1 254,3`), the groups held
 * together by no-break spaces so that a line never breaks inside a figure. */
export function dec(x, digits = 1) {
  const fixed = Math.abs(x).toFixed(digits);
  const [whole, part] = fixed.split(".");
  const sign = x < 0 && Number(fixed) !== 0 ? "\u2212" : "";
  const grouped = num(Number(whole)).replaceAll(" ", "\u00a0");
  return sign + grouped + (part ? (lang === "en" ? "." : ",") + part : "");
}

/** A moment (ISO time) as the language writes a date and a time; `short`: the time alone
 * today, the day and month this year. */
export function when(iso, { short = false } = {}) {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  if (short) {
    const now = new Date();
    const time = { hour: "2-digit", minute: "2-digit" };
    if (date.toDateString() === now.toDateString()) return new Intl.DateTimeFormat(lang, time).format(date);
    if (date.getFullYear() === now.getFullYear()) {
      return new Intl.DateTimeFormat(lang, { day: "numeric", month: "short", ...time }).format(date);
    }
  }
  return new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(date);
}
