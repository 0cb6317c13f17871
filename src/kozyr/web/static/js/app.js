// The page: sign in, then one screen at a time (views/: the lobby, the table, the replay
// and its review; wallet.js, profile.js and pages.js the others), chosen by the address
// (#/, #/table/ID, #/replay/ID) so a reload resumes. Here: starting, signing in and out,
// routing, the socket's frames, and relabelling everything when the language changes.
// The state lives in store.js.

import { cardSvg } from "./cards.js";
import { applyStatic, initialLang, lang, onLangChange, setLang, t } from "./i18n.js";
import { api, ApiError, CLOSE_POLICY, CLOSE_TOO_SLOW, Socket } from "./net.js";
import { esc } from "./html.js";
import { installFieldChecks } from "./field_checks.js";
import { closeWallet, initWallet, onBalance, openWallet, refreshBalance, renderBalance, renderWallet, setBalance } from "./wallet.js";
import { routePage, setupPages, userChanged } from "./pages.js";
import { openPuzzles } from "./views/puzzles.js"; // puzzles (#29)
import { onChallengeFrame, refreshFriends, relabelFriends, setupFriends } from "./friends.js"; // friends and challenges (#44)
import { loadGames } from "./games/index.js";
import { change, store, update } from "./store.js";
import { $, $$, codeText, errorText, holdButtons, serverMessage, setupToasts, show, toast } from "./ui.js";
import { fillPlayerChoices, labelFileButtons, refreshLobby, scheduleLobbyRefresh, setupLobby, stakeHints, syncHints } from "./views/lobby.js";
import {
  drawTable,
  helloTable,
  leaveTableScreen,
  onSync,
  onTableInfo,
  onTableUpdate,
  openTable,
  renderWaiting,
  setupTable,
  showOver,
} from "./views/table_screen.js";
import { closeReplay, openReplay, relabelReplay, setupReplay } from "./views/replay.js";
import { routeHowto, setupHowto } from "./views/howto.js"; // how to play (#29)
import { routeLearn, setupLearn } from "./views/learn.js"; // learn to play: lessons (#29)

async function start() {
  // Each game's facts (player counts, stake kinds, ...) come from the server's specs.
  await loadGames(api);
  setLang(initialLang());
  onLangChange(() => relabel());
  for (const b of $$(".lang-switch")) b.addEventListener("click", () => setLang(lang() === "ru" ? "en" : "ru"));
  $(".sign-out").addEventListener("click", signOut);
  window.addEventListener("hashchange", route);
  installFieldChecks();
  setupAuth();
  setupToasts();
  setupLobby();
  setupFriends(); // friends and challenges (#44)
  setupTable();
  setupReplay();
  initWallet({ errorText });
  onBalance(() => stakeHints());
  // what any screen of its own does first: the table, the replay and the wallet let go
  const leaveScreens = () => {
    leaveTableScreen();
    closeReplay();
    closeWallet();
  };
  setupPages({
    show,
    leave: leaveScreens,
    user: () => store.user,
    setUser: (user) => {
      update({ user });
      renderWho();
    },
    signedOut: (message) => {
      store.socket?.close();
      update({ socket: null });
      history.replaceState(null, "", "#/"); // no hashchange: it would clear the message
      showAuth(message);
    },
    errorText,
  });
  // how to play (#29): open before signing in
  setupHowto({
    show,
    leave: leaveScreens,
    api,
    errorText,
  });
  // learn to play: lessons (#29), open before signing in; a first game signs in a guest
  setupLearn({
    show,
    leave: leaveScreens,
    user: () => store.user,
    ensureUser: async () => {
      if (store.user) return store.user;
      const r = await api("POST", "/api/guest");
      update({ user: r.user });
      renderWho();
      refreshBalance();
      update({ socket: new Socket({ onFrame, onState }) });
      store.socket.connect();
      return r.user;
    },
    errorText,
  });
  try {
    // optional: nobody signed in yet is an answer, not a 401 in the console
    const me = await api("GET", "/api/me?optional=1");
    if (me.user) signedIn(me.user);
    else if (!routeHowto(location.hash) && !routeLearn(location.hash)) showAuth(); // how to play, learn to play (#29): no sign-in needed
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) showAuth();
    else {
      showAuth();
      authError(errorText(e));
    }
  }
}

