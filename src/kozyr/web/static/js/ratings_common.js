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

/**
 * The game-over dialog's rating (issue 30): "Rating 1512 → 1527 (+15)" for the viewer's
 * seat, then the others' changes, as the table's info tells them once a rated game is
 * over; or why a rated game moved no rating. "" for a casual game (or before the news).
 * names: seat names as the page shows them; you: the viewer's seat or null.
 */
export function ratingChangeHtml(info, names, you) {
  if (!info?.rated || info.status !== "finished") return "";
  const head = `<h3>${esc(t("rating"))}</h3>`; // (a player's own line starts with the word)
  if (info.unrated) {
    const key = hasMessage(`unrated_${info.unrated}`) ? `unrated_${info.unrated}` : "unrated_other";
    return `<section class="rating-result">${head}<p class="muted">${esc(t(key))}</p></section>`;
  }
  const all = Array.isArray(info.rating_changes) ? info.rating_changes : [];
  const line = (rc) => {
    const c = changeOf(rc);
    return c && { ...c, before: ratingText({ rating: rc.before }), after: ratingText({ rating: rc.after, provisional: rc.provisional }) };
  };
  const mine = you != null ? line(all[you]) : null;
  const others = all
    .map((rc, seat) => ({ seat, c: seat === you ? null : line(rc) }))
    .filter((x) => x.c);
  if (!mine && !others.length) return "";
  const yours = mine
    ? `<p class="your-rating ${mine.dir}">${esc(t("rating_yours", { before: mine.before, after: mine.after, change: mine.text }))}</p>`
    : "";
  const list = others.length
    ? `<ul class="rating-others">${others
        .map(({ seat, c }) => `<li class="${c.dir}">${esc(t("rating_of", { name: names[seat], before: c.before, after: c.after, change: c.text }))}</li>`)
        .join("")}</ul>`
    : "";
  const note = all.some((rc) => rc?.provisional) ? `<p class="muted small-note">${esc(t("rating_provisional"))}</p>` : "";
  return `<section class="rating-result">${mine ? "" : head}${yours}${list}${note}</section>`;
}
