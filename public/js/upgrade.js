/**
 * Following an upgrade: the server stamps the page it serves with its build (`<meta name="rollboard-build">`, a hash
 * over the files in public/) and says in every `hello` which build it serves now (`page.build`) and over how many
 * seconds a wall of screens spreads its reloads (`page.reloadSpread`). A page whose own build is another one (it was
 * loaded before the upgrade and reconnected to the new server) reloads itself after a random delay within the
 * spread, so that the screens of a wall do not all load the page at once. `location.reload()` keeps the address
 * exactly (dashboard or playlist, `?name=`, `?key=`, `?theme=`, `?kiosk`, …), and the name and the page options
 * remembered in localStorage stay.
 *
 * Never a reload loop: a page reloads at most once for each build a server announced (the builds are remembered in
 * sessionStorage, which survives the reload, the last `REMEMBERED_BUILDS` of them); a page that is still another build
 * after that reload stays as it is, and a screen moved back and forth between old and new nodes during a rolling
 * upgrade reloads once for each build, not at every move. A hello without a build (an older server), a page without
 * one (not stamped), or storage the browser refuses: no reload.
 *
 * Test hooks on <body>: `data-page-build` (this page's build), `data-upgrade` (`pending` while a reload is
 * scheduled, `done` when the build the server serves was already reloaded for once and the page still differs).
 */

/** Where the builds a page reloaded itself for are remembered (sessionStorage: this tab only), as a JSON array. */
export const RELOADED_FOR_KEY = "rollboard.reloadedForBuilds";
/** How many of those builds are kept, the newest last. */
const REMEMBERED_BUILDS = 8;

/** This page's build as the server stamped it, or `null`. */
export function ownBuild(doc = document) {
  const meta = doc.querySelector('meta[name="rollboard-build"]');
  const build = meta ? meta.getAttribute("content") : null;
  return build ? build : null;
}

/**
 * What to do on a `hello` (pure, for tests): `null` (nothing), `{ done: true }` (a reload for this build was made
 * already: it is in `reloadedFor`), or `{ build, delay }`: remember `build` and reload after `delay` milliseconds.
 */
export function upgradePlan(own, hello, reloadedFor, random) {
  const page = hello && typeof hello.page === "object" && hello.page !== null ? hello.page : null;
  const served = page && typeof page.build === "string" && page.build ? page.build : null;
  if (!own || !served || own === served) return null;
  if (reloadedFor.indexOf(served) >= 0) return { done: true };
  const spread = typeof page.reloadSpread === "number" && page.reloadSpread > 0 ? page.reloadSpread : 0;
  return { build: served, delay: Math.floor(random() * spread * 1000) };
}

/** Reloads the page after an upgrade, as the hellos it is given say (see the top of this file). */
export class PageUpgrade {
  constructor({ doc = document, storage = readSessionStorage(), random = Math.random, reload = () => location.reload() } = {}) {
    this.own = ownBuild(doc);
    this.body = doc.body;
    this.storage = storage;
    this.random = random;
    this.reload = reload;
    this.timer = null;
    if (this.body && this.own) this.body.dataset.pageBuild = this.own;
  }

  /** A `hello` arrived (a new session, a reconnection, a playlist's next dashboard). */
  hello(hello) {
    if (this.timer !== null || !this.storage) return;
    let reloadedFor;
    try {
      reloadedFor = buildList(this.storage.getItem(RELOADED_FOR_KEY));
    } catch (refused) {
      return;  // storage refused: no reload
    }
    const plan = upgradePlan(this.own, hello, reloadedFor, this.random);
    if (!plan) return;
    if (plan.done) {
      if (this.body) this.body.dataset.upgrade = "done";
      return;
    }
    const remembered = JSON.stringify(reloadedFor.concat([plan.build]).slice(-REMEMBERED_BUILDS));
    try {
      this.storage.setItem(RELOADED_FOR_KEY, remembered);
      if (this.storage.getItem(RELOADED_FOR_KEY) !== remembered) return;
    } catch (refused) {
      return;  // nowhere to remember the reload: better an old page than a loop
    }
    if (this.body) this.body.dataset.upgrade = "pending";
    this.timer = setTimeout(() => this.reload(), plan.delay);
  }
}

/** The builds a stored JSON array names (none when it is absent or garbled). */
function buildList(text) {
  try {
    const list = JSON.parse(text || "[]");
    return Array.isArray(list) ? list.filter((build) => typeof build === "string") : [];
  } catch (garbled) {
    return [];
  }
}

function readSessionStorage() {
  try {
    return window.sessionStorage || null;
  } catch (refused) {
    return null;
  }
}
