/**
 * The console (`/admin/`): two pages behind the session the sign-in page made. "Screens" lists the screens
 * connected to every node (GET /api/v1/screens?cluster) with identify and reload buttons; "Pair a TV" pairs the
 * code a TV shows on /tv (POST /api/v1/admin/pairings). Every write carries the session's CSRF token (X-CSRF-Token), read
 * from GET /admin/session; a 401 goes back to the sign-in page. ES2017, like every page.
 */
import { applyPageOptions, el, replaceChildren } from "../page.js";

const REFRESH_MS = 5000;

applyPageOptions();

const statusText = document.getElementById("console-status");
const rows = document.getElementById("screens-rows");
const empty = document.getElementById("screens-empty");
const pairForm = document.getElementById("pair-form");
const pairStatus = document.getElementById("pair-status");
let csrfToken = "";
let refreshTimer = 0;

function signIn() {
  location.replace("/admin/sign-in" + location.search);
}

/** `fetch` with the session cookie (and the CSRF token on writes): the JSON answer, or a thrown Error with its detail. */
async function call(method, path, body) {
  const headers = {};
  if (method !== "GET") headers["X-CSRF-Token"] = csrfToken;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method: method,
    credentials: "same-origin",
    headers: headers,
    body: body === undefined ? undefined : JSON.stringify(body)
  });
  if (response.status === 401) {
    signIn();
    throw new Error("signed out");
  }
  const answer = response.status === 204 ? {} : await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.detail || "the server answered " + response.status);
  return answer;
}

function say(node, text) {
  node.textContent = text;
}

function showing(screen) {
  return screen.playlist ? "playlist " + screen.playlist + " (" + screen.dashboard + ")" : screen.dashboard;
}

function actionButton(label, action) {
  const button = el("button", { type: "button", class: "console__secondary" }, label);
  button.addEventListener("click", () => {
    button.disabled = true;
    action()
      .then((text) => say(statusText, text))
      .catch((error) => say(statusText, label + " failed: " + error.message))
      .then(() => { button.disabled = false; });
  });
  return button;
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
    const answer = await call("GET", "/api/v1/dashboards");
    const kind = pairForm.elements.kind.value;
    const items = (kind === "playlist" ? answer.playlists : answer.dashboards) || [];
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

function route() {
  const page = location.hash === "#pair" ? "pair" : "screens";
  for (const name of ["screens", "pair"]) {
    document.getElementById(name).hidden = name !== page;
    const link = document.getElementById("nav-" + name);
    if (name === page) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  say(statusText, "");
  if (page === "screens") loadScreens();
  else loadTargets();
}

document.getElementById("screens-refresh").addEventListener("click", loadScreens);
document.getElementById("sign-out").addEventListener("click", () => {
  call("DELETE", "/admin/session").catch(() => undefined).then(signIn);
});
window.addEventListener("hashchange", route);

call("GET", "/admin/session")
  .then((session) => {
    csrfToken = session.csrfToken;
    document.body.dataset.session = "ready";
    route();
  })
  .catch((error) => say(statusText, "No session: " + error.message));
