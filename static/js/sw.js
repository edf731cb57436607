// The service worker's code: what lets the site start without a connection (docs/architecture.md,
// "Offline"). A classic script, imported by the worker at /sw.js (puzzles/views/offline.py), which
// sets self.OFFLINE first: {version, precache: [URLs], offline: "/offline/", static: "/static/"}. Its own URL is a
// hashed static name in production, so a release that changes it changes /sw.js, and browsers
// install the new worker.
//
// Four kinds of cache, all of this origin's only:
//   sudoku-static-<version>   the static files and the offline page, fetched at install
//   sudoku-pages-<version>    each puzzle page opened here: the same document for everyone
//   sudoku-session-<mark>     the state API's answers for one session: the player's positions
//   sudoku-reader-<reader>    the home, stats and learn pages as last drawn for one logged-in
//                             reader, shown offline with a notice of their time
// A new version's activate deletes the old version's caches, and fetches again the puzzle pages
// and the reader's pages the old one kept (they name its static files).
//
// Who is asking: the board sends the CSRF token with every API request (sync.js), and Django
// gives a new one at every log-in. Its hash is the session's mark: a session cache is read and
// written only for requests carrying that mark, so another session (another player logged in on
// this browser, or nobody) never gets it. The session caches are also deleted when a form is
// posted to /accounts/ (log-out, log-in, sign-up), and when the server says nobody is logged in.
//
// A reader's pages: a page the worker may keep names its reader in a header (Sudoku-Reader,
// views/offline.py: a hash of the session's key, new at every log-in; "" for nobody). Only one
// reader's pages are ever kept: a page for another reader deletes them, one for nobody deletes
// them and the positions, and so does a form posted to /accounts/. Offline, a reader's page is
// shown only from that one cache, so a page kept for one account is never shown after another
// has logged in here.

const PREFIX = "sudoku-";
const PUZZLE_PAGE = /^\/daily\/\d{4}-\d{2}-\d{2}\/[a-z]+\/$/;
const STATE_API = /^\/api\/daily\/\d{4}-\d{2}-\d{2}\/[a-z]+\/state\/$/;
const WRITE_API = /^\/api\/daily\/\d{4}-\d{2}-\d{2}\/[a-z]+\/(save|submit|check|beat)\/$/;
// The pages kept for their reader: the home page, stats, the guide and each technique's page.
const READER_PAGE = /^\/(stats\/|learn\/([a-z0-9-]+\/)?)?$/;
const READER_HEADER = "Sudoku-Reader";
const KEPT_AT = "Sudoku-Kept-At"; // when a reader's page was kept, in ms since 1970
// Puzzle pages and positions kept, the most recently opened first: a player opens five a day.
const KEEP = 20;
// A reader's pages kept: the home page, stats and the whole guide (42 techniques) fit.
const READER_KEEP = 50;

/** The caches of this worker's `version`: {static, pages}. */
function cacheNames(version) {
  return { static: `${PREFIX}static-${version}`, pages: `${PREFIX}pages-${version}` };
}

/** The session cache for `mark`. */
function sessionCache(mark) {
  return `${PREFIX}session-${mark}`;
}

/** The cache of a reader's pages. */
function readerCache(reader) {
  return `${PREFIX}reader-${reader}`;
}

/**
 * Whether a new version deletes the cache `name`: ours, not among `keep`, and not a session's
 * (the positions are the server's answers, whatever the release; a log-out deletes those). A
 * reader's pages name the old version's static files: they go, and are fetched again.
 */
function isStale(name, keep) {
  return name.startsWith(PREFIX) && !name.startsWith(`${PREFIX}session-`) && !keep.includes(name);
}

