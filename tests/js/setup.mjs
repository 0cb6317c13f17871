// What the page's pure modules need to run under `node --test` without a browser: the
// games' facts as the server sends them (game_facts.json, kept equal to the Game specs by
// tests/test_js_units.py), and a language switch without a document.

import { readFileSync } from "node:fs";

export const STATIC = new URL("../../src/kozyr/web/static/js/", import.meta.url);

// setLang relabels the document; here there is none to relabel.
globalThis.document ??= { documentElement: {}, querySelectorAll: () => [] };

const { setGames } = await import(new URL("games/index.js", STATIC));
export const FACTS = JSON.parse(readFileSync(new URL("game_facts.json", import.meta.url), "utf-8"));
setGames(FACTS);

/** A module of the page, by its path under static/js. */
export function page(path) {
  return import(new URL(path, STATIC));
}

/** Runs `fn` with the page in `language`, then back in English. */
export async function inLanguage(language, fn) {
  const { setLang } = await page("i18n.js");
  setLang(language);
  try {
    return await fn();
  } finally {
    setLang("en");
  }
}
