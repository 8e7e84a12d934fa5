// pingduel — chat and rematch on the game page (issue 15). The panels work without it.
(function () {
  "use strict";
  // Once the page posts the rematch form it is leaving: a panel swapped in after that (a
  // re-ask, a reopened stream) would hold a fresh form, and posting it too would abort the
  // first navigation. So the page posts once, and asks for nothing more.
  let leaving = false;
  function autoSubmit() {
    // the rematch is ready and this seat's place in it waits: take it (a CSRF-checked post)
    const form = document.querySelector("form[data-auto-submit]");
    if (form && !leaving) { leaving = true; form.submit(); }
  }
  function scrollChat() {
    const list = document.querySelector("#chat .chat-lines");
    if (list) list.scrollTop = list.scrollHeight;
  }
  // A rematch hint that comes while the panel's own request is in flight is queued on the
  // element that the answer then replaces, and would be lost with it: count the hints, and ask
  // once more when the new panel is in if one came after the request went out. (The chat's
  // panel is left alone: asking again would replace the form while its player types.)
  let heard = 0;
  let asked = 0;
  document.addEventListener("sse:rematch", function () { heard += 1; });
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (e.target && e.target.id === "rematch") asked = heard;
  });
  function askAgain() {
    const el = document.getElementById("rematch");
    if (el && window.htmx && !leaving && heard > asked) {
      asked = heard;
      htmx.trigger(el, "refresh");
    }
  }
  document.addEventListener("htmx:afterSettle", function () { autoSubmit(); scrollChat(); askAgain(); });
  document.addEventListener("htmx:sseOpen", function () {
    // hints sent while the stream was down are lost: fetch both panels again
    ["#chat", "#rematch"].forEach(function (id) {
      const el = document.querySelector(id);
      if (el && window.htmx && !leaving) htmx.trigger(el, "refresh");
    });
  });
  autoSubmit();
  scrollChat();
})();
