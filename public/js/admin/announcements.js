/**
 * The console's "Announcements" page: a text shown full-screen for some seconds on every screen, a dashboard's or a
 * playlist's (POST /api/v1/admin/announce, /api/v1/admin/dashboards/{id}/announce,
 * /api/v1/admin/playlists/{id}/announce), taken down with `{"seconds":0}`. What this console sent is listed, newest
 * first (kept for the browser tab in sessionStorage). ES2017.
 */
import { el, replaceChildren } from "../page.js";
import { actionButton, call, catalog, dateText, labelled, say } from "./session.js";

const SENT_KEY = "rollboard.console.announcements";
const SENT_KEPT = 10;

const form = document.getElementById("announce-form");
const target = document.getElementById("announce-to");
const status = document.getElementById("announce-status");
const sentList = document.getElementById("announce-sent");
const none = document.getElementById("announce-none");

/** The announce endpoint of a `to` value: "all", "dashboard:ID" or "playlist:ID". */
function endpoint(to) {
  if (to === "all") return "/api/v1/admin/announce";
  const colon = to.indexOf(":");
  const kind = to.slice(0, colon) === "playlist" ? "playlists" : "dashboards";
  return "/api/v1/admin/" + kind + "/" + encodeURIComponent(to.slice(colon + 1)) + "/announce";
}

/** What a `to` value names, in words. */
function targetName(to) {
  if (to === "all") return "every screen";
  const colon = to.indexOf(":");
  return to.slice(0, colon) + " " + to.slice(colon + 1);
}

function readSent() {
  try {
    const kept = JSON.parse(window.sessionStorage.getItem(SENT_KEY) || "[]");
    return Array.isArray(kept) ? kept : [];
  } catch (error) {
    return [];
  }
}

function remember(entry) {
  const sent = [entry].concat(readSent()).slice(0, SENT_KEPT);
  try {
    window.sessionStorage.setItem(SENT_KEY, JSON.stringify(sent));
  } catch (error) {
    // A browser without storage lists nothing; the announcement was sent all the same.
  }
  showSent(sent);
}

function sentItem(entry) {
  const what = entry.seconds === 0
    ? "Taken down on " + targetName(entry.to)
    : "\u201c" + entry.text + "\u201d on " + targetName(entry.to) + " for " + entry.seconds + " s";
  const screens = typeof entry.screens === "number" ? ", " + entry.screens + " screen(s) here" : "";
  const item = el("li", { "data-to": entry.to, "data-seconds": String(entry.seconds) },
    what + " \u2014 " + dateText(entry.at, "") + " (change " + entry.seq + screens + ") ");
  if (entry.seconds > 0) item.append(labelled(takeDownButton(entry.to), "Take down the announcement on " + targetName(entry.to)));
  return item;
}

function showSent(sent) {
  const inside = sentList.contains(document.activeElement);
  replaceChildren(sentList, ...sent.map(sentItem));
  none.hidden = sent.length > 0;
  if (inside) document.getElementById("announce-sent-title").focus();
}

/** Sends `text` for `seconds` to `to` (0 seconds: takes it down) and lists it; resolves with what to say. */
function send(to, text, seconds) {
  const body = seconds === 0 ? { seconds: 0 } : { text: text, seconds: seconds };
  return call("POST", endpoint(to), body).then((answer) => {
    remember({ to: to, text: text, seconds: seconds, seq: answer.seq, screens: answer.screens, at: new Date().toISOString() });
    return seconds === 0 ? "Taken down on " + targetName(to) + "." : "Sent to " + targetName(to) + " for " + seconds + " s.";
  });
}

function takeDownButton(to) {
  return actionButton("Take down", () => send(to, "", 0), status);
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const seconds = Number(form.elements.seconds.value);
  say(status, "Sending…");
  send(target.value, form.elements.text.value, seconds)
    .then((text) => say(status, text))
    .catch((error) => say(status, "Not sent: " + error.message));
});
document.getElementById("announce-down").addEventListener("click", () => {
  say(status, "Taking down…");
  send(target.value, "", 0)
    .then((text) => say(status, text))
    .catch((error) => say(status, "Not taken down: " + error.message));
});

async function loadTargets() {
  const known = await catalog();
  const chosen = target.value;
  const group = (label, kind, items) => el("optgroup", { label: label },
    ...items.map((item) => el("option", { value: kind + ":" + item.id }, item.title + " (" + item.id + ")")));
  replaceChildren(target, el("option", { value: "all" }, "every screen"),
    known.dashboards.length ? group("Dashboards", "dashboard", known.dashboards) : null,
    known.playlists.length ? group("Playlists", "playlist", known.playlists) : null);
  target.value = chosen;
  if (!target.value) target.value = "all";
}

/** Shows the page: the targets and what this console sent. */
export function showAnnouncements() {
  showSent(readSent());
  loadTargets().catch((error) => say(status, "The dashboards cannot be listed: " + error.message));
}
