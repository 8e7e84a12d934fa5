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

  document.addEventListener("click", function (event) {
    const button = event.target.closest("button.copy");
    if (!button) return;
    const input = document.getElementById(button.dataset.copy);
    if (!input) return;
    input.select();
    const done = function () { button.textContent = "Copied"; setTimeout(function () { button.textContent = "Copy"; }, 1500); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done, function () { document.execCommand("copy"); done(); });
    } else { document.execCommand("copy"); done(); }
  });

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
