// The page's words, from the server (/api/i18n/{lang}), and numbers in the language's format.

let words = { messages: {}, boxes: {} };
export let lang = "tr";

/** The words of `chosen`; the server is asked in it from now on, the words still coming. */
export async function loadWords(chosen) {
  lang = chosen;
  const response = await fetch(`/api/i18n/${chosen}`);
  words = await response.json();
  document.documentElement.lang = chosen;
}

/** The message `key` with its `{name}` fields filled in (Python's format fields). */
export function t(key, params = {}) {
  const template = words.messages[key] ?? key;
  return template.replace(/\{(\w+)(?:![rs])?\}/g, (field, name) =>
    name in params ? String(params[name]) : field,
  );
}

export function boxName(box) {
  return words.boxes[box] ?? box;
}

/** Points: `10 000` in Turkish and French, `10,000` in English (zar.i18n.number); below
 * zero with the minus sign (`−500`), as the messages write a penalty. */
export function num(n) {
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, lang === "en" ? "," : " ");
  return (n < 0 ? "\u2212" : "") + digits;
}

/** A chance: `%15,7` (tr), `15,7 %` (fr), `15.7%` (en) (zar.i18n.percent); `places` after the point. */
export function pct(p, places = 1) {
  const digits = (100 * p).toFixed(places);
  if (lang === "tr") return `%${digits.replace(".", ",")}`;
  if (lang === "fr") return `${digits.replace(".", ",")} %`;
  return `${digits}%`;
}

/** `word` as a label before what it names: `Hedef: 5 000`, `Objectif : 5 000` (French
 * sets a narrow no-break space before the colon), `Target: 5,000`. */
export function label(word, what = "") {
  const colon = lang === "fr" ? "\u202f:" : ":";
  return what === "" ? `${word}${colon}` : `${word}${colon} ${what}`;
}

/** "Ali", "Ali ve Ece", "Ali, Ece ve Can". */
export function names(list) {
  if (list.length < 2) return list.join("");
  return `${list.slice(0, -1).join(", ")} ${t("and")} ${list[list.length - 1]}`;
}

export function gameName(kind) {
  return t(kind === "yams" ? "yams" : "10000");
}
