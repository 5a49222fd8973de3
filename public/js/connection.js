/**
 * The dashboard's WebSocket: connects to `/ws?dashboard=ID`, hands `hello` and `frame` messages
 * to the page, sends the client's preferences (`fps`, `pause`/`resume`) and carousel commands,
 * and reconnects after a loss with exponential backoff and jitter.
 *
 * Connection states reported through `onState(state, detail)`:
 *   "connecting"   first attempt, nothing shown yet
 *   "open"         a `hello` arrived; frames follow
 *   "reconnecting" the connection was lost or refused; `detail.retryAt` (ms since epoch) says when
 *                  the next attempt starts
 *   "closed"       terminal: the server closed with 4404 (unknown dashboard), 4406 (protocol) or 1008 for
 *                  a viewer key (required, refused or revoked: `detail.viewerKey`), or its `hello` speaks
 *                  another protocol (`detail.protocol`); no reconnect
 *
 * Frames (`{"f":N,"t":{…}}`) and `state` messages go to `onFrame`; an operator's `reload`,
 * `announce`, `identify` and `assign`, a playlist's state (`playlist`) and the data feed's (`status`), go to `onControl`; binary messages (compression primers) are ignored.
 */

import { orDefault } from "./page.js";

/** The wire protocol version this page speaks. */
export const PROTOCOL = 2;

/** Close code for "unknown dashboard"; the page stops reconnecting. */
export const CLOSE_UNKNOWN_DASHBOARD = 4404;

/** Close code for "protocol not spoken"; the page stops reconnecting. */
export const CLOSE_UNSUPPORTED_PROTOCOL = 4406;

/** Close code for a policy refusal; with a reason starting "viewer key" the page stops reconnecting. */
export const CLOSE_POLICY = 1008;

/** Backoff: first retry after about 1 s, doubling up to 30 s, with "equal jitter" (½…1 × delay). */
const BACKOFF_BASE_MS = 1000;
const BACKOFF_MAX_MS = 30000;

export class DashboardConnection {
  /**
   * @param {object} options
   * @param {string|null} options.dashboardId  the dashboard to subscribe to
   * @param {string|null} options.playlistId   or the playlist to follow (its entries' dashboards in turn)
   * @param {number|null} options.fps      frames per second to ask for in the URL (null: server default)
   * @param {string|null} options.key      the viewer key from the page's address, passed on to the server
   * @param {string|null} options.name     this screen's name, shown to operators in the list of screens
   * @param {boolean} options.calm          reduced motion: ask for final values only (`motion=reduced`)
   * @param {(message: object) => void} options.onControl  an operator's reload, announce or identify
   * @param {(hello: object) => void} options.onHello
   * @param {(frame: object) => void} options.onFrame
   * @param {(state: string, detail: object) => void} options.onState
   */
  constructor({ dashboardId, playlistId, fps, key, name, calm, onHello, onFrame, onState, onControl }) {
    this.dashboardId = dashboardId;
    this.playlistId = orDefault(playlistId, null);
    this.key = orDefault(key, null);
    this.name = orDefault(name, null);
    this.onControl = orDefault(onControl, () => {});
    this.onHello = onHello;
    this.onFrame = onFrame;
    this.onState = onState;
    this.socket = null;
    this.failures = 0;
    this.retryTimer = null;
    this.state = null;
    this.helloReceived = false;
    /** What this client wants from its session; re-sent after every `hello`. */
    this.preferences = { fps, paused: false, calm: Boolean(calm) };
    this.serverFps = null;
    /** The frame rates the server gives a screen, `[lowest, highest]`, from the last `hello` (null before one). */
    this.fpsRange = null;
    /** Where this page's view of the store stands (`hello.changes`, then each frame's `c`), sent back as
     * `since` on a reconnect so the server shows what was missed. */
    this.resumePoint = null;
    window.addEventListener("online", () => {
      if (this.state === "reconnecting") this.reconnectNow();
    });
  }

