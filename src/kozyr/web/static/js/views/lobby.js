// The lobby: quick play and the create form (each game's player counts, options and
// stake kinds from its facts), the open and live tables a page at a time, and the
// player's own games.

import { applyStatic, lang, t } from "../i18n.js";
import { api } from "../net.js";
import { agreeToStake, fillStakeKinds, stakeFromForm, stakeHint, stakeLine } from "../stakes.js";
import { balance } from "../wallet.js";
import { nameLink, ratedPill } from "../pages.js";
import { esc } from "../html.js";
import { gameOf, levelLabel, playerChoices } from "../games/index.js";
import { store, update } from "../store.js";
import { $, $$, errorText, gameName, toast } from "../ui.js";
import { startReplay } from "./replay.js";

const LOBBY_PAGE = 50;

/** The stake hints of both forms, with the balance as it is known now. */
export function stakeHints() {
  for (const form of [$(".quick-form"), $(".create-form")]) stakeHint(form, balance());
}

export function fillPlayerChoices() {
  for (const form of [$(".quick-form"), $(".create-form")]) {
    const game = form.elements.game.value;
    const sel = form.elements.players;
    const keep = sel.value;
    const counts = playerChoices(game);
    sel.innerHTML = counts.map((n) => `<option value="${n}">${esc(t("players_n", { n }))}</option>`).join("");
    if (counts.includes(Number(keep))) sel.value = keep;
    fillLevels(form);
  }
  for (const form of [$(".quick-form"), $(".create-form")]) fillStakeKinds(form, balance());
  // The create form's options of the chosen game only (.opts-imperial, .opts-emperor).
  const create = $(".create-form");
  const chosen = `opts-${create.elements.game.value}`;
  for (const box of $$(".opts", create)) box.hidden = !box.classList.contains(chosen);
}

/** The form's computer levels, each with its rating at the chosen game and player count. */
function fillLevels(form) {
  const players = Number(form.elements.players.value);
  for (const option of form.elements.level.options) {
    option.textContent = levelLabel(form.elements.game.value, players, Number(option.value));
  }
}

/** The create form's options of `game`: its fields' values, numbers or ticks. */
function optionsFromForm(form, game) {
  const options = {};
  for (const el of $$(`.opts-${game} [name]`, form)) {
    options[el.name] = el.type === "checkbox" ? el.checked : Number(el.value);
  }
  return options;
}

