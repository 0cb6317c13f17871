// The service worker: it keeps the page's own files so that the room opens at once from a
// phone's home screen. The server serves this file at /sw.js with VERSION (a hash of the
// page's files) and SHELL (their addresses) filled in (kozyr.server.routes.shell): a new
// page gives a new worker, which keeps the new files and drops the old ones.
// - the page (/ and /index.html): the network first, the kept copy when it cannot answer;
// - the page's other files (SHELL): the kept copy first, as this VERSION holds them;
// - everything else, the API (/api/...) and the socket (/ws) above all: never kept, never
//   answered from here. There is no offline play.

const VERSION = "__KOZYR_VERSION__";
const SHELL = ["__KOZYR_SHELL__"];
const CACHE = `kozyr-shell-${VERSION}`;
const PAGE = new Set(["/", "/index.html"]);
const FILES = new Set(SHELL);

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("kozyr-shell-") && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

async function pageFirstFromNetwork(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put("/index.html", response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match("/index.html");
    if (kept) return kept;
    throw error;
  }
}

async function keptFirst(request, path) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(path);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(path, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  const path = url.pathname;
  if (path.startsWith("/api/") || path === "/api" || path.startsWith("/ws")) return;
  if (PAGE.has(path) && !url.search) event.respondWith(pageFirstFromNetwork(request));
  else if (FILES.has(path) && !url.search) event.respondWith(keptFirst(request, path));
});
