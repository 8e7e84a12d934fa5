// The game page's clocks (issue 15): the server sends each side's time left as of the page's
// read; the running one counts down here each second until the next fragment replaces it.
(function () {
  "use strict";
  function text(s) {
    var t = Math.max(0, Math.floor(s));
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    if (t >= 86400) return Math.floor(t / 86400) + "d " + Math.floor((t % 86400) / 3600) + "h";
    if (t >= 3600) return Math.floor(t / 3600) + ":" + two(Math.floor((t % 3600) / 60)) + ":" + two(t % 60);
    return Math.floor(t / 60) + ":" + two(t % 60);
  }
  function tick() {
    var now = Date.now();
    document.querySelectorAll(".clock[data-running='true']").forEach(function (el) {
      if (!el.dataset.t0) el.dataset.t0 = String(now); // a new element: counted from now
      var left = parseFloat(el.dataset.left) - (now - parseFloat(el.dataset.t0)) / 1000;
      var out = el.querySelector(".left");
      if (out) out.textContent = text(left);
      el.classList.toggle("low", left < 30);
    });
  }
  tick();
  setInterval(tick, 1000);
})();
