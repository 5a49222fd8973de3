/**
 * The console's "Dashboards" page: a link to each dashboard (/d/ID) and playlist (/p/ID), the screens on each
 * dashboard and its stale tiles, from GET /api/v1/admin/dashboards. A server without that route (404) still gets the
 * links, from GET /api/v1/dashboards, and the page says the stale tiles need a newer server. ES2017.
 */
import { el, replaceChildren } from "../page.js";
import { call, dateText, replaceRows, say } from "./session.js";

const status = document.getElementById("dashboards-status");
const rows = document.getElementById("dashboards-rows");
const playlists = document.getElementById("dashboards-playlists");
const noPlaylist = document.getElementById("dashboards-no-playlist");
const OLD_SERVER = "needs a newer server";

function staleItem(tile) {
  const when = tile.updatedAt ? "last value " + dateText(tile.updatedAt, "") : "no value yet";
  return el("li", { "data-tile": tile.tile },
    (tile.title || tile.tile) + " (" + tile.metric + "): " + when + ", stale after " + tile.staleAfter + " s");
}

function staleCell(dashboard, old) {
  if (old) return el("td", { "data-label": "Stale tiles" }, OLD_SERVER);
  if (!dashboard.staleTiles) return el("td", { "data-label": "Stale tiles" }, "");
  if (dashboard.staleTiles.length === 0) return el("td", { "data-label": "Stale tiles" }, "none");
  return el("td", { "data-label": "Stale tiles" }, el("ul", { class: "console__entries" }, ...dashboard.staleTiles.map(staleItem)));
}

function link(kind, item) {
  const url = item.url || "/" + kind + "/" + encodeURIComponent(item.id);
  return el("a", { href: url }, item.title || item.id);
}

function dashboardRow(dashboard, old) {
  const screens = typeof dashboard.screens === "number" ? String(dashboard.screens) : "";
  return el("tr", { "data-dashboard": dashboard.id, "data-stale": dashboard.staleTiles ? String(dashboard.staleTiles.length) : null },
    el("td", { class: "console__name" }, link("d", dashboard), " ", el("code", {}, dashboard.id)),
    el("td", { "data-label": "Screens" }, screens),
    staleCell(dashboard, old));
}

/** `{answer, old}`: the admin list, or the viewer list (`old`) when this server has no admin list (404). */
async function fetchList() {
  try {
    return { answer: await call("GET", "/api/v1/admin/dashboards"), old: false };
  } catch (error) {
    if (error.status !== 404) throw error;
    return { answer: await call("GET", "/api/v1/dashboards"), old: true };
  }
}

/** Shows the page. */
export async function showDashboards() {
  try {
    const list = await fetchList();
    const answer = list.answer;
    const dashboards = answer.dashboards || [];
    const lists = answer.playlists || [];
    replaceRows(rows, dashboards.map((dashboard) => dashboardRow(dashboard, list.old)));
    replaceChildren(playlists, ...lists.map((item) => el("li", { "data-playlist": item.id }, link("p", item), " ", el("code", {}, item.id))));
    noPlaylist.hidden = lists.length > 0;
    say(status, list.old ? "Stale tiles: " + OLD_SERVER + " (this one has no GET /api/v1/admin/dashboards)." : "");
  } catch (error) {
    say(status, "The dashboards cannot be listed: " + error.message);
  }
}