export function setupLobby() {
  for (const form of [$(".quick-form"), $(".create-form")]) {
    form.addEventListener("change", (e) => {
      if (e.target.name === "game") fillPlayerChoices();
      else {
        if (e.target.name === "players") fillLevels(form);
        stakeHint(form, balance());
      }
    });
    form.addEventListener("input", () => stakeHint(form, balance()));
  }
  fillPlayerChoices();
  // Hints are for casual tables only (#15): a rated table cannot have them.
  const create = $(".create-form");
  create.addEventListener("change", () => syncHints(create));
  syncHints(create);
  $(".quick-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = ev.target.elements;
    try {
      const body = { game: f.game.value, players: Number(f.players.value), level: Number(f.level.value) };
      const stake = stakeFromForm(ev.target);
      if (stake) body.stake = stake;
      if (f.rated.checked) body.rated = true; // unset: the server's default (#13)
      const r = await api("POST", "/api/quickplay", body);
      location.hash = `#/table/${r.table.id}`;
    } catch (e) {
      toast(errorText(e));
    }
  });
  $(".create-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = ev.target.elements;
    const game = f.game.value;
    const players = Number(f.players.value);
    const options = optionsFromForm(ev.target, game);
    const body = { game, players, options, private: f.private.checked, rated: f.rated.checked };
    if (f.hints.checked && !f.rated.checked) body.hints = true; // unset: none (#15)
    const timeout = Number(f.turn_timeout.value);
    body.turn_timeout = timeout > 0 ? timeout : null;
    if (f.bots.checked) body.bots = Array(players - 1).fill(Number(f.level.value));
    const stake = stakeFromForm(ev.target);
    if (stake) body.stake = stake;
    try {
      const r = await api("POST", "/api/tables", body);
      const invite = r.table.invite_code ? `?invite=${encodeURIComponent(r.table.invite_code)}` : "";
      location.hash = `#/table/${r.table.id}${invite}`;
    } catch (e) {
      toast(errorText(e));
    }
  });
  $(".more-tables").addEventListener("click", () => {
    update({ lobbyWant: store.lobbyWant + LOBBY_PAGE });
    refreshLobby();
  });
  $(".lobby-grid").addEventListener("click", async (ev) => {
    const btn = ev.target.closest("button[data-do]");
    if (!btn) return;
    const id = btn.dataset.id;
    if (btn.dataset.do === "join") {
      if (!(await agreeToStake(store.lobbyTables?.get(id), balance()))) return;
      try {
        await api("POST", `/api/tables/${id}/join`, {});
        location.hash = `#/table/${id}`;
      } catch (e) {
        toast(errorText(e));
      }
    } else if (btn.dataset.do === "watch" || btn.dataset.do === "resume") {
      location.hash = `#/table/${id}`;
    } else if (btn.dataset.do === "replay") {
      location.hash = `#/replay/${id}`;
    }
  });
  // A record file from disk (kozyr play leaves one) can be replayed too.
  const games = $(".games");
  const fileLabel = document.createElement("label");
  fileLabel.className = "file-pick";
  fileLabel.innerHTML =
    `<span data-i18n="open_record"></span>` +
    `<input type="file" accept=".json,application/json" data-i18n-label="record_file" data-i18n-title="record_file">` +
    // The browser words its own file button in its own language ("Choose File" on a
    // Russian page): ours is drawn over it (its words in CSS, the input keeps its label).
    `<span class="btn small file-btn" aria-hidden="true"></span>`;
  applyStatic(fileLabel); // the page's first labelling ran before this label existed
  games.appendChild(fileLabel);
  labelFileButtons();
  fileLabel.querySelector("input").addEventListener("change", async (ev) => {
    const file = ev.target.files?.[0];
    if (!file) return;
    try {
      const text = await file.text();
      const data = await api("POST", "/api/replay", text);
      startReplay(data, null, text);
      location.hash = "#/replay-file";
    } catch (e) {
      toast(errorText(e));
    }
    ev.target.value = "";
  });
}

/** The record file's button in the page's language (see setupLobby). */
export function labelFileButtons() {
  for (const el of $$(".file-btn")) el.dataset.label = t("choose_file");
}

/** The create form's "Allow hints": off and unavailable while "rated" is ticked. */
export function syncHints(form) {
  const box = form.elements.hints;
  const rated = form.elements.rated.checked;
  if (rated) box.checked = false;
  box.disabled = rated;
  const label = box.closest("label");
  label.classList.toggle("disabled", rated);
  label.title = rated ? t("hints_off_rated") : "";
}

export function scheduleLobbyRefresh() {
  clearTimeout(store.lobbyTimer);
  update({ lobbyTimer: setTimeout(refreshLobby, 300) });
}

function seatsLine(tb) {
  return tb.seats
    .map((s, i) => (s.kind === "empty" ? esc(t("seat_free")) : s.kind === "bot" ? esc(t("bot_name", { n: i + 1 })) : nameLink(s.name)))
    .join(" · ");
}

function optionsLine(tb) {
  return gameOf(tb.game).optionsLine(tb.options || {});
}

/**
 * The first `want` public tables, a page at a time: {tables, more}. A server without
 * pages (no `total` in its answer) sends them all at once.
 */
