// The player's theme on <html> as data-theme, before the first paint: "light" or "dark" as chosen,
// or "system" (nothing stored, or anything else) to follow the system's; site.css does the rest.
// A classic script, loaded blocking in <head>, not a module: a module runs only after the page is
// parsed, and the page would flash the other palette first. The choice is stored under
// "sudoku:theme" by the board's settings panel, which also sets the attribute itself; every other
// open tab of the site takes it from the storage event. This file exports nothing.
(() => {
  const KEY = "sudoku:theme";
  const THEMES = ["light", "dark", "system"];

  const apply = (value) => {
    document.documentElement.dataset.theme = THEMES.includes(value) ? value : "system";
  };

  // The browser's bar (theme-color) follows the page's palette: the page has a meta for each side,
  // chosen by the system's scheme; a chosen theme makes its own side's the only one that applies.
  // Watched on the attribute, so the board's settings panel, which sets it itself, is followed too.
  const paintBar = () => {
    const theme = document.documentElement.dataset.theme;
    for (const meta of document.querySelectorAll('meta[name="theme-color"]')) {
      meta.dataset.media ??= meta.media;
      const side = meta.dataset.media.includes("dark") ? "dark" : "light";
      meta.media = theme === "light" || theme === "dark" ? (theme === side ? "all" : "not all") : meta.dataset.media;
    }
  };
  new MutationObserver(paintBar).observe(document.documentElement, { attributeFilter: ["data-theme"] });

  let stored = null;
  try {
    stored = localStorage.getItem(KEY);
  } catch {
    // Storage refused (a privacy setting, a sandboxed frame): the system's theme.
  }
  apply(stored);
  window.addEventListener("storage", (event) => {
    // key is null when the whole storage was cleared.
    if (event.key === KEY || event.key === null) apply(event.newValue);
  });
})();
