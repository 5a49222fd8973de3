/**
 * The server's refusal pages (401, 403, 404 for `/d/ID` and `/p/ID`, written by the server, not
 * served from here) load this classic script in their <head>, so the page honours its address
 * before it is painted: `?theme=dark|light` sets `data-theme` and `?kiosk` sets `data-kiosk` on
 * <html>, as on the dashboard page, and the link back to the list carries `theme`, `kiosk`,
 * `fps` and `motion` over (not `key`: it may be the one refused). No modules and nothing past
 * ES2017: it must run on old TVs too.
 */
(function () {
  "use strict";
  var CARRIED = ["theme", "kiosk", "fps", "motion"];
  var query = new URLSearchParams(location.search);
  var root = document.documentElement;
  var theme = query.get("theme");
  if (theme === "dark" || theme === "light") root.setAttribute("data-theme", theme);
  if (query.has("kiosk") && query.get("kiosk") !== "0") root.setAttribute("data-kiosk", "");

  // A TV paired on /tv keeps its key and page in localStorage (pairing.js): refused with that key (reassigned
  // while it was off, or revoked), it goes back to /tv?refused=PATH, which asks the server where the key points now.
  try {
    var stored = JSON.parse(window.localStorage.getItem("rollboard.tv") || "null");
    if (stored && query.get("key") && stored.key === query.get("key")) {
      location.replace("/tv?refused=" + encodeURIComponent(location.pathname));
      return;
    }
  } catch (refused) {
    // no storage: nothing was paired here
  }

  function carryQuery() {
    var carried = new URLSearchParams();
    CARRIED.forEach(function (name) {
      if (query.has(name)) carried.set(name, query.get(name));
    });
    var text = carried.toString();
    if (!text) return;
    var links = document.querySelectorAll("a[data-carry-query]");
    for (var index = 0; index < links.length; index += 1) {
      links[index].setAttribute("href", links[index].getAttribute("href") + "?" + text);
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", carryQuery);
  else carryQuery();
})();
