// Boxes that scroll on their own (a wide table on a phone, the archive's calendar) must be
// reachable by keyboard while they scroll, and should not be an empty Tab stop while they fit.
// The markup gives each box, marked data-scroll-region, tabindex="0", so that without this
// script nothing is ever out of reach; this takes the stop away while the box fits and gives it
// back when the box outgrows its width (a turned phone, a zoom, a table swapped in by the admin
// dashboard's live refresh). A box that has focus keeps its stop until focus leaves it.
const SELECTOR = "[data-scroll-region]";

function fitTabStop(box) {
  const overflows = box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1;
  if (overflows) box.setAttribute("tabindex", "0");
  else if (document.activeElement !== box) box.removeAttribute("tabindex");
}

const resized = new ResizeObserver((entries) => {
  for (const entry of entries) fitTabStop(entry.target);
});

function watch(root) {
  const boxes = root.matches?.(SELECTOR) ? [root] : [...root.querySelectorAll(SELECTOR)];
  for (const box of boxes) {
    resized.observe(box);
    fitTabStop(box);
  }
}

watch(document);
new MutationObserver((records) => {
  for (const record of records) {
    for (const node of record.addedNodes) if (node instanceof Element) watch(node);
  }
}).observe(document.body, { childList: true, subtree: true });
document.addEventListener("focusout", (event) => {
  if (event.target instanceof Element && event.target.matches(SELECTOR)) fitTabStop(event.target);
});
