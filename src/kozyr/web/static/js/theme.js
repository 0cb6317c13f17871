// The page's colours: "auto" follows the device (prefers-color-scheme), "light" and
// "dark" are the player's own choice, kept in localStorage like the language and the
// sound. <html data-theme> says which colours apply (css/dark.css holds the dark ones);
// the browser's bar takes the matching theme colour. Started by its own <script> tag.

import { t } from "./i18n.js";

const KEY = "kozyr.theme";
const MODES = ["auto", "light", "dark"];
// the bar above the page: the header's colour in each mode (css/kozyr.css, css/dark.css)
const BAR = { light: "#1c2228", dark: "#0f1316" };
const SIGN = { auto: "◐", light: "☀", dark: "☾" };
const system = window.matchMedia("(prefers-color-scheme: dark)");

/** The player's choice: "auto", "light" or "dark". */
export function themeChoice() {
  try {
    const saved = localStorage.getItem(KEY);
    if (MODES.includes(saved)) return saved;
  } catch {
    /* storage may be blocked */
  }
  return "auto";
}

function apply(choice) {
  const dark = choice === "dark" || (choice === "auto" && system.matches);
  const mode = dark ? "dark" : "light";
  document.documentElement.dataset.theme = mode;
  for (const meta of document.querySelectorAll('meta[name="theme-color"]')) {
    // the choice overrides the device's: both media-bound colours become this mode's
    meta.content = choice === "auto" ? BAR[meta.dataset.mode] : BAR[mode];
  }
  for (const button of document.querySelectorAll(".theme-switch")) {
    // a sign on the button, its words for the eye (title) and for screen readers; the
    // language switch relabels them (i18n.js applyStatic)
    const key = `theme_${choice}`;
    button.dataset.i18nLabel = key;
    button.dataset.i18nTitle = key;
    button.setAttribute("aria-label", t(key));
    button.title = t(key);
    button.querySelector(".theme-sign").textContent = SIGN[choice];
    button.dataset.choice = choice;
  }
}

/** Keeps and applies a choice: "auto", "light" or "dark". */
export function setTheme(choice) {
  const value = MODES.includes(choice) ? choice : "auto";
  try {
    localStorage.setItem(KEY, value);
  } catch {
    /* storage may be blocked: the choice lasts this page only */
  }
  apply(value);
}

apply(themeChoice());
system.addEventListener("change", () => apply(themeChoice()));
for (const button of document.querySelectorAll(".theme-switch")) {
  button.addEventListener("click", () => setTheme(MODES[(MODES.indexOf(themeChoice()) + 1) % MODES.length]));
}
