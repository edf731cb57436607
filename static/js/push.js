// The reminder settings' push option (templates/puzzles/reminders/settings.html): shown only where
// the browser can subscribe, and the site offered it (the server renders it only with VAPID keys).
// Ticking it asks for the Notification permission, on that click and never before, subscribes this
// browser with the site's public key and sends the subscription to the server; unticking it
// unsubscribes this browser. The form's Save then stores the channel (email, push or both).
// The flows take what they use as arguments, so that tests/js/push.test.mjs runs them with fakes.

/** The VAPID public key (base64url, as the settings give it) as the bytes subscribe() takes. */
export function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** Whether this browser can get push notifications at all. */
export function pushSupported(win) {
  return "serviceWorker" in win.navigator && "PushManager" in win && "Notification" in win;
}

/**
 * What the page says on load about this browser, asking it nothing: with notifications on for the
 * account, whether this browser is one that gets them (`permission` is Notification.permission,
 * `subscribed` whether its worker holds a subscription). Empty when there is nothing to say.
 */
export function deviceNote({ checked, permission, subscribed }) {
  if (!checked) return "";
  if (permission === "denied") return "Notifications are blocked for this site in this browser: it gets none.";
  if (!subscribed) return "This browser gets no notifications yet: untick the box and tick it again to add it.";
  return "This browser gets the notifications.";
}

const REFUSED = "Notifications are blocked for this site in this browser, so none will come here. "
  + "To have them, allow notifications in the browser's site settings, then tick the box again.";

async function send(fetcher, url, token, body) {
  const response = await fetcher(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": token },
    body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({}));
  return { ok: response.ok, error: answer.error };
}

/**
 * Subscribe this browser: {ok, message}. `notification` is window.Notification, `registration`
 * gives the worker's registration (its pushManager), `fetcher` is fetch.
 */
export async function subscribeDevice({ notification, registration, fetcher, key, url, token }) {
  const permission = await notification.requestPermission();
  if (permission !== "granted") return { ok: false, message: REFUSED };
  let subscription;
  try {
    const { pushManager } = await registration();
    subscription = await pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  } catch {
    return { ok: false, message: "This browser could not subscribe to notifications. Email still works." };
  }
  try {
    const answer = await send(fetcher, url, token, subscription.toJSON());
    if (answer.ok) return { ok: true, message: "This browser will get the reminder. Save to keep your choice." };
    await subscription.unsubscribe().catch(() => {});
    return { ok: false, message: answer.error || "The site did not take this browser's subscription." };
  } catch {
    await subscription.unsubscribe().catch(() => {});
    return { ok: false, message: "The site could not be reached: try again when you are online." };
  }
}

/** Unsubscribe this browser, here and on the server: {ok, message}. */
export async function unsubscribeDevice({ registration, fetcher, url, token }) {
  try {
    const { pushManager } = await registration();
    const subscription = await pushManager.getSubscription();
    if (subscription) {
      await send(fetcher, url, token, { endpoint: subscription.endpoint });
      await subscription.unsubscribe();
    }
    return { ok: true, message: "This browser will get no more notifications. Save to keep your choice." };
  } catch {
    return { ok: false, message: "The site could not be reached: try again when you are online." };
  }
}

function start() {
  const box = document.getElementById("push-channel");
  const input = document.getElementById("id_push");
  const status = document.getElementById("push-status");
  if (!box || !input || !status || !pushSupported(window)) return;
  box.hidden = false;
  const token = document.querySelector("input[name=csrfmiddlewaretoken]")?.value || "";
  // The worker is registered by service-worker.js once the page has loaded: wait for it.
  // A worker that never becomes ready (it failed to install) must not leave the box waiting.
  const registration = async () => (await navigator.serviceWorker.getRegistration("/")) || Promise.race([
    navigator.serviceWorker.ready,
    new Promise((_, reject) => setTimeout(() => reject(new Error("no service worker")), 10_000)),
  ]);
  let changed = false; // a click answers for itself: the note on load must not overwrite it
  (async () => {
    const found = await navigator.serviceWorker.getRegistration("/");
    const subscribed = Boolean(await found?.pushManager.getSubscription().catch(() => null));
    if (!changed) status.textContent = deviceNote({ checked: input.checked, permission: Notification.permission, subscribed });
  })();
  input.addEventListener("change", async () => {
    changed = true;
    const on = input.checked;
    input.disabled = true;
    status.textContent = on ? "Asking this browser…" : "";
    const result = on
      ? await subscribeDevice({ notification: Notification, registration, fetcher: fetch, key: box.dataset.pushKey, url: box.dataset.subscribeUrl, token })
      : await unsubscribeDevice({ registration, fetcher: fetch, url: box.dataset.removeUrl, token });
    input.checked = on === result.ok;
    input.disabled = false;
    status.textContent = result.message;
    input.focus();
  });
}

if (typeof document !== "undefined") start();
