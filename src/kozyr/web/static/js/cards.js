// Cards: parsing the engine's card text ("QS", "10H"), names in both languages,
// sorting a hand, and the card faces drawn as SVG (52 faces and a back), all by this file.

import { RANK_INPUT, SUIT_INPUT } from "./card_input.js";

export const SUITS = ["S", "H", "D", "C"];
const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANK_VALUE = { J: 11, Q: 12, K: 13, A: 14 };
const RU_RANK = { J: "В", Q: "Д", K: "К", A: "Т" };
const SUIT_WORDS = {
  en: { S: "spades", H: "hearts", D: "diamonds", C: "clubs" },
  ru: { S: "пики", H: "черви", D: "бубны", C: "трефы" },
};
const RANK_WORDS = {
  en: { 11: "jack", 12: "queen", 13: "king", 14: "ace" },
  ru: { 11: "валет", 12: "дама", 13: "король", 14: "туз" },
};

/** {rank: 2..14, suit: "S"|"H"|"D"|"C", text} of an engine card text like "10H". */
export function parseCard(text) {
  const suit = text.slice(-1);
  const r = text.slice(0, -1);
  const rank = RANK_VALUE[r] ?? Number(r);
  return { rank, suit, text };
}

export function isRed(suit) {
  return suit === "H" || suit === "D";
}

export function suitSymbol(suit) {
  return SUIT_SYMBOL[suit] ?? suit;
}

export function suitWord(suit, lang) {
  return SUIT_WORDS[lang][suit] ?? suit;
}

export function rankLabel(rank, lang) {
  if (rank <= 10) return String(rank);
  const en = { 11: "J", 12: "Q", 13: "K", 14: "A" }[rank];
  return lang === "ru" ? RU_RANK[en] : en;
}

/** The short label shown to people: "Q♠" in English, "Д♠" in Russian. */
export function cardLabel(text, lang) {
  const c = parseCard(text);
  return rankLabel(c.rank, lang) + suitSymbol(c.suit);
}

/** Words for screen readers: "queen of spades", "дама пик". */
export function cardWords(text, lang) {
  const c = parseCard(text);
  const rank = RANK_WORDS[lang][c.rank] ?? String(c.rank);
  if (lang === "ru") {
    const gen = { S: "пик", H: "червей", D: "бубен", C: "треф" }[c.suit];
    return `${rank} ${gen}`;
  }
  return `${rank} of ${SUIT_WORDS.en[c.suit]}`;
}

// What may be typed comes from the Python notation (card_input.js, generated).

/** Reads typed text as an engine card text ("дп" -> "QS"), or null. */
export function readTyped(input) {
  const t = input.trim().toUpperCase();
  if (t.length < 2) return null;
  const r = t.slice(0, -1);
  const rank = RANK_INPUT[r] ?? null;
  const suit = SUIT_INPUT[t.slice(-1)];
  if (rank == null || suit == null) return null;
  const name = { 11: "J", 12: "Q", 13: "K", 14: "A" }[rank] ?? String(rank);
  return name + suit;
}

/**
 * Sorts a hand for display: trumps first, then the other suits alternating colours;
 * high to low within a suit in the game's `rankOrder` (its facts' rank_order, high first:
 * Imperial K Q J A 10 ... (I2), Emperor ace high).
 */
export function sortHand(cards, trump, rankOrder) {
  const present = new Set(cards.map((t) => parseCard(t).suit));
  let suits = ["S", "H", "C", "D"].filter((s) => s !== trump);
  // Alternate colours among the suits actually held, if possible.
  const held = suits.filter((s) => present.has(s));
  const black = held.filter((s) => !isRed(s));
  const red = held.filter((s) => isRed(s));
  const alt = [];
  let takeRed = trump ? !isRed(trump) : black.length < red.length;
  while (black.length || red.length) {
    const from = (takeRed && red.length) || !black.length ? red : black;
    alt.push(from.shift());
    takeRed = !takeRed;
  }
  suits = [...(trump && SUITS.includes(trump) ? [trump] : []), ...alt];
  const suitIndex = (s) => suits.indexOf(s);
  const place = new Map(rankOrder.map((r, i) => [r, i]));
  const rankKey = (r) => place.get(r) ?? rankOrder.length + 20 - r;
  return [...cards].sort((a, b) => {
    const x = parseCard(a);
    const y = parseCard(b);
    return suitIndex(x.suit) - suitIndex(y.suit) || rankKey(x.rank) - rankKey(y.rank);
  });
}

// ---------------------------------------------------------------- SVG faces

