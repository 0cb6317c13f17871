// A player's profile (#/user/NAME: ratings with their charts, the latest games) and his
// whole history a page at a time (#/user/NAME/games?page=N).

import { ratingChart } from "./chart.js";
import { formatDate, ordinal, t, tn } from "./i18n.js";
import { api } from "./net.js";
import { changeOf, personHtml, profileHref, ratedPill, ratingText, variantName, variants } from "./ratings_common.js";
import { esc } from "./table.js";

export const HISTORY_PAGE = 20;
const LATEST = 5;

const userPath = (name) => `/api/users/${encodeURIComponent(name)}`;

/** Fetches what the profile shows: {user, latest}. */
export async function loadProfile(name) {
  const [user, latest] = await Promise.all([
    api("GET", userPath(name)),
    api("GET", `${userPath(name)}/games?offset=0&limit=${LATEST}`),
  ]);
  return { user, latest };
}

/** Fetches one page (1-based) of the history: {name, page, games: the server's answer}. */
export async function loadHistory(name, page) {
  const offset = (page - 1) * HISTORY_PAGE;
  const games = await api("GET", `${userPath(name)}/games?offset=${offset}&limit=${HISTORY_PAGE}`);
  return { name, page, games };
}

function displayName(user) {
  return user.deleted ? t("deleted_user") : user.name;
}

export function renderProfile(root, data, me) {
  const { user, latest } = data;
  const mine = me && me.name === user.name && !user.deleted;
  const facts = [tn("games_n", user.games ?? 0), tn("won_n", user.won ?? 0)];
  if (user.created_ms) facts.unshift(t("profile_since", { date: formatDate(user.created_ms) }));
  if (typeof user.balance === "number") facts.push(tn("chips", user.balance));
  const ratings = user.ratings || {};
  const cards = variants().filter((v) => ratings[v])
    .map((v) => ratingCard(v, ratings[v]))
    .join("");
  root.innerHTML =
    `<section class="panel profile-head"><h1>${esc(displayName(user))}` +
    (user.guest ? ` <span class="pill">${esc(t("guest_badge"))}</span>` : "") +
    (mine ? ` <span class="pill you">${esc(t("profile_you"))}</span>` : "") +
    `</h1><p class="facts">${facts.map((f) => `<span>${esc(f)}</span>`).join("")}</p>` +
    (mine ? `<p><a class="btn small" href="#/account">${esc(t("account_link"))}</a></p>` : "") +
    `</section>` +
    (cards
      ? `<div class="rating-cards">${cards}</div><p class="muted small-note">${esc(t("rating_provisional"))}</p>`
      : `<p class="panel muted">${esc(t("no_ratings"))}</p>`) +
    `<section class="panel latest"><h2>${esc(t("latest_games"))}</h2>` +
    historyTable(latest.games || [], user.name) +
    `<p><a class="btn small all-games" href="${esc(profileHref(user.name))}/games">${esc(t("all_games"))}</a></p>` +
    `</section>`;
  drawCharts(root, user);
}

function ratingCard(variant, r) {
  const history = Array.isArray(r.history) ? r.history : [];
  const rows = history
    .map(
      (h) =>
        `<tr><td>${esc(formatDate(h.at_ms, { time: true }))}</td><td>${esc(String(h.rating))}</td>` +
        `<td>${h.game_id != null ? `<a href="#/replay/${encodeURIComponent(h.game_id)}">${esc(t("replay"))}</a>` : ""}</td></tr>`,
    )
    .join("");
  return (
    `<article class="panel rating-card" data-variant="${esc(variant)}"><h2>${esc(variantName(variant))}</h2>` +
    `<p><span class="big-rating" title="${esc(t("rating"))}">${esc(ratingText(r))}</span> ` +
    `<span class="muted">${esc(tn("games_n", r.games ?? history.length))}</span></p>` +
    (history.length
      ? `<div class="chart" data-variant="${esc(variant)}"></div>` +
        `<p class="muted chart-axis">${esc(t("chart_axis_games"))}</p>` +
        `<details class="chart-data"><summary>${esc(t("chart_table"))}</summary>` +
        `<table class="plain"><thead><tr><th>${esc(t("date"))}</th><th>${esc(t("rating"))}</th><th>${esc(t("replay"))}</th></tr></thead>` +
        `<tbody>${rows}</tbody></table></details>`
      : "") +
    `</article>`
  );
}

