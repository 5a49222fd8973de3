/**
 * The console's "Sources" page: each source this node schedules (GET /api/v1/admin/sources, every 5 s while shown):
 * its type, its state in words and in colour (up, down, unknown), its last success, the reason it is down or its
 * last error, and its next fetch. ES2017.
 */
import { el } from "../page.js";
import { call, dateText, refreshing, replaceRows, say } from "./session.js";

const REFRESH_MS = 5000;
const STATES = ["up", "down", "unknown"];

const status = document.getElementById("sources-status");
const rows = document.getElementById("sources-rows");
const empty = document.getElementById("sources-empty");

function reasonText(source) {
  const parts = [];
  if (source.reason) parts.push(source.reason);
  if (source.lastError && source.lastError.reason !== source.reason) {
    parts.push("last error " + dateText(source.lastError.at, "") + ": " + source.lastError.reason);
  } else if (source.lastError) {
    parts.push("since " + dateText(source.lastError.at, ""));
  }
  return parts.join("; ");
}

function sourceRow(source) {
  const state = STATES.includes(source.state) ? source.state : "unknown";
  const next = source.polledHere === false ? "polled by another node" : dateText(source.nextFetch, "");
  return el("tr", { "data-source": source.id, "data-state": state },
    el("td", { class: "console__name" }, source.id),
    el("td", { "data-label": "Type" }, source.type + (source.every ? ", every " + source.every + "\u00a0s" : "")),
    el("td", { "data-label": "State" }, el("span", { class: "console__state console__state--" + state }, state)),
    el("td", { "data-label": "Last success" }, dateText(source.lastSuccess, "never")),
    el("td", { "data-label": "Reason or last error" }, reasonText(source)),
    el("td", { "data-label": "Next fetch" }, next));
}

async function load() {
  try {
    const sources = (await call("GET", "/api/v1/admin/sources")).sources || [];
    replaceRows(rows, sources.map(sourceRow));
    empty.hidden = sources.length > 0;
    say(status, "");
  } catch (error) {
    say(status, "The sources cannot be listed: " + error.message);
  }
}

/** Shows the page, refreshed every 5 s while shown. */
export const showSources = refreshing("sources", load, REFRESH_MS);

document.getElementById("sources-refresh").addEventListener("click", showSources);
