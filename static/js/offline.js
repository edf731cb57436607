// The offline page: the puzzles this device keeps (the service worker's cache of puzzle pages,
// sw.js), newest day first and easiest first, each a link that opens offline.

const TIERS = ["easy", "medium", "hard", "expert", "extreme"];
const PAGE = /^\/daily\/(\d{4})-(\d{2})-(\d{2})\/([a-z]+)\/$/;

/**
 * A kept puzzle page's address as the list shows it, or null for any other address:
 * {path, day ("2026-11-26"), tier, label ("Easy, Thursday 26 November 2026")}.
 */
export function puzzleEntry(path) {
  const match = PAGE.exec(path);
  if (!match) return null;
  const [, year, month, date, tier] = match;
  const when = new Date(Date.UTC(Number(year), Number(month) - 1, Number(date)));
  const day = new Intl.DateTimeFormat("en-GB", { weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
  const name = tier.charAt(0).toUpperCase() + tier.slice(1);
  return { path, day: `${year}-${month}-${date}`, tier, label: `${name}, ${day.format(when).replace(",", "")}` };
}

/** The entries for `paths`, once each: the newest day first, and in a day the easiest first. */
export function puzzleList(paths) {
  const entries = [...new Set(paths)].map(puzzleEntry).filter(Boolean);
  const rank = (tier) => (TIERS.includes(tier) ? TIERS.indexOf(tier) : TIERS.length);
  return entries.sort((a, b) => b.day.localeCompare(a.day) || rank(a.tier) - rank(b.tier));
}

async function keptPaths() {
  const paths = [];
  for (const name of await caches.keys()) {
    if (!name.startsWith("sudoku-pages-")) continue;
    const cache = await caches.open(name);
    for (const request of await cache.keys()) paths.push(new URL(request.url).pathname);
  }
  return paths;
}

async function show() {
  const list = document.getElementById("offline-puzzles");
  if (!list || !("caches" in window)) return;
  const entries = puzzleList(await keptPaths());
  if (!entries.length) return;
  for (const entry of entries) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = entry.path;
    link.textContent = entry.label;
    item.append(link);
    list.append(item);
  }
  list.hidden = false;
  document.getElementById("offline-none").hidden = true;
}

if (typeof document !== "undefined") show();
