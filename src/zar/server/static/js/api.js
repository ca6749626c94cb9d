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

/** A stream heard from for no longer than this is dead, though the browser may not know it
 * (a phone that changed networks): the server says it is alive every 15 s. */
const QUIET = 40_000;

/** Follow a game live: `onView` gets each state the server sends; `onLink(up)` hears the
 * stream drop and come back. The browser reconnects by itself; a stream gone quiet, or the
 * network coming back, is opened anew; either way the server answers with the state now.
 * Returns a closer. */
export function follow(gameId, onView, onLink = () => {}) {
  const url = `/api/games/${encodeURIComponent(gameId)}/events?lang=${lang}`;
  let source;
  let timer = 0;
  const heard = () => {
    clearTimeout(timer);
    timer = setTimeout(again, QUIET);
  };
  const open = () => {
    source = new EventSource(url);
    source.onmessage = (event) => {
      heard();
      onView(JSON.parse(event.data));
    };
    source.addEventListener("alive", heard);
    source.onopen = () => {
      heard();
      onLink(true);
    };
    source.onerror = () => onLink(source.readyState === EventSource.OPEN);
  };
  function again() {
    source.close();
    onLink(false);
    open();
    heard();
  }
  const lost = () => onLink(false);
  window.addEventListener("offline", lost);
  window.addEventListener("online", again);
  open();
  heard();
  return () => {
    clearTimeout(timer);
    source.close();
    window.removeEventListener("offline", lost);
    window.removeEventListener("online", again);
  };
}
