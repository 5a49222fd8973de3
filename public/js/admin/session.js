/**
 * What every page of the console shares: the session (its CSRF token, read once from GET /admin/session), `call()`
 * for the admin API with the session cookie, status messages, action buttons and the list of dashboards and
 * playlists. A 401 goes back to the sign-in page. ES2017, like every page.
 */
import { el, replaceChildren } from "../page.js";

let csrfToken = "";

/** The console-wide status line (`#console-status`, aria-live). */
export const pageStatus = document.getElementById("console-status");

export function signIn() {
  location.replace("/admin/sign-in" + location.search);
}

/** Reads the session (GET /admin/session) and keeps its CSRF token for the writes: resolves with the session. */
export function startSession() {
  return call("GET", "/admin/session").then((session) => {
    csrfToken = session.csrfToken;
    return session;
  });
}

/** An Error for a failed answer: the API's `detail`, or its status; `status` is kept for the pages that test it. */
function answerError(status, answer) {
  const error = new Error(answer.detail || "the server answered " + status);
  error.status = status;
  return error;
}

/** `fetch` with the session cookie (and the CSRF token on writes): the JSON answer, or a thrown Error with its detail. */
export async function call(method, path, body) {
  const headers = {};
  if (method !== "GET") headers["X-CSRF-Token"] = csrfToken;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method: method,
    credentials: "same-origin",
    headers: headers,
    body: body === undefined ? undefined : JSON.stringify(body)
  });
  if (response.status === 401) {
    signIn();
    throw new Error("signed out");
  }
  const answer = response.status === 204 ? {} : await response.json().catch(() => ({}));
  if (!response.ok) throw answerError(response.status, answer);
  return answer;
}

export function say(node, text) {
  node.textContent = text;
}

/**
 * A button that runs `action` (a promise of the text to say) once per press, `aria-disabled` meanwhile (not
 * `disabled`, which would take the keyboard's focus away); the text, or "`label` failed: detail", goes to `status`
 * (the console's status line unless given).
 */
export function actionButton(label, action, status) {
  const node = status || pageStatus;
  const button = el("button", { type: "button", class: "console__secondary" }, label);
  button.addEventListener("click", () => {
    if (button.getAttribute("aria-disabled") === "true") return;
    button.setAttribute("aria-disabled", "true");
    action()
      .then((text) => say(node, text))
      .catch((error) => say(node, label + " failed: " + error.message))
      .then(() => button.removeAttribute("aria-disabled"));
  });
  return button;
}

/**
 * An action that asks first, in the page rather than in a dialog: `ask(true)` shows, in `holder`, `question`, a
 * confirm button (`yes`: its text and label; it runs `action` like an ``actionButton`` whose text goes to `status`)
 * and Cancel (labelled `keep`), and focuses the confirm button; `ask(false)` (Cancel, or the action done) shows
 * `idle()` again and focuses `back()`. Returns `ask`.
 */
export function confirmStep(holder, question, yes, keep, action, status, idle, back) {
  const confirm = labelled(actionButton(yes.text, () => action().then((text) => { ask(false); return text; }), status),
    yes.label);
  confirm.dataset.action = "confirm";
  const cancel = labelled(el("button", { type: "button", class: "console__secondary" }, "Cancel"), keep);
  cancel.addEventListener("click", () => ask(false));
  function ask(yes) {
    replaceChildren(holder, ...(yes ? [el("span", { class: "console__ask" }, question + " "), confirm, cancel] : idle()));
    const focus = yes ? confirm : back();
    if (focus && document.contains(focus)) focus.focus();
  }
  return ask;
}

/** `iso` (ISO 8601) as the browser writes a date and time, or `missing` when there is none. */
export function dateText(iso, missing) {
  return iso ? new Date(iso).toLocaleString() : missing;
}

/**
 * Every configured dashboard and playlist, those behind a viewer key too: `{dashboards: [{id, title}], playlists:
 * [{id, title, entries: [dashboard id]}]}` from GET /api/v1/admin/dashboards and GET /api/v1/admin/playlists. A server
 * without the first (404) gets the viewer list, GET /api/v1/dashboards, which leaves out what needs a key.
 */
export async function catalog() {
  let dashboards;
  try {
    dashboards = (await call("GET", "/api/v1/admin/dashboards")).dashboards || [];
  } catch (error) {
    if (error.status !== 404) throw error;
    const answer = await call("GET", "/api/v1/dashboards");
    return { dashboards: answer.dashboards || [], playlists: answer.playlists || [] };
  }
  const playlists = (await call("GET", "/api/v1/admin/playlists")).playlists || [];
  return {
    dashboards: dashboards,
    playlists: playlists.map((playlist) => ({
      id: playlist.id,
      title: playlist.title,
      entries: (playlist.entries || []).map((entry) => entry.dashboard)
    }))
  };
}

/**
 * Runs `load` now and every `ms` while the section `sectionId` is shown (a hidden section stops its timer); the
 * function returned starts it again, as the router does when the section is shown.
 */
export function refreshing(sectionId, load, ms) {
  let timer = 0;
  const section = document.getElementById(sectionId);
  function tick() {
    clearTimeout(timer);
    return load().catch(() => undefined).then(() => {
      clearTimeout(timer);
      if (!section.hidden) timer = setTimeout(tick, ms);
    });
  }
  return tick;
}

/**
 * Replaces the rows of `tbody` with `rows`, keeping the keyboard's place: a button focused in the old rows is
 * focused again in the new ones (the one with the same label, else the one at the same place), so a refresh does not
 * throw the focus back to the top of the page.
 */
export function replaceRows(tbody, rows) {
  const focused = document.activeElement;
  const had = focused && focused !== tbody && tbody.contains(focused);
  const buttons = () => Array.from(tbody.querySelectorAll("button"));
  const label = had ? focused.getAttribute("aria-label") || focused.textContent : "";
  const place = had ? buttons().indexOf(focused) : -1;
  replaceChildren(tbody, ...rows);
  if (!had) return;
  const now = buttons();
  const same = now.filter((button) => (button.getAttribute("aria-label") || button.textContent) === label)[0];
  const again = same || now[Math.min(place, now.length - 1)];
  if (again) again.focus();
}

/** Sets `aria-label` on `node` and returns it. */
export function labelled(node, label) {
  node.setAttribute("aria-label", label);
  return node;
}
