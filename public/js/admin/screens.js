/**
 * The console's Screens page (`#screens`): the screens connected to this node (GET /api/v1/screens), refreshed every
 * 5 seconds, each with Identify, Reload, Reassign and (for a paired TV, a screen with a `keyId`) Unpair. Reassign
 * fills the page's one reassign form (`#reassign-form`, under the list) with the row's name and moves the focus
 * there; the form also takes a name typed by hand, for a screen connected to another node (an assignment reaches
 * every node). The console's router (console.js)
 * calls `showScreens` when the page opens; every request goes through the `call` it hands over (the session's
 * cookie and CSRF token). ES2017, like every page.
 */
import { el, replaceChildren } from "../page.js";

const REFRESH_MS = 5000;

const section = document.getElementById("screens");
const rows = document.getElementById("screens-rows");
const empty = document.getElementById("screens-empty");
const form = document.getElementById("reassign-form");
const formStatus = document.getElementById("reassign-status");
let call = null;
let say = null;
let refreshTimer = 0;
let targets = { dashboards: [], playlists: [] };

function showing(screen) {
  return screen.playlist ? "playlist " + screen.playlist + " (" + screen.dashboard + ")" : screen.dashboard;
}

function numberText(value, unit) {
  return value === null || value === undefined ? "" : String(value) + unit;
}

function fpsText(screen) {
  return screen.paintedFps === null || screen.paintedFps === undefined
    ? String(screen.fps) : screen.paintedFps + " / " + screen.fps;
}

/** A row's button: runs `action` (a promise of the sentence to show), disabled while it runs. */
function actionButton(label, ariaLabel, action) {
  const button = el("button", { type: "button", class: "console__secondary", "aria-label": ariaLabel,
    "data-action": label.toLowerCase() }, label);
  button.addEventListener("click", () => {
    button.disabled = true;
    action()
      .then((text) => { if (text) say(text); })
      .catch((error) => say(label + " failed: " + error.message))
      .then(() => { button.disabled = false; });
  });
  return button;
}

/** Reloads this screen alone where the server can (an older node has no such endpoint: its dashboard's screens). */
function reload(screen, name) {
  return call("POST", "/api/v1/admin/screens/" + screen.id + "/reload")
    .then(() => name + " reloads.")
    .catch((error) => {
      if (!/no such endpoint|not allowed/i.test(error.message)) throw error;
      return call("POST", "/api/v1/admin/dashboards/" + encodeURIComponent(screen.dashboard) + "/reload")
        .then(() => "The screens on " + screen.dashboard + " reload (this server reloads a dashboard at a time).");
    });
}

/** After a confirmation, revokes the keys `keyIds` of the TV `name`: it goes back to /tv for a new code. */
function unpair(name, keyIds) {
  if (!window.confirm("Unpair " + name + "? It goes back to the pairing page and needs a new code.")) {
    return Promise.resolve("");
  }
  return Promise.all(keyIds.map((id) => call("DELETE", "/api/v1/admin/keys/" + encodeURIComponent(id))))
    .then(() => { loadScreens(); return name + " is unpaired; it shows a new code on /tv."; });
}

/** The ids of the TV `name`'s pairing keys: keys named like it and limited to some dashboards, as an assignment
 * narrows them (a key for every dashboard is not a pairing). */
function pairingKeys(name) {
  return call("GET", "/api/v1/admin/keys").then((answer) => (answer.keys || [])
    .filter((key) => key.name === name && Array.isArray(key.dashboards)).map((key) => key.id));
}

function unpairByName() {
  const name = form.elements.screen.value.trim();
  if (!name) return Promise.reject(new Error("type the screen's name"));
  return pairingKeys(name).then((ids) => {
    if (ids.length === 0) throw new Error("no TV is paired with the name " + name);
    return unpair(name, ids);
  });
}

