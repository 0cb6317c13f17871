// Table talk (#44, docs/protocol.md "Table talk"): the lines said at the table, quick
// phrases (sent as codes, worded here in the reader's language), a text box of at most
// 200 characters, a "talk off" switch, muting one person and reporting a line.
//
// Turning talk off and the mute list are this browser's (localStorage): the server keeps
// sending every line its reader may see, and the page does not show them. Who hears what
// is the server's rule (the kibitzer rule): this panel shows what it is sent.

import { api } from "./net.js";
import { t } from "./i18n.js";
import { esc } from "./html.js";

export const PHRASES = ["good_luck", "well_played", "thanks", "sorry", "one_more"];
export const MAX_CHARS = 200;
const OFF_KEY = "kozyr.talk.off";
const MUTED_KEY = "kozyr.talk.muted";

/** Characters as the server counts them: code points after NFC. */
export function talkLength(text) {
  return [...text.normalize("NFC")].length;
}

function readMuted() {
  try {
    const ids = JSON.parse(localStorage.getItem(MUTED_KEY) || "[]");
    return new Set(Array.isArray(ids) ? ids.filter((id) => Number.isInteger(id)) : []);
  } catch {
    return new Set();
  }
}

function remember(key, value) {
  try {
    if (value == null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    /* private mode: remembered for this page only */
  }
}

export class TalkPanel {
  /**
   * @param {HTMLElement} screen the table screen; the panel goes under the table
   * @param {string} tableId
   * @param {{send: Function, me: Function, toast: Function, errorText: Function}} hooks
   */
  constructor(screen, tableId, hooks) {
    this.tableId = tableId;
    this.hooks = hooks;
    this.lines = new Map(); // id -> the said frame's fields
    this.reported = new Set();
    this.muted = readMuted();
    this.off = localStorage.getItem(OFF_KEY) === "1";
    this.you = null;
    this.finished = false;
    this.unread = 0;
    this.el = document.createElement("aside");
    this.el.className = "panel talk-panel talk-live";
    this.el.id = "talk-panel";
    this.el.setAttribute("aria-labelledby", "talk-head");
    screen.querySelector(".table-root").after(this.el);
    // On a wide screen the table fills the window: the talk opens over it, from a button
    // in the table's tool row (which shows the lines not yet read); on a narrow one the
    // page scrolls anyway, and the panel sits under the table, the button hidden.
    this.toggle = document.createElement("button");
    this.toggle.type = "button";
    this.toggle.className = "btn small talk-toggle";
    this.toggle.setAttribute("aria-controls", "talk-panel");
    this.toggle.setAttribute("aria-expanded", "false");
    this.toggle.addEventListener("click", () => this.setOpen(!this.el.classList.contains("open")));
    screen.querySelector(".table-tools").append(this.toggle);
    this.el.addEventListener("click", (ev) => this.onClick(ev));
    this.el.addEventListener("submit", (ev) => this.onSubmit(ev));
    this.el.addEventListener("input", (ev) => {
      if (ev.target.name === "talk") this.count();
    });
    this.el.addEventListener("change", (ev) => {
      if (ev.target.name !== "talk-off") return;
      this.off = ev.target.checked;
      remember(OFF_KEY, this.off ? "1" : null);
      this.render();
    });
    this.render();
  }

  destroy() {
    this.el.remove();
    this.toggle.remove();
    this.lines.clear();
  }

  setOpen(open) {
    this.el.classList.toggle("open", open);
    this.toggle.setAttribute("aria-expanded", String(open));
    if (open) {
      this.unread = 0;
      this.el.querySelector("input[name=talk]")?.focus({ preventScroll: true });
    }
    this.drawToggle();
  }

  drawToggle() {
    const n = this.unread ? ` (${this.unread})` : "";
    this.toggle.textContent = t("talk_toggle") + n;
    this.toggle.classList.toggle("unread", this.unread > 0);
  }

  setTable(info, you) {
    this.you = you;
    this.finished = info?.status === "finished";
    this.drawTools();
  }

  /** A ``said`` frame for this table: kept once by its id, drawn in the order said. */
  onSaid(f) {
    if (this.lines.has(f.id)) return;
    this.lines.set(f.id, f);
    if (!this.el.classList.contains("open") && !this.muted.has(f.from.user_id) && f.from.user_id !== this.hooks.me()) {
      this.unread += 1;
      this.drawToggle();
    }
    this.drawLines();
  }

  wordOf(line) {
    return line.phrase ? t(`talk_phrase_${line.phrase}`) : line.text || "";
  }

  render() {
    const phrases = PHRASES.map(
      (p) => `<button type="button" class="btn small" data-phrase="${p}">${esc(t(`talk_phrase_${p}`))}</button>`,
    ).join("");
    this.el.innerHTML = `
      <div class="talk-top">
        <h2 id="talk-head">${esc(t("talk_head"))}</h2>
        <label class="talk-switch"><input type="checkbox" name="talk-off"${this.off ? " checked" : ""}> ${esc(t("talk_off"))}</label>
        <button type="button" class="btn small talk-close">${esc(t("close"))}</button>
      </div>
      <p class="talk-channel muted"></p>
      <p class="talk-is-off muted"${this.off ? "" : " hidden"}>${esc(t("talk_is_off"))}</p>
      <div class="talk-body"${this.off ? " hidden" : ""}>
        <ol class="talk-lines" aria-live="polite"></ol>
        <p class="talk-muted-note" hidden><button type="button" class="talk-link" data-unmute="all"></button></p>
        <div class="talk-phrases" role="group" aria-label="${esc(t("talk_phrases"))}">${phrases}</div>
        <form class="talk-form">
          <input name="talk" autocomplete="off" aria-label="${esc(t("talk_placeholder"))}" placeholder="${esc(t("talk_placeholder"))}">
          <span class="talk-count muted" aria-live="polite"></span>
          <button type="submit" class="btn small primary">${esc(t("talk_send"))}</button>
        </form>
      </div>`;
    this.drawTools();
    this.drawLines();
    this.count();
    this.drawToggle();
  }

  drawTools() {
    const channel = this.el.querySelector(".talk-channel");
    if (!channel) return;
    const key = this.finished ? "talk_after_game" : this.you == null ? "talk_as_spectator" : "talk_as_player";
    channel.textContent = t(key);
  }

  drawLines() {
    const list = this.el.querySelector(".talk-lines");
    if (!list) return;
    const me = this.hooks.me();
    const shown = [...this.lines.values()].sort((a, b) => a.id - b.id);
    const hidden = shown.filter((l) => this.muted.has(l.from.user_id)).length;
    list.innerHTML = shown
      .filter((l) => !this.muted.has(l.from.user_id))
      .map((l) => {
        const mine = l.from.user_id === me;
        const tag = l.channel === "spectators" ? ` <span class="pill talk-tag">${esc(t("talk_spectator"))}</span>` : "";
        const tools = mine
          ? ""
          : `<button type="button" class="talk-link talk-mute" data-mute="${l.from.user_id}" title="${esc(t("talk_mute", { name: l.from.name }))}">${esc(t("talk_mute_short"))}</button>` +
            `<button type="button" class="talk-link talk-report" data-report="${l.id}"${this.reported.has(l.id) ? " disabled" : ""}>${esc(t(this.reported.has(l.id) ? "talk_reported" : "talk_report"))}</button>`;
        return `<li data-id="${l.id}" data-channel="${l.channel}"><b class="talk-who">${esc(l.from.name)}</b>${tag}: <span class="talk-text">${esc(this.wordOf(l))}</span> <span class="talk-tools">${tools}</span></li>`;
      })
      .join("");
    list.scrollTop = list.scrollHeight;
    const note = this.el.querySelector(".talk-muted-note");
    note.hidden = this.muted.size === 0;
    note.querySelector("button").textContent = t("talk_unmute_all", { n: hidden });
  }

  count() {
    const input = this.el.querySelector("input[name=talk]");
    if (!input) return;
    const n = talkLength(input.value);
    const out = this.el.querySelector(".talk-count");
    out.textContent = `${n}/${MAX_CHARS}`;
    out.classList.toggle("over", n > MAX_CHARS);
    this.el.querySelector(".talk-form button[type=submit]").disabled = n > MAX_CHARS;
  }

  send(fields) {
    this.hooks.send({ type: "say", table: this.tableId, ...fields });
  }

  onSubmit(ev) {
    ev.preventDefault();
    const input = this.el.querySelector("input[name=talk]");
    const text = input.value.trim();
    if (!text || talkLength(text) > MAX_CHARS) return;
    this.send({ text });
    input.value = "";
    this.count();
  }

  async onClick(ev) {
    const btn = ev.target.closest("button");
    if (!btn) return;
    if (btn.classList.contains("talk-close")) this.setOpen(false);
    else if (btn.dataset.phrase) this.send({ phrase: btn.dataset.phrase });
    else if (btn.dataset.mute) {
      this.muted.add(Number(btn.dataset.mute));
      remember(MUTED_KEY, JSON.stringify([...this.muted]));
      this.drawLines();
    } else if (btn.dataset.unmute) {
      this.muted.clear();
      remember(MUTED_KEY, null);
      this.drawLines();
    } else if (btn.dataset.report) {
      const id = Number(btn.dataset.report);
      try {
        await api("POST", `/api/talk/${id}/report`, {});
      } catch (e) {
        if (e?.code !== "already_reported") {
          this.hooks.toast(this.hooks.errorText(e));
          return;
        }
      }
      this.reported.add(id);
      this.hooks.toast(t("talk_thanks_report"));
      this.drawLines();
    }
  }
}

/** A finished game's talk under its replay (the replay's ``talk``: both channels), read
 * only; drawn again in the page's language by calling it again. */
export function showReplayTalk(screen, lines) {
  screen.querySelector(".replay-talk")?.remove();
  if (!Array.isArray(lines) || !lines.length) return;
  const el = document.createElement("aside");
  el.className = "panel talk-panel replay-talk";
  el.setAttribute("aria-labelledby", "replay-talk-head");
  const items = lines
    .map((l) => {
      const word = l.phrase ? t(`talk_phrase_${l.phrase}`) : l.text || "";
      const tag = l.channel === "spectators" ? ` <span class="pill talk-tag">${esc(t("talk_spectator"))}</span>` : "";
      return `<li data-id="${Number(l.id)}" data-channel="${esc(l.channel)}"><b class="talk-who">${esc(l.from?.name || "")}</b>${tag}: <span class="talk-text">${esc(word)}</span></li>`;
    })
    .join("");
  el.innerHTML = `<h2 id="replay-talk-head">${esc(t("talk_head"))}</h2><ol class="talk-lines">${items}</ol>`;
  screen.append(el);
}
