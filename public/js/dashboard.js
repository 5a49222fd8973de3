/**
 * Entry point of `/d/{id}`: reads the dashboard id from the path, connects, and wires the page's
 * surroundings to the connection — the reconnect banner, `document.body.dataset.connection`,
 * `pause`/`resume` on visibility changes, and calm mode.
 *
 * Page URL options: `?theme=dark|light`, `?fps=N` (frames per second to ask for, within the hello's `fpsRange`),
 * `?kiosk` (no header), `?motion=reduced|full`. Calm mode — `?motion=reduced`, or prefers-reduced-motion
 * unless `?motion=full` — asks the server for final values only: odometers, counters and wheels
 * jump to where a change ends, carousels stop and show a play button. A dashboard configured with
 * `motion: reduced` is calm on every screen.
 *
 * A screen that cannot keep up asks for a lower frame rate, and reports how it paints and its first script error
 * (pace.js, boot.js). Test hooks on <body> besides those below: `data-extensions` (the WebSocket's negotiated
 * extensions), `data-fps`, `data-painted-fps`, `data-paint-ms`; upgrade.js's `data-page-build` and `data-upgrade`.
 */
import { Board } from "./board.js";
import { CLOSE_UNSUPPORTED_PROTOCOL, DashboardConnection, PROTOCOL } from "./connection.js";
import { Pace } from "./pace.js";
import { applyPageOptions, el, onMediaChange, orDefault, pageOptions, replaceChildren, screenName } from "./page.js";
import { assignedAddress, returnToPairing } from "./pairing.js";
import { PageUpgrade } from "./upgrade.js";

window.rollboardStarted = true;  // boot.js: the modules run
const options = pageOptions();
applyPageOptions(options);

const banner = document.getElementById("banner");
const feedStale = document.getElementById("feed-stale");
const bannerText = document.getElementById("banner-text");
const bannerAction = document.getElementById("banner-action");
const title = document.getElementById("board-title");
const playlistBar = document.getElementById("playlist");
const playlistHeld = document.getElementById("playlist-held");
const overlay = document.getElementById("overlay");
const overlayText = document.getElementById("overlay-text");
let overlayTimer = null;
/** Reloads this page, spread over a random delay, when a hello says the server serves a newer build (upgrade.js). */
const upgrade = new PageUpgrade();

/** The id in the path `/d/{id}` or `/p/{id}` (a trailing slash is fine); `null` for another path. */
function idFromPath(prefix) {
  const match = new RegExp(`^/${prefix}/([^/]+)/?$`).exec(location.pathname);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch (malformed) {
    return null;
  }
}

/** The playlist this page follows (`/p/{id}`), if any. */
const playlistId = idFromPath("p");
/** The dashboard id: `/d/{id}`, or `?dashboard=` as a fallback; a playlist page's comes with each entry. */
function dashboardIdFromLocation() {
  if (playlistId) return null;
  const fromPath = idFromPath("d");
  return fromPath !== null ? fromPath : new URLSearchParams(location.search).get("dashboard");
}

const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
const wantsCalm = () => options.motion === "reduced" || (options.motion === null && reducedMotion.matches);

const dashboardId = dashboardIdFromLocation();
let connection = null;
const board = new Board(document.getElementById("board"), (message) => (connection ? connection.send(message) : undefined),
  document.getElementById("announcer"));
let countdown = null;

