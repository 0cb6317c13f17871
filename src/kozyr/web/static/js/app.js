// The page: sign in, lobby, tables (playing and watching), game over, replays.
// Screens are chosen by the address (#/, #/table/ID, #/replay/ID) so a reload resumes.

import { cardSvg } from "./cards.js";
import { applyStatic, hasMessage, initialLang, lang, onLangChange, setLang, t } from "./i18n.js";
import { api, ApiError, CLOSE_POLICY, CLOSE_TOO_SLOW, Socket } from "./net.js";
import { esc, TableView } from "./table.js";
import { actionWords } from "./narrate.js";
import { agreeToStake, fillStakeKinds, settlementHtml, stakeFromForm, stakeHint, stakeLine, stakeTooHighText } from "./stakes.js";
import { balance, closeWallet, initWallet, onBalance, openWallet, refreshBalance, renderBalance, renderWallet, setBalance } from "./wallet.js";
import { sheetHtml } from "./scoresheet.js";
import { nameLink, ratedPill, routePage, setupPages, userChanged } from "./pages.js";
import { BetsPanel } from "./bets.js";
import { DEFAULT_LEVEL, REVIEW_LEVELS, ReviewPanel } from "./review.js";
import { gameOf, gameTitle, loadGames, playerChoices } from "./games/index.js";

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];

const app = {
  user: null,
  socket: null,
  screen: null,
  table: null, // the table being played or watched: {id, info, you, seq, view, events, view}
  tableView: null,
  replay: null,
  lobbyTimer: null,
  lobbyWant: 50, // how many tables the lobby shows; "More tables" raises it a page at a time
  overShown: null,
};

const LOBBY_PAGE = 50;
window.kozyr = app; // for people curious in the console, and for the browser tests

// ------------------------------------------------------------------ helpers

/** The server's own words for an error (HTTP body or WebSocket frame), in the page's language. */
function serverMessage(body) {
  if (!body) return "";
  if (body.code === "stake_too_high" && stakeTooHighText(body)) return stakeTooHighText(body);
  if (lang() === "ru" && body.message_ru) return body.message_ru;
  return body.message || "";
}

/** Our words for an error the server did not explain (an old server, a proxy). */
function codeText(code, status) {
  if (code && hasMessage(`err_${code}`)) return t(`err_${code}`);
  if (hasMessage(`err_http_${status}`)) return t(`err_http_${status}`);
  return t("error", { message: `HTTP ${status}` });
}

/** When one may try again, from Retry-After (seconds). */
function retryText(seconds) {
  if (seconds <= 90) return t("retry_in_s", { n: Math.max(1, seconds) });
  return t("retry_in_min", { n: Math.ceil(seconds / 60) });
}

function errorText(e) {
  if (e instanceof ApiError) {
    if (e.code === "network") return t("err_network");
    let text = serverMessage(e.body) || codeText(e.code, e.status);
    if (e.retryAfter != null) text += ` ${retryText(e.retryAfter)}`;
    else if (e.status === 429) text += ` ${t("retry_later")}`;
    return text;
  }
  return t("error", { message: e?.message || String(e) });
}

/** Keeps buttons disabled while the server asks us to wait (429 with Retry-After). */
function holdButtons(buttons, e) {
  if (!(e instanceof ApiError) || e.status !== 429) return;
  const seconds = e.retryAfter ?? 10;
  for (const b of buttons) b.disabled = true;
  setTimeout(() => {
    for (const b of buttons) b.disabled = false;
  }, seconds * 1000);
}

/** An error on the sign-in screen, brought into view (on a phone it is below the forms). */
function authError(text) {
  const el = $("#screen-auth .form-error");
  el.textContent = text;
  if (text && !$("#screen-auth").hidden) el.scrollIntoView({ block: "nearest" });
}