/** The session's mark for a CSRF token: 16 hex digits of its SHA-256 ("" for no token). */
async function markOf(token) {
  if (!token) return "";
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return [...new Uint8Array(digest).slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * What a request is to this worker, from its method, `path` and mode: "puzzle-page",
 * "reader-page" (home, stats, learn), "page" (any other navigation), "accounts-post" (a form
 * posted to /accounts/), "state", "write" (save, submit, check or beat), "static", or null (left
 * to the browser).
 */
function routeOf(method, path, mode, staticUrl) {
  if (method === "POST") {
    if (mode === "navigate") return path.startsWith("/accounts/") ? "accounts-post" : null;
    return WRITE_API.test(path) ? "write" : null;
  }
  if (method !== "GET") return null;
  if (mode === "navigate") return PUZZLE_PAGE.test(path) ? "puzzle-page" : READER_PAGE.test(path) ? "reader-page" : "page";
  if (STATE_API.test(path)) return "state";
  if (path.startsWith(staticUrl)) return "static";
  return null;
}

/**
 * The state answer as kept for a session: the position and the player, without the messages the
 * server had waiting (they were shown once, online). Null for a visitor's, which is no one's.
 */
function keptState(answer) {
  if (!answer || !answer.player || !answer.givens) return null;
  const kept = { ...answer };
  delete kept.messages;
  return kept;
}

/**
 * The kept state after a write the server answered: `kind` is save, submit, check or beat, `body`
 * what the board sent, `status` and `answer` the server's reply; `now` in ms since 1970. A 200
 * save stored exactly the board it carried; a 409 carries the server's state; anything else
 * leaves the kept state as it was. Null stays null (nothing is made up from a write alone).
 */
function stateAfterWrite(kept, kind, body, status, answer, now) {
  if (!kept || !answer) return kept;
  const whole = (state) => keptState({ ...state, player: kept.player, started: true });
  if (status === 409) return answer.state ? whole(answer.state) : kept;
  if (status !== 200) return kept;
  if (kind === "save") {
    const { digits, corner, centre, colours } = body;
    return {
      ...kept, digits, corner, centre, colours, version: answer.version, elapsed: answer.elapsed,
      saved_at: now, hint_stage: 0, started: true,
    };
  }
  if (kind === "submit" && answer.solved && answer.state) return whole(answer.state);
  if (kind === "submit") return { ...kept, digits: body.digits, version: answer.version ?? kept.version, started: true };
  if (kind === "check") return { ...kept, checks: answer.checks ?? kept.checks };
  if (kind === "beat" && typeof answer.elapsed === "number") return { ...kept, elapsed: Math.max(kept.elapsed, answer.elapsed) };
  return kept;
}

/** Put `response` under `request` in the cache `name`, keeping the `most` newest. */
async function keep(name, request, response, most = KEEP) {
  const cache = await caches.open(name);
  await cache.delete(request); // so that it becomes the newest
  await cache.put(request, response);
  const keys = await cache.keys();
  await Promise.all(keys.slice(0, Math.max(0, keys.length - most)).map((key) => cache.delete(key)));
}

// How many times the session caches were forgotten since this worker started: an answer that
// left before a log-out and arrives after it must not bring its session's position back.
let forgotten = 0;

/**
 * Delete every session cache but `except`; with no `except` (nobody is logged in any more), every
 * reader's pages too.
 */
async function forgetSessions(except = "") {
  if (!except) forgotten += 1;
  const names = await caches.keys();
  const gone = (n) => (n.startsWith(`${PREFIX}session-`) && n !== except) || (!except && n.startsWith(`${PREFIX}reader-`));
  await Promise.all(names.filter(gone).map((n) => caches.delete(n)));
}

/** A puzzle page's key in its cache: its address without a query (a link's ?next=, say). */
function pageKey(url) {
  const { origin, pathname } = new URL(url);
  return origin + pathname;
}

/**
 * A reader's page as the network answered it: kept for the reader it names (and no other reader's
 * pages kept any more); for nobody, every session's positions and pages forgotten. A page that says
 * no-store (it showed a message once) names its reader but is not kept. An answer without the
 * header (a redirect, an error page) changes nothing. `epoch`: `forgotten` when the request left
 * (an answer that left before a log-out is not kept after it).
 */
async function keepForReader(key, response, epoch = forgotten) {
  if (response.redirected || !response.headers.has(READER_HEADER)) return;
  const reader = response.headers.get(READER_HEADER);
  const names = await caches.keys();
  if (!reader) {
    await forgetSessions();
    return;
  }
  const others = names.filter((n) => n.startsWith(`${PREFIX}reader-`) && n !== readerCache(reader));
  await Promise.all(others.map((n) => caches.delete(n)));
  if (response.status !== 200 || /no-store/.test(response.headers.get("Cache-Control") || "")) return;
  const headers = new Headers(response.headers);
  headers.set(KEPT_AT, String(Date.now()));
  const copy = new Response(await response.clone().text(), { status: 200, headers });
  if (epoch === forgotten) await keep(readerCache(reader), key, copy, READER_KEEP); // not after a log-out meanwhile
}

/** The one reader's kept copy of the page at `key`, or undefined (none, or no one reader). */
async function readerCopy(key) {
  const readers = (await caches.keys()).filter((n) => n.startsWith(`${PREFIX}reader-`));
  return readers.length === 1 ? caches.match(key, { cacheName: readers[0] }) : undefined;
}

/** "14:05 today", "14:05 yesterday", "Friday 27 November, 14:05": when a copy was kept, said at `now`. */
function keptWhen(kept, now) {
  const at = new Date(kept);
  const time = at.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });
  const day = (d) => new Date(d).toDateString();
  if (day(at) === day(now)) return `${time} today`;
  if (day(at) === day(now - 86_400_000)) return `${time} yesterday`;
  return `${at.toLocaleDateString("en-GB", { weekday: "long", day: "numeric", month: "long" })}, ${time}`;
}