// Suit shapes in a 100 x 100 box, centred on (50, 50).
const SUIT_PATH = {
  H:
    "M50 92 C44 84 6 60 4 34 C2 16 14 6 28 6 C39 6 46 13 50 22 " +
    "C54 13 61 6 72 6 C86 6 98 16 96 34 C94 60 56 84 50 92 Z",
  D: "M50 2 C60 18 76 36 90 50 C76 64 60 82 50 98 C40 82 24 64 10 50 C24 36 40 18 50 2 Z",
  S:
    "M50 4 C44 14 8 38 6 60 C4 76 16 84 28 84 C38 84 44 79 47 73 " +
    "C46 84 41 92 32 97 L68 97 C59 92 54 84 53 73 C56 79 62 84 72 84 " +
    "C84 84 96 76 94 60 C92 38 56 14 50 4 Z",
  C:
    "M50 4 A20 20 0 0 0 34 36 A20 20 0 1 0 46 70 C45 82 40 91 31 97 L69 97 " +
    "C60 91 55 82 54 70 A20 20 0 1 0 66 36 A20 20 0 0 0 50 4 Z",
};

const RED = "#c3122f";
const BLACK = "#16181d";

function pip(suit, cx, cy, size, flip = false) {
  const s = size / 100;
  const tx = cx - size / 2;
  const ty = cy - size / 2;
  const rot = flip ? ` rotate(180 ${cx} ${cy})` : "";
  return `<path d="${SUIT_PATH[suit]}" transform="${rot} translate(${tx} ${ty}) scale(${s})"/>`;
}

// Pip positions (x, y, flipped) for 2..10 in a 200 x 280 card.
const L = 64;
const C = 100;
const R = 136;
const PIPS = {
  2: [[C, 62], [C, 218, 1]],
  3: [[C, 62], [C, 140], [C, 218, 1]],
  4: [[L, 62], [R, 62], [L, 218, 1], [R, 218, 1]],
  5: [[L, 62], [R, 62], [C, 140], [L, 218, 1], [R, 218, 1]],
  6: [[L, 62], [R, 62], [L, 140], [R, 140], [L, 218, 1], [R, 218, 1]],
  7: [[L, 62], [R, 62], [C, 101], [L, 140], [R, 140], [L, 218, 1], [R, 218, 1]],
  8: [[L, 62], [R, 62], [C, 101], [L, 140], [R, 140], [C, 179, 1], [L, 218, 1], [R, 218, 1]],
  9: [
    [L, 62], [R, 62], [L, 114], [R, 114], [C, 140],
    [L, 166, 1], [R, 166, 1], [L, 218, 1], [R, 218, 1],
  ],
  10: [
    [L, 62], [R, 62], [C, 88], [L, 114], [R, 114],
    [L, 166, 1], [R, 166, 1], [C, 192, 1], [L, 218, 1], [R, 218, 1],
  ],
};

const FONT = "Georgia, 'DejaVu Serif', 'Times New Roman', serif";

function corner(label, suit) {
  const size = label.length > 1 ? 30 : 36;
  const spacing = label.length > 1 ? ' letter-spacing="-3"' : "";
  return (
    `<text x="22" y="44" text-anchor="middle" font-family="${FONT}" font-weight="700" ` +
    `font-size="${size}"${spacing}>${label}</text>` +
    pip(suit, 22, 64, 24)
  );
}

function courtPanel(rank, suit, lang, colour) {
  const letter = rankLabel(rank, lang);
  const tint = isRed(suit) ? "#fbe9e4" : "#e8ecf3";
  const gold = "#c9a227";
  // A crown for kings, a small tiara for queens, a plume for jacks: simple and clear.
  const crowns = {
    13: "M70 92 L78 66 L90 82 L100 60 L110 82 L122 66 L130 92 Z",
    12: "M76 92 Q84 72 92 84 Q100 62 108 84 Q116 72 124 92 Z",
    11: "M88 92 Q92 70 110 62 Q104 76 112 92 Z",
  };
  return (
    `<rect x="44" y="40" width="112" height="200" rx="8" fill="${tint}" stroke="${colour}" ` +
    `stroke-width="2"/>` +
    `<rect x="50" y="46" width="100" height="188" rx="5" fill="none" stroke="${gold}" ` +
    `stroke-width="2" stroke-dasharray="2 3"/>` +
    `<path d="${crowns[rank]}" fill="${gold}" stroke="#8a6d12" stroke-width="1.5"/>` +
    `<text x="100" y="168" text-anchor="middle" font-family="${FONT}" font-weight="700" ` +
    `font-size="84">${letter}</text>` +
    pip(suit, 100, 206, 34)
  );
}