let toastHandle = null;
function toast(text) {
  const el = $(".toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastHandle);
  toastHandle = setTimeout(() => (el.hidden = true), 4000);
}

function show(name) {
  for (const s of $$(".screen")) s.hidden = s.id !== `screen-${name}`;
  // Another screen starts at its top: the lobby's scroll (a phone scrolls down to the
  // create form) would otherwise land the player mid-way down the table's page.
  if (app.screen !== name) window.scrollTo(0, 0);
  app.screen = name;
  $(".nav-lobby").hidden = !app.user || name === "lobby";
}

function seatName(info, s) {
  const seat = info?.seats?.[s];
  if (!seat) return t("seat_n", { n: s + 1 });
  if (seat.kind === "bot" || seat.level) return t("bot_name", { n: s + 1 });
  return seat.name || t("seat_n", { n: s + 1 });
}

function gameName(game) {
  return gameTitle(game, lang());
}

function newId() {
  return Math.random().toString(36).slice(2, 10) + Date.now().toString(36);
}

// ------------------------------------------------------------------ start

async function start() {
  // Each game's facts (player counts, stake kinds, ...) come from the server's specs.
  await loadGames(api);
  setLang(initialLang());
  onLangChange(() => relabel());
  for (const b of $$(".lang-switch")) b.addEventListener("click", () => setLang(lang() === "ru" ? "en" : "ru"));
  $(".sign-out").addEventListener("click", signOut);
  window.addEventListener("hashchange", route);
  setupAuth();
  setupLobby();
  setupTable();
  setupReplay();
  initWallet({ errorText });
  onBalance(() => stakeHints());
  setupPages({
    show,
    leave: () => {
      leaveTableScreen();
      closeReplay();
      closeWallet();
    },
    user: () => app.user,
    setUser: (user) => {
      app.user = user;
      renderWho();
    },
    signedOut: (message) => {
      app.socket?.close();
      app.socket = null;
      history.replaceState(null, "", "#/"); // no hashchange: it would clear the message
      showAuth(message);
    },
    errorText,
  });
  try {
    // optional: nobody signed in yet is an answer, not a 401 in the console
    const me = await api("GET", "/api/me?optional=1");
    if (me.user) signedIn(me.user);
    else showAuth();
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) showAuth();
    else {
      showAuth();
      authError(errorText(e));
    }
  }
}

/** The record file's button in the page's language (see setupLobby). */
function labelFileButtons() {
  for (const el of $$(".file-btn")) el.dataset.label = t("choose_file");
}

function relabel() {
  applyStatic(document);
  labelFileButtons();
  renderWho();
  renderBalance();
  if (app.screen === "wallet") renderWallet();
  fillPlayerChoices();
  if (app.screen === "lobby") refreshLobby();
  if (app.tableView) {
    drawTable(); // the seats' names too ("Computer 2" is the page's own word)
    app.tableView.relabel();
  }
  app.bets?.render(true);
  if (app.screen === "table" && app.table && !app.table.view) renderWaiting();
  if (app.replay) {
    app.replay.names = replayNames(app.replay.data);
    app.replay.view.relabel();
    replayGo(app.replay.step); // the step line and the action in the new language too
    labelPlay();
    renderVerdict();
    app.replay.review?.relabel();
  }
  fillReviewLevels();
  syncHints($(".create-form"));
  updateConn(app.connState);
  if (app.overShown && $(".over-dialog").open) showOver(true);
}

// ------------------------------------------------------------------ accounts

function setupAuth() {
  $(".guest-btn").addEventListener("click", async () => {
    try {
      const r = await api("POST", "/api/guest");
      signedIn(r.user);
    } catch (e) {
      authError(errorText(e));
      holdButtons([$(".guest-btn")], e);
    }
  });
  for (const form of $$(".auth-form")) {
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const data = Object.fromEntries(new FormData(form));
      const path = form.dataset.mode === "login" ? "/api/login" : "/api/register";
      try {
        const r = await api("POST", path, { name: data.name, password: data.password });
        signedIn(r.user);
      } catch (e) {
        authError(errorText(e));
        holdButtons($$("button[type=submit]", form), e);
      }
    });
  }
  // A fan of cards on the welcome screen.
  const fan = $(".fan-demo");
  const cards = ["KS", "QH", "JD", "AC", "10H", "7S"];
  const drawFan = () => {
    fan.innerHTML = cards.map((c) => `<span class="mini-card">${cardSvg(c, lang())}</span>`).join("");
    // Set from script, not as style="" in the markup: the page's CSP refuses inline styles.
    for (const [i, el] of [...fan.children].entries()) {
      el.style.transform = `rotate(${(i - 2.5) * 9}deg) translateY(${Math.abs(i - 2.5) * 5}px)`;
    }
  };
  drawFan();
  onLangChange(drawFan);
}

function showAuth(message = "") {
  app.user = null;
  setBalance(null);
  renderWho();
  show("auth");
  authError(message);
}

function renderWho() {
  const who = $(".who");
  $(".sign-out").hidden = !app.user;
  userChanged(app.user);
  syncHints($(".create-form")); // "rated" may have been cleared for a guest
  if (!app.user) {
    who.textContent = "";
    return;
  }
  who.innerHTML =
    esc(t("signed_in_as", { name: app.user.name })) +
    (app.user.guest ? ` <span class="pill">${esc(t("guest_badge"))}</span>` : "");
}

function signedIn(user) {
  app.user = user;
  renderWho();
  refreshBalance();
  if (!app.socket) {
    app.socket = new Socket({ onFrame, onState });
    app.socket.connect();
  }
  route();
}