  /** The WebSocket URL for this page: wss:// under https, ws:// under http. */
  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const query = new URLSearchParams(this.playlistId ? { playlist: this.playlistId } : { dashboard: this.dashboardId });
    query.set("protocol", String(PROTOCOL));
    // Only once a hello said which rates the server gives (asking for another is refused); the first hello is followed
    // by an `fps` message instead.
    if (this.preferences.fps && this.fpsRange) query.set("fps", String(this.preferences.fps));
    if (this.key) query.set("key", this.key);
    if (this.name) query.set("name", this.name);
    if (this.resumePoint && !this.playlistId) query.set("since", `${this.resumePoint.epoch}:${this.resumePoint.seq}`);
    if (this.preferences.calm) query.set("motion", "reduced");
    return `${scheme}//${location.host}/ws?${query}`;
  }

  /** Opens the connection (first attempt). */
  start() {
    this.setState("connecting", {});
    this.open();
  }

  /**
   * Closes the connection for good (the page is going away, perhaps into the back/forward cache,
   * where an open socket would keep a frozen screen connected); `start()` opens it again.
   */
  stop() {
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const socket = this.socket;
    this.socket = null;
    if (socket) socket.close(1000, "page hidden");
  }

  /** Skips the remaining backoff and tries again at once. */
  reconnectNow() {
    if (this.state !== "reconnecting") return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.open();
  }

  /** Sends one client message if the connection is up; returns whether it was sent. */
  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN || !this.helloReceived) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Asks for a different frame rate (frames per second, within `fpsRange`); later connections ask for it too. */
  setFps(fps) {
    this.preferences.fps = fps;
    this.send({ type: "fps", value: fps });
  }

  /** Switches between calm (final values only) and full motion: a new session with the server. */
  setCalm(calm) {
    if (this.preferences.calm === Boolean(calm)) return;
    this.preferences.calm = Boolean(calm);
    this.stop();
    this.start();
  }

  /** Pauses or resumes this client's frames (the page is hidden or shown). */
  setPaused(paused) {
    if (this.preferences.paused === paused) return;
    this.preferences.paused = paused;
    this.send({ type: paused ? "pause" : "resume" });
  }

  open() {
    this.helloReceived = false;
    let socket;
    try {
      socket = new WebSocket(this.url());
    } catch (error) {
      this.scheduleRetry({ reason: error.message });
      return;
    }
    this.socket = socket;
    socket.binaryType = "arraybuffer";
    socket.addEventListener("message", (event) => this.receive(event.data));
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (event.code === CLOSE_UNKNOWN_DASHBOARD || event.code === CLOSE_UNSUPPORTED_PROTOCOL) {
        this.setState("closed", { code: event.code, reason: event.reason });
        return;
      }
      if (event.code === CLOSE_POLICY && event.reason.startsWith("viewer key")) {
        this.setState("closed", { code: event.code, reason: event.reason, viewerKey: event.reason.slice(11) });
        return;
      }
      this.scheduleRetry({ code: event.code, reason: event.reason });
    });
  }

  receive(data) {
    if (typeof data !== "string") return;
    let message;
    try {
      message = JSON.parse(data);
    } catch (malformed) {
      return;
    }
    if (!message || typeof message !== "object") return;
    if (message.type === "hello") {
      if (message.protocol !== PROTOCOL) {
        const socket = this.socket;
        this.socket = null;
        if (socket) socket.close(1000, "protocol not spoken");
        this.setState("closed", { protocol: message.protocol });
        return;
      }
      if (!message.dashboard || !Array.isArray(message.dashboard.tiles)) return;
      this.helloReceived = true;
      this.failures = 0;
      this.serverFps = typeof message.fps === "number" ? message.fps : null;
      this.fpsRange = fpsRangeOf(message);
      if (this.preferences.fps && this.fpsRange) this.preferences.fps = withinRange(this.preferences.fps, this.fpsRange);
      const changes = message.changes;
      this.resumePoint = changes && typeof changes.epoch === "string" && Number.isInteger(changes.seq)
        ? { epoch: changes.epoch, seq: changes.seq } : null;
      this.onHello(message);
      this.setState("open", { extensions: this.socket ? this.socket.extensions : "" });
      this.resendPreferences();
    } else if ((typeof message.f === "number" || message.type === "state") && this.helloReceived) {
      if (this.resumePoint && Number.isInteger(message.c)) this.resumePoint.seq = message.c;
      this.onFrame(message);
    } else if (["reload", "assign", "announce", "identify", "playlist", "status", "sources"].includes(message.type)) {
      this.onControl(message);
    }
  }

  resendPreferences() {
    const { fps, paused } = this.preferences;
    if (fps && fps !== this.serverFps) this.send({ type: "fps", value: fps });
    if (paused) this.send({ type: "pause" });
  }

  scheduleRetry(detail) {
    const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** this.failures);
    const delay = Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
    this.failures += 1;
    const retryAt = Date.now() + delay;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.open();
    }, delay);
    this.setState("reconnecting", Object.assign({}, detail, { retryAt }));
  }

  setState(state, detail) {
    this.state = state;
    this.onState(state, detail);
  }
}

/**
 * The frame rates a `hello` says the server gives a screen, `[lowest, highest]` (`fpsRange`); from a hello without it
 * (an older server), the rates up to the one it chose (`fps`); null when it says neither.
 */
export function fpsRangeOf(hello) {
  const range = hello.fpsRange;
  if (Array.isArray(range) && range.length === 2 && Number.isInteger(range[0]) && Number.isInteger(range[1])
    && range[0] >= 1 && range[0] <= range[1]) {
    return [range[0], range[1]];
  }
  return Number.isInteger(hello.fps) && hello.fps >= 1 ? [1, hello.fps] : null;
}

/** `fps` brought into `range` (`[lowest, highest]`). */
export function withinRange(fps, range) {
  return Math.min(range[1], Math.max(range[0], fps));
}
