// Short explanations of the games' own words, shown on hover (title) and on a tap (a
// button toggles its bubble), for the summaries, the score sheet and the table.

import { t } from "./i18n.js";
import { esc } from "./html.js";

// engine reason or term -> the term explained
const TERM_OF = {
  point: "point",
  honours: "honours",
  "honour led": "honours",
  "honour heads the trick": "honours",
  "imperial tombé": "tombe",
  tombe: "tombe",
  wipe: "wipe",
  "white imperial": "white",
  white: "white",
  imperials: "imperial",
  imperial: "imperial",
  "24 points": "imperial",
  capot: "capot",
  swap: "swap",
  bargain: "bargain",
  "bought off": "bargain",
};

export function termOf(word) {
  return TERM_OF[word] || null;
}

/** `label` (plain text) with the explanation of `term` on hover and tap; plain when the
 * word has none. */
export function termHtml(term, label) {
  const key = TERM_OF[term];
  if (!key) return esc(label);
  const about = t(`term_${key}`);
  return (
    `<button type="button" class="term" data-term="${key}" title="${esc(about)}" aria-expanded="false">` +
    `${esc(label)}</button>`
  );
}

/** The address of a term in a game's how-to-play glossary (#29). */
export function termHref(game, key) {
  return `#/howto/${encodeURIComponent(game)}/term-${key}`;
}

/** One listener for a container: a tap on a term opens its bubble, another closes it.
 * `game()` names the game shown, whose how-to-play glossary the bubble links to. */
export function wireTerms(root, game = () => null) {
  root.addEventListener("click", (e) => {
    const btn = e.target.closest?.(".term");
    if (!btn || !root.contains(btn)) return;
    e.stopPropagation();
    const open = btn.nextElementSibling?.classList.contains("term-about");
    for (const b of root.querySelectorAll(".term-about")) b.remove();
    for (const b of root.querySelectorAll(".term[aria-expanded=true]")) b.setAttribute("aria-expanded", "false");
    if (open) return;
    const bubble = document.createElement("span");
    bubble.className = "term-about";
    bubble.setAttribute("role", "note");
    bubble.textContent = t(`term_${btn.dataset.term}`);
    const name = game();
    if (name) {
      const more = document.createElement("a");
      more.className = "term-more";
      more.href = termHref(name, btn.dataset.term);
      more.target = "_blank";
      more.rel = "noopener";
      more.textContent = t("howto_in_glossary");
      bubble.append(" ", more);
    }
    btn.after(bubble);
    btn.setAttribute("aria-expanded", "true");
  });
}
