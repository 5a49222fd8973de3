/**
 * A tile's wire state (protocol 2) and what a frame does to it: the board keeps each tile's state as the wire says it
 * and applies every frame entry to it as a patch; the views get it in painting form.
 */
import { finiteNumber } from "../page.js";

/**
 * A tile's wire state after one frame entry: `null` (no value), the odometer's motion shorthand
 * `[i, R_i, …]` (or `[]`) for `{"m":[…]}`, or a patch whose members replace the state's (`null`
 * removes one). `d` sets every column (thousandths of a digit) and `v` their velocities (thousandths
 * per frame, zero when absent); `m` adds its corrections to the velocities from column i on, then
 * moves every column by its velocity, round the strip of 10,000.
 */
export function patched(old, entry) {
  if (entry === null) return null;
  const patch = Array.isArray(entry) ? { m: entry } : entry;
  if (!patch || typeof patch !== "object") return old;
  const state = Object.assign({}, old);
  for (const [name, value] of Object.entries(patch)) {
    if (name === "d" || name === "v" || name === "m") continue;
    if (value === null) delete state[name];
    else state[name] = value;
  }
  if (Array.isArray(patch.d)) {
    state.d = patch.d.map((position) => finiteNumber(position, 0));
    state.v = state.d.map((_, index) => finiteNumber(Array.isArray(patch.v) ? patch.v[index] : 0, 0));
  }
  if (Array.isArray(patch.m) && Array.isArray(state.d)) {
    const velocities = state.d.map((_, index) => finiteNumber(Array.isArray(state.v) ? state.v[index] : 0, 0));
    const first = Math.max(0, Math.trunc(finiteNumber(patch.m[0], 0)));
    patch.m.slice(1).forEach((correction, offset) => {
      if (first + offset < velocities.length) velocities[first + offset] += finiteNumber(correction, 0);
    });
    state.d = state.d.map((position, index) => (((position + velocities[index]) % 10000) + 10000) % 10000);
    state.v = velocities;
  }
  return state;
}

/**
 * A wire state as the views paint it: an odometer's `digits` and a wheel's or carousel's `position` in digits and
 * slides (the wire's `d` and `p` are thousandths).
 */
export function paintingForm(state) {
  if (state === null) return null;
  const { d, p } = state;
  const rest = Object.assign({}, state);
  delete rest.d;
  delete rest.v;
  delete rest.p;
  if (Array.isArray(d)) rest.digits = d.map((position) => finiteNumber(position, 0) / 1000);
  if (p !== undefined) rest.position = finiteNumber(p, 0) / 1000;
  return rest;
}
