/**
 * The console's Screens page (`#screens`): the screens connected to this node, and with Redis to every node
 * (GET /api/v1/screens?cluster), refreshed every 5 seconds, each with Identify, Reload, Reassign and (a screen with a
 * `keyId`: a paired TV) Unpair. Reassign fills the page's one reassign form (`#reassign-form`, under the list) with
 * the row's name and moves the focus there; the form also takes a name typed by hand, for a screen not listed (an
 * assignment reaches every node), and unpairs a TV by its name. The router (console.js) calls `showScreens` when the
 * page opens; every request goes through session.js's `call` (the session's cookie and CSRF token). ES2017, like
 * every page.
 */
import { el, replaceChildren } from "../page.js";
import {
  actionButton, call, catalog, confirmStep, dateText, labelled, pageStatus, refreshing, replaceRows, say
} from "./session.js";

const REFRESH_MS = 5000;

const rows = document.getElementById("screens-rows");
const empty = document.getElementById("screens-empty");
const form = document.getElementById("reassign-form");
const formStatus = document.getElementById("reassign-status");
const formConfirm = document.getElementById("reassign-confirm");
let targets = { dashboards: [], playlists: [] };

function showing(screen) {
  return screen.playlist ? "playlist " + screen.playlist + " (" + screen.dashboard + ")" : screen.dashboard;
}

function fpsText(screen) {
  return screen.paintedFps === null || screen.paintedFps === undefined
    ? String(screen.fps) : screen.paintedFps + " / " + screen.fps;
}

function paintText(screen) {
  return screen.paintMs === null || screen.paintMs === undefined ? "" : screen.paintMs + " ms";
}

/** Every screen of `screen`'s dashboard reloads. */
function reloadDashboard(screen, why) {
  return call("POST", "/api/v1/admin/dashboards/" + encodeURIComponent(screen.dashboard) + "/reload")
    .then(() => "The screens on " + screen.dashboard + " reload (" + why + ").");
}

/**
 * Reloads the screens of `screen`'s name (POST /api/v1/admin/screens/{name}/reload, on every node). A screen
 * without a name, or a node without that route (404, 405), reloads its dashboard's screens.
 */
function reload(screen, name) {
  if (!screen.name) return reloadDashboard(screen, "a screen without a name is reloaded with its dashboard");
  return call("POST", "/api/v1/admin/screens/" + encodeURIComponent(screen.name) + "/reload")
    .then(() => name + " reloads.")
    .catch((error) => {
      if (error.status !== 404 && error.status !== 405) throw error;
      return reloadDashboard(screen, "this server reloads a dashboard at a time");
    });
}

/** The name of the TV whose row asks whether to unpair it: the question stays through the list's refreshes. */
let unpairing = "";

/** What Unpair asks first. A key is revoked whole, so the question names it: every other screen opened with it
 * closes too. */
function unpairQuestion(name, keyIds) {
  return "Unpair " + name + "? Its viewer key (" + keyIds.join(", ") + ") is revoked: the TV goes back to the " +
    "pairing page for a new code, and any other screen opened with that key closes.";
}

/** Revokes the viewer keys `keyIds` of the TV `name` (once confirmed): it goes back to /tv for a new code. */
function unpair(name, keyIds) {
  return Promise.all(keyIds.map((id) => call("DELETE", "/api/v1/admin/keys/" + encodeURIComponent(id))))
    .then(() => { loadScreens(); return name + " is unpaired; it shows a new code on /tv."; });
}

/** Unpair's question, with its confirm and Cancel buttons, in `holder`; `idle` and `back` as ``confirmStep``'s. */
function askUnpair(holder, name, keyIds, status, idle, back) {
  return confirmStep(holder, unpairQuestion(name, keyIds), { text: "Yes, unpair", label: "Yes, unpair " + name },
    "Keep " + name + " paired", () => unpair(name, keyIds), status, idle, back);
}

/** The ids of the TV `name`'s pairing keys: keys named like it and limited to some dashboards, as an assignment
 * narrows them (a key for every dashboard is not a pairing). */
function pairingKeys(name) {
  return call("GET", "/api/v1/admin/keys").then((answer) => (answer.keys || [])
    .filter((key) => key.name === name && Array.isArray(key.dashboards)).map((key) => key.id));
}

/** The form's Unpair: the pairing keys of the TV named in the form, unpaired after the question under the form. */
function unpairByName() {
  const name = form.elements.screen.value.trim();
  if (!name) return Promise.reject(new Error("type the screen's name"));
  return pairingKeys(name).then((ids) => {
    if (ids.length === 0) throw new Error("no TV is paired with the name " + name);
    formConfirm.hidden = false;
    askUnpair(formConfirm, name, ids, formStatus, () => { formConfirm.hidden = true; return []; },
      () => document.getElementById("reassign-unpair"))(true);
  });
}

