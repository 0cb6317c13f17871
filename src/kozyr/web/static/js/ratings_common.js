// What the rating pages share: the rated variants, how a rating and its change are
// written, and links to players' profiles (people only: a bot level has no page).

import { hasMessage, t } from "./i18n.js";
import { esc } from "./table.js";
import { allGames } from "./games/index.js";

/** The rated variants, a game and its number of players ("imperial-2p"), from the games'
 * facts: each game in the server's order, fewer players first. */
export function variants() {
  return allGames().flatMap((g) => [...g.players].sort((a, b) => a - b).map((n) => `${g.name}-${n}p`));
}

export function variantName(variant) {
  const key = `variant_${String(variant).replace("-", "_")}`;
  return hasMessage(key) ? t(key) : String(variant);
}

/** "1534", or "1534?" while the rating is provisional (fewer than 10 rated games). */
export function ratingText(r) {
  if (r == null || typeof r.rating !== "number") return "—";
  return `${r.rating}${r.provisional ? "?" : ""}`;
}

export function profileHref(name) {
  return `#/user/${encodeURIComponent(name)}`;
}

/** A person's name linked to his profile; a bot's level or a deleted account as words. */
export function personHtml(p, { me = null } = {}) {
  if (p == null) return "";
  if (p.bot != null && p.bot !== false) return esc(t("bot_level_n", { n: p.bot }));
  if (p.deleted || p.name == null) return `<span class="muted">${esc(t("deleted_user"))}</span>`;
  const mine = me != null && p.name === me;
  return `<a class="person${mine ? " me" : ""}" href="${esc(profileHref(p.name))}">${esc(p.name)}</a>`;
}

/** A link to a profile for a plain name (the lobby, the waiting room). */
export function nameLink(name) {
  return `<a class="person" href="${esc(profileHref(name))}">${esc(name)}</a>`;
}

/** "+12", "−8" (a true minus sign) or "±0", with its direction for the colour. */
export function changeOf(rc) {
  if (!rc || typeof rc.before !== "number" || typeof rc.after !== "number") return null;
  const d = rc.after - rc.before;
  const text = d > 0 ? `+${d}` : d < 0 ? `\u2212${-d}` : "\u00b10";
  return { text, dir: d > 0 ? "up" : d < 0 ? "down" : "same", before: rc.before, after: rc.after };
}

/** A pill saying whether a table or game is rated, or "" for a casual one unless asked. */
export function ratedPill(rated, { casualToo = false } = {}) {
  if (rated) return `<span class="pill rated">${esc(t("rated"))}</span>`;
  return casualToo ? `<span class="pill casual">${esc(t("casual"))}</span>` : "";
}
