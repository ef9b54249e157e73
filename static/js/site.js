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
  // A visitor who is not logged in has no profile: their browser's own zone, named the same way.
  function browserZone() {
    try {
      return Intl.DateTimeFormat().resolvedOptions().timeZone;
    } catch (e) {
      return "";
    }
  }
  const zone = (document.body && document.body.dataset.zone) || browserZone() || "UTC";
  // A logged-in user without a zone yet: the browser's becomes theirs (for emails and the pages' text
  // too), once; the account page's select shows it, to keep or change.
  function zoneDetected() {
    const body = document.body;
    const url = body && body.dataset.zoneDetectUrl;
    const seen = browserZone();
    if (!url || !seen) return;
    document.querySelectorAll("select[data-browser-zone]").forEach(function (select) {
      if (Array.prototype.some.call(select.options, function (o) { return o.value === seen; })) select.value = seen;
    });
    // The header's CSRF token, as htmx sends it.
    const headers = JSON.parse(body.getAttribute("hx-headers") || "{}");
    const data = new URLSearchParams({ time_zone: seen });
    fetch(url, { method: "POST", body: data, headers: headers, credentials: "same-origin" }).catch(function () {});
  }
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
    // "8 Dec", as the server writes it (en-GB's numeric day may come as "08").
    return parseInt(p.day, 10) + " " + MONTHS[parseInt(p.month, 10) - 1] + " " + p.year + ", " + p.hour + ":" + p.minute + " (" + zone + ")";
  }
  // A live match's turn clock (platform/turn_clock.html): the turn counted down to its deadline, then the
  // reserve drawn in steps exactly as the server's settlement draws it (services/clocks.py clock_settle), so
  // the page shows the time the player truly has whether or not the sweep has drawn the step yet: "42s (+ 10m
  // 0s reserve)", then "reserve 27s (+ 9m 0s)", and "time ran out" once the reserve is gone too (the time-out
  // the sweep or the next move applies). Counted here rather than settled by the server when a page asks: the
  // draw is arithmetic on stored numbers, so the browser gets it right without asking, while settling on read
  // would make every viewer's poll (a GET, mostly answered from the cache) lock the game and write. The poll
  // brings the stored clock whenever a step is drawn (each draw moves the game's version).
  function turnClock(end, reserve, step, inReserve, now) {
    let deadline = end;
    while (deadline <= now && step > 0 && reserve > 0) {
      const drawn = Math.min(step, reserve);
      reserve -= drawn;
      deadline += drawn * 1000;
      inReserve = true;
    }
    if (deadline <= now) return "time ran out";
    const left = fmt((deadline - now) / 1000);
    const more = reserve > 0 ? fmt(reserve) : "";
    if (inReserve) return "reserve " + left + (more ? " (+ " + more + ")" : "");
    return left + (more ? " (+ " + more + " reserve)" : "");
  }
  function start(root) {
    root.querySelectorAll("time.countdown").forEach(function (el) {
      if (el.dataset.started) return;
      el.dataset.started = "1";
      const end = el.dataset.until
        ? Date.parse(el.dataset.until) - skew
        : Date.now() + parseFloat(el.dataset.seconds || "0") * 1000;
      const paused = el.dataset.paused === "1";
      // "closes in 2h 5m", then "closing…" alone once the deadline is reached (never "closes in closing…").
      const lead = el.dataset.lead ? el.dataset.lead + " in " : "";
      const clock = el.dataset.reserve !== undefined;
      function tick() {
        if (clock) {
          el.textContent = turnClock(end, parseFloat(el.dataset.reserve) || 0, parseFloat(el.dataset.step) || 0,
            el.dataset.inReserve === "1", Date.now());
          if (el.isConnected) setTimeout(tick, 1000);
          return;
        }
        const left = paused ? parseFloat(el.dataset.seconds) : (end - Date.now()) / 1000;
        const text = fmt(left);
        el.textContent = (left > 0 ? lead + text : text) + (paused ? " (paused)" : "");
        if (!paused && el.isConnected) setTimeout(tick, 1000);
      }
      tick();
    });
    // A round's form and countdown are true until its deadline: then the page says "closed, results
    // coming" (the resolution, which moves the version and brings the results, may come later).
    root.querySelectorAll("[data-open-until]").forEach(function (el) {
      if (el.dataset.switchBound) return;
      el.dataset.switchBound = "1";
      const end = Date.parse(el.dataset.openUntil) - skew;
      function close() {
        if (!el.isConnected) return;
        // A form the player has typed into stays in view: they are told it was not saved (below).
        if (el.dataset.dirty) return el.dispatchEvent(new CustomEvent("genius:unsaved", { bubbles: true }));
        el.querySelectorAll("[data-while-open]").forEach(function (x) { x.hidden = true; });
        el.querySelectorAll("[data-once-closed]").forEach(function (x) { x.hidden = false; });
      }
      if (isNaN(end)) return;
      const wait = end - Date.now();
      if (wait <= 0) close();
      else if (wait < 2147483647) setTimeout(close, wait); // beyond: setTimeout's limit, 24 days
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
  document.addEventListener("DOMContentLoaded", function () { start(document); zoneDetected(); });
  document.addEventListener("htmx:afterSwap", function (ev) { start(document); });
})();

// "(2) genius": how many things await the player, in front of whatever the page's title is (a live page may
// change its title, "● Your turn · genius"; the count stays in front of it). The home page knows the count;
// every other page asks the API, so no cached page body ever holds one player's count. While the page's event
// stream is open (below), it asks when the stream says the player's counts or one of their games moved
// ("counts", "mine"): what awaits may come from another game, which this page's polls never bring, and a
// hidden tab's title is read most. While the stream is down, it asks every minute and when the tab comes back
// into view, as before; while it is open and heard (an event or a ping within the safety interval), it asks
// only on those events.
(function () {
  const body = document.body;
  if (!body || !body.dataset.awaitingUrl) return;
  let count = 0, streaming = false, asked = 0, asking = false, again = false;
  function home() { return document.querySelector("[data-awaiting-count]"); }
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
  function ask() {
    if (asking) { again = true; return; } // one answer in flight at a time; news meanwhile asks once after it
    asking = true;
    asked = Date.now();
    fetch(body.dataset.awaitingUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : []; })
      .then(function (items) { show(items.length); })
      .catch(function () {})
      .then(function () {
        asking = false;
        if (again) { again = false; ask(); }
      });
  }
  function safety() {
    const part = document.querySelector("[data-safety-poll]");
    return ((part && parseInt(part.dataset.safetyPoll, 10)) || 45) * 1000;
  }
  document.addEventListener("DOMContentLoaded", function () {
    const known = home();
    if (known) return show(parseInt(known.dataset.awaitingCount, 10) || 0);
    ask();
  });
  // The home page's list fetches itself (it follows the stream, or its own poll), and its count is the title's.
  document.addEventListener("htmx:afterSwap", function (ev) {
    const known = home();
    if (known) return show(parseInt(known.dataset.awaitingCount, 10) || 0);
    // Without the stream, a live part that changed (a round resolved, a message to the player) may change
    // the count; with it, the same change sends "counts" or "mine". A poll with nothing new swaps nothing.
    if (!streaming && ev.target && ev.target.id === "live") ask();
  });
  document.addEventListener("genius:stream", function (ev) {
    streaming = ev.detail.open;
    if (streaming && ev.detail.missed && !home()) ask(); // what moved while it was down
  });
  document.addEventListener("genius:live", function (ev) {
    const kind = ev.detail.kind;
    if (!home() && (kind === "counts" || (kind === "mine" && ev.detail.data.game))) ask();
  });
  // While the stream is heard, the count follows its events (a ping that finds the page behind asks too).
  let heard = 0;
  document.addEventListener("genius:heard", function () { heard = Date.now(); });
  setInterval(function () {
    const now = Date.now();
    if (home() || (streaming && (now - heard < safety() || now - asked < safety()))) return;
    ask();
  }, 60000);
  document.addEventListener("visibilitychange", function () {
    if (document.hidden || streaming) return; // a hidden tab hears the stream at once: nothing to catch up
    const list = document.querySelector(".awaiting[hx-get]");
    if (!list || !window.htmx) return ask();
    window.htmx.ajax("GET", list.getAttribute("hx-get"), { target: list, swap: "outerHTML" });
  });
})();