/** A row's button, `data-action` naming what it does (the tests find it by that). */
function rowButton(label, name, action) {
  const button = labelled(actionButton(label, action), label + " " + name);
  button.dataset.action = label.toLowerCase();
  return button;
}

/** How the API addresses `screen`: a named screen by its name (on whichever node it is); else its id, which only its
 * own node knows. */
function target(screen) {
  return screen.name ? encodeURIComponent(screen.name) : String(screen.id);
}

/** A row's buttons; a paired TV's Unpair asks first, in the cell (and still asks after a refresh). */
function actionsCell(screen, name) {
  const cell = el("td", { class: "console__actions" });
  const actions = [
    rowButton("Identify", name, () =>
      call("POST", "/api/v1/admin/screens/" + target(screen) + "/identify").then(() => name + " shows its number.")),
    rowButton("Reload", name, () => reload(screen, name))
  ];
  if (screen.name) actions.push(rowButton("Reassign", name, () => openForm(screen)));
  if (!screen.keyId) {
    cell.append(...actions);
    return cell;
  }
  const button = labelled(el("button", { type: "button", class: "console__secondary" }, "Unpair"), "Unpair " + name);
  button.dataset.action = "unpair";
  actions.push(button);
  const ask = askUnpair(cell, name, [screen.keyId], pageStatus, () => { unpairing = ""; return actions; }, () => button);
  button.addEventListener("click", () => { unpairing = name; ask(true); });
  if (unpairing === name) ask(true); else cell.append(...actions);
  return cell;
}

function screenRow(screen) {
  const name = screen.name || "screen " + screen.id;
  return el("tr", { "data-screen": String(screen.id), "data-name": screen.name || "" },
    el("td", { class: "console__name" }, name),
    el("td", { "data-label": "Showing" }, showing(screen)),
    el("td", { "data-label": "Node" }, screen.node || ""),
    el("td", { "data-label": "Address" }, screen.address || ""),
    el("td", { "data-label": "fps" }, fpsText(screen)),
    el("td", { "data-label": "Paint" }, paintText(screen)),
    el("td", { "data-label": "Connected since" }, dateText(screen.connectedAt, "")),
    el("td", { "data-label": "Last script error" }, screen.scriptError || ""),
    actionsCell(screen, name));
}

/** Fills the reassign form with `screen`'s name and what it shows, and moves the focus into it. */
function openForm(screen) {
  const fields = form.elements;
  fields.screen.value = screen.name;
  fields.kind.value = screen.playlist ? "playlist" : "dashboard";
  fillTargets(screen.playlist || screen.dashboard);
  say(formStatus, "");
  fields.target.focus();
  return Promise.resolve("Reassign " + screen.name + ": choose what it shows in the form below.");
}

/** Offers the dashboards or playlists (as the kind says) for the target field, which takes `value`. */
function fillTargets(value) {
  const items = form.elements.kind.value === "playlist" ? targets.playlists : targets.dashboards;
  replaceChildren(document.getElementById("reassign-targets"),
    ...items.map((item) => el("option", { value: item.id }, item.title || item.id)));
  form.elements.target.value = value;
}

function submitForm(event) {
  event.preventDefault();
  const fields = form.elements;
  const name = fields.screen.value.trim();
  const show = {};
  show[fields.kind.value] = fields.target.value.trim();
  const body = { show: show, kiosk: fields.kiosk.checked };
  if (fields.theme.value) body.theme = fields.theme.value;
  say(formStatus, "Reassigning…");
  call("POST", "/api/v1/admin/screens/" + encodeURIComponent(name) + "/assign", body)
    .then((answer) => {
      say(formStatus, name + " now shows " + fields.kind.value + " " + show[fields.kind.value] + " (" +
        answer.screens + " of its screens on this node; screens on other nodes follow too).");
      loadScreens();
    })
    .catch((error) => say(formStatus, "Not reassigned: " + error.message));
}

function listScreens() {
  return call("GET", "/api/v1/screens?cluster")  // every node's screens (with Redis), each naming its node
    .then((answer) => {
      const screens = answer.screens || [];
      replaceRows(rows, screens.map(screenRow));
      empty.hidden = screens.length > 0;
    })
    .catch((error) => say(pageStatus, "The screens cannot be listed: " + error.message));
}

/** Lists the screens now, and again every 5 seconds while the page is shown. */
const loadScreens = refreshing("screens", listScreens, REFRESH_MS);

/** Opens the page (the router calls it): the screens, and the dashboards and playlists the form offers. */
export function showScreens() {
  catalog()
    .then((found) => {
      targets = found;
      fillTargets(form.elements.target.value);
    })
    .catch(() => undefined);  // the list only helps typing; an id can be typed without it
  return loadScreens();
}

document.getElementById("screens-refresh").addEventListener("click", () => loadScreens());
form.addEventListener("submit", submitForm);
form.elements.kind.onchange = () => fillTargets("");
document.getElementById("reassign-unpair").addEventListener("click", () => {
  unpairByName().catch((error) => say(formStatus, "Not unpaired: " + error.message));
});
