/**
 * Small helpers shared by the Rollboard pages: DOM construction, page-URL options and
 * device-pixel snapping. No state lives here.
 *
 * Every file under public/js is ES2017 (the baseline is Chromium 63, Safari 12, Firefox ESR; see
 * the README's "Which screens work"): no `?.`, no `??`, no `catch` without a binding, no object spread.
 * `orDefault` stands in for `??`; `replaceChildren` below falls back where the DOM method is missing.
 */

/** `value` unless it is `undefined` or `null`, else `fallback` (what `value ?? fallback` says in ES2020). */
export function orDefault(value, fallback) {
  return value === undefined || value === null ? fallback : value;
}

/**
 * Replaces `node`'s children with `children` (nodes or strings; null and undefined skipped):
 * `Element.replaceChildren` where the engine has it (Chromium 86, Safari 14), else removal and `append`.
 */
export function replaceChildren(node, ...children) {
  const kept = children.filter((child) => child !== undefined && child !== null);
  if (typeof node.replaceChildren === "function") {
    node.replaceChildren(...kept);
    return;
  }
  while (node.firstChild) node.removeChild(node.firstChild);
  node.append(...kept);
}

/**
 * Calls `listener` when the media query `list` starts or stops matching: `addEventListener("change")`
 * where MediaQueryList is an EventTarget (Safari 14), else the older `addListener` (Safari 12 and 13).
 */
export function onMediaChange(list, listener) {
  if (typeof list.addEventListener === "function") list.addEventListener("change", listener);
  else list.addListener(listener);
}

/**
 * Creates an element with attributes and children.
 * `attributes` keys starting with "data-", "aria-" or plain attribute names are set with
 * setAttribute; `className` and `text` are shortcuts. Children may be nodes or strings.
 */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "className") node.className = value;
    else if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === undefined || child === null) continue;
    node.append(child);
  }
  return node;
}

/**
 * The page URL's query options the pages understand (`theme`, `fps`, `kiosk`, `motion`); `fps` is any whole number
 * from 1, which the dashboard's connection brings into the rates the server gives (`hello.fpsRange`).
 */
export function pageOptions(search = location.search) {
  const query = new URLSearchParams(search);
  const theme = query.get("theme");
  const fps = Number.parseInt(orDefault(query.get("fps"), ""), 10);
  return {
    theme: theme === "dark" || theme === "light" ? theme : null,
    fps: Number.isInteger(fps) && fps >= 1 ? fps : null,
    kiosk: query.has("kiosk") && query.get("kiosk") !== "0",
    motion: query.get("motion") === "reduced" || query.get("motion") === "full" ? query.get("motion") : null,
  };
}

/**
 * Applies `?theme=` and `?kiosk` to <html> (`data-theme`, `data-kiosk`); without `?theme=` the
 * stylesheet follows prefers-color-scheme.
 */
export function applyPageOptions(options = pageOptions()) {
  const root = document.documentElement;
  if (options.theme) root.dataset.theme = options.theme;
  if (options.kiosk) root.dataset.kiosk = "";
  if (!hasFlexGap()) root.classList.add("no-flex-gap");
}

/**
 * Whether flex containers lay out `gap` (Chromium 84, Safari 14.1); `@supports (gap: 1px)` cannot tell,
 * since grid had `gap` first. Without it the stylesheet spaces flex items with margins (`.no-flex-gap`).
 */
function hasFlexGap() {
  const probe = el("div", {}, el("div"), el("div"));
  probe.style.cssText = "display:flex;flex-direction:column;row-gap:1px;position:absolute;visibility:hidden";
  document.body.appendChild(probe);
  const gapped = probe.scrollHeight === 1;
  document.body.removeChild(probe);
  return gapped;
}

/** The query string to carry `theme`/`kiosk`/`fps`/`key`/`motion` over to links between pages ("" when none). */
export function carriedQuery(search = location.search) {
  const query = new URLSearchParams(search);
  const carried = new URLSearchParams();
  for (const name of ["theme", "kiosk", "fps", "key", "motion"]) {
    if (query.has(name)) carried.set(name, query.get(name));
  }
  const text = carried.toString();
  return text ? `?${text}` : "";
}

const SCREEN_NAME_KEY = "rollboard.screenName";

/**
 * This screen's name for the operators' list: `?name=` (remembered from then on), else the name
 * remembered in localStorage, else a new "Screen XXXX" that is remembered.
 */
export function screenName(search = location.search, storage = window.localStorage) {
  const named = new URLSearchParams(search).get("name");
  const given = named === null ? undefined : named.trim();
  try {
    if (given) {
      if (storage) storage.setItem(SCREEN_NAME_KEY, given);
      return given;
    }
    const remembered = storage ? storage.getItem(SCREEN_NAME_KEY) : undefined;
    if (remembered) return remembered;
    const made = `Screen ${Math.floor(Math.random() * 0x10000).toString(16).toUpperCase().padStart(4, "0")}`;
    if (storage) storage.setItem(SCREEN_NAME_KEY, made);
    return made;
  } catch (refused) {
    return given || null;  // storage refused (private mode): a name for this visit only
  }
}

/** Rounds a CSS pixel length to whole device pixels so text at rest is painted crisply. */
export function snapToDevicePixels(cssPixels) {
  const ratio = window.devicePixelRatio || 1;
  return Math.round(cssPixels * ratio) / ratio;
}

/** A finite number from `value`, else `fallback`. */
export function finiteNumber(value, fallback) {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) ? number : fallback;
}

/**
 * Shrinks `target`'s font size so its natural width fits `container`'s content box (with a small
 * margin). Measures, so call it after a layout change (build, resize, longer text), not per frame.
 */
export function fitWidth(target, container, margin = 0.94) {
  target.style.fontSize = "";
  const style = getComputedStyle(container);
  const available = (container.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)) * margin;
  const natural = target.getBoundingClientRect().width;
  if (available > 0 && natural > available) {
    const size = parseFloat(getComputedStyle(target).fontSize);
    target.style.fontSize = `${Math.floor(size * (available / natural))}px`;
  }
}

/**
 * Sets `data-<name>` on `node` to `value` (a string), or removes it for null, only when that changes it: a frame
 * repaints every moving tile, and an attribute written again with the same value can still cost the browser a style
 * recalculation of the tile.
 */
export function setData(node, name, value) {
  const dataset = node.dataset;
  if (value === null || value === undefined) {
    if (name in dataset) delete dataset[name];
  } else if (dataset[name] !== value) {
    dataset[name] = value;
  }
}

/** Sets `node.hidden` only when that changes it (see `setData`). */
export function setHidden(node, hidden) {
  if (node.hidden !== hidden) node.hidden = hidden;
}

/** Sets the inline style property `property` of `node` only when that changes it (see `setData`). */
export function setStyle(node, property, value) {
  if (node.style[property] !== value) node.style[property] = value;
}

/**
 * Sets `node`'s text only when that changes it; a node holding one text node keeps it and changes its data (cheaper
 * for the browser than `textContent`, which replaces the node).
 */
export function setText(node, text) {
  const only = node.firstChild;
  if (only && only === node.lastChild && only.nodeType === Node.TEXT_NODE) {
    if (only.data !== text) only.data = text;
  } else if (node.textContent !== text) {
    node.textContent = text;
  }
}
