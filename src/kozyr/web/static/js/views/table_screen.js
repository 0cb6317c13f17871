// The table screen: taking a seat while a table waits, then the game (played or
// watched) drawn by TableView from the server's frames, and the game-over dialog.

import { t } from "../i18n.js";
import { api } from "../net.js";
import { esc, TableView } from "../table.js";
import { agreeToStake, settlementHtml, stakeLine } from "../stakes.js";
import { confirmLeave } from "../leaving.js";
import { wireNotifySwitch } from "../notify_switch.js";
import { balance, refreshBalance } from "../wallet.js";
import { sheetHtml } from "../scoresheet.js";
import { nameLink, ratedPill } from "../pages.js";
import { ratingChangeHtml } from "../ratings_common.js";
import { BetsPanel } from "../bets.js";
import { TalkPanel } from "../talk.js"; // table talk (#44)
import { gameOf, levelLabel } from "../games/index.js";
import { change, store, update } from "../store.js";
import { $, errorText, gameName, newId, seatName, show, toast } from "../ui.js";

export function setupTable() {
  wireNotifySwitch($(".notify-switch"));
  $(".leave-btn").addEventListener("click", async () => {
    const tb = store.table;
    if (tb && tb.you != null && tb.info?.status !== "finished") {
      // A game in progress goes on without you: say what becomes of the seat and the
      // stake first. An open table just frees the seat, and a spectator just goes.
      if (tb.info?.status === "playing" && !(await confirmLeave(tb.info, tb.you))) return;
      if (store.table !== tb) return; // the table closed meanwhile
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
    if (!btn || !store.table) return;
    const seat = Number(btn.dataset.seat);
    const id = store.table.id;
    try {
      if (btn.dataset.seatDo === "sit") {
        if (!(await agreeToStake(store.table.info, balance()))) return;
        await api("POST", `/api/tables/${id}/join`, { seat, invite: store.table.invite || undefined });
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

/** Opens table `id` (the replay on screen, if any, closed first: app.js's route). */
export function openTable(id, invite) {
  if (store.table?.id === id) {
    show("table");
    return;
  }
  leaveTableScreen();
  update({ table: { id, invite, info: null, you: null, seq: null, view: null, events: [] } });
  $(".leave-btn").dataset.i18n = "leave_table";
  $(".leave-btn").textContent = t("leave_table");
  update({ bets: new BetsPanel($("#screen-table"), id, { errorText, toast, seatName }) });
  const talkHooks = { send: (f) => store.socket?.send(f), me: () => store.user?.id, toast, errorText };
  update({ talk: new TalkPanel($("#screen-table"), id, talkHooks) });
  show("table");
  const root = $("#screen-table .table-root");
  root.innerHTML = `<p class="loading">${esc(t("connecting"))}</p>`;
  if (store.socket?.open) helloTable();
}

export function leaveTableScreen() {
  if (store.table && store.socket?.open) store.socket.send({ type: "unwatch", table: store.table.id });
  store.tableView?.destroy();
  store.bets?.destroy();
  store.talk?.destroy();
  update({ tableView: null, table: null, bets: null, talk: null, overShown: null });
  const dlg = $(".over-dialog");
  if (dlg.open) dlg.close();
}

export function helloTable() {
  const tb = store.table;
  const frame = { type: "hello", table: tb.id };
  if (tb.seq != null) frame.last_seq = tb.seq;
  if (tb.invite) frame.invite = tb.invite;
  store.socket.send(frame);
}

/** A full view of the table on screen (on hello, or after a gap). */
export function onSync(f) {
  change(store.table, { seq: f.seq, events: f.view.events || [], view: f.view });
  drawTable();
}

export function onTableUpdate(f) {
  const tb = store.table;
  if (tb.seq != null && f.seq <= tb.seq) return; // already have it
  if (tb.seq == null || f.seq !== tb.seq + 1) {
    // A gap: ask again from what we have (the server resends or syncs).
    helloTable();
    return;
  }
  change(tb, { seq: f.seq, events: [...tb.events, ...(f.events || [])], lastAction: f.action });
  if (f.view) {
    change(tb, { view: f.view, turnStarted: Date.now() });
    if (tb.info && "deadline_ms" in f) {
      // The server's deadline for the seat that acts now (null: no timer or a bot).
      change(tb, { info: { ...tb.info, deadline_ms: f.deadline_ms, to_act: f.view.to_act, seq: f.seq } });
    }
    drawTable();
  }
}

export function onTableInfo(f) {
  const tb = store.table;
  const settledNow = Array.isArray(f.table.settlement) && !Array.isArray(tb.info?.settlement);
  change(tb, { info: f.table });
  if (settledNow || (f.table.stake && f.table.status !== tb.shownStatus)) refreshBalance();
  change(tb, { shownStatus: f.table.status });
  if (store.overShown === tb.id && $(".over-dialog").open) showOver(true);
  change(tb, { you: f.you ?? null });
  $(".table-rated").hidden = !f.table.rated;
  if (f.table.deadline_ms) change(tb, { deadline: f.table.deadline_ms });
  const inv = $(".invite");
  if (f.table.invite_code) {
    const link = `${location.origin}${location.pathname}#/table/${f.table.id}?invite=${encodeURIComponent(f.table.invite_code)}`;
    inv.innerHTML = `${esc(t("invite_link"))}: <input readonly value="${esc(link)}" size="40">`;
    // A listener, not onclick="": the page's CSP runs no inline handlers.
    inv.querySelector("input").addEventListener("click", (e) => e.target.select());
  } else inv.textContent = "";
  store.bets?.setTable(f.table, tb.you);
  store.talk?.setTable(f.table, tb.you);
  if (tb.view) drawTable();
  else renderWaiting();
}

export function renderWaiting() {
  const tb = store.table;
  const info = tb.info;
  if (!info) return;
  store.tableView?.destroy();
  update({ tableView: null });
  const root = $("#screen-table .table-root");
  const creator = store.user && info.creator_id === store.user.id;
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
        [1, 2, 3, 4, 5].map((n) => `<option value="${n}"${n === 3 ? " selected" : ""}>${esc(levelLabel(info.game, info.players, n))}</option>`).join("") +
        `</select></label>`
      : "") +
    `</section>`;
}

export function drawTable() {
  const tb = store.table;
  if (!tb || !tb.view || !tb.info) return;
  const root = $("#screen-table .table-root");
  if (!store.tableView) {
    root.innerHTML = "";
    const view = new TableView(root, {
      errorText,
      // One intent per view: it names the view's seq, so the server refuses it as stale
      // if the table has moved on, and a second click on the same view sends nothing.
      // Returns false when nothing could be sent (no connection): the player may retry.
      onAction: (action) => {
        if (tb.sentSeq === tb.seq) return true;
        const id = newId();
        const frame = { type: "action", table: tb.id, id, action, seq: tb.seq };
        if (!store.socket?.send(frame)) return false;
        change(tb, { pendingId: id, sentSeq: tb.seq });
        return true;
      },
      onBack: () => {
        if (!store.socket?.send({ type: "back", table: tb.id })) toast(t("not_connected"));
      },
    });
    update({ tableView: view });
  }
  const info = tb.info;
  const game = info.game;
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
  // A seat the computer plays (a bot's, or a person's who is away) has no clock.
  if (info.turn_timeout && toAct != null && info.seats[toAct]?.kind !== "bot" && !info.seats[toAct]?.away) {
    deadline = info.deadline_ms && info.to_act === toAct && info.seq === tb.seq
      ? info.deadline_ms
      : (tb.turnStarted || Date.now()) + info.turn_timeout * 1000;
  }
  store.tableView.update({
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
  if (over && store.overShown !== tb.id) {
    update({ overShown: tb.id });
    setTimeout(() => showOver(false), 900);
  }
}

export function showOver(relabelOnly) {
  const tb = store.table;
  if (!tb || !tb.view) return;
  const dlg = $(".over-dialog");
  const info = tb.info;
  const names = [...Array(info.players)].map((_, s) => seatName(info, s));
  const { title, body } = gameOf(info.game).overResult({ obs: tb.view, events: tb.events, names, you: tb.you });
  $("#over-title").textContent = t("over_title", { title });
  // #16B: the whole game deal by deal (round by round) under the result and the chips.
  const sheet = `<h3>${esc(t("score_sheet"))}</h3>${sheetHtml(info.game, tb.events, names, store.tableView?.model ? store.tableView.extras.narrowNames() : null, tb.you)}`;
  $(".over-body").innerHTML = body + ratingChangeHtml(info, names, tb.you) + settlementHtml(info, names, tb.you) + sheet;
  const dl = $(".download-record");
  dl.href = `/api/games/${tb.id}/record`;
  dl.setAttribute("download", `kozyr-${tb.id}.json`);
  $(".watch-replay").href = `#/replay/${tb.id}`;
  if (!relabelOnly && !dlg.open) dlg.showModal();
}
