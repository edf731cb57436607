// The pool dashboard (templates/admin/puzzles/pool/dashboard.html), as progressive enhancement:
// while a batch is unfinished, fetch the pool table and the batches every 5 seconds and swap them
// in. Without JavaScript, the page's <noscript> refresh does the same. A file of its own, not an
// inline script, so the Content Security Policy allows no inline script anywhere; it sits apart
// from the board's modules in js/, which the puzzle page loads all of.
const every = 5000;

async function refresh() {
  const live = document.getElementById("live");
  if (!live || live.dataset.unfinished === "0") return;
  try {
    const response = await fetch(live.dataset.url, { credentials: "same-origin" });
    if (!response.ok) return; // signed out or the server is away: stop quietly
    const holder = document.createElement("template");
    holder.innerHTML = await response.text();
    const fresh = holder.content.getElementById("live");
    if (fresh) live.replaceWith(fresh);
  } catch {
    return;
  }
  setTimeout(refresh, every);
}

setTimeout(refresh, every);