/**
 * A kept reader's page as shown: a notice at the top of its main part says that it is the copy
 * kept at its time, which the network's answer replaces once it comes.
 */
async function withNotice(copy, now = Date.now()) {
  const kept = Number(copy.headers.get(KEPT_AT)) || now;
  const notice =
    `<p class="notice notice-warning offline-copy" role="status"><strong>Offline copy</strong> of this page as it ` +
    `was at ${keptWhen(kept, now)}. Reload it once you are back online to bring it up to date.</p>`;
  const html = (await copy.text()).replace(/<main\b[^>]*>/, (main) => main + notice);
  const headers = new Headers(copy.headers);
  headers.delete("Content-Length");
  return new Response(html, { status: 200, headers });
}

/** A JSON answer made here, from a kept state. */
function jsonResponse(data) {
  return new Response(JSON.stringify(data), { headers: { "Content-Type": "application/json" } });
}

// ---- What each route does. ----

// A puzzle page kept here is shown after this long without the network's answer: a connection
// that hangs rather than fails. The network's answer, when it comes, still updates the copy.
const PAGE_WAIT_MS = 4_000;

/**
 * A navigation: the network first, then the cache (a puzzle page or a reader's page, also when the
 * network is slower than PAGE_WAIT_MS), then the offline page. `kind` is the route ("puzzle-page",
 * "reader-page", "page"); `later` is the event's waitUntil.
 */
async function page(request, names, kind, later = () => {}) {
  const key = pageKey(request.url);
  const epoch = forgotten;
  const network = fetch(request).then(async (response) => {
    if (kind === "puzzle-page" && response.status === 200) await keep(names.pages, key, response.clone());
    if (kind === "reader-page") await keepForReader(key, response, epoch);
    return response;
  });
  let kept;
  if (kind === "puzzle-page") kept = await caches.match(key, { cacheName: names.pages });
  if (kind === "reader-page") kept = await readerCopy(key);
  // A reader's copy is shown under its notice (written in only when it is shown).
  const shown = (copy) => (kind === "reader-page" ? withNotice(copy) : copy);
  try {
    if (!kept) return await network;
    later(network.catch(() => {}));
    const slow = new Promise((resolve) => setTimeout(() => resolve(null), PAGE_WAIT_MS));
    return (await Promise.race([network, slow])) || (await shown(kept));
  } catch (error) {
    const cached = (kept && (await shown(kept))) || (await caches.match(self.OFFLINE.offline, { cacheName: names.static }));
    if (cached) return cached;
    throw error;
  }
}

/** The state API: the network, kept for the session; offline, the session's kept answer. */
async function state(request) {
  const epoch = forgotten;
  const mark = await markOf(request.headers.get("X-CSRFToken"));
  let response;
  try {
    response = await fetch(request);
  } catch (error) {
    const cached = mark && (await caches.match(request.url, { cacheName: sessionCache(mark) }));
    if (cached) return cached;
    throw error;
  }
  if (response.status === 200) {
    const kept = keptState(await response.clone().json().catch(() => null));
    if (!kept || !mark) await forgetSessions(); // nobody is logged in: no position is anyone's here
    else if (epoch === forgotten) {
      await forgetSessions(sessionCache(mark)); // another session's positions are not this one's
      await keep(sessionCache(mark), request.url, jsonResponse(kept));
    }
  }
  return response;
}

