/**
 * The console's "Sessions" page: the console sessions of this node (GET /api/v1/admin/sessions, every 5 s while
 * shown), when each signed in, when it was last used and from where, this console's marked; Revoke ends one
 * (DELETE /api/v1/admin/sessions/{id}), and revoking this console's own signs it out. ES2017.
 */
import { el } from "../page.js";
import { actionButton, call, dateText, labelled, refreshing, replaceRows, say, signIn } from "./session.js";

const REFRESH_MS = 5000;

const status = document.getElementById("sessions-status");
const rows = document.getElementById("sessions-rows");
let current = "";
let listingFailed = false;

function sessionRow(session) {
  const mine = session.id === current;
  const revoke = actionButton("Revoke", () =>
    call("DELETE", "/api/v1/admin/sessions/" + encodeURIComponent(session.id)).then(() => {
      if (mine) signIn();
      else showSessions();
      return "Session " + session.id + " revoked: its console is signed out.";
    }), status);
  labelled(revoke, "Revoke session " + session.id + (mine ? " (this console: signs it out)" : ""));
  return el("tr", { "data-session": session.id, "data-current": mine ? "true" : "false" },
    el("td", { class: "console__name" }, session.id + (mine ? " (this console)" : "")),
    el("td", { "data-label": "Signed in" }, dateText(session.createdAt, "")),
    el("td", { "data-label": "Last used" }, dateText(session.lastUsedAt, "")),
    el("td", { "data-label": "Address" }, session.address || ""),
    el("td", { class: "console__actions" }, revoke));
}

async function load() {
  try {
    if (!current) current = (await call("GET", "/admin/session")).id;
    const sessions = (await call("GET", "/api/v1/admin/sessions")).sessions || [];
    replaceRows(rows, sessions.map(sessionRow));
    if (listingFailed) say(status, "");  // an action's message stays
    listingFailed = false;
  } catch (error) {
    listingFailed = true;
    say(status, "The sessions cannot be listed: " + error.message);
  }
}

/** Shows the page, refreshed every 5 s while shown. */
export const showSessions = refreshing("sessions", load, REFRESH_MS);