function relabel() {
  applyStatic(document);
  labelFileButtons();
  renderWho();
  renderBalance();
  if (store.screen === "wallet") renderWallet();
  fillPlayerChoices();
  if (store.screen === "lobby") refreshLobby();
  if (store.tableView) {
    drawTable(); // the seats' names too ("Computer 2" is the page's own word)
    store.tableView.relabel();
  }
  store.bets?.render(true);
  store.talk?.render();
  if (store.screen === "table" && store.table && !store.table.view) renderWaiting();
  relabelReplay();
  relabelFriends(); // friends and challenges (#44)
  syncHints($(".create-form"));
  updateConn(store.connState);
  if (store.overShown && $(".over-dialog").open) showOver(true);
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

/** An error on the sign-in screen, brought into view (on a phone it is below the forms). */
function authError(text) {
  const el = $("#screen-auth .form-error");
  el.textContent = text;
  if (text && !$("#screen-auth").hidden) el.scrollIntoView({ block: "nearest" });
}

function showAuth(message = "") {
  update({ user: null });
  setBalance(null);
  renderWho();
  show("auth");
  authError(message);
}

function renderWho() {
  const who = $(".who");
  $(".sign-out").hidden = !store.user;
  $(".nav-puzzles").hidden = !store.user; // puzzles (#29)
  userChanged(store.user);
  syncHints($(".create-form")); // "rated" may have been cleared for a guest
  if (!store.user) {
    who.textContent = "";
    return;
  }
  who.innerHTML =
    esc(t("signed_in_as", { name: store.user.name })) +
    (store.user.guest ? ` <span class="pill">${esc(t("guest_badge"))}</span>` : "");
}

function signedIn(user) {
  update({ user });
  renderWho();
  refreshBalance();
  if (!store.socket) {
    update({ socket: new Socket({ onFrame, onState }) });
    store.socket.connect();
  }
  route();
}

async function signOut() {
  try {
    await api("POST", "/api/logout");
  } catch {
    /* signed out anyway */
  }
  store.socket?.close();
  update({ socket: null });
  leaveTableScreen();
  location.hash = "#/";
  showAuth();
}

// ------------------------------------------------------------------ routing

function route() {
  if (routeHowto(location.hash) || routeLearn(location.hash)) return; // how to play, learn to play (#29): open to everyone
  if (!store.user) return showAuth();
  const hash = location.hash || "#/";
  const m = hash.match(/^#\/(table|replay)\/([\w-]+)(?:\?(.*))?$/);
  // One screen at a time: the table's leaves the replay's, and the other way round.
  if (m && m[1] === "table") {
    closeReplay();
    return openTable(m[2], new URLSearchParams(m[3] || "").get("invite"));
  }
  if (m && m[1] === "replay") {
    leaveTableScreen();
    return openReplay(m[2]);
  }
  if (hash === "#/replay-file" && store.replay) return show("replay");
  // puzzles from real deals (#29)
  if (/^#\/puzzles(\/|$)/.test(hash)) {
    leaveTableScreen();
    closeReplay();
    closeWallet();
    show("puzzles");
    openPuzzles(hash);
    return;
  }
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
  refreshFriends(); // friends and challenges (#44)
  store.socket?.send({ type: "lobby" });
}

// ------------------------------------------------------------------ socket

function onState(state, detail = {}) {
  update({ connState: state, connDetail: detail });
  if (state === "signed_out") return signedOutElsewhere();
  updateConn(state);
  if (state === "lost") checkStillSignedIn();
  if (state === "open") {
    // An intent lost with the old connection may be made again; if it did arrive, the
    // server refuses the new one as stale, quietly.
    if (store.table) change(store.table, { sentSeq: null, pendingId: null });
    store.tableView?.settle();
    // (Re)connected: say hello again for the table on screen; the server sends what we
    // missed since our last seq, or a full sync.
    if (store.table) helloTable();
    if (store.screen === "lobby") store.socket.send({ type: "lobby" });
  }
}

function updateConn(state) {
  const el = $(".conn");
  const d = store.connDetail || {};
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
  store.socket?.close();
  update({ socket: null, connState: null });
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
    if (e instanceof ApiError && e.status === 401 && store.socket) signedOutElsewhere();
  }
}

function onFrame(f) {
  switch (f.type) {
    case "welcome":
      if (f.user) update({ user: f.user });
      break;
    case "lobby":
      if (store.screen === "lobby") scheduleLobbyRefresh();
      break;
    case "table":
      if (store.table && f.table?.id === store.table.id) onTableInfo(f);
      break;
    case "sync":
      if (store.table && f.table === store.table.id) onSync(f);
      break;
    case "update":
      if (store.table && f.table === store.table.id) onTableUpdate(f);
      break;
    case "market":
    case "bet_settled":
      store.bets?.onFrame(f);
      break;
    case "challenge": // friends and challenges (#44)
      onChallengeFrame(f);
      break;
    case "said": // table talk (#44)
      if (store.talk && f.table === store.talk.tableId) store.talk.onSaid(f);
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

function onError(f) {
  const text = serverMessage(f) || codeText(f.code, 0);
  if (store.table && f.id && f.id === store.table.pendingId) {
    change(store.table, { pendingId: null });
    if (f.code === "stale") {
      // The table moved on before our intent arrived: nothing is wrong, and the intent
      // is not sent again (it was meant for the old view). Fetch the new view; a click
      // on the old one meanwhile is refused as stale again, just as quietly.
      change(store.table, { sentSeq: null });
      store.tableView?.settle();
      helloTable();
      return;
    }
    change(store.table, { sentSeq: null }); // refused: the player may choose again on this view
    store.tableView?.rejected(() => serverMessage(f) || codeText(f.code, 0), f);
    return;
  }
  if (f.code === "stale") return;
  if (store.table && f.table === store.table.id && f.code === "no_table") {
    toast(text, "lobby"); // said where the player lands
    location.hash = "#/";
    return;
  }
  toast(text);
}

start();