// "● Your turn · genius": a live page's #live says whose move it is for this player (data-your: "turn",
// "decision", or empty). The title says so while it is theirs (after the count above, which stays in front),
// and when it becomes theirs a short beep and a browser notification follow, where the player asked for them
// with the page's checkbox (platform/turn_alerts.html). That choice is kept in this browser (localStorage):
// the permission and the speaker it needs are the browser's, and a player may want it on one device only.
(function () {
  const KEY = "genius:turn-alerts";
  let bare = null, was = null, audio = null;
  function wanted() {
    try { return localStorage.getItem(KEY) === "on"; } catch (e) { return false; }
  }
  function beep() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      audio = audio || new Context();
      if (audio.state === "suspended") audio.resume();
      const tone = audio.createOscillator(), gain = audio.createGain(), t = audio.currentTime;
      tone.frequency.value = 880;
      gain.gain.setValueAtTime(0.2, t);
      gain.gain.exponentialRampToValueAtTime(0.001, t + 0.25);
      tone.connect(gain).connect(audio.destination);
      tone.start(t);
      tone.stop(t + 0.25);
    } catch (e) {}
  }
  function notify(your) {
    if (!("Notification" in window) || Notification.permission !== "granted") return;
    const name = (document.querySelector("main h1") || {}).firstChild;
    try {
      const shown = new Notification("Your " + your, { body: name ? name.textContent.trim() : "", tag: "genius-turn-" + location.pathname });
      shown.onclick = function () { window.focus(); }; // a click on it brings the game's tab forward
    } catch (e) {} // a phone's browser shows notifications from a service worker only: the title and sound stay
  }
  function follow() {
    const live = document.getElementById("live");
    if (!live || live.dataset.your === undefined) return;
    const your = live.dataset.your;
    if (bare === null) bare = document.title.replace(/^\(\d+\) /, "");
    const count = (document.title.match(/^\(\d+\) /) || [""])[0];
    const want = count + (your ? "● Your " + your + " · genius" : bare);
    if (document.title !== want) document.title = want;
    if (your && was === "" && wanted()) {
      beep();
      notify(your);
    }
    was = your;
  }
  function note(text) {
    const box = document.getElementById("turn-alerts-note");
    if (box) box.textContent = text;
  }
  document.addEventListener("DOMContentLoaded", function () {
    follow();
    const box = document.getElementById("turn-alerts");
    if (!box) return;
    box.checked = wanted();
    box.addEventListener("change", function () {
      try { localStorage.setItem(KEY, box.checked ? "on" : "off"); } catch (e) {}
      if (!box.checked) return note("");
      beep(); // what it will sound like; the click also lets the page play sound later
      if (!("Notification" in window)) return note("This browser shows no notifications: the sound will play.");
      const told = function (permission) {
        note(permission === "denied" ? "Notifications are blocked for this site in your browser: the sound will play." : "");
      };
      if (Notification.permission === "default") {
        const asked = Notification.requestPermission(told);
        if (asked && asked.then) asked.then(told);
      } else told(Notification.permission);
    });
  });
  // A browser plays sound only after the page was used: the first click or key on it readies the beep.
  function ready() {
    if (wanted() && !audio) {
      const Context = window.AudioContext || window.webkitAudioContext;
      try { if (Context) audio = new Context(); } catch (e) {}
    }
  }
  document.addEventListener("pointerdown", ready, { once: true });
  document.addEventListener("keydown", ready, { once: true });
  document.addEventListener("htmx:afterSwap", function (ev) {
    if (ev.target && ev.target.id === "live") follow();
  });
})();

