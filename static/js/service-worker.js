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

if ("serviceWorker" in navigator) {
  register().catch(() => {
    // No worker (a private window may refuse one): the site works as it did, online.
  });
}
