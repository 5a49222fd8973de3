/**
 * The console (`/admin/`): the pages behind the session the sign-in page made, one `<section>` per `#hash`, of which
 * this router shows one. "Pair a TV" pairs the code a TV shows on /tv (POST /api/v1/admin/pairings); the other
 * pages are their own modules (screens.js, keys.js, announcements.js, playlists.js, sources.js, dashboards.js), and
 * session.js holds what they share (the session's CSRF token, `call()`, status messages). ES2017, like every page.
 */
import { applyPageOptions, el, replaceChildren } from "../page.js";
import { call, catalog, pageStatus as statusText, say, signIn, startSession } from "./session.js";
import { showScreens } from "./screens.js";
import { showKeys } from "./keys.js";
import { showAnnouncements } from "./announcements.js";
import { showPlaylists } from "./playlists.js";
import { showSources } from "./sources.js";
import { showDashboards } from "./dashboards.js";
import { showSessions } from "./sessions.js";

window.rollboardStarted = true;  // boot.js: the modules run

applyPageOptions();

const pairForm = document.getElementById("pair-form");
const pairStatus = document.getElementById("pair-status");

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
  screens: showScreens,
  pair: loadTargets,
  keys: showKeys,
  announcements: showAnnouncements,
  playlists: showPlaylists,
  sources: showSources,
  dashboards: showDashboards,
  sessions: showSessions
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
