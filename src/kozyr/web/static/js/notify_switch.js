// The switch "Notify me when it's my turn" (#44 item 5): a button of the page's own
// (index.html's .notify-switch, beside "Leave the table") that turns the system
// notifications of attention.js on and off. Hidden where the browser has none. Its words
// are its state ("Notifications: off"); its title says what it does. On a phone it is its
// picture alone (its words are its label). The browser is asked for the permission by
// its click only.

import { notifyState, setNotify } from "./attention.js";
import { onLangChange, t } from "./i18n.js";
import { esc } from "./html.js";

const WORDS = { on: "notify_on", off: "notify_off", blocked: "notify_blocked" };
const BELL =
  '<path d="M10 2.5a5 5 0 0 0-5 5v3.5L3.5 14h13L15 11V7.5a5 5 0 0 0-5-5z" fill="currentColor"/>' +
  '<path d="M8 15.5a2 2 0 0 0 4 0" fill="none" stroke="currentColor" stroke-width="1.6"/>';
const STRUCK = '<path d="M3 3l14 14" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"/>';

function draw(button) {
  const state = notifyState();
  button.hidden = state === "unsupported";
  if (button.hidden) return;
  const words = t(WORDS[state]);
  button.dataset.state = state;
  button.setAttribute("aria-pressed", String(state === "on"));
  button.setAttribute("aria-label", words);
  button.title = t(state === "blocked" ? "notify_blocked_about" : "notify_about");
  button.innerHTML =
    `<svg class="notify-icon" width="16" height="16" viewBox="0 0 20 20" aria-hidden="true">${BELL}${state === "on" ? "" : STRUCK}</svg>` +
    `<span class="notify-label">${esc(words)}</span>`;
}

/** Draws `button` as the switch and keeps it so (clicks, the language). */
export function wireNotifySwitch(button) {
  if (!button) return;
  draw(button);
  button.addEventListener("click", () => {
    // the browser's question, if any, inside this click (attention.js)
    setNotify(notifyState() !== "on").then(() => draw(button));
  });
  onLangChange(() => draw(button));
}