async function signOut() {
  try {
    await api("POST", "/api/logout");
  } catch {
    /* signed out anyway */
  }
  app.socket?.close();
  app.socket = null;
  leaveTableScreen();
  location.hash = "#/";
  showAuth();
}

// ------------------------------------------------------------------ routing

function route() {
  if (!app.user) return showAuth();
  const hash = location.hash || "#/";
  const m = hash.match(/^#\/(table|replay)\/([\w-]+)(?:\?(.*))?$/);
  if (m && m[1] === "table") return openTable(m[2], new URLSearchParams(m[3] || "").get("invite"));
  if (m && m[1] === "replay") return openReplay(m[2]);
  if (hash === "#/replay-file" && app.replay) return show("replay");
  if (routePage(hash)) return;
  leaveTableScreen();
  closeReplay();
  closeWallet();
  if (hash === "#/wallet") {
    show("wallet");
    openWallet();
    return;
  }
  show("lobby");
  refreshLobby();
  app.socket?.send({ type: "lobby" });
}

// ------------------------------------------------------------------ socket

function onState(state, detail = {}) {
  app.connState = state;
  app.connDetail = detail;
  if (state === "signed_out") return signedOutElsewhere();
  updateConn(state);
  if (state === "lost") checkStillSignedIn();
  if (state === "open") {
    // An intent lost with the old connection may be made again; if it did arrive, the
    // server refuses the new one as stale, quietly.
    if (app.table) {
      app.table.sentSeq = null;
      app.table.pendingId = null;
    }
    app.tableView?.settle();
    // (Re)connected: say hello again for the table on screen; the server sends what we
    // missed since our last seq, or a full sync.
    if (app.table) helloTable();
    if (app.screen === "lobby") app.socket.send({ type: "lobby" });
  }
}

function updateConn(state) {
  const el = $(".conn");
  const d = app.connDetail || {};
  const secs = Math.round((d.wait || 0) / 1000);
  let text = "";
  if (state === "connecting") text = t("connecting");
  else if (state === "lost" && d.code === CLOSE_TOO_SLOW) text = t("conn_too_slow", { n: secs });
  else if (state === "lost" && d.code === CLOSE_POLICY) text = t("conn_policy", { n: secs });
  else if (state === "lost") text = t("reconnecting");
  el.textContent = text;
}

/** The server closed the socket because the session is gone (4401): sign in again. */
function signedOutElsewhere() {
  app.socket?.close();
  app.socket = null;
  app.connState = null;
  updateConn(null);
  leaveTableScreen();
  // The address stays: signing in again comes back to the same table or replay.
  showAuth(t("signed_out_again"));
}

/** A lost socket may be a refused handshake (no session any more): ask the server. */
async function checkStillSignedIn() {
  try {
    await api("GET", "/api/me");
  } catch (e) {
    if (e instanceof ApiError && e.status === 401 && app.socket) signedOutElsewhere();
  }
}

function helloTable() {
  const tb = app.table;
  const frame = { type: "hello", table: tb.id };
  if (tb.seq != null) frame.last_seq = tb.seq;
  if (tb.invite) frame.invite = tb.invite;
  app.socket.send(frame);
}

function onFrame(f) {
  switch (f.type) {
    case "welcome":
      if (f.user) app.user = f.user;
      break;
    case "lobby":
      if (app.screen === "lobby") scheduleLobbyRefresh();
      break;
    case "table":
      if (app.table && f.table?.id === app.table.id) onTableInfo(f);
      break;
    case "sync":
      if (app.table && f.table === app.table.id) {
        app.table.seq = f.seq;
        app.table.events = f.view.events || [];
        app.table.view = f.view;
        drawTable();
      }
      break;
    case "update":
      if (app.table && f.table === app.table.id) onUpdate(f);
      break;
    case "market":
    case "bet_settled":
      app.bets?.onFrame(f);
      break;
    case "ack":
      break;
    case "error":
      onError(f);
      break;
    default:
      break;
  }
}

function onUpdate(f) {
  const tb = app.table;
  if (tb.seq != null && f.seq <= tb.seq) return; // already have it
  if (tb.seq == null || f.seq !== tb.seq + 1) {
    // A gap: ask again from what we have (the server resends or syncs).
    helloTable();
    return;
  }
  tb.seq = f.seq;
  tb.events.push(...(f.events || []));
  tb.lastAction = f.action;
  if (f.view) {
    tb.view = f.view;
    tb.turnStarted = Date.now();
    if (tb.info && "deadline_ms" in f) {
      // The server's deadline for the seat that acts now (null: no timer or a bot).
      tb.info = { ...tb.info, deadline_ms: f.deadline_ms, to_act: f.view.to_act, seq: f.seq };
    }
    drawTable();
  }
}

function onError(f) {
  const text = serverMessage(f) || codeText(f.code, 0);
  if (app.table && f.id && f.id === app.table.pendingId) {
    app.table.pendingId = null;
    if (f.code === "stale") {
      // The table moved on before our intent arrived: nothing is wrong, and the intent
      // is not sent again (it was meant for the old view). Fetch the new view; a click
      // on the old one meanwhile is refused as stale again, just as quietly.
      app.table.sentSeq = null;
      app.tableView?.settle();
      helloTable();
      return;
    }
    app.table.sentSeq = null; // refused: the player may choose again on this view
    app.tableView?.rejected(() => serverMessage(f) || codeText(f.code, 0));
    return;
  }
  if (f.code === "stale") return;
  if (app.table && f.table === app.table.id && f.code === "no_table") {
    toast(text);
    location.hash = "#/";
    return;
  }
  toast(text);
}

// ------------------------------------------------------------------ lobby

/** The stake hints of both forms, with the balance as it is known now. */
function stakeHints() {
  for (const form of [$(".quick-form"), $(".create-form")]) stakeHint(form, balance());
}

function fillPlayerChoices() {
  for (const form of [$(".quick-form"), $(".create-form")]) {
    const game = form.elements.game.value;
    const sel = form.elements.players;
    const keep = sel.value;
    const counts = playerChoices(game);
    sel.innerHTML = counts.map((n) => `<option value="${n}">${esc(t("players_n", { n }))}</option>`).join("");
    if (counts.includes(Number(keep))) sel.value = keep;
  }
  for (const form of [$(".quick-form"), $(".create-form")]) fillStakeKinds(form, balance());
  // The create form's options of the chosen game only (.opts-imperial, .opts-emperor).
  const create = $(".create-form");
  const chosen = `opts-${create.elements.game.value}`;
  for (const box of $$(".opts", create)) box.hidden = !box.classList.contains(chosen);
}

/** The create form's options of `game`: its fields' values, numbers or ticks. */
function optionsFromForm(form, game) {
  const options = {};
  for (const el of $$(`.opts-${game} [name]`, form)) {
    options[el.name] = el.type === "checkbox" ? el.checked : Number(el.value);
  }
  return options;
}

function setupLobby() {
  for (const form of [$(".quick-form"), $(".create-form")]) {
    form.addEventListener("change", (e) => {
      if (e.target.name === "game") fillPlayerChoices();
      else stakeHint(form, balance());
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
    app.lobbyWant += LOBBY_PAGE;
    refreshLobby();
  });
  $(".lobby-grid").addEventListener("click", async (ev) => {
    const btn = ev.target.closest("button[data-do]");
    if (!btn) return;
    const id = btn.dataset.id;
    if (btn.dataset.do === "join") {
      if (!(await agreeToStake(app.lobbyTables?.get(id), balance()))) return;
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

/** The create form's "Allow hints": off and unavailable while "rated" is ticked. */
function syncHints(form) {
  const box = form.elements.hints;
  const rated = form.elements.rated.checked;
  if (rated) box.checked = false;
  box.disabled = rated;
  const label = box.closest("label");
  label.classList.toggle("disabled", rated);
  label.title = rated ? t("hints_off_rated") : "";
}

function scheduleLobbyRefresh() {
  clearTimeout(app.lobbyTimer);
  app.lobbyTimer = setTimeout(refreshLobby, 300);
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

async function refreshLobby() {
  if (!app.user) return;
  let tables = [];
  let games = [];
  let more = false;
  try {
    let listed;
    [listed, games] = await Promise.all([
      fetchTables(app.lobbyWant),
      api("GET", "/api/games").then((r) => r.games),
    ]);
    ({ tables, more } = listed);
  } catch (e) {
    toast(errorText(e));
  }
  $(".more-tables").hidden = !more;
  app.lobbyTables = new Map(tables.map((tb) => [tb.id, tb]));
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

// ------------------------------------------------------------------ table

function setupTable() {
  $(".back-btn").addEventListener("click", () => {
    if (app.table) app.socket.send({ type: "back", table: app.table.id });
  });
  $(".leave-btn").addEventListener("click", async () => {
    const tb = app.table;
    if (tb && tb.you != null && tb.info?.status !== "finished") {
      try {
        await api("POST", `/api/tables/${tb.id}/leave`, {});
      } catch {
        /* leaving anyway */
      }
    }
    location.hash = "#/";
  });
  $("#screen-table").addEventListener("click", async (ev) => {
    const btn = ev.target.closest("button[data-seat-do]");
    if (!btn || !app.table) return;
    const seat = Number(btn.dataset.seat);
    const id = app.table.id;
    try {
      if (btn.dataset.seatDo === "sit") {
        if (!(await agreeToStake(app.table.info, balance()))) return;
        await api("POST", `/api/tables/${id}/join`, { seat, invite: app.table.invite || undefined });
      } else if (btn.dataset.seatDo === "bot") {
        const level = Number($(".waiting select[name=level]")?.value || 3);
        await api("POST", `/api/tables/${id}/bots`, { seat, level });
      } else if (btn.dataset.seatDo === "unbot") {
        await api("DELETE", `/api/tables/${id}/bots/${seat}`);
      }
    } catch (e) {
      toast(errorText(e));
    }
  });
}

function openTable(id, invite) {
  closeReplay();
  if (app.table?.id === id) {
    show("table");
    return;
  }
  leaveTableScreen();
  app.table = { id, invite, info: null, you: null, seq: null, view: null, events: [] };
  $(".leave-btn").dataset.i18n = "leave_table";
  $(".leave-btn").textContent = t("leave_table");
  app.bets = new BetsPanel($("#screen-table"), id, { errorText, toast, seatName });
  show("table");
  const root = $("#screen-table .table-root");
  root.innerHTML = `<p class="loading">${esc(t("connecting"))}</p>`;
  if (app.socket?.open) helloTable();
}

function leaveTableScreen() {
  if (app.table && app.socket?.open) app.socket.send({ type: "unwatch", table: app.table.id });
  app.tableView?.destroy();
  app.tableView = null;
  app.table = null;
  app.bets?.destroy();
  app.bets = null;
  app.overShown = null;
  const dlg = $(".over-dialog");
  if (dlg.open) dlg.close();
}

function onTableInfo(f) {
  const tb = app.table;
  const settledNow = Array.isArray(f.table.settlement) && !Array.isArray(tb.info?.settlement);
  tb.info = f.table;
  if (settledNow || (f.table.stake && f.table.status !== tb.shownStatus)) refreshBalance();
  tb.shownStatus = f.table.status;
  if (app.overShown === tb.id && $(".over-dialog").open) showOver(true);
  tb.you = f.you ?? null;
  $(".table-rated").hidden = !f.table.rated;
  if (f.table.deadline_ms) tb.deadline = f.table.deadline_ms;
  const inv = $(".invite");
  if (f.table.invite_code) {
    const link = `${location.origin}${location.pathname}#/table/${f.table.id}?invite=${encodeURIComponent(f.table.invite_code)}`;
    inv.innerHTML = `${esc(t("invite_link"))}: <input readonly value="${esc(link)}" size="40">`;
    // A listener, not onclick="": the page's CSP runs no inline handlers.
    inv.querySelector("input").addEventListener("click", (e) => e.target.select());
  } else inv.textContent = "";
  app.bets?.setTable(f.table, tb.you);
  if (tb.view) drawTable();
  else renderWaiting();
}

function renderWaiting() {
  const tb = app.table;
  const info = tb.info;
  if (!info) return;
  app.tableView?.destroy();
  app.tableView = null;
  const root = $("#screen-table .table-root");
  const creator = app.user && info.creator_id === app.user.id;
  const seated = tb.you != null;
  const rows = info.seats
    .map((s, i) => {
      let who;
      let buttons = "";
      if (s.kind === "empty") {
        who = `<span class="muted">${esc(t("seat_free"))}</span>`;
        if (!seated) buttons += `<button type="button" class="btn small primary" data-seat-do="sit" data-seat="${i}">${esc(t("join"))}</button>`;
        if (creator) buttons += `<button type="button" class="btn small" data-seat-do="bot" data-seat="${i}">${esc(t("add_bot"))}</button>`;
      } else if (s.kind === "bot") {
        who = `${esc(t("bot_name", { n: i + 1 }))} <span class="pill bot">${esc(t("level_n", { n: s.level }))}</span>`;
        if (creator) buttons += `<button type="button" class="btn small" data-seat-do="unbot" data-seat="${i}">${esc(t("remove_bot"))}</button>`;
      } else {
        who = `<b>${nameLink(s.name)}</b>${i === tb.you ? ` <span class="muted">(${esc(t("you"))})</span>` : ""}`;
      }
      return `<li><span class="pill">${esc(t("seat_n", { n: i + 1 }))}</span><span class="seats-line">${who}</span><span class="actions">${buttons}</span></li>`;
    })
    .join("");
  const status = info.status === "finished" ? t("table_finished") : t("waiting_start");
  root.innerHTML =
    `<section class="panel waiting"><h2>${esc(gameName(info.game))} · ${esc(t("players_n", { n: info.players }))} ${ratedPill(info.rated)}</h2>` +
    `<p class="muted">${esc(status)}</p>` +
    (info.stake ? `<p class="stake-note"><span class="pill stake">${esc(stakeLine(info.stake))}</span> ${esc(t("stake_agree_short"))}</p>` : "") +
    `<ul class="table-list">${rows}</ul>` +
    (creator && info.seats.some((s) => s.kind === "empty")
      ? `<label class="bot-level"><span>${esc(t("bot_level"))}</span><select name="level">` +
        [1, 2, 3, 4, 5].map((n) => `<option value="${n}"${n === 3 ? " selected" : ""}>${esc(t(`level_${n}`))}</option>`).join("") +
        `</select></label>`
      : "") +
    `</section>`;
}

function drawTable() {
  const tb = app.table;
  if (!tb || !tb.view || !tb.info) return;
  const root = $("#screen-table .table-root");
  if (!app.tableView) {
    root.innerHTML = "";
    app.tableView = new TableView(root, {
      errorText,
      // One intent per view: it names the view's seq, so the server refuses it as stale
      // if the table has moved on, and a second click on the same view sends nothing.
      // Returns false when nothing could be sent (no connection): the player may retry.
      onAction: (action) => {
        if (tb.sentSeq === tb.seq) return true;
        const id = newId();
        const frame = { type: "action", table: tb.id, id, action, seq: tb.seq };
        if (!app.socket?.send(frame)) return false;
        tb.pendingId = id;
        tb.sentSeq = tb.seq;
        return true;
      },
    });
  }
  const info = tb.info;
  const game = info.game;
  $(".back-btn").hidden = !(tb.you != null && info.seats[tb.you]?.away);
  // A spectator stops watching; a player leaves his seat (a bot plays it meanwhile).
  const leave = $(".leave-btn");
  leave.dataset.i18n = tb.you == null ? "stop_watching" : "leave_table";
  leave.textContent = t(leave.dataset.i18n);
  const obs = { ...tb.view, events: tb.events };
  const n = info.players;
  const seats = [...Array(n)].map((_, s) => {
    const seat = info.seats[s] || {};
    return {
      name: seatName(info, s),
      bot: seat.kind === "bot",
      level: seat.level,
      connected: seat.kind === "bot" ? true : seat.connected,
      away: Boolean(seat.away),
    };
  });
  // The deadline of the seat to act: the server's, else counted from when the turn began.
  let deadline = null;
  const toAct = obs.to_act;
  if (info.turn_timeout && toAct != null && info.seats[toAct]?.kind !== "bot") {
    deadline = info.deadline_ms && info.to_act === toAct && info.seq === tb.seq
      ? info.deadline_ms
      : (tb.turnStarted || Date.now()) + info.turn_timeout * 1000;
  }
  app.tableView.update({
    game,
    obs,
    seq: tb.seq,
    fair: { dealing: info.dealing, commitment: info.commitment },
    mySeat: tb.you,
    seats,
    deadline,
    turnSeconds: info.turn_timeout,
    spectators: info.spectators,
    stake: info.stake,
    stakeHold: info.stake_hold,
    hints: Boolean(info.hints),
    tableId: tb.id,
  });
  const over = gameOf(game).modelExtras(obs, obs.hand_sizes.length).phase === "over";
  if (over && app.overShown !== tb.id) {
    app.overShown = tb.id;
    setTimeout(() => showOver(false), 900);
  }
}

function showOver(relabelOnly) {
  const tb = app.table;
  if (!tb || !tb.view) return;
  const dlg = $(".over-dialog");
  const info = tb.info;
  const names = [...Array(info.players)].map((_, s) => seatName(info, s));
  const { title, body } = gameOf(info.game).overResult({ obs: tb.view, events: tb.events, names, you: tb.you });
  $("#over-title").textContent = t("over_title", { title });
  // #16B: the whole game deal by deal (round by round) under the result and the chips.
  const sheet = `<h3>${esc(t("score_sheet"))}</h3>${sheetHtml(info.game, tb.events, names, app.tableView?.model ? app.tableView.extras.narrowNames() : null)}`;
  $(".over-body").innerHTML = body + settlementHtml(info, names, tb.you) + sheet;
  const dl = $(".download-record");
  dl.href = `/api/games/${tb.id}/record`;
  dl.setAttribute("download", `kozyr-${tb.id}.json`);
  $(".watch-replay").href = `#/replay/${tb.id}`;
  if (!relabelOnly && !dlg.open) dlg.showModal();
}

// ------------------------------------------------------------------ replay

function setupReplay() {
  const bar = $(".replay-controls");
  bar.addEventListener("click", (ev) => {
    const btn = ev.target.closest("button[data-step]");
    if (btn && app.replay) replayStep(btn.dataset.step);
  });
  $(".verify-btn").addEventListener("click", verifyReplay);
  fillReviewLevels();
  $(".review-btn").addEventListener("click", () => {
    app.replay?.review?.request(Number($(".review-level").value) || DEFAULT_LEVEL);
  });
  $(".replay-range").addEventListener("input", (ev) => {
    if (app.replay) replayGo(Number(ev.target.value));
  });
  document.addEventListener("keydown", (e) => {
    if (app.screen !== "replay" || !app.replay || e.target.tagName === "INPUT") return;
    const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", " ": "play" };
    if (keys[e.key]) {
      e.preventDefault();
      replayStep(keys[e.key]);
    }
  });
}

async function openReplay(id) {
  leaveTableScreen();
  if (app.replay?.id === id) return show("replay");
  closeReplay();
  show("replay");
  const root = $("#replay-root");
  root.innerHTML = `<p class="loading">${esc(t("loading"))}</p>`;
  try {
    const data = await api("GET", `/api/games/${id}/replay`);
    startReplay(data, id);
  } catch (e) {
    root.innerHTML = `<p class="form-error">${esc(errorText(e))}</p>`;
  }
}

function startReplay(data, id, recordText = null) {
  closeReplay();
  show("replay");
  const root = $("#replay-root");
  root.innerHTML = "";
  const view = new TableView(root, { replay: true });
  const names = replayNames(data);
  // recordText: an uploaded record, which Verify sends back to be checked.
  app.replay = { id, data, view, names, step: 0, timer: null, recordText, verdict: null, review: null };
  renderVerdict();
  startReview(app.replay);
  const range = $(".replay-range");
  range.max = String(data.steps.length - 1);
  replayGo(0);
}

function replayNames(data) {
  return [...Array(data.steps[0].hands.length)].map((_, s) => {
    const name = data.players?.[s];
    if (!name) return t("seat_n", { n: s + 1 });
    return /^bot [1-5]$/.test(name) ? t("bot_name", { n: s + 1 }) : name;
  });
}

function closeReplay() {
  const box = $(".verify-result");
  box.hidden = true;
  box.innerHTML = "";
  if (!app.replay) return;
  clearInterval(app.replay.timer);
  app.replay.review?.destroy();
  app.replay.view.destroy();
  app.replay = null;
}

/** The review's depths in the page's language, the choice kept. */
function fillReviewLevels() {
  const sel = $(".review-level");
  const keep = sel.value || String(DEFAULT_LEVEL);
  sel.innerHTML = REVIEW_LEVELS.map((n) => `<option value="${n}">${esc(t("review_level_n", { n }))}</option>`).join("");
  sel.value = keep;
}

/** A stored game's review (#15): asked for here, shown beside the replay. A record from
 * disk has none (the server keeps reviews of its own games only). */
function startReview(r) {
  const ask = $(".review-ask");
  ask.hidden = r.id == null;
  if (r.id == null) return;
  const mySeat = app.user ? r.data.players?.indexOf(app.user.name) : -1;
  r.review = new ReviewPanel($(".review-panel"), {
    gameId: r.id,
    game: r.data.game,
    names: () => r.names,
    mySeat: mySeat >= 0 ? mySeat : null,
    errorText,
    onBusy: (busy) => {
      $(".review-btn").disabled = busy;
    },
    onResize: () => r.view.fit(),
    onLevel: (level) => {
      $(".review-level").value = String(level);
    },
    onJump: (index) => {
      if (app.replay !== r) return;
      if (r.timer) replayStep("play"); // stop playing: the chosen move stays on screen
      const last = r.data.steps.length - 1;
      // Step i shows the game just after action i - 1: the move itself, in the trick.
      replayGo(Math.max(0, Math.min(last, index + 1)));
      // On a narrow screen the table is below the review: bring its felt into view.
      const felt = $("#replay-root .felt");
      if (felt && window.matchMedia("(max-width: 1000px)").matches) {
        // below the controls, which stay at the top of the screen there
        const bar = $(".replay-controls").getBoundingClientRect().height;
        felt.style.setProperty("--controls-h", `${Math.ceil(bar) + 4}px`);
        felt.scrollIntoView({ block: "start" });
      }
    },
  });
  r.review.load();
}

/** Asks the server to check the deals of the game on screen against its seed. */
async function verifyReplay() {
  const r = app.replay;
  if (!r) return;
  const btn = $(".verify-btn");
  btn.disabled = true;
  r.verdict = { checking: true };
  renderVerdict();
  try {
    const verdict =
      r.id != null
        ? await api("GET", `/api/games/${encodeURIComponent(r.id)}/verify`)
        : await api("POST", "/api/verify", r.recordText ?? "{}");
    if (app.replay === r) r.verdict = { result: verdict };
  } catch (e) {
    if (app.replay === r) r.verdict = { error: e };
  } finally {
    btn.disabled = false;
  }
  if (app.replay === r) renderVerdict();
}

/** The verdict of Verify in the page's language (re-drawn when the language changes). */
function renderVerdict() {
  const box = $(".verify-result");
  const v = app.replay?.verdict;
  box.className = "verify-result";
  if (!v) {
    box.hidden = true;
    box.innerHTML = "";
    return;
  }
  box.hidden = false;
  if (v.checking) {
    box.textContent = t("verify_checking");
    return;
  }
  if (v.error) {
    box.classList.add("bad");
    box.textContent = errorText(v.error);
    return;
  }
  const res = v.result || {};
  const deals = Number(res.deals) || 0;
  const dealsOk = Number(res.deals_ok) || 0;
  const legacy = res.dealing === "mt19937" || !res.commitment;
  let head;
  let kind;
  if (legacy) {
    kind = res.ok ? "old" : "bad";
    const key = !res.ok ? "verify_legacy_bad" : deals === 1 ? "verify_legacy_ok_one" : "verify_legacy_ok";
    head = t(key, { n: deals, ok: dealsOk });
  } else if (res.ok && res.commitment_ok !== false) {
    kind = "good";
    head = t(deals === 1 ? "verify_fair_one" : "verify_fair", { n: deals });
  } else {
    kind = "bad";
    head = t("verify_unfair", { n: deals, ok: dealsOk });
    if (res.commitment_ok === false) head += ` ${t("verify_commitment_bad")}`;
  }
  box.classList.add(kind);
  let html = `<p class="verdict">${esc(head)}</p>`;
  const problems = Array.isArray(res.problems) ? res.problems : [];
  if (problems.length) {
    // The server words its findings in English only; they name cards and seats exactly.
    html +=
      `<p class="muted">${esc(t("verify_problems"))}</p>` +
      `<ul class="problems" lang="en">${problems
        .slice(0, 20)
        .map((p) => `<li>${esc(p)}</li>`)
        .join("")}</ul>`;
  }
  if (res.commitment) {
    html += `<p class="muted fingerprint">sha256 <code>${esc(res.commitment)}</code></p>`;
  }
  box.innerHTML = html;
}

/** The play button says what a press does now (play, or pause while playing), in the
 * page's language: applyStatic() alone would call a running replay's button "Play". */
function labelPlay() {
  const play = $('.replay-controls [data-step="play"]');
  const key = app.replay?.timer ? "replay_pause" : "replay_play";
  play.setAttribute("aria-label", t(key));
  play.title = t(key);
}

function replayStep(what) {
  const r = app.replay;
  const last = r.data.steps.length - 1;
  if (what === "play") {
    if (r.timer) {
      clearInterval(r.timer);
      r.timer = null;
    } else {
      if (r.step >= last) replayGo(0);
      r.timer = setInterval(() => {
        if (r.step >= last) {
          clearInterval(r.timer);
          r.timer = null;
          return;
        }
        replayGo(r.step + 1);
      }, 700);
    }
    labelPlay();
    const play = $('.replay-controls [data-step="play"]');
    play.innerHTML = r.timer
      ? '<svg width="18" height="18" viewBox="0 0 20 20" aria-hidden="true"><path d="M4 3h4v14H4zM12 3h4v14h-4z" fill="currentColor"/></svg>'
      : '<svg width="18" height="18" viewBox="0 0 20 20" aria-hidden="true"><path d="M3 3v14l7-7zM11 3v14l7-7z" fill="currentColor"/></svg>';
    return;
  }
  const to = { first: 0, prev: r.step - 1, next: r.step + 1, last }[what];
  replayGo(Math.max(0, Math.min(last, to)));
}

function replayGo(i) {
  const r = app.replay;
  const data = r.data;
  r.step = i;
  const step = data.steps[i];
  const obs = { ...step.view, events: data.events.slice(0, step.events) };
  const mySeat = app.user ? data.players?.indexOf(app.user.name) : -1;
  r.view.update({
    game: data.game,
    obs,
    mySeat: null,
    bottomSeat: mySeat >= 0 ? mySeat : 0,
    seats: r.names.map((name) => ({ name })),
    hands: step.hands,
  });
  $(".replay-range").value = String(i);
  r.review?.setStep(i);
  $(".replay-pos").textContent = t("replay_step", { n: i, of: data.steps.length - 1 });
  const a = step.action;
  const text = a ? t("replay_action", { name: r.names[a.seat], action: actionWords(a.action, r.names) }) : t("replay_start");
  $(".replay-action").textContent = text;
}

start();
