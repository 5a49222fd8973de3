/**
 * What a TV paired on `/tv` keeps in localStorage: its viewer key and the address of its assignment. A TV that
 * opens `/tv` again asks the server where its key points now (POST /api/v1/tv/resume) and goes there; a wall page
 * whose key is refused or revoked goes back to `/tv?refused=PATH`, which does the same and asks for a new code only when
 * the key is revoked (refusal.js does the same on the server's refusal pages, without modules).
 */
export const PAIRING_STORAGE_KEY = "rollboard.tv";

/** The stored pairing `{key, url}`, or null. */
export function storedPairing(storage = window.localStorage) {
  try {
    const text = storage.getItem(PAIRING_STORAGE_KEY);
    const pairing = text ? JSON.parse(text) : null;
    return pairing && typeof pairing.key === "string" && typeof pairing.url === "string" ? pairing : null;
  } catch (refused) {
    return null;
  }
}

/** Keeps `pairing` ({key, url}); false when the browser refuses storage. */
export function storePairing(pairing, storage = window.localStorage) {
  try {
    storage.setItem(PAIRING_STORAGE_KEY, JSON.stringify({ key: pairing.key, url: pairing.url }));
    return true;
  } catch (refused) {
    return false;
  }
}

/** Forgets the stored pairing (its key was revoked). */
export function forgetPairing(storage = window.localStorage) {
  try {
    storage.removeItem(PAIRING_STORAGE_KEY);
  } catch (refused) {
    // nothing kept to forget
  }
}

/**
 * When this page's `?key=` is the stored pairing's (its key was refused or revoked): goes back to
 * `/tv?refused=PATH`, which asks the server where the key points now (a TV reassigned while it was off) or, revoked,
 * for a new code; answers true. Else false.
 */
export function returnToPairing(search = location.search, storage = window.localStorage) {
  const key = new URLSearchParams(search).get("key");
  const pairing = storedPairing(storage);
  if (!key || !pairing || pairing.key !== key) return false;
  location.replace(`/tv?refused=${encodeURIComponent(location.pathname)}`);
  return true;
}

/**
 * The address an operator's `assign` message moves this page to: the server's `url` (`/d/ID` or `/p/ID` with the
 * screen's name and page options, never a key) with this page's `?key=` added when it has one. When that key is the
 * stored pairing's, the pairing now points there, so a restarted TV comes back to its latest assignment.
 */
export function assignedAddress(url, search = location.search, storage = window.localStorage) {
  const key = new URLSearchParams(search).get("key");
  const address = key ? `${url}${url.includes("?") ? "&" : "?"}key=${encodeURIComponent(key)}` : url;
  const pairing = storedPairing(storage);
  if (key && pairing && pairing.key === key) storePairing({ key, url: address }, storage);
  return address;
}
