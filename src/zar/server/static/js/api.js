// The server's JSON API: every call in the page's language; refusals come back as data.
// A call the server never answered (the network down, the server stopped) is said to
// `whenUnreachable`'s listener: the app shows its own screen until the server is back.

import { lang, t } from "./i18n.js";

let unreachable = () => {};

/** `listener()` is called each time a call finds the server out of reach. */
export function whenUnreachable(listener) {
  unreachable = listener;
}

export async function call(method, path, body) {
  const url = `${path}${path.includes("?") ? "&" : "?"}lang=${lang}`;
  let response;
  try {
    response = await fetch(url, {
      method,
      headers: body ? { "content-type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch {
    unreachable();
    return { ok: false, status: 0, data: { detail: t("connection-lost") } };
  }
  let data = {};
  try {
    data = await response.json();
  } catch {
    data = { detail: t("connection-lost") };
  }
  return { ok: response.ok, status: response.status, data };
}

export const get = (path) => call("GET", path);
export const post = (path, body) => call("POST", path, body);

/** Follow a game live: `onView` gets each state the server sends; `onLink(up)` hears the
 * stream drop and come back (the browser reconnects by itself, saying the last version it
 * had; the server answers with the state now). Returns a closer. */
export function follow(gameId, onView, onLink = () => {}) {
  const source = new EventSource(`/api/games/${encodeURIComponent(gameId)}/events?lang=${lang}`);
  source.onmessage = (event) => onView(JSON.parse(event.data));
  source.onopen = () => onLink(true);
  source.onerror = () => onLink(source.readyState === EventSource.OPEN);
  return () => source.close();
}
