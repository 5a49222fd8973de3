/**
 * The pairing page (`/tv`): asks the server for a code (POST /api/v1/tv/pairings), shows it large with how to pair,
 * polls until an operator pairs it (GET /api/v1/tv/pairings/{pollToken}), asks for a new code when this one
 * expires, then keeps the credential it is handed (pairing.js) and opens its dashboard or playlist. Opened again
 * with a stored pairing (a reboot, a power cut, a refused page) it asks the server where its key points now
 * (POST /api/v1/tv/resume) and goes there; a revoked key (404) is forgotten and a new code asked for. ES2017, like
 * every page: old TVs run it.
 */
import { applyPageOptions } from "./page.js";
import { forgetPairing, storedPairing, storePairing } from "./pairing.js";

window.rollboardStarted = true;  // boot.js: the modules run

const POLL_MS = 1500;
const RETRY_MS = 5000;

const codeText = document.getElementById("tv-code");
const expiryText = document.getElementById("tv-expiry");
const leadText = document.getElementById("tv-lead");
const commandText = document.getElementById("tv-command");

function setState(state) {
  document.body.dataset.state = state;
}

function wait(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Seconds from a response's Retry-After, in milliseconds (RETRY_MS when it has none). */
function retryAfter(response) {
  const seconds = Number.parseInt(response.headers.get("Retry-After") || "", 10);
  return Number.isInteger(seconds) && seconds > 0 ? seconds * 1000 : RETRY_MS;
}

function showCode(code) {
  codeText.textContent = `${code.slice(0, 3)} ${code.slice(3)}`;
  codeText.dataset.code = code;
  const body = JSON.stringify({ code, name: "Lobby TV", show: { dashboard: "ID" } });
  commandText.textContent = `curl -H "Authorization: Bearer $ADMIN_TOKEN" -H "Content-Type: application/json" ` +
    `-d '${body}' ${location.origin}/api/v1/admin/pairings`;
}

function showExpiry(seconds) {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  expiryText.textContent = `Good for ${minutes} more minute${minutes === 1 ? "" : "s"}; a new code comes by itself.`;
}

/** A new code, retried until the server gives one: {code, pollToken, expiresIn}. */
async function newCode() {
  for (;;) {
    try {
      const response = await fetch("/api/v1/tv/pairings", { method: "POST", cache: "no-store" });
      if (response.status === 201) return await response.json();
      expiryText.textContent = `The server gives no code now (${response.status}); trying again.`;
      await wait(retryAfter(response));
    } catch (unreachable) {
      expiryText.textContent = "The server cannot be reached; trying again.";
      await wait(RETRY_MS);
    }
  }
}

/** Polls for `pairing` until it is paired (answers the pairing) or its code is gone (answers null). */
async function awaitPairing(pairing) {
  for (;;) {
    await wait(POLL_MS);
    let response;
    try {
      response = await fetch(`/api/v1/tv/pairings/${encodeURIComponent(pairing.pollToken)}`, { cache: "no-store" });
    } catch (unreachable) {
      continue;
    }
    if (response.status === 404) return null;
    if (response.status !== 200) continue;
    const answer = await response.json();
    if (answer.state === "paired") return answer;
    showExpiry(answer.expiresIn);
  }
}

async function pair() {
  for (;;) {
    setState("asking");
    const pending = await newCode();
    showCode(pending.code);
    showExpiry(pending.expiresIn);
    setState("waiting");
    const paired = await awaitPairing(pending);
    if (!paired) continue;  // expired: a new code
    setState("paired");
    leadText.textContent = "Paired";
    expiryText.textContent = "Opening this screen's dashboard…";
    if (!storePairing(paired)) expiryText.textContent = "Paired, but this browser keeps nothing: pair it again after a restart.";
    location.replace(paired.url);
    return;
  }
}

/**
 * Where the stored pairing's key points now: the server's url; null when the key was revoked (404); the stored url
 * when the server cannot say (its pairing API answers otherwise). Retried while the server cannot be reached.
 */
async function resumeAddress(stored) {
  for (;;) {
    try {
      const response = await fetch("/api/v1/tv/resume", {
        method: "POST", cache: "no-store", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ key: stored.key, url: stored.url }),
      });
      if (response.status === 200) return (await response.json()).url;
      if (response.status === 404) return null;
      return stored.url;
    } catch (unreachable) {
      expiryText.textContent = "The server cannot be reached; trying again.";
      await wait(RETRY_MS);
    }
  }
}

function start() {
  applyPageOptions();
  document.getElementById("tv-server").textContent = `Rollboard at ${location.host}`;
  if (new URLSearchParams(location.search).has("unpaired")) {
    leadText.textContent = "This screen was unpaired. Pair it again with the code";
  }
  pair();
}

async function resume(stored) {
  setState("paired");
  expiryText.textContent = "Opening this screen's dashboard…";
  const url = await resumeAddress(stored);
  // Refused on the very page the server still gives: the key opens nothing there any more.
  const refused = new URLSearchParams(location.search).get("refused");
  const refusedAgain = refused !== null && url !== null && url.split("?")[0] === refused;
  if (url === null || refusedAgain) {
    forgetPairing();
    location.replace("/tv?unpaired");
    return;
  }
  if (url !== stored.url) storePairing({ key: stored.key, url });
  location.replace(url);
}

const stored = storedPairing();
if (stored) resume(stored);
else start();
