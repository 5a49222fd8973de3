/**
 * The console's "Viewer keys" page: create a key (its secret shown once, with a copy button), list the keys (no
 * secrets) and revoke one after a confirm step. GET/POST /api/v1/admin/keys, DELETE /api/v1/admin/keys/{id}.
 * A key opens every dashboard or the ones given; a playlist ticked here adds its dashboards. ES2017.
 */
import { el, replaceChildren } from "../page.js";
import { call, catalog, confirmStep, dateText, labelled, replaceRows, say } from "./session.js";

const form = document.getElementById("key-form");
const targets = document.getElementById("key-targets");
const status = document.getElementById("keys-status");
const rows = document.getElementById("keys-rows");
const empty = document.getElementById("keys-empty");
const secretBox = document.getElementById("key-secret");
const secretValue = document.getElementById("key-secret-value");

function checkbox(kind, item, dashboards) {
  const box = el("input", { type: "checkbox", name: "target", value: kind + ":" + item.id,
    "data-dashboards": dashboards.join(" ") });
  box.onchange = () => { if (box.checked) form.elements.scope.value = "some"; };
  const playlist = kind === "playlist";
  return el("label", { class: "console__check" }, box, " " + (playlist ? "playlist " : "") + item.title + " (",
    el("code", {}, item.id), ")" + (playlist ? ": " + dashboards.join(", ") : ""));
}

async function loadTargets() {
  const known = await catalog();
  const ticked = Array.from(targets.querySelectorAll("input:checked")).map((box) => box.value);
  replaceChildren(targets,
    ...known.dashboards.map((item) => checkbox("dashboard", item, [item.id])),
    ...known.playlists.map((item) => checkbox("playlist", item, item.entries || [])));
  for (const box of targets.querySelectorAll("input")) box.checked = ticked.includes(box.value);
}

/** The dashboards the ticked boxes open, each once, in the order ticked boxes list them. */
function tickedDashboards() {
  const ids = [];
  for (const box of targets.querySelectorAll("input:checked")) {
    for (const id of box.dataset.dashboards.split(" ")) if (id && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

function revokeCell(key) {
  const cell = el("td", { class: "console__actions" });
  const revoke = labelled(el("button", { type: "button", class: "console__secondary" }, "Revoke"), "Revoke " + key.name);
  const asking = confirmStep(cell, "Revoke " + key.name + "? Its screens close.",
    { text: "Yes, revoke", label: "Yes, revoke " + key.name }, "Keep " + key.name, () =>
      call("DELETE", "/api/v1/admin/keys/" + encodeURIComponent(key.id)).then((answer) => {
        const closed = answer.closedScreens === null ? answer.closedScreensHere : answer.closedScreens;
        return loadKeys().then(() => {
          document.getElementById("keys-title").focus();  // the row and its buttons are gone
          return "Revoked " + key.name + " (" + key.id + "); " + closed + " screen(s) closed.";
        });
      }), status, () => [revoke], () => revoke);
  revoke.addEventListener("click", () => asking(true));
  cell.append(revoke);
  return cell;
}

function keyRow(key) {
  return el("tr", { "data-key": key.id },
    el("td", { class: "console__name" }, key.name),
    el("td", { "data-label": "Id" }, el("code", {}, key.id)),
    el("td", { "data-label": "Opens" }, key.dashboards ? key.dashboards.join(", ") : "every dashboard"),
    el("td", { "data-label": "Created" }, dateText(key.createdAt, "")),
    el("td", { "data-label": "Screens" }, String(key.screens)),
    revokeCell(key));
}

async function loadKeys() {
  try {
    const keys = (await call("GET", "/api/v1/admin/keys")).keys || [];
    replaceRows(rows, keys.map(keyRow));
    empty.hidden = keys.length > 0;
  } catch (error) {
    say(status, "The keys cannot be listed: " + error.message);
  }
}

function hideSecret() {
  secretValue.value = "";
  secretBox.hidden = true;
}

/** Copies the secret: the Clipboard API where the engine has it (Chromium 66, Safari 13.1), else the selection. */
function copySecret() {
  secretValue.select();
  const copied = navigator.clipboard && navigator.clipboard.writeText
    ? navigator.clipboard.writeText(secretValue.value)
    : new Promise((resolve, reject) => (document.execCommand("copy") ? resolve() : reject(new Error("not copied"))));
  copied
    .then(() => say(status, "The key is copied."))
    .catch(() => say(status, "The browser did not copy it: the key is selected, copy it with the keyboard."));
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const body = { name: form.elements.name.value.trim() };
  if (form.elements.scope.value === "some") {
    body.dashboards = tickedDashboards();
    if (body.dashboards.length === 0) {
      say(status, "Not created: tick a dashboard or playlist, or choose every dashboard.");
      return;
    }
  }
  say(status, "Creating…");
  call("POST", "/api/v1/admin/keys", body)
    .then((created) => {
      document.getElementById("key-secret-name").textContent = created.name + " (" + created.id + ")";
      secretValue.value = created.key;
      secretBox.hidden = false;
      secretValue.focus();
      secretValue.select();
      form.reset();
      say(status, "Created " + created.name + ". Copy its key now: it will not be shown again.");
      return loadKeys();
    })
    .catch((error) => say(status, "Not created: " + error.message));
});
document.getElementById("key-copy").addEventListener("click", copySecret);
document.getElementById("key-done").addEventListener("click", () => {
  hideSecret();
  form.elements.name.focus();
});

/** Shows the page: the keys and the dashboards and playlists a key may open; a secret shown before is gone. */
export function showKeys() {
  hideSecret();
  loadKeys();
  loadTargets().catch((error) => say(status, "The dashboards cannot be listed: " + error.message));
}
