/**
 * The console (`/admin/`): two pages behind the session the sign-in page made, and their router. "Screens"
 * (screens.js) lists the screens connected to this node and acts on them; "Pair a TV" pairs the code a TV
 * shows on /tv (POST /api/v1/admin/pairings). Every write carries the session's CSRF token (X-CSRF-Token), read
 * from GET /admin/session; a 401 goes back to the sign-in page. ES2017, like every page.
 */
import { applyPageOptions, el, replaceChildren } from "../page.js";
import { showScreens } from "./screens.js";

applyPageOptions();

const statusText = document.getElementById("console-status");
const pairForm = document.getElementById("pair-form");
const pairStatus = document.getElementById("pair-status");
let csrfToken = "";

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
  if (page === "screens") showScreens(call, (text) => say(statusText, text));
  else loadTargets();
}

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