// Forms that follow the round (games/platform/round_form.py). The live part of a game page carries the key
// of the round it shows (data-form-key); when a poll brings another round, an untouched form is replaced by
// the new round's, with a line saying what became of the last one. A form the player has typed into is
// never thrown away: it stays, its buttons off, under a notice that what it holds was not saved.
(function () {
  function section() { return document.getElementById("round-form"); }
  function touched(ev) {
    const form = section();
    if (form && form.contains(ev.target) && ev.target.form) form.dataset.dirty = "1";
  }
  document.addEventListener("input", touched, true);
  document.addEventListener("change", touched, true);

  function parts(key) {
    const bits = (key || "").split("-");
    return { round: bits[0], status: bits[1] };
  }
  function load(closed) {
    const form = section();
    if (!form || !window.htmx) return;
    form.dataset.following = "1";
    const url = location.pathname + (closed ? "?closed=" + encodeURIComponent(closed) : "");
    window.htmx.ajax("GET", url, { target: "#round-form", swap: "outerHTML" });
  }
  function keep(form, closed) {
    form.dataset.following = "1";
    let note = form.querySelector(".round-kept");
    if (!note) {
      note = document.createElement("div");
      note.className = "error-summary round-kept";
      note.setAttribute("role", "alert");
      note.tabIndex = -1;
      const title = document.createElement("h2");
      title.textContent = "Not saved: Round " + form.dataset.round + " closed";
      const text = document.createElement("p");
      text.textContent = "What you typed below was not saved: the round closed first. " +
        (form.querySelector(".saved") ? "Your last save counted." : "You saved nothing for this round.");
      note.append(title, text);
      form.prepend(note);
      // What became of the round before is no longer news: this round's close is.
      form.querySelectorAll(".round-notice").forEach(function (x) { x.remove(); });
      form.querySelectorAll("[data-while-open]").forEach(function (x) { x.hidden = false; });
      form.querySelectorAll("[data-once-closed]").forEach(function (x) { x.hidden = true; });
      form.querySelectorAll("button[type=submit]").forEach(function (b) { b.disabled = true; });
      form.querySelectorAll("[data-while-open] h2 small").forEach(function (x) { x.textContent = "(closed)"; });
    }
    if (closed && !note.querySelector("button")) {
      const next = document.createElement("button");
      next.type = "button";
      next.className = "secondary";
      next.textContent = "Clear it and show what is open now";
      next.addEventListener("click", function () { load(closed); });
      note.append(next);
    }
  }
  let tried = "";
  function follow() {
    const live = document.getElementById("live"), form = section();
    if (!live || !form || !live.dataset.formKey) return;
    if (live.dataset.formKey === form.dataset.formKey) return;
    const pair = live.dataset.formKey + "|" + form.dataset.formKey;
    if (pair === tried) return; // asked once already: never a loop of requests
    const was = parts(form.dataset.formKey), now = parts(live.dataset.formKey);
    // Another round, or this one resolved with none after it: the form's round closed.
    const closed = was.round !== now.round || (now.status !== "open" && now.status !== "closed") ? was.round : "";
    if (form.dataset.following) {
      // Kept at its deadline, before the round resolved: now that its close is known, offer what is open
      // (a form being fetched is left to its request).
      if (closed && form.querySelector(".round-kept")) keep(form, closed);
      return;
    }
    tried = pair;
    if (!form.dataset.dirty) return load(closed);
    if (closed) return keep(form, closed);
    form.dataset.formKey = live.dataset.formKey; // paused or resumed: what they typed stays as it is
  }
  document.addEventListener("htmx:afterSettle", follow);
  document.addEventListener("genius:unsaved", function (ev) {
    if (ev.target === section()) keep(ev.target, "");
  });
})();

