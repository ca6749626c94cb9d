// Links: to the page's other screens (opened without reloading), and to the exports of a
// game or of the statistics as JSON and CSV files.

import { h } from "./dom.js";
import { label, lang, t } from "./i18n.js";

/** A link to another screen (`fields` of its address), opened by `nav.go`. */
export function screenLink(label, fields, { go, place }, className = "button") {
  const link = h("a", { href: place(fields), class: className }, label);
  link.addEventListener("click", (event) => {
    event.preventDefault();
    go(fields);
  });
  return link;
}

/** Links `JSON` and `CSV` to the export at `path` (with its query, if any). */
export function exportLinks(path) {
  const join = path.includes("?") ? "&" : "?";
  return h("p", { class: "exports" }, h("span", { class: "label" }, label(t("export"))),
    ["json", "csv"].map((format) => h("a", { class: "button export", download: "",
      href: `${path}${join}format=${format}&lang=${lang}`,
      "aria-description": t("export-as", { format: format.toUpperCase() }) }, format.toUpperCase())));
}
