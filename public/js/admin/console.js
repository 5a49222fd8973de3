/**
 * The console (`/admin/`): the pages behind the session the sign-in page made, one `<section>` per `#hash`, of which
 * this router shows one. "Screens" lists the screens connected to every node (GET /api/v1/screens?cluster) with identify and
 * reload buttons; "Pair a TV" pairs the code a TV shows on /tv (POST /api/v1/admin/pairings); the other pages are
 * their own modules (keys.js, announcements.js, playlists.js, sources.js, dashboards.js), and session.js holds what
 * they share (the session's CSRF token, `call()`, status messages). ES2017, like every page.
 */
import { applyPageOptions, el, replaceChildren } from "../page.js";
import { actionButton, call, catalog, pageStatus as statusText, say, signIn, startSession } from "./session.js";
import { showKeys } from "./keys.js";
import { showAnnouncements } from "./announcements.js";
import { showPlaylists } from "./playlists.js";
import { showSources } from "./sources.js";
import { showDashboards } from "./dashboards.js";

const REFRESH_MS = 5000;

applyPageOptions();

const rows = document.getElementById("screens-rows");
const empty = document.getElementById("screens-empty");
const pairForm = document.getElementById("pair-form");
const pairStatus = document.getElementById("pair-status");
let refreshTimer = 0;

function showing(screen) {
  return screen.playlist ? "playlist " + screen.playlist + " (" + screen.dashboard + ")" : screen.dashboard;
}

function screenRow(screen) {
  const name = screen.name || "screen " + screen.id;
  const fps = screen.paintedFps === null || screen.paintedFps === undefined ? String(screen.fps) : screen.paintedFps + " / " + screen.fps;
  // A named screen is identified by its name, on whichever node it is; an id is only its own node's.
  const target = screen.name ? encodeURIComponent(screen.name) : String(screen.id);
  const identify = actionButton("Identify", () =>
    call("POST", "/api/v1/admin/screens/" + target + "/identify").then(() => name + " shows its number."));
  const reload = actionButton("Reload", () =>
    call("POST", "/api/v1/admin/dashboards/" + encodeURIComponent(screen.dashboard) + "/reload")
      .then(() => "The screens on " + screen.dashboard + " reload."));
  identify.setAttribute("aria-label", "Identify " + name);
  reload.setAttribute("aria-label", "Reload " + screen.dashboard + " (" + name + ")");
  const row = el("tr", { "data-screen": String(screen.id) },
    el("td", { class: "console__name" }, name),
    el("td", { "data-label": "Showing" }, showing(screen)),
    el("td", { "data-label": "Address" }, screen.address || ""),
    el("td", { "data-label": "fps" }, fps),
    el("td", { "data-label": "Connected since" }, new Date(screen.connectedAt).toLocaleString()),
    el("td", { "data-label": "Last script error" }, screen.scriptError || ""),
    el("td", { class: "console__actions" }, identify, reload));
  return row;
}

async function loadScreens() {
  clearTimeout(refreshTimer);
  try {
    const answer = await call("GET", "/api/v1/screens?cluster");  // every node's screens (with Redis)
    const screens = answer.screens || [];
    replaceChildren(rows, ...screens.map(screenRow));
    empty.hidden = screens.length > 0;
  } catch (error) {
    say(statusText, "The screens cannot be listed: " + error.message);
  }
  if (!document.getElementById("screens").hidden) refreshTimer = setTimeout(loadScreens, REFRESH_MS);
}

async function loadTargets() {
  try {
    const known = await catalog();
    const items = pairForm.elements.kind.value === "playlist" ? known.playlists : known.dashboards;
    replaceChildren(document.getElementById("pair-targets"),
      ...items.map((item) => el("option", { value: item.id }, item.title || item.id)));
  } catch (error) {
    // The list only helps typing; the id can be typed without it.
  }
}

pairForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const fields = pairForm.elements;
  const show = {};
  show[fields.kind.value] = fields.target.value.trim();
  const body = { code: fields.code.value, name: fields.name.value.trim(), show: show, kiosk: fields.kiosk.checked };
  if (fields.theme.value) body.theme = fields.theme.value;
  say(pairStatus, "Pairing…");
  call("POST", "/api/v1/admin/pairings", body)
    .then((answer) => {
      say(pairStatus, "Paired: " + answer.name + " opens " + answer.url + " (viewer key " + answer.keyId + ").");
      fields.code.value = "";
    })
    .catch((error) => say(pairStatus, "Not paired: " + error.message))
    .then(() => fields.code.focus());
});
pairForm.elements.kind.onchange = loadTargets;

/** The pages by their `#hash` (the first is shown without one), each with what runs when it is shown. */
const PAGES = {
  screens: loadScreens,
  pair: loadTargets,
  keys: showKeys,
  announcements: showAnnouncements,
  playlists: showPlaylists,
  sources: showSources,
  dashboards: showDashboards
};

function route() {
  const asked = location.hash.slice(1);
  const page = Object.prototype.hasOwnProperty.call(PAGES, asked) ? asked : "screens";
  for (const name of Object.keys(PAGES)) {
    document.getElementById(name).hidden = name !== page;
    const link = document.getElementById("nav-" + name);
    if (name === page) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  say(statusText, "");
  PAGES[page]();
}

document.getElementById("screens-refresh").addEventListener("click", loadScreens);
document.getElementById("sign-out").addEventListener("click", () => {
  call("DELETE", "/admin/session").catch(() => undefined).then(signIn);
});
window.addEventListener("hashchange", route);

startSession()
  .then(() => {
    document.body.dataset.session = "ready";
    route();
  })
  .catch((error) => say(statusText, "No session: " + error.message));
