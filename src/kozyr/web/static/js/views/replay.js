// The replay screen and the review beside it: a finished game (or a record file from
// disk) step by step, Verify (the deals against the seed), and the review's verdicts.

import { t } from "../i18n.js";
import { api } from "../net.js";
import { esc, TableView } from "../table.js";
import { actionWords } from "../narrate.js";
import { DEFAULT_LEVEL, REVIEW_LEVELS, ReviewPanel } from "../review.js";
import { change, store, update } from "../store.js";
import { $, errorText, show } from "../ui.js";
import { showReplayTalk } from "../talk.js"; // table talk (#44)

export function setupReplay() {
  const bar = $(".replay-controls");
  bar.addEventListener("click", (ev) => {
    const btn = ev.target.closest("button[data-step]");
    if (btn && store.replay) replayStep(btn.dataset.step);
  });
  $(".verify-btn").addEventListener("click", verifyReplay);
  fillReviewLevels();
  $(".review-btn").addEventListener("click", () => {
    store.replay?.review?.request(Number($(".review-level").value) || DEFAULT_LEVEL);
    // on a narrow screen the review is under the table: its progress brought into view
    if (narrow()) $(".review-panel").scrollIntoView({ block: "start" });
  });
  // On a narrow screen, from the table back to the review's line of the move shown.
  $(".to-review").addEventListener("click", () => {
    const line = $(".review-panel .review-line.current");
    (line || $(".review-panel")).scrollIntoView({ block: "start" });
    line?.focus({ preventScroll: true });
  });
  // What scrolls into view on a narrow screen (a line, the table, the review) lands
  // below the controls, which stay at the top there (scroll-padding-top in the CSS).
  // On a wide screen the whole head stays at the top and the review column fits under it.
  const head = $(".replay-head");
  const sizes = new ResizeObserver(() => {
    const height = Math.ceil(bar.getBoundingClientRect().height);
    document.documentElement.style.setProperty("--controls-h", `${height}px`);
    const headHeight = Math.ceil(head.getBoundingClientRect().height);
    document.documentElement.style.setProperty("--replay-head-h", `${headHeight}px`);
  });
  // (on a narrow screen the head is display: contents, a box of no size: the bar is watched too)
  sizes.observe(bar);
  sizes.observe(head);
  $(".replay-range").addEventListener("input", (ev) => {
    if (store.replay) replayGo(Number(ev.target.value));
  });
  document.addEventListener("keydown", (e) => {
    if (store.screen !== "replay" || !store.replay || e.target.tagName === "INPUT") return;
    const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", " ": "play" };
    if (keys[e.key]) {
      e.preventDefault();
      replayStep(keys[e.key]);
    }
  });
}

/** Opens the replay of game `id` (the table on screen, if any, left first: app.js's route). */
export async function openReplay(id) {
  if (store.replay?.id === id) return show("replay");
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

export function startReplay(data, id, recordText = null) {
  closeReplay();
  show("replay");
  const root = $("#replay-root");
  root.innerHTML = "";
  const view = new TableView(root, { replay: true });
  const names = replayNames(data);
  // recordText: an uploaded record, which Verify sends back to be checked.
  update({ replay: { id, data, view, names, step: 0, timer: null, recordText, verdict: null, review: null } });
  renderVerdict();
  startReview(store.replay);
  const range = $(".replay-range");
  range.max = String(data.steps.length - 1);
  replayGo(0);
  showReplayTalk($("#screen-replay"), data.talk);
}

/** The review under the table, the controls sticking to the top of the screen. */
function narrow() {
  return window.matchMedia("(max-width: 1000px)").matches;
}

function replayNames(data) {
  return [...Array(data.steps[0].hands.length)].map((_, s) => {
    const name = data.players?.[s];
    if (!name) return t("seat_n", { n: s + 1 });
    return /^bot [1-5]$/.test(name) ? t("bot_name", { n: s + 1 }) : name;
  });
}

export function closeReplay() {
  const box = $(".verify-result");
  box.hidden = true;
  box.innerHTML = "";
  showReplayTalk($("#screen-replay"), null);
  if (!store.replay) return;
  clearInterval(store.replay.timer);
  store.replay.review?.destroy();
  store.replay.view.destroy();
  update({ replay: null });
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
  const mySeat = store.user ? r.data.players?.indexOf(store.user.name) : -1;
  const review = new ReviewPanel($(".review-panel"), {
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
      if (store.replay !== r) return;
      if (r.timer) replayStep("play"); // stop playing: the chosen move stays on screen
      const last = r.data.steps.length - 1;
      // Step i shows the game just after action i - 1: the move itself, in the trick.
      replayGo(Math.max(0, Math.min(last, index + 1)));
      // On a narrow screen the table is above the review: its felt brought into view,
      // below the controls (the button beside them goes back to this line).
      const felt = $("#replay-root .felt");
      if (felt && narrow()) felt.scrollIntoView({ block: "start" });
    },
  });
  change(r, { review });
  review.load();
}

/** Asks the server to check the deals of the game on screen against its seed. */
async function verifyReplay() {
  const r = store.replay;
  if (!r) return;
  const btn = $(".verify-btn");
  btn.disabled = true;
  change(r, { verdict: { checking: true } });
  renderVerdict();
  try {
    const verdict =
      r.id != null
        ? await api("GET", `/api/games/${encodeURIComponent(r.id)}/verify`)
        : await api("POST", "/api/verify", r.recordText ?? "{}");
    if (store.replay === r) change(r, { verdict: { result: verdict } });
  } catch (e) {
    if (store.replay === r) change(r, { verdict: { error: e } });
  } finally {
    btn.disabled = false;
  }
  if (store.replay === r) renderVerdict();
}

/** The verdict of Verify in the page's language (re-drawn when the language changes). */
function renderVerdict() {
  const box = $(".verify-result");
  const v = store.replay?.verdict;
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
  const key = store.replay?.timer ? "replay_pause" : "replay_play";
  play.setAttribute("aria-label", t(key));
  play.title = t(key);
}

function replayStep(what) {
  const r = store.replay;
  const last = r.data.steps.length - 1;
  if (what === "play") {
    if (r.timer) {
      clearInterval(r.timer);
      change(r, { timer: null });
    } else {
      if (r.step >= last) replayGo(0);
      const timer = setInterval(() => {
        if (r.step >= last) {
          clearInterval(r.timer);
          change(r, { timer: null });
          return;
        }
        replayGo(r.step + 1);
      }, 700);
      change(r, { timer });
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
  const r = store.replay;
  const data = r.data;
  change(r, { step: i });
  const step = data.steps[i];
  const obs = { ...step.view, events: data.events.slice(0, step.events) };
  const mySeat = store.user ? data.players?.indexOf(store.user.name) : -1;
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

/** The replay on screen in the page's language. */
export function relabelReplay() {
  const r = store.replay;
  if (r) {
    change(r, { names: replayNames(r.data) });
    r.view.relabel();
    replayGo(r.step); // the step line and the action in the new language too
    labelPlay();
    renderVerdict();
    r.review?.relabel();
    showReplayTalk($("#screen-replay"), r.data.talk);
  }
  fillReviewLevels();
}
