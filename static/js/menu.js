// Every page's module. The site's links on a phone upright: folded under the header's Menu button
// (site.css shows the button only there, and only where scripts run), opened and closed here.
// Escape, a press elsewhere or following a link closes them.

const button = document.getElementById("site-menu-button");
const nav = document.getElementById("site-nav");

if (button && nav) {
  const show = (open) => {
    button.setAttribute("aria-expanded", String(open));
    nav.classList.toggle("is-open", open);
  };
  button.addEventListener("click", () => show(!nav.classList.contains("is-open")));
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || !nav.classList.contains("is-open")) return;
    show(false);
    button.focus();
    e.preventDefault();
  });
  document.addEventListener("pointerdown", (e) => {
    if (!button.contains(e.target) && !nav.contains(e.target)) show(false);
  });
  nav.addEventListener("click", (e) => {
    if (e.target.closest("a")) show(false);
  });
}

// The service worker (service-worker.js) is registered once the page has loaded, so the files it
// fetches to keep never compete with what the page needs first.
addEventListener("load", () => import("./service-worker.js"), { once: true });
