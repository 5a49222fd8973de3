/**
 * The console's "Playlists" page: each playlist's entries, the one showing, whether it is held and its screens
 * (GET /api/v1/admin/playlists, every 5 s while shown); hold, resume, and show an entry now
 * (POST /api/v1/admin/playlists/{id}/hold, …/resume, …/show `{"entry":N}`). ES2017.
 */
import { el } from "../page.js";
import { actionButton, call, labelled, refreshing, replaceRows, say } from "./session.js";

const REFRESH_MS = 5000;

const status = document.getElementById("playlists-status");
const rows = document.getElementById("playlists-rows");
const empty = document.getElementById("playlists-empty");

function command(playlist, name, body, done) {
  return call("POST", "/api/v1/admin/playlists/" + encodeURIComponent(playlist.id) + "/" + name, body)
    .then(() => load())
    .then(() => done);
}

function entryItem(playlist, entry, index) {
  const current = index === playlist.current;
  const show = labelled(actionButton("Show", () => command(playlist, "show", { entry: index },
    playlist.title + " shows " + entry.dashboard + " now."), status), "Show " + entry.dashboard + " on " + playlist.title);
  return el("li", current ? { "aria-current": "true", class: "console__current" } : {},
    entry.dashboard + ", " + entry.seconds + " s" + (current ? " (showing) " : " "), show);
}

function playlistRow(playlist) {
  const entries = playlist.entries || [];
  const showing = entries[playlist.current] ? entries[playlist.current].dashboard : "";
  const toggle = playlist.held
    ? actionButton("Resume", () => command(playlist, "resume", undefined, playlist.title + " rotates again."), status)
    : actionButton("Hold", () => command(playlist, "hold", undefined, playlist.title + " is held on " + showing + "."), status);
  labelled(toggle, (playlist.held ? "Resume " : "Hold ") + playlist.title);
  return el("tr", { "data-playlist": playlist.id, "data-held": String(playlist.held) },
    el("td", { class: "console__name" }, playlist.title + " ", el("code", {}, playlist.id)),
    el("td", { "data-label": "State" }, (playlist.held ? "held on " : "rotating, showing ") + showing),
    el("td", { "data-label": "Entries" }, el("ol", { class: "console__entries" },
      ...entries.map((entry, index) => entryItem(playlist, entry, index)))),
    el("td", { "data-label": "Screens" }, String(playlist.screens)),
    el("td", { class: "console__actions" }, toggle));
}

async function load() {
  try {
    const playlists = (await call("GET", "/api/v1/admin/playlists")).playlists || [];
    replaceRows(rows, playlists.map(playlistRow));
    empty.hidden = playlists.length > 0;
  } catch (error) {
    say(status, "The playlists cannot be listed: " + error.message);
  }
}

/** Shows the page, refreshed every 5 s while shown. */
export const showPlaylists = refreshing("playlists", load, REFRESH_MS);
