{% autoescape off %}// okeysite's service worker (okeysite/pwa.py). It stores the offline pages only: one per
// site language, which hold no user's data. Every other request goes to the network as
// if there were no service worker (nothing else is stored, the sockets are never seen);
// a page load that fails for lack of network gets the offline page instead.
const CACHE = "{{ cache_name }}";
const OFFLINE = {{ offline_urls_json }};
const DEFAULT_LANGUAGE = "{{ default_language }}";
// the language the pages were last shown in, written by static/js/pwa.js
const LANGUAGE_CACHE = "okey-language";
const LANGUAGE_KEY = "/__okey-language";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(Object.values(OFFLINE))));
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith("okey-offline-") && name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

async function language() {
  const cache = await caches.open(LANGUAGE_CACHE);
  const stored = await cache.match(LANGUAGE_KEY);
  const code = stored ? (await stored.text()).trim() : "";
  if (OFFLINE[code]) return code;
  const browser = (self.navigator.language || "").slice(0, 2);
  return OFFLINE[browser] ? browser : DEFAULT_LANGUAGE;
}

async function offlinePage() {
  const cache = await caches.open(CACHE);
  return (await cache.match(OFFLINE[await language()])) || (await cache.match(OFFLINE[DEFAULT_LANGUAGE]))
    || Response.error();
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.mode !== "navigate" || request.method !== "GET") return;  // the network's, untouched
  event.respondWith(fetch(request).catch(offlinePage));
});
{% endautoescape %}