async function fetchTables(want) {
  const tables = [];
  const seen = new Set();
  let offset = 0;
  for (;;) {
    const r = await api("GET", `/api/tables?offset=${offset}&limit=${LOBBY_PAGE}`);
    const page = Array.isArray(r?.tables) ? r.tables : [];
    // Tables open and close between two pages, so one may come twice.
    for (const tb of page) {
      if (!seen.has(tb.id)) {
        seen.add(tb.id);
        tables.push(tb);
      }
    }
    if (typeof r?.total !== "number") return { tables, more: false };
    offset = (typeof r.offset === "number" ? r.offset : offset) + page.length;
    const more = offset < r.total;
    if (!page.length || !more || tables.length >= want) return { tables, more: more && page.length > 0 };
  }
}

export async function refreshLobby() {
  if (!store.user) return;
  let tables = [];
  let games = [];
  let more = false;
  try {
    let listed;
    [listed, games] = await Promise.all([
      fetchTables(store.lobbyWant),
      api("GET", "/api/games").then((r) => r.games),
    ]);
    ({ tables, more } = listed);
  } catch (e) {
    // a refresh in the background says nothing on another screen
    if (store.screen === "lobby") toast(errorText(e));
  }
  $(".more-tables").hidden = !more;
  update({ lobbyTables: new Map(tables.map((tb) => [tb.id, tb])) });
  const mine = new Set(games.filter((g) => g.status !== "finished").map((g) => g.id));
  const li = (tb, buttons) =>
    `<li data-table="${esc(tb.id)}"><span class="what">${esc(gameName(tb.game))}</span>` +
    `<span class="pill">${esc(t("players_n", { n: tb.players }))}</span>` +
    `<span class="pill">${esc(optionsLine(tb))}</span>${ratedPill(tb.rated)}` +
    (tb.hints ? `<span class="pill hints">${esc(t("hints_pill"))}</span>` : "") +
    (tb.stake ? `<span class="pill stake">${esc(stakeLine(tb.stake))}</span>` : "") +
    `<span class="seats-line">${seatsLine(tb)}</span><span class="actions">${buttons}</span></li>`;
  const btn = (what, id, key, primary = false) =>
    `<button type="button" class="btn small${primary ? " primary" : ""}" data-do="${what}" data-id="${esc(id)}">${esc(t(key))}</button>`;
  const open = tables.filter((tb) => tb.status === "open");
  const live = tables.filter((tb) => tb.status === "playing");
  $(".open-list").innerHTML =
    open
      .map((tb) =>
        li(tb, mine.has(tb.id) ? btn("resume", tb.id, "resume", true) : btn("join", tb.id, "join", true) + btn("watch", tb.id, "watch")),
      )
      .join("") || `<li class="empty">${esc(t("no_tables"))}</li>`;
  $(".live-list").innerHTML =
    live.map((tb) => li(tb, mine.has(tb.id) ? btn("resume", tb.id, "resume", true) : btn("watch", tb.id, "watch"))).join("") ||
    `<li class="empty">${esc(t("no_tables"))}</li>`;
  const gl = games
    .slice()
    .sort((a, b) => (b.created_ms || 0) - (a.created_ms || 0))
    .slice(0, 30)
    .map((g) => {
      const when = new Date(g.finished_ms || g.created_ms).toLocaleString(lang() === "ru" ? "ru-RU" : "en-GB", {
        dateStyle: "short",
        timeStyle: "short",
      });
      const status = t(`table_${g.status === "open" ? "waiting" : g.status}`);
      const buttons =
        g.status === "finished"
          ? btn("replay", g.id, "replay", true) +
            `<a class="btn small" href="/api/games/${esc(g.id)}/record" download="kozyr-${esc(g.id)}.json">${esc(t("download_record"))}</a>`
          : btn("resume", g.id, "resume", true);
      return (
        `<li><span class="what">${esc(gameName(g.game))}</span><span class="pill">${esc(status)}</span>${ratedPill(g.rated)}` +
        `<span class="seats-line">${esc(when)}</span><span class="actions">${buttons}</span></li>`
      );
    });
  $(".games-list").innerHTML = gl.join("") || `<li class="empty">${esc(t("no_games"))}</li>`;
}
