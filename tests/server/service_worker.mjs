// The service worker (/sw.js as served, its path the first argument) in Node, against a fake
// browser: its caches in memory, a network the scenario switches off and on. Each step's
// outcome is printed as one JSON line for tests/server/test_service_worker.py to read.

import { readFileSync } from "node:fs";
import vm from "node:vm";

const ORIGIN = "http://zar.test";
const worker = readFileSync(process.argv[2], "utf8");
const VERSION = /const VERSION = "([0-9a-f]+)"/.exec(worker)[1];

const absolute = (input) => new URL(typeof input === "string" ? input : input.url, ORIGIN).href;

class FakeCache {
  entries = new Map();
  async match(request) {
    return this.entries.get(absolute(request))?.clone();
  }
  async put(request, response) {
    this.entries.set(absolute(request), response.clone());
  }
  async addAll(requests) {
    for (const request of requests) {
      const response = await network(request);
      if (!response.ok) throw new TypeError(`${request}: ${response.status}`);
      await this.put(request, response);
    }
  }
}

const stores = new Map();
const caches = {
  async open(name) {
    if (!stores.has(name)) stores.set(name, new FakeCache());
    return stores.get(name);
  },
  async keys() { return [...stores.keys()]; },
  async delete(name) { return stores.delete(name); },
};

// The server: each page says which version it is and how many times it was asked.
let online = true;
let pageVersion = VERSION;
let pages = 0;
const asked = [];
async function network(input) {
  const url = new URL(absolute(input));
  asked.push(url.pathname + url.search);
  if (!online) throw new TypeError("Failed to fetch");
  if (url.pathname === "/") {
    pages += 1;
    return new Response(`page ${pages} /static/${pageVersion}/app.css`, { status: 200 });
  }
  return new Response(`${url.pathname}${url.search}`, { status: 200 });
}

const listeners = {};
let claimed = false;
const self = {
  addEventListener: (type, listener) => { listeners[type] = listener; },
  clients: { claim: async () => { claimed = true; } },
};
vm.runInNewContext(worker, {
  self, caches, fetch: network, location: new URL(ORIGIN), URL, Response, console,
});

/** An event of `type` sent to the worker; resolves once all it waits on is done. */
async function dispatch(type, fields = {}) {
  const waits = [];
  let answer = null;
  listeners[type]({
    ...fields,
    waitUntil: (promise) => waits.push(promise),
    respondWith: (promise) => { answer = Promise.resolve(promise); },
  });
  let outcome = { answered: answer !== null };
  if (answer) {
    try {
      const response = await answer;
      outcome = { ...outcome, status: response.status, body: await response.text() };
    } catch (error) {
      outcome = { ...outcome, rejected: error instanceof TypeError };
    }
  }
  await Promise.all(waits);
  return outcome;
}

const fetchEvent = (path, { mode = "cors", method = "GET" } = {}) =>
  dispatch("fetch", { request: { url: new URL(path, ORIGIN).href, mode, method } });

async function cached(name, path) {
  const response = await stores.get(name)?.match(path);
  return response ? response.text() : null;
}

/** `run` with the network off: the worker must do without it. */
async function offline(run) {
  online = false;
  try {
    return await run();
  } finally {
    online = true;
  }
}

async function step(name, run) {
  asked.length = 0;
  const outcome = await run();
  console.log(JSON.stringify({ step: name, asked: [...asked], ...outcome }));
}

const shell = `zar-shell-${VERSION}`;
const versioned = `/static/${VERSION}/js/main.js`;

await step("offline before install", () => offline(() => fetchEvent("/?game=abc", { mode: "navigate" })));
await caches.open("zar-shell-000000000000");
await caches.open("zar-words");
await step("install", async () => {
  await dispatch("install");
  return { kept: [...stores.get(shell).entries.keys()].map((url) => url.slice(ORIGIN.length)) };
});
await step("activate", async () => {
  await dispatch("activate");
  return { caches: await caches.keys(), claimed };
});
await step("navigation", async () => ({
  ...(await fetchEvent("/?game=abc&lang=fr", { mode: "navigate" })),
  kept: await cached(shell, "/"),
}));
await step("navigation offline", () => offline(() => fetchEvent("/?view=history", { mode: "navigate" })));
await step("navigation to a page of another version", async () => {
  pageVersion = "111111111111";
  const outcome = await fetchEvent("/", { mode: "navigate" });
  pageVersion = VERSION;
  return { ...outcome, kept: await cached(shell, "/") };
});
await step("rules page", () => fetchEvent("/static/rules/en.html", { mode: "navigate" }));
await step("versioned file offline", () => offline(() => fetchEvent(versioned)));
await step("versioned file not kept, offline", () => offline(() => fetchEvent(`/static/${VERSION}/rules/rules.css`)));
await step("manifest offline", () => offline(() => fetchEvent("/manifest.webmanifest")));
await step("words", async () => ({
  ...(await fetchEvent("/api/i18n/fr?lang=fr")),
  kept: await cached("zar-words", "/api/i18n/fr?lang=fr"),
}));
await step("words offline", () => offline(() => fetchEvent("/api/i18n/fr?lang=fr")));
await step("words never heard, offline", () => offline(() => fetchEvent("/api/i18n/en?lang=en")));
for (const [path, method] of [
  ["/api/games?finished=false", "GET"],
  ["/api/games/abc", "GET"],
  ["/api/games/abc/events?lang=tr", "GET"],
  ["/api/games/abc/actions", "POST"],
  ["/api/network", "GET"],
  ["http://elsewhere.test/x.js", "GET"],
]) {
  await step(`${method} ${path}`, async () => ({
    ...(await fetchEvent(path, { method })),
    kept: (await Promise.all([...stores.values()].map((cache) => cache.match(path)))).some(Boolean),
  }));
}
