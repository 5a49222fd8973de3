/**
 * The dashboard list at `/`: fetches `GET /api/v1/dashboards` and links each dashboard to
 * `/d/{id}` and each playlist to `/p/{id}`. The response may be an array of dashboards or
 * `{"dashboards":[…],"playlists":[…]}`; a dashboard may be an object (`id`, optional `title`,
 * optional `tiles`) or a bare id string; a playlist has `id`, `title` and `entries` (dashboard ids).
 */
import { applyPageOptions, carriedQuery, el } from "./page.js";

applyPageOptions();

const status = document.getElementById("index-status");
const list = document.getElementById("index-list");

/** Normalises the two accepted response shapes into `[{id, title, tileCount}]`. */
function dashboardsFrom(body) {
  const items = Array.isArray(body) ? body : body && Array.isArray(body.dashboards) ? body.dashboards : [];
  return items
    .map((item) => (typeof item === "string" ? { id: item } : item))
    .filter((item) => item && (typeof item.id === "string" || typeof item.id === "number"))
    .map((item) => ({
      id: String(item.id),
      title: typeof item.title === "string" && item.title ? item.title : String(item.id),
      tileCount: Array.isArray(item.tiles) ? item.tiles.length : null,
    }));
}

/** The playlists of the response, as `[{id, title, entries}]`. */
function playlistsFrom(body) {
  const items = body && Array.isArray(body.playlists) ? body.playlists : [];
  return items
    .filter((item) => item && typeof item.id === "string")
    .map((item) => ({
      id: item.id,
      title: typeof item.title === "string" && item.title ? item.title : item.id,
      entries: Array.isArray(item.entries) ? item.entries.filter((entry) => typeof entry === "string") : [],
    }));
}

function counted(count, noun) {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

async function load() {
  try {
    const key = new URLSearchParams(location.search).get("key");
    const target = key ? `/api/v1/dashboards?${new URLSearchParams({ key })}` : "/api/v1/dashboards";
    const response = await fetch(target, { headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    const body = await response.json();
    const dashboards = dashboardsFrom(body);
    const playlists = playlistsFrom(body);
    if (dashboards.length === 0) {
      status.textContent = "No dashboards are configured.";
      return;
    }
    status.textContent = playlists.length === 0 ? counted(dashboards.length, "dashboard")
      : `${counted(dashboards.length, "dashboard")} · ${counted(playlists.length, "playlist")}`;
    const query = carriedQuery();
    for (const dashboard of dashboards) {
      const meta = dashboard.tileCount === null ? dashboard.id
        : `${dashboard.id} · ${dashboard.tileCount} tile${dashboard.tileCount === 1 ? "" : "s"}`;
      list.append(el("li", {},
        el("a", { className: "index__link", href: `/d/${encodeURIComponent(dashboard.id)}${query}`, "data-dashboard-id": dashboard.id },
          el("span", { className: "index__name", text: dashboard.title }),
          el("span", { className: "index__meta", text: meta }))));
    }
    for (const playlist of playlists) {
      const meta = `playlist · ${playlist.entries.join(" → ")}`;
      list.append(el("li", {},
        el("a", { className: "index__link", href: `/p/${encodeURIComponent(playlist.id)}${query}`, "data-playlist-id": playlist.id },
          el("span", { className: "index__name", text: playlist.title }),
          el("span", { className: "index__meta", text: meta }))));
    }
  } catch (error) {
    status.textContent = `Could not load the dashboards: ${error.message}`;
  }
}

load();
