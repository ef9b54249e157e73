// Countdowns to every deadline and times in the viewer's own time zone. The server's numbers are the truth:
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
      if (!isNaN(when)) el.textContent = when.toLocaleString();
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
