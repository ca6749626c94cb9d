// The service worker (served as /sw.js, the version and the shell's files filled in): the
// page opens at once, and without the network, from the files of its version; the games
// themselves are always the server's, never an old copy.

const VERSION = "__ZAR_VERSION__";
const SHELL_FILES = ["__ZAR_SHELL_FILES__"];
const WORD_FILES = ["__ZAR_WORDS__"];
const SHELL = `zar-shell-${VERSION}`;
const WORDS = "zar-words"; // the page's words do not follow the files' version

self.addEventListener("install", (event) => {
  event.waitUntil(Promise.all([
    caches.open(SHELL).then((cache) => cache.addAll(SHELL_FILES)),
    // The words of every language too, so that the app's offline screen speaks the player's.
    caches.open(WORDS).then((cache) => cache.addAll(WORD_FILES)),
  ]));
});

// No skipWaiting: a page still open on the old version keeps its files until it closes.
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== SHELL && name !== WORDS) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return;
  if (request.mode === "navigate") {
    // The app is "/" whatever its query; the rules pages and the API's docs are pages of their own.
    if (url.pathname === "/") event.respondWith(openShell(event));
  } else if (url.pathname.startsWith(`/static/${VERSION}/`) || SHELL_FILES.includes(url.pathname)) {
    event.respondWith(cacheFirst(request));
  } else if (url.pathname.startsWith("/api/i18n/")) {
    event.respondWith(networkFirst(request));
  }
  // Anything else (the games, the live events, other pages) goes to the network untouched.
});

/** The cached page at once, refreshed behind it; the network's when none is cached. */
async function openShell(event) {
  const cache = await caches.open(SHELL);
  const cached = await cache.match("/");
  if (!cached) return fetch(event.request);
  event.waitUntil(refreshShell(cache));
  return cached;
}

async function refreshShell(cache) {
  try {
    const response = await fetch("/");
    // A page of another version waits for its own worker, which caches it with its files.
    const page = await response.clone().text();
    if (response.ok && page.includes(`/static/${VERSION}/`)) await cache.put("/", response);
  } catch {
    // Offline: the cached page stays.
  }
}

/** A file of this version never changes: the cached copy, else the network's, kept. */
async function cacheFirst(request) {
  const cache = await caches.open(SHELL);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

/** The words as the server says them now, else as last heard (to speak offline). */
async function networkFirst(request) {
  const cache = await caches.open(WORDS);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const cached = await cache.match(request);
    if (cached) return cached;
    throw error;
  }
}
