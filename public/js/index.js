/**
 * The dashboard list at `/`: fetches `GET /api/v1/dashboards` and links each dashboard to
 * `/d/{id}`. The response may be an array of dashboards or `{"dashboards":[…]}`; a dashboard may
 * be an object (`id`, optional `title`, optional `tiles`) or a bare id string.
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

async function load() {
  try {
    const key = new URLSearchParams(location.search).get("key");
    const target = key ? `/api/v1/dashboards?${new URLSearchParams({ key })}` : "/api/v1/dashboards";
    const response = await fetch(target, { headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    const dashboards = dashboardsFrom(await response.json());
    if (dashboards.length === 0) {
      status.textContent = "No dashboards are configured.";
      return;
    }
    status.textContent = dashboards.length === 1 ? "1 dashboard" : `${dashboards.length} dashboards`;
    const query = carriedQuery();
    for (const dashboard of dashboards) {
      const meta = dashboard.tileCount === null ? dashboard.id
        : `${dashboard.id} · ${dashboard.tileCount} tile${dashboard.tileCount === 1 ? "" : "s"}`;
      list.append(el("li", {},
        el("a", { className: "index__link", href: `/d/${encodeURIComponent(dashboard.id)}${query}`, "data-dashboard-id": dashboard.id },
          el("span", { className: "index__name", text: dashboard.title }),
          el("span", { className: "index__meta", text: meta }))));
    }
  } catch (error) {
    status.textContent = `Could not load the dashboards: ${error.message}`;
  }
}

load();
