// pingduel — chat and rematch on the game page (issue 15). The panels work without it.
(function () {
  "use strict";
  function autoSubmit() {
    // the rematch is ready and this seat's place in it waits: take it (a CSRF-checked post)
    const form = document.querySelector("form[data-auto-submit]");
    if (form && !form.dataset.sent) { form.dataset.sent = "1"; form.submit(); }
  }
  function scrollChat() {
    const list = document.querySelector("#chat .chat-lines");
    if (list) list.scrollTop = list.scrollHeight;
  }
  // A hint that comes while the rematch panel's own request is in flight is queued on the
  // element that the answer then replaces, and would be lost with it: count the hints, and ask
  // once more when the new panel is in if one came after the request went out. (The chat's
  // panel is left alone: asking again would replace the form while its player types.)
  const PANELS = { rematch: "sse:rematch" };
  const heard = { rematch: 0 };
  const asked = { rematch: 0 };
  Object.keys(PANELS).forEach(function (id) {
    document.addEventListener(PANELS[id], function () { heard[id] += 1; });
  });
  document.addEventListener("htmx:beforeRequest", function (e) {
    const id = e.target && e.target.id;
    if (id in PANELS) asked[id] = heard[id];
  });
  function askAgain() {
    Object.keys(PANELS).forEach(function (id) {
      const el = document.getElementById(id);
      if (el && window.htmx && heard[id] > asked[id]) {
        asked[id] = heard[id];
        htmx.trigger(el, "refresh");
      }
    });
  }
  document.addEventListener("htmx:afterSettle", function () { autoSubmit(); scrollChat(); askAgain(); });
  document.addEventListener("htmx:sseOpen", function () {
    // hints sent while the stream was down are lost: fetch both panels again
    ["#chat", "#rematch"].forEach(function (id) {
      const el = document.querySelector(id);
      if (el && window.htmx) htmx.trigger(el, "refresh");
    });
  });
  autoSubmit();
  scrollChat();
})();
