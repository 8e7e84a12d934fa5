// pingduel — behaviour shared by every page. The pages work without it; this adds comfort.
(function () {
  "use strict";
  if (window.htmx) {
    // swap 4xx answers too: they carry the inline error message; 204 means "unchanged"
    htmx.config.responseHandling = [
      { code: "204", swap: false },
      { code: "[23]..", swap: true },
      { code: "4..", swap: true, error: false },
      { code: "...", swap: false, error: true },
    ];
    htmx.config.historyCacheSize = 0; // pages carry seat-private state: keep none in history
    // process a swapped-in block at once: during the default 20 ms settle it is not yet
    // listening to the live stream, and a hint arriving then would be lost
    htmx.config.defaultSettleDelay = 0;
  }

  // a copy button copies an input's value, or the text of a box (the referee's seed
  // commitment); one that only works with script is hidden until the script runs
  function selectAll(source) {
    if (typeof source.select === "function") { source.select(); return; }
    const range = document.createRange();
    range.selectNodeContents(source);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
  document.addEventListener("click", function (event) {
    const button = event.target.closest("button.copy");
    if (!button) return;
    const source = document.getElementById(button.dataset.copy);
    if (!source) return;
    const text = "value" in source ? source.value : source.textContent.trim();
    selectAll(source);
    const done = function () { button.textContent = "Copied"; setTimeout(function () { button.textContent = "Copy"; }, 1500); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { document.execCommand("copy"); done(); });
    } else { document.execCommand("copy"); done(); }
  });
  function showCopyButtons(root) {
    (root || document).querySelectorAll("button.copy[hidden]").forEach(function (b) { b.hidden = false; });
  }
  showCopyButtons();
  document.addEventListener("htmx:afterSettle", function (event) { showCopyButtons(event.target); });

  // One request out per block. A live block (and the designer's totals) refreshes with
  // hx-sync="this:replace": a hint arriving while its refresh is out would make htmx abort
  // that request and log the abort as an error. Instead the new refresh waits: it is owed,
  // and asked for again once the one out has landed, on the block then in the page (the
  // answer may have replaced it), so the page still ends up as fresh as the latest hint.
  const out = new Set(); // the requests out: {elt, xhr}
  const owed = new WeakMap(); // element → the event to ask again with
  let leaving = false; // the page is going away: what is still out will never land here
  function replaces(elt) {
    return elt && elt.getAttribute && /:\s*replace\b/.test(elt.getAttribute("hx-sync") || "");
  }
  function pending(elt) {
    for (const r of out) if (r.elt === elt) return r;
    return null;
  }
  document.addEventListener("htmx:confirm", function (event) {
    const elt = event.detail.elt;
    if (!replaces(elt)) return;
    if (leaving) { event.preventDefault(); return; }
    if (!pending(elt)) return;
    event.preventDefault();
    const type = event.detail.triggeringEvent && event.detail.triggeringEvent.type;
    // a block hears "pd-refresh" from the body only: ask it again as the stream would
    owed.set(elt, !type || type === "pd-refresh" ? "sse:seq" : type);
  });
  document.addEventListener("htmx:beforeSend", function (event) {
    const elt = event.detail.elt;
    if (!replaces(elt)) return;
    const request = { elt: elt, xhr: event.detail.xhr };
    out.add(request);
    // on the element itself: the event still reaches it when a swap has taken it out of the page
    const landed = function (done) {
      if (done.detail.elt !== elt && done.target !== elt) return; // a request of a child
      elt.removeEventListener("htmx:afterRequest", landed);
      out.delete(request);
      const again = owed.get(elt);
      if (!again || leaving) return;
      owed.delete(elt);
      const now = elt.isConnected ? elt : (elt.id && document.getElementById(elt.id));
      // after the swap and its settle have finished with the new block
      if (now) setTimeout(function () { htmx.trigger(now, again); }, 0);
    };
    elt.addEventListener("htmx:afterRequest", landed);
  });
  // leaving the page (a form posted, a link followed): the browser cancels what is out, and
  // htmx would log each cancel as an error. Nobody waits for those answers: drop them quietly
  // and ask for nothing new ("pagehide": only once the page really goes, not for a download)
  window.addEventListener("pagehide", function () {
    leaving = true;
    out.forEach(function (request) {
      request.xhr.onabort = request.xhr.onerror = function () { out.delete(request); };
    });
  });
  window.addEventListener("pageshow", function () { leaving = false; });

  function syncTitle() {
    const status = document.getElementById("status");
    if (status && status.dataset.title) document.title = status.dataset.title;
  }
  document.addEventListener("htmx:afterSettle", syncTitle);
  // the full reveal (replay, dice check) is a page of its own: load it when the game ends
  document.addEventListener("htmx:afterSettle", function () {
    const status = document.getElementById("status");
    if (status && status.dataset.status === "finished" && !document.getElementById("replay")) {
      window.location.reload();
    }
  });

  let streamUp = null; // the dot lives in #status, which each refresh replaces: keep its state here
  function connection(up) {
    streamUp = up;
    const dot = document.getElementById("conn");
    if (!dot) return;
    dot.classList.toggle("up", up);
    dot.classList.toggle("down", !up);
  }
  document.addEventListener("htmx:afterSettle", function () { if (streamUp !== null) connection(streamUp); });
  document.addEventListener("htmx:sseOpen", function () { connection(true); });
  document.addEventListener("htmx:sseError", function () { connection(false); });
  document.addEventListener("htmx:sseClose", function () { connection(false); });
  document.addEventListener("sse:revoked", function () {
    connection(false);
    const status = document.getElementById("status");
    if (status) status.insertAdjacentHTML("beforeend", '<p class="error" role="alert">This seat was handed to a new token: reload to continue as a spectator.</p>');
  });
})();