function screenRow(screen) {
  const name = screen.name || "screen " + screen.id;
  const actions = [
    actionButton("Identify", "Identify " + name, () =>
      call("POST", "/api/v1/admin/screens/" + screen.id + "/identify").then(() => name + " shows its number.")),
    actionButton("Reload", "Reload " + name, () => reload(screen, name))
  ];
  if (screen.name) {
    actions.push(actionButton("Reassign", "Reassign " + name, () => openForm(screen)));
  }
  if (screen.keyId) {
    actions.push(actionButton("Unpair", "Unpair " + name, () => unpair(name, [screen.keyId])));
  }
  return el("tr", { "data-screen": String(screen.id), "data-name": screen.name || "" },
    el("td", { class: "console__name" }, name),
    el("td", { "data-label": "Showing" }, showing(screen)),
    el("td", { "data-label": "Node" }, screen.node || ""),
    el("td", { "data-label": "Address" }, screen.address || ""),
    el("td", { "data-label": "fps" }, fpsText(screen)),
    el("td", { "data-label": "Paint" }, numberText(screen.paintMs, " ms")),
    el("td", { "data-label": "Connected since" }, new Date(screen.connectedAt).toLocaleString()),
    el("td", { "data-label": "Last script error" }, screen.scriptError || ""),
    el("td", { class: "console__actions" }, ...actions));
}

/** Fills the reassign form with `screen`'s name and what it shows, and moves the focus into it. */
function openForm(screen) {
  const fields = form.elements;
  fields.screen.value = screen.name;
  fields.kind.value = screen.playlist ? "playlist" : "dashboard";
  fillTargets(screen.playlist || screen.dashboard);
  formStatus.textContent = "";
  fields.target.focus();
  return Promise.resolve("");
}

/** Offers the dashboards or playlists (as the kind says) for the target field, which keeps `value`. */
function fillTargets(value) {
  const kind = form.elements.kind.value;
  const items = (kind === "playlist" ? targets.playlists : targets.dashboards) || [];
  replaceChildren(document.getElementById("reassign-targets"),
    ...items.map((item) => el("option", { value: item.id }, item.title || item.id)));
  form.elements.target.value = value;
}

function loadTargets() {
  return call("GET", "/api/v1/dashboards")
    .then((answer) => {
      targets = { dashboards: answer.dashboards || [], playlists: answer.playlists || [] };
      fillTargets(form.elements.target.value);
    })
    .catch((error) => { formStatus.textContent = "The dashboards cannot be listed: " + error.message; });
}

function submitForm(event) {
  event.preventDefault();
  const fields = form.elements;
  const name = fields.screen.value.trim();
  const show = {};
  show[fields.kind.value] = fields.target.value.trim();
  const body = { show: show, kiosk: fields.kiosk.checked };
  if (fields.theme.value) body.theme = fields.theme.value;
  formStatus.textContent = "Reassigning…";
  call("POST", "/api/v1/admin/screens/" + encodeURIComponent(name) + "/assign", body)
    .then((answer) => {
      form.dataset.assigned = String(answer.seq);
      formStatus.textContent = name + " now shows " + fields.kind.value + " " + fields.target.value + " (" +
        answer.screens + " of its screens on this node; screens on other nodes follow too).";
      loadScreens();
    })
    .catch((error) => { formStatus.textContent = "Not reassigned: " + error.message; });
}

/** Lists the screens again, and again every 5 seconds while the page is open. */
export function loadScreens() {
  clearTimeout(refreshTimer);
  return call("GET", "/api/v1/screens")
    .then((answer) => {
      const screens = answer.screens || [];
      replaceChildren(rows, ...screens.map(screenRow));
      empty.hidden = screens.length > 0;
      section.dataset.loaded = String(Date.now());
    })
    .catch((error) => say("The screens cannot be listed: " + error.message))
    .then(() => {
      if (!section.hidden) refreshTimer = setTimeout(loadScreens, REFRESH_MS);
    });
}

/** Opens the page: `request(method, path, body)` is the console's call, `tell(text)` its status line. */
export function showScreens(request, tell) {
  call = request;
  say = tell;
  loadTargets();
  return loadScreens();
}

document.getElementById("screens-refresh").addEventListener("click", () => loadScreens());
form.addEventListener("submit", submitForm);
form.elements.kind.onchange = () => fillTargets("");
document.getElementById("reassign-unpair").addEventListener("click", () => {
  unpairByName()
    .then((text) => { if (text) formStatus.textContent = text; })
    .catch((error) => { formStatus.textContent = "Not unpaired: " + error.message; });
});
