// The site's service worker (served at /sw.js, scope /): it shows the notifications the server pushes
// (games/platform/reach/push.py sends {title, body, url, tag}, encrypted to this browser) and opens the
// notification's page when it is clicked. It caches nothing: every page comes from the server as before.
self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});

self.addEventListener("push", function (event) {
  let note = {};
  try {
    note = event.data ? event.data.json() : {};
  } catch (e) {
    note = { body: event.data ? event.data.text() : "" };
  }
  const title = note.title || "genius";
  const options = {
    body: note.body || "",
    tag: note.tag || undefined,
    data: { url: note.url || "/" },
    icon: "/static/platform/icons/icon-192.png",
  };
  event.waitUntil(self.registration.showNotification(title, options));
});

// The browser replaced this device's subscription (it expired, or the push service rotated it): subscribe
// again with the same key and tell the site, naming the old endpoint, so the device keeps its notifications.
self.addEventListener("pushsubscriptionchange", function (event) {
  const old = event.oldSubscription;
  if (!old) return; // nothing names the device: the account page offers "Allow notifications" again
  const renewed = event.newSubscription
    ? Promise.resolve(event.newSubscription)
    : self.registration.pushManager.subscribe(old.options);
  event.waitUntil(renewed.then(function (subscription) {
    return fetch("/account/push/renew/", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ old_endpoint: old.endpoint, subscription: subscription.toJSON() }),
    });
  }));
});

// A click opens the note's page: a tab of the site already showing it is focused, another tab of the site
// is taken there, and with none open a new window opens. Only the site's own pages are opened: the link's
// path on this worker's origin.
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  let target = new URL("/", self.location.origin);
  try {
    const link = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
    target = new URL(link.pathname + link.search + link.hash, self.location.origin);
  } catch (e) {
    // not a URL: the home page
  }
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
      for (const w of windows) {
        if (w.url === target.href && "focus" in w) return w.focus();
      }
      for (const w of windows) {
        if ("navigate" in w && "focus" in w) return w.navigate(target.href).then(function (c) { return (c || w).focus(); });
      }
      return self.clients.openWindow(target.href);
    })
  );
});