// The positions this worker has asked for after a write found none kept, once each (by mark and address).
const asked = new Set();

/**
 * A write (save, submit, check, beat): to the network; its answer brings the kept state up to
 * date. With none kept (a visitor whose first move made them a guest, whose state answer was no
 * one's), the state is fetched once, in the background (`later`, the event's waitUntil).
 */
async function write(request, later = () => {}) {
  const epoch = forgotten;
  const token = request.headers.get("X-CSRFToken");
  const mark = await markOf(token);
  const body = await request.clone().json().catch(() => null);
  const response = await fetch(request);
  if (!mark || !body) return response;
  const kind = new URL(request.url).pathname.match(WRITE_API)[1];
  const stateUrl = request.url.replace(/[a-z]+\/$/, "state/");
  // match, not open: opening would make the cache again after a log-out deleted it.
  const cached = await caches.match(stateUrl, { cacheName: sessionCache(mark) });
  if (!cached) {
    if (response.status === 200 && !asked.has(`${mark} ${stateUrl}`)) {
      asked.add(`${mark} ${stateUrl}`);
      const headers = { Accept: "application/json", "X-CSRFToken": token };
      later(state(new Request(stateUrl, { credentials: "same-origin", headers })).catch(() => {}));
    }
    return response;
  }
  const answer = await response.clone().json().catch(() => null);
  const next = stateAfterWrite(await cached.json(), kind, body, response.status, answer, Date.now());
  if (next && epoch === forgotten && (await caches.has(sessionCache(mark)))) {
    await (await caches.open(sessionCache(mark))).put(stateUrl, jsonResponse(next));
  }
  return response;
}

/** A static file: the cache of this version, else the network. */
async function staticFile(request, names) {
  return (await caches.match(request, { cacheName: names.static })) || fetch(request);
}

// ---- Push reminders (puzzles/accounts/push.py sends them; docs/playing.md, "Reminders"). ----

/**
 * What a push shows: [title, options] from the server's JSON {title, body, icon, url, tag}; a
 * message that is not such JSON still shows a plain reminder (a push must show something).
 * The url is kept only if it is of this origin.
 */
function notificationOf(text, origin, staticPrefix) {
  let data;
  try {
    data = JSON.parse(text || "{}") || {};
  } catch {
    data = {};
  }
  const url = new URL(typeof data.url === "string" ? data.url : "/", origin);
  const options = {
    body: typeof data.body === "string" ? data.body : "Today's puzzles are out.",
    icon: typeof data.icon === "string" ? data.icon : `${staticPrefix}icons/icon-192.png`,
    tag: typeof data.tag === "string" ? data.tag : "daily-reminder",
    data: { url: url.origin === origin ? url.href : `${origin}/` },
  };
  return [typeof data.title === "string" ? data.title : "Today's sudoku", options];
}

/** A click on the reminder: focus a tab of the site (taking it to the url), else open the url. */
async function openReminder(clients, url) {
  const origin = new URL(url).origin;
  const open = await clients.matchAll({ type: "window", includeUncontrolled: true });
  const tab = open.find((client) => new URL(client.url).origin === origin);
  if (tab) {
    const focused = await tab.focus();
    if (focused.url !== url && typeof focused.navigate === "function") await focused.navigate(url).catch(() => {});
    return focused;
  }
  return clients.openWindow(url);
}

// ---- The worker's life. ----