function setConnectionState(state, detail) {
  document.body.dataset.connection = state;
  clearInterval(countdown);
  countdown = null;
  if (state === "open") {
    banner.hidden = true;
    document.body.dataset.extensions = detail.extensions || "";
  } else if (state === "reconnecting") {
    showReconnectBanner(detail.retryAt);
    countdown = setInterval(() => showReconnectBanner(detail.retryAt), 250);
  } else if (state === "closed" && (detail.protocol !== undefined || detail.code === CLOSE_UNSUPPORTED_PROTOCOL)) {
    banner.hidden = true;
    const theirs = detail.protocol === undefined ? "another protocol" : `protocol ${detail.protocol}`;
    if (detail.protocol !== undefined) document.body.dataset.protocol = String(detail.protocol);
    board.showMessage(`This page speaks protocol ${PROTOCOL}; the server speaks ${theirs}`,
      "Reload the page to get the server's own page; this one will not retry.");
    title.textContent = "Rollboard";
    document.title = "Protocol mismatch — Rollboard";
  } else if (state === "closed" && detail.viewerKey !== undefined) {
    if (returnToPairing()) return;  // a TV paired on /tv whose key was revoked: back to /tv for a new code
    banner.hidden = true;
    document.body.dataset.viewerKey = detail.viewerKey;
    const why = {
      required: ["This dashboard needs a viewer key", "Open it with the link your administrator gave you (it ends in ?key=…)."],
      refused: ["This viewer key does not open this dashboard", "The key is unknown, was revoked, or was made for other dashboards. Ask for a new link."],
      revoked: ["This screen's viewer key was revoked", "Ask your administrator for a new link; the page will not retry."],
    }[detail.viewerKey] || ["This screen was refused", detail.reason];
    board.showMessage(why[0], why[1]);
    document.title = `${why[0]} — Rollboard`;
  } else if (state === "closed") {
    banner.hidden = true;
    const what = playlistId ? `playlist “${playlistId}”` : `dashboard “${dashboardId}”`;
    board.showMessage(`Unknown ${what}`, "The server has nothing with this id; the page will not retry.");
    title.textContent = "Rollboard";
    document.title = "Unknown dashboard — Rollboard";
  }
}

/**
 * An operator's message: `reload` reloads the page; `announce` shows its text over the whole screen
 * for `seconds` (0 takes it down); `identify` shows this screen's name the same way; `assign` moves the page to
 * another dashboard or playlist (its `url`), keeping its key (and a paired TV's stored assignment follows).
 */
