// Every page registers the service worker (/sw.js, whose code is sw.js), which lets the site start
// without a connection (docs/architecture.md, "Offline"). A page the worker did not see load (the
// very first visit, before it was installed) tells it, once it takes over, which puzzle page this
// is and where its position comes from, so that one visit is enough to play it offline later.

/** The CSRF token of this session (Django's cookie), which marks its positions in the worker. */
function sessionToken() {
  const cookie = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
  return cookie ? decodeURIComponent(cookie.slice("csrftoken=".length)) : "";
}

async function register() {
  const sw = navigator.serviceWorker;
  const unseen = !sw.controller;
  await sw.register("/sw.js", { scope: "/" });
  if (!unseen) return;
  sw.addEventListener("controllerchange", () => {
    const root = document.getElementById("sudoku");
    sw.controller?.postMessage({ type: "opened", page: location.href, state: root?.dataset.apiState, token: sessionToken() });
  }, { once: true });
}

/**
 * A log-out: this device forgets the player's undo histories (undo.js) as the form goes (heard
 * first, before the board's own listener may hold the form back to save). Not the unsaved moves
 * (device.js): the board saves them before it lets a log-out go (board.js), and a copy still
 * there holds moves the server never got, which only that player's board reads back. The worker
 * forgets the session's positions itself, when the form goes through it (sw.js).
 */
function forgetOnLogOut(event) {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  if (new URL(form.action, location.href).pathname !== "/accounts/logout/") return;
  try {
    for (const key of Object.keys(localStorage)) if (key.startsWith("sudoku:undo:")) localStorage.removeItem(key);
  } catch {
    // Storage refused (a private window): nothing was kept.
  }
}

document.addEventListener("submit", forgetOnLogOut, { capture: true });

if ("serviceWorker" in navigator) {
  register().catch(() => {
    // No worker (a private window may refuse one): the site works as it did, online.
  });
}