if (typeof self.addEventListener === "function" && self.OFFLINE) {
  const names = cacheNames(self.OFFLINE.version);

  self.addEventListener("install", (event) => {
    // cache: "reload": the files themselves, not the browser's HTTP cache's copies of them.
    event.waitUntil((async () => {
      const cache = await caches.open(names.static);
      await cache.addAll([...self.OFFLINE.precache, self.OFFLINE.offline].map((url) => new Request(url, { cache: "reload" })));
      // A page with unsaved moves keeps them in its own memory and on the device (device.js), not
      // here, and the new worker answers its requests as the old one did: it may take over now.
      await self.skipWaiting();
    })());
  });

  self.addEventListener("activate", (event) => {
    event.waitUntil((async () => {
      const keep = [names.static, names.pages];
      const all = await caches.keys();
      // The puzzle pages and the reader's pages the old version kept name its static files: they
      // are fetched again (a reader's, for whoever is logged in now).
      const urlsOf = async (prefix, except = "") => {
        const urls = [];
        for (const name of all.filter((n) => n.startsWith(prefix) && n !== except)) {
          urls.push(...(await (await caches.open(name)).keys()).map((request) => request.url));
        }
        return urls;
      };
      const again = await urlsOf(`${PREFIX}pages-`, names.pages);
      const readers = await urlsOf(`${PREFIX}reader-`);
      await Promise.all(all.filter((name) => isStale(name, keep)).map((name) => caches.delete(name)));
      await self.clients.claim();
      const pages = await caches.open(names.pages);
      const refetch = (url) => fetch(url, { credentials: "same-origin" }).catch(() => null);
      await Promise.all([
        ...again.map(async (url) => {
          const response = await refetch(url);
          if (response?.status === 200) await pages.put(url, response);
        }),
        ...readers.map(async (url) => {
          const epoch = forgotten;
          const response = await refetch(url);
          if (response) await keepForReader(url, response, epoch);
        }),
      ]);
    })());
  });

  self.addEventListener("fetch", (event) => {
    const { request } = event;
    const url = new URL(request.url);
    if (url.origin !== self.location.origin) return;
    const route = routeOf(request.method, url.pathname, request.mode, self.OFFLINE.static);
    if (route === "accounts-post") {
      // A log-out, a log-in or a sign-up ends the session whose positions are kept: forget them
      // before the answer comes. The form goes to the network as if there were no worker.
      event.waitUntil(forgetSessions());
    } else if (route === "puzzle-page" || route === "reader-page" || route === "page") {
      event.respondWith(page(request, names, route, (work) => event.waitUntil(work)));
    } else if (route === "state") {
      event.respondWith(state(request));
    } else if (route === "write") {
      event.respondWith(write(request, (promise) => event.waitUntil(promise)));
    } else if (route === "static") {
      event.respondWith(staticFile(request, names));
    }
  });

  self.addEventListener("push", (event) => {
    const [title, options] = notificationOf(event.data ? event.data.text() : "", self.location.origin, self.OFFLINE.static);
    event.waitUntil(self.registration.showNotification(title, options));
  });

  self.addEventListener("notificationclick", (event) => {
    event.notification.close();
    const url = event.notification.data?.url || `${self.location.origin}/`;
    event.waitUntil(openReminder(self.clients, url));
  });

  // A page that loaded before this worker controlled it (the first visit) says so: its puzzle
  // page is kept, and its position, fetched with its token, as if it had gone through here; a
  // reader's page is kept for its reader.
  self.addEventListener("message", (event) => {
    const { type, page: pageUrl, state: stateUrl, token } = event.data || {};
    if (type !== "opened" || typeof pageUrl !== "string") return;
    const url = new URL(pageUrl, self.location.origin);
    if (url.origin !== self.location.origin) return;
    if (READER_PAGE.test(url.pathname)) {
      const epoch = forgotten;
      const kept = fetch(url.href, { credentials: "same-origin" }).then((response) => keepForReader(pageKey(url.href), response, epoch));
      event.waitUntil(kept.catch(() => {}));
      return;
    }
    if (!PUZZLE_PAGE.test(url.pathname)) return;
    event.waitUntil((async () => {
      const response = await fetch(url.href, { credentials: "same-origin" });
      if (response.status === 200) await keep(names.pages, pageKey(url.href), response);
      const api = typeof stateUrl === "string" ? new URL(stateUrl, self.location.origin) : null;
      if (!api || api.origin !== self.location.origin || !STATE_API.test(api.pathname)) return;
      const headers = { Accept: "application/json", "X-CSRFToken": typeof token === "string" ? token : "" };
      await state(new Request(api.href, { credentials: "same-origin", headers }));
    })().catch(() => {}));
  });
}
