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
  document.addEventListener("htmx:afterSettle", function () { autoSubmit(); scrollChat(); });
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