function control(message) {
  if (message.type === "status") {
    showFeed(message.feed === "stale" ? "stale" : "live");
    return;
  }
  if (message.type === "sources") {
    board.showSourceProblems(message.stale);
    return;
  }
  if (message.type === "reload") {
    location.reload();
    return;
  }
  if (message.type === "assign") {
    if (typeof message.url === "string" && /^\/[dp]\//.test(message.url)) location.replace(assignedAddress(message.url));
    return;
  }
  if (message.type === "playlist") {
    showPlaylist(message);
    return;
  }
  const text = message.type === "announce" ? message.text : message.name;
  const seconds = typeof message.seconds === "number" ? message.seconds : 0;
  clearTimeout(overlayTimer);
  if (typeof text !== "string" || !text || seconds <= 0) {
    overlay.hidden = true;
    delete document.body.dataset.overlay;
    return;
  }
  overlayText.textContent = text;
  overlay.className = `overlay overlay--${message.type}`;
  overlay.hidden = false;
  document.body.dataset.overlay = message.type;
  overlayTimer = setTimeout(() => {
    overlay.hidden = true;
    delete document.body.dataset.overlay;
  }, seconds * 1000);
}

/**
 * Whether the server's data feed reaches it (`live`) or not (`stale`: the values shown may be out of date):
 * a badge, and `data-feed` on <body>. A new session starts as its `hello` says (live unless `"feed":"stale"`).
 */
function showFeed(feed) {
  feedStale.hidden = feed !== "stale";
  document.body.dataset.feed = feed;
}

/**
 * A playlist's state: one dot per entry in the header, the current one marked, a "Playlist held"
 * signal while an admin holds it, and `data-playlist-entry`, `data-playlist-held` on <body>. The
 * entry's dashboard follows as a `hello`.
 */
function showPlaylist(message) {
  const entries = Array.isArray(message.entries) ? message.entries : [];
  const current = Number.isInteger(message.current) ? message.current : 0;
  replaceChildren(playlistBar, ...entries.map((entry, index) => el("span", {
    className: "playlist__dot",
    "aria-current": index === current ? "true" : "false",
    title: String(orDefault(entry.dashboard, "")),
  })));
  playlistBar.setAttribute("aria-label", `${orDefault(message.title, "Playlist")}: ${current + 1} of ${entries.length}${message.held ? ", held" : ""}`);
  playlistBar.hidden = entries.length < 2;
  playlistHeld.textContent = entries.length > 1 ? `Playlist held \u00B7 ${current + 1} of ${entries.length}` : "Playlist held";
  playlistHeld.hidden = !message.held;
  document.body.dataset.playlist = String(orDefault(message.id, ""));
  document.body.dataset.playlistEntry = String(current);
  document.body.dataset.playlistHeld = message.held ? "true" : "false";
}

/** Whether this page's first script error (recorded by boot.js) has reached the server; it is reported once. */
let scriptErrorReported = false;

function reportScriptError() {
  const errors = window.rollboardErrors;
  if (scriptErrorReported || !connection || !Array.isArray(errors) || errors.length === 0) return;
  scriptErrorReported = connection.send({ type: "report", error: errors[0] });
}

/** Text tiles whose message does not fit at the legible minimum, not yet reported to the server (which logs them). */
const unreadableTiles = [];

function reportUnreadable() {
  while (unreadableTiles.length > 0 && connection && connection.send({ type: "report", unreadable: unreadableTiles[0] })) {
    unreadableTiles.shift();
  }
}

document.addEventListener("rollboard:unreadable", (event) => {
  const tile = event.detail && typeof event.detail.tile === "string" ? event.detail.tile : "";
  if (tile && unreadableTiles.indexOf(tile) < 0) unreadableTiles.push(tile);
  reportUnreadable();
});

function showReconnectBanner(retryAt) {
  const seconds = Math.ceil((retryAt - Date.now()) / 1000);
  banner.className = "banner";
  bannerText.textContent = seconds > 0
    ? `Connection lost — reconnecting in ${seconds} s`
    : "Connection lost — reconnecting…";
  bannerAction.hidden = seconds <= 0;
  banner.hidden = false;
}

function start() {
  if (!dashboardId && !playlistId) {
    document.body.dataset.connection = "closed";
    board.showMessage("No dashboard given", "Open /d/ID, or pick one on the list of dashboards.");
    return;
  }
  board.showMessage("Connecting…");
  const pace = new Pace({
    setFps: (fps) => connection.setFps(fps),
    report: (message) => {
      reportScriptError();
      return connection.send(message);
    },
  });
  board.onPainted = (milliseconds) => pace.painted(milliseconds);
  connection = new DashboardConnection({
    dashboardId,
    playlistId,
    key: new URLSearchParams(location.search).get("key"),
    name: screenName(),
    fps: options.fps,
    calm: wantsCalm(),
    onHello(hello) {
      const name = typeof hello.dashboard.title === "string" && hello.dashboard.title ? hello.dashboard.title
        : String(orDefault(hello.dashboard.id, dashboardId));
      document.body.dataset.dashboard = String(orDefault(hello.dashboard.id, ""));
      title.textContent = name;
      document.title = `${name} — Rollboard`;
      document.body.dataset.protocol = String(hello.protocol);
      document.body.dataset.resume = typeof hello.resume === "string" ? hello.resume : "";
      showFeed(hello.feed === "stale" ? "stale" : "live");
      board.hello(hello);
      if (typeof hello.seq === "number") document.body.dataset.seq = String(hello.seq);
      pace.hello(hello.fps, options.fps, connection.fpsRange);
      reportScriptError();
      reportUnreadable();
      upgrade.hello(hello);
    },
    onFrame(frame) {
      const started = performance.now();
      board.frame(frame);
      pace.frameHandled(performance.now() - started);
      const seq = orDefault(frame.f, frame.seq);
      if (typeof seq === "number") document.body.dataset.seq = String(seq);
    },
    onState: setConnectionState,
    onControl: control,
  });
  connection.setPaused(document.hidden);
  bannerAction.addEventListener("click", () => connection.reconnectNow());
  document.addEventListener("visibilitychange", () => connection.setPaused(document.hidden));
  onMediaChange(reducedMotion, () => connection.setCalm(wantsCalm()));
  window.addEventListener("pagehide", () => connection.stop());
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) connection.start();  // back from the back/forward cache
  });
  connection.start();
}

start();
