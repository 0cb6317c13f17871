// The leaderboard (#/leaderboard?variant=V): the best 100 of one variant, with a picker
// for the four variants.

import { t } from "./i18n.js";
import { api } from "./net.js";
import { personHtml, ratingText, variantName, variants } from "./ratings_common.js";
import { esc } from "./table.js";

/** The variant the address asks for, or the first one for anything else. */
export function pickVariant(asked) {
  return variants().includes(asked) ? asked : variants()[0];
}

export async function loadLeaderboard(variant) {
  const board = await api("GET", `/api/leaderboard?variant=${encodeURIComponent(variant)}`);
  return { variant, board };
}

export function renderLeaderboard(root, data, me) {
  const { variant, board } = data;
  const picker = variants().map(
    (v) =>
      `<label class="variant-pick"><input type="radio" name="variant" value="${esc(v)}"${v === variant ? " checked" : ""}>` +
      `<span>${esc(variantName(v))}</span></label>`,
  ).join("");
  const players = Array.isArray(board?.players) ? board.players : [];
  const rows = players
    .map((p) => {
      const mine = me && p.bot == null && p.name === me.name;
      return (
        `<tr${mine ? ' class="me"' : ""}><td class="num">${esc(String(p.rank))}</td>` +
        `<td>${personHtml(p)}</td>` +
        `<td class="num rating${p.provisional ? " provisional" : ""}">${esc(ratingText(p))}</td>` +
        `<td class="num">${esc(String(p.games ?? ""))}</td></tr>`
      );
    })
    .join("");
  root.innerHTML =
    `<section class="panel leaderboard"><h1>${esc(t("leaderboard_title"))}</h1>` +
    `<p class="muted">${esc(t("leaderboard_about"))}</p>` +
    `<fieldset class="variant-picker"><legend>${esc(t("variant"))}</legend>${picker}</fieldset>` +
    (rows
      ? `<table class="board"><caption>${esc(variantName(variant))}</caption><thead><tr>` +
        `<th class="num">${esc(t("rank"))}</th><th>${esc(t("player"))}</th>` +
        `<th class="num">${esc(t("rating"))}</th><th class="num">${esc(t("games"))}</th>` +
        `</tr></thead><tbody>${rows}</tbody></table>` +
        (players.some((p) => p.provisional) ? `<p class="muted small-note">${esc(t("rating_provisional"))}</p>` : "")
      : `<p class="muted empty-board">${esc(t("nobody_rated"))}</p>`) +
    `</section>`;
  root.querySelector(".variant-picker").addEventListener("change", (e) => {
    if (e.target.name === "variant") location.hash = `#/leaderboard?variant=${encodeURIComponent(e.target.value)}`;
  });
}
