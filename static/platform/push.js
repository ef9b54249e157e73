// The account page's "Allow notifications on this device" (templates/platform/push_devices.html): registers
// the site's service worker (/sw.js), asks the browser's permission, subscribes with the site's VAPID public
// key and hands the subscription to the server, which lists the device. The page re-renders the list after
// a test or a removal (htmx): the button is set up again then.
(function () {
  const STORED = "genius-push-device";

  function csrfHeaders() {
    const headers = JSON.parse(document.body.getAttribute("hx-headers") || "{}");
    headers["Content-Type"] = "application/json";
    return headers;
  }

  function keyBytes(base64url) {
    const text = (base64url + "=".repeat((4 - base64url.length % 4) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    const raw = atob(text);
    return Uint8Array.from(raw, function (c) { return c.charCodeAt(0); });
  }

  function registration() {
    return navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    });
  }

  function setUp() {
    const box = document.querySelector(".push-this-device");
    if (!box || box.dataset.ready) return;
    box.dataset.ready = "1";
    const button = document.getElementById("push-allow");
    const state = document.getElementById("push-state");
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
      state.textContent = "This browser cannot take notifications from websites."
        + " On an iPhone or iPad, add the site to your home screen first, then allow them from there.";
      return;
    }
    const listed = (box.dataset.deviceIds || "").split(" ").filter(Boolean);
    registration().then(function (reg) {
      return reg.pushManager.getSubscription();
    }).then(function (subscription) {
      const mine = window.localStorage && localStorage.getItem(STORED);
      if (subscription && mine && listed.indexOf(mine) >= 0) {
        state.textContent = "This device takes notifications.";
        return;
      }
      if (Notification.permission === "denied") {
        state.textContent = "This browser blocks the site's notifications: allow them in its site settings.";
        return;
      }
      button.hidden = false;
    }).catch(function () {
      state.textContent = "The site's notification helper did not start in this browser.";
    });

    button.addEventListener("click", function () {
      button.disabled = true;
      state.textContent = "Asking…";
      Notification.requestPermission().then(function (permission) {
        if (permission !== "granted") throw new Error("You did not allow notifications.");
        return registration();
      }).then(function (reg) {
        return reg.pushManager.getSubscription().then(function (old) {
          return old || reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.pushKey) });
        });
      }).then(function (subscription) {
        return fetch(box.dataset.subscribeUrl, {
          method: "POST", credentials: "same-origin", headers: csrfHeaders(), body: JSON.stringify(subscription.toJSON()),
        });
      }).then(function (response) {
        return response.json().then(function (body) {
          if (!response.ok) throw new Error(body.detail || Object.values(body).flat().join(" ") || "The site refused this device.");
          if (window.localStorage) localStorage.setItem(STORED, String(body.id));
          // The list shows the new device, with its test button.
          window.location.reload();
        });
      }).catch(function (error) {
        button.disabled = false;
        state.textContent = error.message || "Notifications could not be turned on.";
      });
    });
  }

  document.addEventListener("DOMContentLoaded", setUp);
  if (document.readyState !== "loading") setUp();
  document.body.addEventListener("htmx:afterSettle", setUp);
})();
