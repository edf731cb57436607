// A home page still waiting for some of today's puzzles (their pools being filled for the first
// time, or the day not yet published) asks now and then which are out, by a small JSON request.
// Each card newly published is put in place from a fresh copy of the page, so nothing the reader
// is looking at moves and focus stays where it is (a waiting card holds nothing to focus); on the
// address of a puzzle being prepared, that puzzle opens as soon as it is out.

const POLL_MS = 15_000;
const GIVE_UP_MS = 30 * 60_000; // a site whose workers are down does not keep a tab busy all day

const list = document.getElementById("home-cards");
if (list) watch(list);

function watch(cards) {
  const { waitingUrl, waitingFor } = cards.dataset;
  const started = Date.now();
  let busy = false;
  const timer = setInterval(async () => {
    if (document.hidden || busy) return;
    if (Date.now() - started > GIVE_UP_MS) {
      clearInterval(timer);
      return;
    }
    busy = true;
    try {
      const published = await publishedNow(waitingUrl);
      if (waitingFor && published.includes(waitingFor)) {
        clearInterval(timer);
        window.location.reload();
        return;
      }
      const arrived = published.filter((tier) => cards.querySelector(`li.is-empty[data-tier="${tier}"]`));
      if (arrived.length) await putInPlace(cards, arrived);
      if (!cards.querySelector("li.is-empty")) clearInterval(timer);
    } catch {
      // Offline or a server restarting: the next round asks again.
    } finally {
      busy = false;
    }
  }, POLL_MS);
}

/** The difficulties published today, by the site's small endpoint. */
async function publishedNow(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
  if (!response.ok) return [];
  const data = await response.json();
  return Array.isArray(data.published) ? data.published : [];
}

/** Replace the waiting cards of `tiers` with the page's fresh ones, and say which arrived. */
async function putInPlace(cards, tiers) {
  const response = await fetch(window.location.href, { headers: { Accept: "text/html" }, credentials: "same-origin" });
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const placed = [];
  for (const tier of tiers) {
    const fresh = page.querySelector(`#home-cards li[data-tier="${tier}"]:not(.is-empty)`);
    const waiting = cards.querySelector(`li.is-empty[data-tier="${tier}"]`);
    if (!fresh || !waiting) continue;
    waiting.replaceWith(document.importNode(fresh, true));
    placed.push(tier);
  }
  const status = document.getElementById("home-cards-status");
  if (status && placed.length) {
    const names = placed.map((tier) => `The ${tier} puzzle`);
    status.textContent = `${names.join(", ")} ${placed.length === 1 ? "is" : "are"} ready.`;
  }
}