// Errors and confirmations where the player is looking. A refused save shows "Not saved: 2 problems" at the
// top of its form: the page scrolls to it and the focus goes to the first field in error (or to the summary).
// A message after an action (a purchase, a flip, a save) is moved next to the form it was sent from.
(function () {
  function firstField(box) {
    return box && box.querySelector("input:not([type=hidden]):not([disabled]), select, textarea");
  }
  function showProblems() {
    const summary = document.querySelector(".error-summary");
    if (!summary) return false;
    const bad = summary.closest("section") && summary.closest("section").querySelector(".has-error");
    summary.scrollIntoView({ block: "start" });
    const field = firstField(bad);
    if (!field) { summary.focus({ preventScroll: true }); return true; }
    // The field's message sits under its label: when the summary and it do not fit on the screen together,
    // the field comes first.
    const message = bad.querySelector(".error") || bad;
    if (message.getBoundingClientRect().bottom > window.innerHeight) bad.scrollIntoView({ block: "start" });
    field.focus({ preventScroll: true });
    return true;
  }
  document.addEventListener("click", function (ev) {
    const link = ev.target.closest && ev.target.closest(".error-summary a[href^='#']");
    if (!link) return;
    const field = document.getElementById(link.getAttribute("href").slice(1));
    if (!field) return;
    ev.preventDefault();
    (field.closest(".field") || field).scrollIntoView({ block: "start" });
    field.focus({ preventScroll: true });
  });

  const KEY = "genius:sent-from";
  document.addEventListener("submit", function (ev) {
    const from = ev.target.closest && ev.target.closest("[id]");
    if (from && from.id && !ev.defaultPrevented) {
      try { sessionStorage.setItem(KEY, JSON.stringify({ path: location.pathname, id: from.id })); } catch (e) {}
    }
  });
  function placeMessages() {
    let sent = null;
    try { sent = JSON.parse(sessionStorage.getItem(KEY) || "null"); sessionStorage.removeItem(KEY); } catch (e) {}
    const found = document.querySelector("main .messages");
    // The messages' own box (their role=status wrapper, if any), moved as one.
    const list = found && (found.parentElement.tagName === "MAIN" ? found : found.parentElement);
    if (!list || !sent || sent.path !== location.pathname) return;
    const near = document.getElementById(sent.id);
    if (!near || near.tagName === "MAIN" || near.id === "live") return;
    near.parentNode.insertBefore(list, near);
    list.classList.add("near");
    list.scrollIntoView({ block: "start" });
  }
  document.addEventListener("DOMContentLoaded", function () {
    if (!showProblems()) placeMessages();
  });
})();

