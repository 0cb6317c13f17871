// Public events in plain words, as the terminal tells them (kozyr/terminal/*_view.py):
// the words both games share, and the whole event list told line by line with the context
// each line needs. Each game's own events are told by its module (games/: narrate), which
// returns {text, kind} or null for events not worth a line.

import { cardLabel, suitWord } from "./cards.js";
import { lang, t } from "./i18n.js";

const REASON_KEYS = {
  turnup: "reason_turnup",
  imperials: "reason_imperials",
  point: "reason_point",
  honours: "reason_honours",
  "honour led": "reason_honour_led",
  "honour heads the trick": "reason_honour_heads",
  "imperial tombé": "reason_tombe",
  capot: "reason_capot",
  tricks: "reason_tricks",
  "24 points": "reason_24",
  "white imperial": "reason_white",
};

export function cardsText(list) {
  return (list || []).map((c) => cardLabel(c, lang())).join(" ");
}

/** A seat's name, or the seat itself where there is none. */
export function nameOf(names, seat) {
  return Number.isInteger(seat) && seat >= 0 && seat < names.length ? names[seat] : String(seat);
}

export function trumpWords(trump) {
  if (trump === "NT") return t("no_trumps");
  if (trump == null) return t("trump_unnamed");
  return suitWord(trump, lang());
}

export function titleWord(title) {
  return title ? t(`title_${title}`) : t("no_title");
}

function reason(r) {
  return REASON_KEYS[r] ? t(REASON_KEYS[r]) : r;
}

/** A score or mark reason of the engines in words ("imperial tombé" -> "империал томбе"). */
export const reasonWords = reason;

/** The public story of a deal that captures need: cards played, cards shown by whom. */
export function newDealStory() {
  return { played: new Set(), shownBy: new Map(), capturedBy: new Map(), lastTrick: new Set() };
}

export function tellDealStory(story, ev) {
  if (ev.type === "play") story.played.add(ev.card);
  if (ev.type === "trick") story.lastTrick = new Set(ev.cards.map(([, c]) => c));
  if (ev.type === "capture") story.capturedBy.set(ev.card, ev.seat);
  if (ev.type === "declare") {
    const cards = [...(ev.cards || []), ...(ev.imperials || []).flatMap((imp) => imp.cards || [])];
    for (const c of cards) story.shownBy.set(c, ev.seat);
  }
}

/** Narrates a whole event list of a game into lines, keeping the context each needs;
 * `narrate` is the game's own (games/: narrate(ev, names, previous, next, story)). */
export function narrateAll(narrate, events, names) {
  const out = [];
  let previous = null;
  let story = newDealStory();
  for (const [i, ev] of events.entries()) {
    if (ev.type === "deal") story = newDealStory();
    const line = narrate(ev, names, previous, events[i + 1] || null, story);
    tellDealStory(story, ev);
    previous = ev;
    if (line) out.push(line);
  }
  return out;
}

/** An action text ("QS", "swap 2", "offer 1", "trump NT") in words. */
export function actionWords(action, names) {
  if (/^(10|[2-9JQKA])[SHDC]$/.test(action)) return cardsText([action]);
  const [verb, arg] = action.split(" ");
  switch (verb) {
    case "swap":
      return t("take_hand_of", { name: nameOf(names, Number(arg)) });
    case "pass":
      return t("pass");
    case "offer":
      return t("offer_k", { k: arg });
    case "accept":
      return t("accept");
    case "refuse":
      return t("refuse");
    case "yield":
      return t("give_in");
    case "trump":
      return `${t("trump")}: ${trumpWords(arg)}`;
    default:
      return action;
  }
}
