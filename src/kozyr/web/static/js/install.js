// What lets a phone keep the room on its home screen: the web app manifest in the page's
// language (manifest.en.json or manifest.ru.json: a manifest has one name) and the
// service worker (/sw.js), which keeps the page's own files and never the API or the
// socket. Started by its own <script> tag.

import { lang, onLangChange } from "./i18n.js";

function manifestInLanguage() {
  const link = document.querySelector('link[rel="manifest"]');
  if (link) link.href = `manifest.${lang() === "ru" ? "ru" : "en"}.json`;
}

manifestInLanguage();
onLangChange(manifestInLanguage);

// Served at the root so that it may look after the whole page; a browser without
// service workers (or a page not on https or localhost) simply goes without.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
}