// A table wider than its box says that it scrolls ("Wider than your screen: scroll sideways"): .scroll-x
// boxes are marked when what they hold does not fit, on load, after each swap and when the screen turns.
(function () {
  function mark() {
    document.querySelectorAll(".scroll-x").forEach(function (box) {
      box.toggleAttribute("data-scrolls", box.scrollWidth > box.clientWidth + 1);
    });
  }
  document.addEventListener("DOMContentLoaded", mark);
  document.addEventListener("htmx:afterSettle", mark);
  window.addEventListener("resize", mark);
})();

// A card that scrolls sideways itself (a wide part of a game on a phone) can be scrolled from the keyboard too:
// while it scrolls it takes the focus (tabindex), and gives it back when it fits again.
(function () {
  function mark() {
    document.querySelectorAll(".card").forEach(function (box) {
      const scrolls = box.scrollWidth > box.clientWidth + 1;
      if (scrolls && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        box.dataset.keyboardScroll = "1";
      } else if (!scrolls && box.dataset.keyboardScroll) {
        box.removeAttribute("tabindex");
        delete box.dataset.keyboardScroll;
      }
    });
  }
  document.addEventListener("DOMContentLoaded", mark);
  document.addEventListener("htmx:afterSettle", mark);
  window.addEventListener("resize", mark);
})();

// A fold the viewer opened (details with an id, such as the earlier announcements) stays open when a poll
// replaces the part it sits in.
(function () {
  const opened = {};
  document.addEventListener("toggle", function (ev) {
    if (ev.target.tagName === "DETAILS" && ev.target.id) opened[ev.target.id] = ev.target.open;
  }, true);
  function reopen() {
    Object.keys(opened).forEach(function (id) {
      const fold = document.getElementById(id);
      if (opened[id] && fold && !fold.open) fold.open = true;
    });
  }
  // Right after the swap, in the same task: the fold is never painted shut.
  document.addEventListener("htmx:afterSwap", reopen);
  document.addEventListener("htmx:oobAfterSwap", reopen);
})();

// Presence (games/platform/presence.py): a player's live match page says whether it is in view, so no "your
// turn" is sent to a player watching it. Each poll of #live carries `seen=1` while the tab is visible; the
// moment the tab is hidden or shown again (or the page is left), one request says so, since a hidden tab's
// polls slow to one a minute and a player who switched away must not wait that long to be told.
(function () {
  function live() {
    const el = document.getElementById("live");
    return el && el.dataset.presenceUrl ? el : null;
  }
  document.addEventListener("htmx:configRequest", function (ev) {
    if (ev.detail.elt && ev.detail.elt.id === "live" && ev.detail.elt.dataset.presenceUrl && !document.hidden) {
      ev.detail.parameters.seen = "1";
    }
  });
  function say(visible) {
    const el = live();
    if (!el) return;
    const headers = JSON.parse(document.body.getAttribute("hx-headers") || "{}");
    const data = new URLSearchParams({ visible: visible ? "1" : "0" });
    fetch(el.dataset.presenceUrl, { method: "POST", body: data, headers: headers, credentials: "same-origin", keepalive: true })
      .catch(function () {});
  }
  document.addEventListener("DOMContentLoaded", function () { say(!document.hidden); });
  document.addEventListener("visibilitychange", function () { say(!document.hidden); });
  window.addEventListener("pagehide", function () { say(false); });
})();

