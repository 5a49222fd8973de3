/**
 * The console's sign-in page (`/admin/sign-in`): posts the admin token as JSON to `POST /admin/session`, which sets
 * the session cookie (HttpOnly, SameSite=Strict), then opens the console. Without scripts the form posts itself and
 * the server answers 303 to `/admin/`. ES2017, like every page.
 */
import { applyPageOptions } from "../page.js";

window.rollboardStarted = true;  // boot.js: the modules run

applyPageOptions();

const form = document.getElementById("sign-in");
const status = document.getElementById("sign-in-status");

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  status.textContent = "Signing in…";
  try {
    const response = await fetch("/admin/session", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token: form.elements.token.value })
    });
    if (response.status === 201) {
      location.replace("/admin/" + location.search);
      return;
    }
    const answer = await response.json().catch(() => ({}));
    status.textContent = response.status === 401 ? "That is not an admin token." : (answer.detail || "Sign-in failed (" + response.status + ").");
  } catch (error) {
    status.textContent = "The server cannot be reached.";
  }
  form.elements.token.focus();
});
