// Leaving a game in progress (issue 30): the game goes on, the computer plays the seat,
// the stake stays in play. The page says so in its own dialog before the seat is handed
// over, and staying is the default (Esc, the backdrop's Cancel, the first button).

import { t } from "./i18n.js";
import { esc } from "./html.js";
import { chips } from "./stakes.js";

/** What leaving the game at `info` (table info, status "playing") means for seat `you`,
 * as paragraphs of plain text: the seat, the stake (a table for chips), the rating. */
export function leaveWords(info, you) {
  const words = [t("leave_seat")];
  if (info?.stake) {
    const hold = info.stake_hold ?? info.stake.chips;
    words.push(t("leave_stake", { hold: chips(hold) }));
  }
  if (info?.rated && you != null) words.push(t("leave_rated"));
  return words;
}

/** Asks before the seat at a game in progress is left; resolves true to leave. */
export function confirmLeave(info, you) {
  let dlg = document.querySelector(".leave-dialog");
  if (!dlg) {
    dlg = document.createElement("dialog");
    dlg.className = "leave-dialog";
    dlg.setAttribute("aria-labelledby", "leave-dialog-title");
    dlg.setAttribute("aria-describedby", "leave-dialog-text");
    document.body.appendChild(dlg);
  }
  const text = leaveWords(info, you)
    .map((p) => `<p>${esc(p)}</p>`)
    .join("");
  dlg.innerHTML =
    `<form method="dialog"><h2 id="leave-dialog-title">${esc(t("leave_title"))}</h2>` +
    `<div id="leave-dialog-text">${text}</div>` +
    `<div class="over-buttons"><button class="btn primary leave-stay" value="stay" autofocus>${esc(t("leave_stay"))}</button>` +
    `<button class="btn danger leave-go" value="leave">${esc(t("leave_go"))}</button></div></form>`;
  return new Promise((resolve) => {
    dlg.addEventListener("close", () => resolve(dlg.returnValue === "leave"), { once: true });
    dlg.returnValue = "";
    dlg.showModal();
  });
}