/** Draws each card's chart to the width its box has now (called again on resize). */
export function drawCharts(root, user) {
  for (const box of root.querySelectorAll(".chart[data-variant]")) {
    const variant = box.dataset.variant;
    const r = user.ratings?.[variant];
    const history = r?.history || [];
    if (!history.length) continue;
    const words = {
      title: t("chart_label", {
        variant: variantName(variant),
        games: tn("games_n", history.length),
        first: history[0].rating,
        last: history[history.length - 1].rating,
      }),
      dateShort: (ms) => formatDate(ms, { short: true }),
      pointTitle: (p) => t("chart_point", { date: formatDate(p.at_ms, { time: true }), rating: p.rating }),
    };
    box.innerHTML = ratingChart(history, box.clientWidth || 300, words, `chart-${variant}`);
  }
}

/** The games as a table; on a phone each row becomes a block with its labels. */
export function historyTable(games, owner) {
  if (!games.length) return `<p class="muted">${esc(t("no_history"))}</p>`;
  const head = ["date", "variant", "players", "result", "rating_change", "replay"];
  const rows = games.map((g) => {
    const players = (g.players || [])
      .slice()
      .sort((a, b) => a.seat - b.seat)
      .map((p) => personHtml(p, { me: owner }))
      .join(", ");
    const n = (g.players || []).length;
    const place = typeof g.place === "number" ? t("place_of", { place: ordinal(g.place), n }) : "—";
    const change = changeOf(g.rating_change);
    const changeCell = change
      ? `<span class="change ${change.dir}" title="${esc(`${change.before} → ${change.after}`)}">${esc(change.text)}</span>`
      : ratedPill(g.rated, { casualToo: true });
    const cells = [
      esc(formatDate(g.finished_ms, { time: true })),
      esc(variantName(g.variant)),
      players,
      `${esc(place)}${g.won ? ` <span class="pill won">${esc(t("won_game"))}</span>` : ""}`,
      changeCell,
      `<a href="#/replay/${encodeURIComponent(g.id)}">${esc(t("replay"))}</a>`,
    ];
    return (
      `<tr data-game="${esc(g.id)}"${g.won ? ' class="won"' : ""}>` +
      // One span per cell: on a phone the cell is a flex row of its label and its content.
      cells.map((c, i) => `<td data-label="${esc(t(head[i]))}"><span>${c}</span></td>`).join("") +
      `</tr>`
    );
  });
  return (
    `<table class="history"><thead><tr>${head.map((k) => `<th>${esc(t(k))}</th>`).join("")}</tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table>`
  );
}

export function renderHistory(root, data) {
  const { name, page, games } = data;
  const total = Number(games.total) || 0;
  const pages = Math.max(1, Math.ceil(total / HISTORY_PAGE));
  const base = `${profileHref(name)}/games`;
  const link = (p, key, cls) =>
    p >= 1 && p <= pages && p !== page
      ? `<a class="btn small ${cls}" href="${esc(base)}?page=${p}">${esc(t(key))}</a>`
      : `<span class="btn small ${cls}" aria-disabled="true">${esc(t(key))}</span>`;
  const pager =
    `<nav class="pager" aria-label="${esc(t("page_n", { n: page, of: pages }))}">` +
    link(page - 1, "newer", "newer") +
    `<span class="page-pos">${esc(t("page_n", { n: page, of: pages }))}</span>` +
    link(page + 1, "older", "older") +
    `</nav>`;
  root.innerHTML =
    `<section class="panel history-page"><h1>${esc(t("games_of", { name }))}</h1>` +
    `<p><a href="${esc(profileHref(name))}">${esc(t("to_profile", { name }))}</a> · ` +
    `<span class="muted">${esc(tn("games_n", total))}</span></p>` +
    historyTable(games.games || [], name) +
    pager +
    `</section>`;
}
