/**
 * Which tiles show values that may be out of date: a tile whose value has not changed for longer than its
 * `staleAfter` seconds is marked stale (judged once a second, and cleared when a new value arrives), and a tile whose
 * pulled source fails is marked with why (the server's `sources` message).
 */
import { orDefault } from "../page.js";

const STALENESS_CHECK_MS = 1000;

export class Staleness {
  /** @param {Map<string, object>} views  the views shown, by tile id (the layout's) */
  constructor(views) {
    this.views = views;
    /** When each tile's value last changed: tile id → `{ key, at }` (milliseconds since the epoch). */
    this.changes = new Map();
    setInterval(() => this.check(), STALENESS_CHECK_MS);
  }

  /** Forgets every tile's last change (the grid was built again or taken down). */
  clear() {
    this.changes.clear();
  }

  /** Remembers when the tile's value last changed (a state received at `now`); a `hello` may say so with `updatedAt`. */
  noteChange(view, state, now, isHello) {
    const key = view.changeKey(state);
    if (key === null) return;
    const previous = this.changes.get(view.id);
    if (previous && previous.key === key) return;
    const reported = isHello ? timestampOf(state.updatedAt) : null;
    this.changes.set(view.id, { key, at: orDefault(reported, now) });
    if (view.staleAfter !== null) view.showStale(null);
  }

  /** Marks the tiles whose value is older than their `staleAfter`, and clears the others. */
  check() {
    const now = Date.now();
    for (const view of this.views.values()) {
      if (view.staleAfter === null || view.staleAfter <= 0) continue;
      const change = this.changes.get(view.id);
      if (!change) continue;
      const age = (now - change.at) / 1000;
      view.showStale(age >= view.staleAfter ? age : null);
    }
  }

  /** Marks the tiles whose source fails with why (`stale`: tile id → reason); every other tile is cleared. */
  showSourceProblems(stale) {
    const reasons = stale && typeof stale === "object" ? stale : {};
    for (const view of this.views.values()) {
      const reason = Object.prototype.hasOwnProperty.call(reasons, view.id) ? reasons[view.id] : null;
      view.showSourceProblem(typeof reason === "string" ? reason : null);
    }
  }
}

/** Milliseconds since the epoch from seconds-since-epoch (number) or an ISO 8601 string. */
function timestampOf(value) {
  if (typeof value === "number" && Number.isFinite(value)) return value > 1e12 ? value : value * 1000;
  if (typeof value === "string") {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? null : parsed;
  }
  return null;
}
