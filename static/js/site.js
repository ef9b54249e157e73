// Countdowns to every deadline and times in the viewer's chosen time zone. The server's numbers are the truth:
// each poll re-renders them; between polls this only counts down.
(function () {
  function fmt(total) {
    if (total <= 0) return "closing…";
    const d = Math.floor(total / 86400), h = Math.floor(total % 86400 / 3600), m = Math.floor(total % 3600 / 60), s = Math.floor(total % 60);
    return (d ? d + "d " : "") + (d || h ? h + "h " : "") + (d || h || m ? m + "m " : "") + s + "s";
  }
  // Deadlines are written as absolute times (a page may come from the cache); the header carries the
  // server's clock, so a wrong clock on the viewer's machine does not move them.
  const skew = (parseFloat(document.body && document.body.dataset.now) * 1000 || Date.now()) - Date.now();
  // Times are written as UTC instants (a cached page is the same for everyone); they are shown in the zone
  // the viewer chose on their profile (named in the header), written as the server writes them in emails.
  const zone = (document.body && document.body.dataset.zone) || "UTC";
  const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  let parts;
  try {
    parts = new Intl.DateTimeFormat("en-GB", {
      timeZone: zone, year: "numeric", month: "numeric", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23",
    });
  } catch (e) {
    parts = null;
  }
  function local(when) {
    if (!parts) return when.toISOString().slice(0, 16).replace("T", " ") + " (UTC)";
    const p = {};
    parts.formatToParts(when).forEach(function (x) { p[x.type] = x.value; });
    return p.day + " " + MONTHS[parseInt(p.month, 10) - 1] + " " + p.year + ", " + p.hour + ":" + p.minute + " (" + zone + ")";
  }
  function start(root) {
    root.querySelectorAll("time.countdown").forEach(function (el) {
      if (el.dataset.started) return;
      el.dataset.started = "1";
      const end = el.dataset.until
        ? Date.parse(el.dataset.until) - skew
        : Date.now() + parseFloat(el.dataset.seconds || "0") * 1000;
      const paused = el.dataset.paused === "1";
      function tick() {
        el.textContent = paused ? fmt(parseFloat(el.dataset.seconds)) + " (paused)" : fmt((end - Date.now()) / 1000);
        if (!paused && el.isConnected) setTimeout(tick, 1000);
      }
      tick();
    });
    root.querySelectorAll("time.local").forEach(function (el) {
      const when = new Date(el.getAttribute("datetime"));
      if (!isNaN(when)) el.textContent = local(when);
    });
    root.querySelectorAll("form[data-confirm]").forEach(function (form) {
      if (form.dataset.bound) return;
      form.dataset.bound = "1";
      form.addEventListener("submit", function (ev) { if (!window.confirm(form.dataset.confirm)) ev.preventDefault(); });
    });
  }
  document.addEventListener("DOMContentLoaded", function () { start(document); });
  document.addEventListener("htmx:afterSwap", function (ev) { start(document); });
})();

// "(2) genius": how many things await the player, in front of whatever the page's title is (a live page may
// change its title, "● Your turn · genius"; the count stays in front of it). The home page knows the count;
// every other page asks the API once, so no cached page body ever holds one player's count.
(function () {
  const body = document.body;
  if (!body || !body.dataset.awaitingUrl) return;
  let count = 0;
  function titled() {
    const bare = document.title.replace(/^\(\d+\) /, "");
    const want = count ? "(" + count + ") " + bare : bare;
    if (document.title !== want) document.title = want;
  }
  function show(n) {
    count = n;
    titled();
    const title = document.querySelector("title");
    if (title && window.MutationObserver && !title.dataset.watched) {
      title.dataset.watched = "1";
      new MutationObserver(titled).observe(title, { childList: true, characterData: true, subtree: true });
    }
  }
  document.addEventListener("DOMContentLoaded", function () {
    const known = document.querySelector("[data-awaiting-count]");
    if (known) return show(parseInt(known.dataset.awaitingCount, 10) || 0);
    fetch(body.dataset.awaitingUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : []; })
      .then(function (items) { show(items.length); })
      .catch(function () {});
  });
})();
