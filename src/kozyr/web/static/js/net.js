// Talking to the server: JSON over HTTP for accounts and the lobby, one WebSocket for
// tables (docs/protocol.md). The socket reconnects by itself and tells the app when it
// is back, so that the app can say hello again with the last seq it saw (resync).

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.message || `HTTP ${status}`);
    this.status = status;
    this.code = body?.code || "http";
    this.body = body || {};
  }
}

/** A JSON request; throws ApiError with the server's code and messages. */
export async function api(method, path, body) {
  const init = { method, headers: {}, credentials: "same-origin" };
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
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export class Socket {
  /** onFrame(frame), onState("connecting" | "open" | "lost"). */
  constructor({ onFrame, onState }) {
    this.onFrame = onFrame;
    this.onState = onState;
    this.ws = null;
    this.retry = 0;
    this.closedByUs = false;
    this.queue = [];
  }

  connect() {
    this.closedByUs = false;
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    this.onState(this.retry ? "lost" : "connecting");
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      this.onState("open");
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
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closedByUs) return;
      this.onState("lost");
      const wait = Math.min(8000, 400 * 2 ** this.retry++);
      setTimeout(() => this.connect(), wait);
    });
  }

  get open() {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  send(frame) {
    if (this.open) this.ws.send(JSON.stringify({ v: 1, ...frame }));
    else if (frame.type !== "ping") this.queue.push(frame);
  }

  close() {
    this.closedByUs = true;
    this.ws?.close();
    this.ws = null;
  }
}
