// Talking to the server: JSON over HTTP for accounts and the lobby, one WebSocket for
// tables (docs/protocol.md). The socket reconnects by itself and tells the app when it
// is back, so that the app can say hello again with the last seq it saw (resync).

export class ApiError extends Error {
  constructor(status, body, retryAfter = null) {
    super(body?.message || `HTTP ${status}`);
    this.status = status;
    this.code = body?.code || "http";
    this.body = body || {};
    // Seconds until the server takes the request again (429 with Retry-After), or null.
    this.retryAfter = retryAfter;
  }
}

/** Retry-After as seconds: a number of seconds or an HTTP date (RFC 9110). */
export function parseRetryAfter(value) {
  if (value == null || value === "") return null;
  const text = String(value).trim();
  if (/^\d+$/.test(text)) return Number(text);
  const when = Date.parse(text);
  if (Number.isNaN(when)) return null;
  return Math.max(0, Math.ceil((when - Date.now()) / 1000));
}

/** A JSON request; throws ApiError with the server's code and messages. */
export async function api(method, path, body) {
  const init = { method, headers: {}, credentials: "same-origin" };
  // The server takes only JSON bodies (415 otherwise), so every POST says so, even one
  // with nothing to send.
  if (body === undefined && method === "POST") body = {};
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, { code: "network" });
  }
  let data = null;
  const text = await response.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    throw new ApiError(response.status, data, parseRetryAfter(response.headers.get("retry-after")));
  }
  return data;
}

// WebSocket close codes the server uses (docs/protocol.md).
export const CLOSE_TOO_SLOW = 1013; // the client did not read its frames: come back after a pause
export const CLOSE_POLICY = 1008; // flooding or a refused handshake: never in a tight loop
export const CLOSE_SIGNED_OUT = 4401; // the session is gone: sign in again

export class Socket {
  /**
   * onFrame(frame); onState(state, detail) with state "connecting" | "open" | "lost" |
   * "signed_out" and detail {code, wait} (the close code and ms until the next try).
   */
  constructor({ onFrame, onState }) {
    this.onFrame = onFrame;
    this.onState = onState;
    this.ws = null;
    this.retry = 0;
    this.strikes = 0; // policy closes in a row: each one doubles the pause
    this.closedByUs = false;
    this.queue = [];
    this.timer = null;
    this.openedAt = 0;
  }

  connect() {
    clearTimeout(this.timer);
    this.timer = null;
    this.closedByUs = false;
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    if (!this.retry) this.onState("connecting", {});
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      this.openedAt = Date.now();
      this.onState("open", {});
      const queued = this.queue;
      this.queue = [];
      for (const f of queued) this.send(f);
    });
    ws.addEventListener("message", (e) => {
      let frame;
      try {
        frame = JSON.parse(e.data);
      } catch {
        return;
      }
      this.onFrame(frame);
    });
    ws.addEventListener("close", (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closedByUs) return;
      const code = e.code;
      if (code === CLOSE_SIGNED_OUT) {
        this.queue = [];
        this.onState("signed_out", { code });
        return;
      }
      const wait = this.pause(code);
      this.onState("lost", { code, wait });
      this.timer = setTimeout(() => this.connect(), wait);
    });
  }

  /** Milliseconds to wait before reconnecting after a close with `code`. */
  pause(code) {
    // A connection that stayed up a minute was fine: forget earlier policy closes.
    if (this.openedAt && Date.now() - this.openedAt > 60000) this.strikes = 0;
    this.openedAt = 0;
    if (code === CLOSE_POLICY) return Math.min(120000, 10000 * 2 ** this.strikes++);
    if (code === CLOSE_TOO_SLOW) return Math.min(30000, 5000 * 2 ** this.retry++);
    return Math.min(8000, 400 * 2 ** this.retry++);
  }

  get open() {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  /** Sends now, or queues for the next connection; false when the frame was dropped. */
  send(frame) {
    if (this.open) {
      this.ws.send(JSON.stringify({ v: 1, ...frame }));
      return true;
    }
    // Only what still makes sense later waits for the connection: an intent was meant
    // for the view it was made on, and the player makes it again on the new view.
    if (frame.type === "ping" || frame.type === "action") return false;
    this.queue.push(frame);
    return true;
  }

  close() {
    this.closedByUs = true;
    clearTimeout(this.timer);
    this.timer = null;
    this.ws?.close();
    this.ws = null;
  }
}
