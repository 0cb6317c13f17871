// The browser's own warnings on a form field ("Please fill out this field") come in the
// browser's language, not the page's: a Russian page in an English browser warned in
// English. Every field the browser checks gets the page's words instead, set when the
// browser finds the field wrong and cleared as soon as the player edits it.

import { t } from "./i18n.js";

/** The page's words for what is wrong with ``el`` (a checked input or select), or "". */
export function fieldMessage(el) {
  const v = el.validity;
  if (v.valueMissing) return t("check_missing");
  if (v.tooShort) return t("check_short", { n: el.minLength });
  if (v.tooLong) return t("check_long", { n: el.maxLength });
  if (v.badInput || v.stepMismatch) return t("check_whole");
  if (v.rangeUnderflow) return t("check_low", { n: el.min });
  if (v.rangeOverflow) return t("check_high", { n: el.max });
  if (v.typeMismatch || v.patternMismatch) return t("check_format");
  return "";
}

export function installFieldChecks(doc = document) {
  doc.addEventListener(
    "invalid",
    (ev) => {
      const el = ev.target;
      if (!(el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement)) return;
      el.setCustomValidity("");
      const words = fieldMessage(el);
      if (words) el.setCustomValidity(words);
    },
    true,
  );
  // A custom message makes the field wrong until it is cleared: cleared on every edit, so
  // the browser checks the new value afresh at the next submit.
  const clear = (ev) => {
    const el = ev.target;
    if (el && typeof el.setCustomValidity === "function") el.setCustomValidity("");
  };
  doc.addEventListener("input", clear, true);
  doc.addEventListener("change", clear, true);
}