const faceCache = new Map();

/** The SVG markup of a card face ("QS") in a language (court letters differ). */
export function cardSvg(text, lang = "en") {
  const key = `${text}:${lang}`;
  const hit = faceCache.get(key);
  if (hit) return hit;
  const { rank, suit } = parseCard(text);
  const colour = isRed(suit) ? RED : BLACK;
  const label = rankLabel(rank, lang);
  let middle;
  if (rank === 14) middle = pip(suit, 100, 140, suit === "D" ? 84 : 96);
  else if (rank >= 11) middle = courtPanel(rank, suit, lang, colour);
  else middle = PIPS[rank].map(([x, y, f]) => pip(suit, x, y, 38, Boolean(f))).join("");
  const svg =
    `<svg class="face" viewBox="0 0 200 280" xmlns="http://www.w3.org/2000/svg" ` +
    `aria-hidden="true" focusable="false">` +
    `<rect x="1.5" y="1.5" width="197" height="277" rx="14" fill="#fffdf8" stroke="#b9b2a3" ` +
    `stroke-width="3"/>` +
    `<g fill="${colour}">${corner(label, suit)}` +
    `<g transform="rotate(180 100 140)">${corner(label, suit)}</g>${middle}</g></svg>`;
  faceCache.set(key, svg);
  return svg;
}

/** The SVG markup of the card back. */
export function backSvg() {
  if (faceCache.has("back")) return faceCache.get("back");
  const svg =
    `<svg class="face" viewBox="0 0 200 280" xmlns="http://www.w3.org/2000/svg" ` +
    `aria-hidden="true" focusable="false">` +
    `<defs><pattern id="kz-lattice" width="20" height="20" patternUnits="userSpaceOnUse" ` +
    `patternTransform="rotate(45)"><rect width="20" height="20" fill="#7d1d2b"/>` +
    `<path d="M0 10 H20 M10 0 V20" stroke="#a8384a" stroke-width="3"/></pattern></defs>` +
    `<rect x="1.5" y="1.5" width="197" height="277" rx="14" fill="#fffdf8" stroke="#b9b2a3" ` +
    `stroke-width="3"/>` +
    `<rect x="12" y="12" width="176" height="256" rx="8" fill="url(#kz-lattice)"/>` +
    `<rect x="20" y="20" width="160" height="240" rx="6" fill="none" stroke="#e9c46a" ` +
    `stroke-width="2"/>` +
    `<circle cx="100" cy="140" r="30" fill="#7d1d2b" stroke="#e9c46a" stroke-width="3"/>` +
    `<text x="100" y="153" text-anchor="middle" font-family="${FONT}" font-weight="700" ` +
    `font-size="38" fill="#e9c46a">K</text></svg>`;
  faceCache.set("back", svg);
  return svg;
}

/** A small inline suit symbol as SVG (for trump badges), coloured like the card. */
export function suitIcon(suit, size = 18) {
  if (!SUIT_PATH[suit]) return "";
  const colour = isRed(suit) ? RED : BLACK;
  return (
    `<svg class="suit-icon" width="${size}" height="${size}" viewBox="0 0 100 100" ` +
    `aria-hidden="true"><path d="${SUIT_PATH[suit]}" fill="${colour}"/></svg>`
  );
}

/** A small face for seats and open hands: a big index (rank and suit) that stays legible
 * when the cards overlap, and a large suit symbol. */
export function miniSvg(text, lang = "en") {
  const key = `mini:${text}:${lang}`;
  const hit = faceCache.get(key);
  if (hit) return hit;
  const { rank, suit } = parseCard(text);
  const colour = isRed(suit) ? RED : BLACK;
  const label = rankLabel(rank, lang);
  const size = label.length > 1 ? 22 : 26;
  const spacing = label.length > 1 ? ' letter-spacing="-2"' : "";
  const svg =
    `<svg class="face" viewBox="0 0 60 84" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" ` +
    `focusable="false"><rect x="1" y="1" width="58" height="82" rx="6" fill="#fffdf8" ` +
    `stroke="#b9b2a3" stroke-width="2"/><g fill="${colour}">` +
    `<text x="14" y="26" text-anchor="middle" font-family="${FONT}" font-weight="700" ` +
    `font-size="${size}"${spacing}>${label}</text>${pip(suit, 14, 42, 18)}` +
    `${pip(suit, 38, 62, 30)}</g></svg>`;
  faceCache.set(key, svg);
  return svg;
}