// Live means live (docs/live.md): a part of a page that polls (a game's #live, a chat's messages, the home
// page's "Awaiting you") carries the page's event stream (data-stream) when the site pushes, and the events it
// follows (data-follow). The stream says only that something moved: "version" N of a game, "mine" (the
// player's own part of a game, or their season's ledger), "chat", "counts"; the part then fetches itself as
// its poll does (htmx's "refresh"), through the same authorised view. A spectator's stream sends the public
// part itself ("part"), swapped in as a fetched one. A hidden tab hears it at once: its timers are slowed,
// its events are not, and the title and the "your turn" notice follow the swapped part as before. The safety
// net while the stream is open: its pings (each says the game's version), and for the user's own news a poll
// once per data-safety-poll; while it is down (or silent) every part polls at its own interval, and on
// reconnecting it fetches once: nothing is lost.
// A part told while it is fetching, or just swapped in and not yet listening, fetches again once it is ready:
// htmx would drop that refresh (a request queued on the part it replaces, or an event no handler hears yet).
(function () {
  if (!window.EventSource || !window.htmx) return;
  let source = null, open = false, lost = false, retry = null, heardAt = 0;
  const fetched = new Map(); // part id -> when it last fetched
  const owed = new Set(); // ids of the parts told of news they have not fetched yet
  function parts() { return document.querySelectorAll("[data-stream][data-follow]"); }
  function have(el) {
    const url = new URL(el.getAttribute("hx-get"), window.location.href);
    return parseInt((url.searchParams.get("v") || "0").split("-")[0], 10) || 0;
  }
  // What a player's (or a host's) part carries after its version: their private stamps' digest.
  function token(el) {
    const v = new URL(el.getAttribute("hx-get"), window.location.href).searchParams.get("v") || "";
    return v.indexOf("-") < 0 ? "" : v.slice(v.indexOf("-") + 1);
  }
  function follows(el, kind) { return (el.dataset.follow || "").split(" ").indexOf(kind) >= 0; }
  function concerns(el, kind, d) {
    if ((el.dataset.follow || "").split(" ").indexOf(kind) < 0) return false;
    const game = parseInt(el.dataset.game, 10), season = parseInt(el.dataset.season, 10);
    if (kind === "version") return d.game === game && d.v > have(el);
    if (!game || kind === "counts") return true; // the home page: any of the user's news may move its list
    return d.game === game || (d.season !== undefined && d.season === season);
  }
  // A part fetching now (htmx-request) would queue the refresh on itself, and drop it when its answer replaces
  // it; a part just swapped in (htmx-added) listens only once htmx settles it, on a timer that a hidden tab
  // slows to a second or more. Either is told when it is ready (below): the news is late, never lost.
  function refresh() {
    owed.forEach(function (id) {
      const el = document.getElementById(id);
      if (!el) return owed.delete(id);
      if (el.classList.contains("htmx-request") || el.classList.contains("htmx-added")) return;
      owed.delete(id);
      window.htmx.trigger(el, "refresh");
    });
  }
  function heard(kind) {
    return function (ev) {
      heardAt = Date.now();
      document.dispatchEvent(new CustomEvent("genius:heard"));
      const d = JSON.parse(ev.data);
      parts().forEach(function (el) { if (concerns(el, kind, d)) owed.add(el.id); });
      refresh();
      // The title's count (above) follows the player's news too.
      document.dispatchEvent(new CustomEvent("genius:live", { detail: { kind: kind, data: d } }));
    };
  }
  // A spectator's stream carries the game's public part itself (the same body their fetch would bring):
  // swapped in as htmx swaps a fetched one, so everything that follows a swap (the title, the forms) runs.
  // A part busy with a fetch of its own is told instead, and fetches once that is done.
  function swapped(ev) {
    heardAt = Date.now();
    const d = JSON.parse(ev.data);
    parts().forEach(function (el) {
      if (el.id !== "live" || !concerns(el, "version", d)) return;
      if (el.classList.contains("htmx-request") || el.classList.contains("htmx-added")) return owed.add(el.id);
      window.htmx.swap(el, d.html, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0 });
      fetched.set("live", Date.now());
    });
    refresh();
    document.dispatchEvent(new CustomEvent("genius:live", { detail: { kind: "version", data: d } }));
  }
  // The ping carries the game's version, and on a player's or a host's stream their private token: a part
  // that missed an event sees it is behind, and fetches. So its safety net asks nothing of the server.
  let tokened = false; // a ping has said this user's token: their own news is checked by the pings too
  function pinged(ev) {
    heardAt = Date.now();
    const d = JSON.parse(ev.data);
    if (d.t !== undefined) tokened = true;
    let behind = false;
    parts().forEach(function (el) {
      const mine = d.t !== undefined && d.game === parseInt(el.dataset.game, 10) && follows(el, "mine");
      if (concerns(el, "version", d) || (mine && d.t !== token(el))) { owed.add(el.id); behind = true; }
    });
    refresh();
    document.dispatchEvent(new CustomEvent("genius:heard"));
    // What was missed may have moved what awaits the user too (sent with the same commit): the count asks.
    if (behind) document.dispatchEvent(new CustomEvent("genius:live", { detail: { kind: "counts", data: {} } }));
  }
  function told(missed) {
    document.dispatchEvent(new CustomEvent("genius:stream", { detail: { open: open, missed: missed } }));
  }
  function connect() {
    retry = null;
    const first = parts()[0];
    if (!first || source) return;
    const v = first.dataset.game ? (first.dataset.stream.indexOf("?") < 0 ? "?" : "&") + "v=" + have(first) : "";
    source = new EventSource(first.dataset.stream + v);
    source.addEventListener("open", function () {
      open = true;
      heardAt = Date.now();
      if (lost) { parts().forEach(function (el) { owed.add(el.id); }); refresh(); } // what moved meanwhile
      told(lost);
      lost = false;
    });
    ["version", "mine", "chat", "counts"].forEach(function (kind) { source.addEventListener(kind, heard(kind)); });
    source.addEventListener("part", swapped);
    source.addEventListener("ping", pinged);
    source.addEventListener("error", function () {
      open = false;
      lost = true;
      told(false);
      // The browser reconnects by itself after a dropped stream; a refused one (503, 429) is closed for
      // good, so the page tries again later, polling meanwhile.
      if (source.readyState === EventSource.CLOSED) {
        source = null;
        if (!retry) retry = setTimeout(connect, 10000 + Math.random() * 20000);
      }
    });
  }
  // A part's own timed poll, while the stream is open. A stream heard from within the safety interval is
  // alive (it pings every 25 s): a game's live part polls not at all, since each ping says the game's
  // version (and a player's or a host's token); a part that follows the user's other news (a chat, the
  // home page's list: no ping checks those) polls once per safety interval. A stream silent for longer is
  // taken for dead (a proxy holding it open): every part polls at its own interval, as with no stream.
  document.addEventListener("htmx:confirm", function (ev) {
    const el = ev.detail.elt;
    if (!el || !el.dataset || !el.dataset.safetyPoll || ev.detail.triggeringEvent) return; // events fetch
    const safety = (parseInt(el.dataset.safetyPoll, 10) || 45) * 1000, now = Date.now();
    if (!open || now - heardAt > safety) return;
    const pingChecked = el.dataset.follow === "version" || (tokened && el.id === "live");
    if (pingChecked || now - (fetched.get(el.id) || 0) < safety) ev.preventDefault();
  });
  document.addEventListener("htmx:afterRequest", function (ev) {
    // The part that asked, even when its answer replaced it (htmx then tells its parent, as `elt`).
    const el = (ev.detail.requestConfig && ev.detail.requestConfig.elt) || ev.detail.elt;
    if (el && el.dataset && el.dataset.follow) fetched.set(el.id, Date.now());
    if (owed.size) queueMicrotask(refresh); // once htmx has ended the request (right after this event)
  });
  document.addEventListener("htmx:load", function () { if (owed.size) refresh(); }); // a part swapped in listens
  document.addEventListener("DOMContentLoaded", function () {
    parts().forEach(function (el) { fetched.set(el.id, Date.now()); });
    connect();
  });
  window.addEventListener("pagehide", function () {
    if (source) source.close();
    source = null;
    open = false;
    told(false);
  });
  window.addEventListener("pageshow", function (ev) { if (ev.persisted) { lost = true; connect(); } });
})();
