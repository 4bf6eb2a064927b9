// Every page: register the service worker (okeysite/pwa.py, templates/pwa/sw.js), which
// makes the site installable and shows the offline page when the network is gone, and
// tell it the pages' language so that the offline page speaks it too. The language is
// the only thing a page hands to it.
const LANGUAGE_CACHE = "okey-language";
const LANGUAGE_KEY = "/__okey-language";

if (typeof navigator !== "undefined" && "serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => { /* no worker: the site works as before */ });
  if (window.caches) {
    caches.open(LANGUAGE_CACHE)
      .then((cache) => cache.put(LANGUAGE_KEY, new Response(document.documentElement.lang || "")))
      .catch(() => { /* storage refused (private mode): the browser's language is used */ });
  }
}
