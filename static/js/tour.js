/* A guided tour: a highlighted box around one part of the page and a small dialog beside it,
   with Back, Next and Skip; Esc closes it, and focus moves into the dialog and back after.

   Reusable: window.pingduelTour.start(steps, options) with steps as data —
     [{target: "#status", title: "Status", text: "…", link: {href: "/help#x", text: "…"}}, …]
   A step whose target is not on the page is left out; one whose target is hidden (a phone's tab
   bar, say) is shown without the box; a step's optional link is drawn under its text.
   options: {label, onClose(reason, index), skipText, extra: {text, onClick}}; reason is "done",
   "skip", "escape" or "restart" (another tour started); extra adds a button before Skip. The
   tour dims nothing and blocks no click: the page stays usable.

   On the game page it offers itself once per browser (localStorage "pingduel.tour"), at the first
   game opened, and never in a game with a clock (a running clock would charge the player for the
   tour); a "Take the tour" button in the site header replays it. A guided duel (#live
   data-guided, static/js/guide.js) teaches step by step instead: it never offers this tour. */
(function () {
  "use strict";
  var KEY = "pingduel.tour";
  var state = null; // {steps, index, options, ring, box, back}

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text) node.textContent = text;
    return node;
  }

  function visible(node) {
    if (!node) return false;
    var r = node.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  }

  function build(label, options) {
    var box = el("div", "tour-box");
    box.id = "tour";
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-modal", "false");
    box.setAttribute("aria-label", label);
    box.setAttribute("aria-describedby", "tour-text");
    var count = el("p", "tour-count");
    count.id = "tour-count";
    var title = el("h2");
    title.id = "tour-title";
    title.tabIndex = -1;
    var text = el("p");
    text.id = "tour-text";
    var more = el("p", "tour-more");
    var link = el("a");
    more.appendChild(link);
    var buttons = el("div", "buttons");
    var skip = el("button", "tour-skip", options.skipText || "Skip tour");
    var back = el("button", "tour-back", "Back");
    var next = el("button", "primary tour-next", "Next");
    var row = [skip, back, next];
    if (options.extra) {
      var extra = el("button", "tour-extra", options.extra.text);
      extra.addEventListener("click", function () { var act = options.extra.onClick; close("skip"); act(); });
      row.unshift(extra);
    }
    row.forEach(function (b) { b.type = "button"; buttons.appendChild(b); });
    skip.addEventListener("click", function () { close("skip"); });
    back.addEventListener("click", function () { go(state.index - 1); });
    next.addEventListener("click", function () {
      if (state.index >= state.steps.length - 1) close("done");
      else go(state.index + 1);
    });
    [count, title, text, more, buttons].forEach(function (n) { box.appendChild(n); });
    var ring = el("div", "tour-ring");
    ring.setAttribute("aria-hidden", "true");
    document.body.appendChild(ring);
    document.body.appendChild(box);
    return { box: box, ring: ring, title: title, text: text, more: more, link: link, count: count, back: back, next: next };
  }

  // scroll: bring the part into view (a new step); a swap or a resize only moves the box
  function place(scroll) {
    if (!state) return;
    var step = state.steps[state.index];
    var target = step.target ? document.querySelector(step.target) : null;
    var ui = state.ui;
    var box = ui.box;
    box.classList.remove("floating");
    box.style.left = box.style.top = "";
    if (!visible(target)) {
      ui.ring.hidden = true;
      box.classList.add("floating");
      return;
    }
    if (scroll) {
      var tall = target.getBoundingClientRect().height > window.innerHeight * 0.6;
      target.scrollIntoView({ block: tall ? "start" : "center", inline: "nearest" });
    }
    var r = target.getBoundingClientRect();
    var sx = window.scrollX, sy = window.scrollY, pad = 6;
    ui.ring.hidden = false;
    ui.ring.style.left = r.left + sx - pad + "px";
    ui.ring.style.top = r.top + sy - pad + "px";
    ui.ring.style.width = r.width + 2 * pad + "px";
    ui.ring.style.height = Math.min(r.height, window.innerHeight * 2) + 2 * pad + "px";
    var w = box.offsetWidth, h = box.offsetHeight, gap = 14;
    var below = window.innerHeight - r.bottom, above = r.top;
    if (window.innerWidth < 700) {
      box.classList.add("floating");
      return;
    }
    if (below < h + gap && above < h + gap) {
      // a tall part (the sheets column): beside it if there is room, else at the bottom
      var side = r.left >= w + gap ? r.left - w - gap : window.innerWidth - r.right >= w + gap ? r.right + gap : null;
      if (side === null) {
        box.classList.add("floating");
        return;
      }
      box.style.left = side + sx + "px";
      box.style.top = Math.max(8, Math.min(r.top, window.innerHeight - h - 8)) + sy + "px";
      return;
    }
    var left = Math.max(8, Math.min(r.left, window.innerWidth - w - 8)) + sx;
    var top = below >= h + gap ? r.bottom + sy + gap : r.top + sy - h - gap;
    box.style.left = left + "px";
    box.style.top = top + "px";
  }

  function go(index) {
    if (!state || index < 0 || index >= state.steps.length) return;
    state.index = index;
    var step = state.steps[index], ui = state.ui;
    ui.count.textContent = "Step " + (index + 1) + " of " + state.steps.length;
    ui.title.textContent = step.title;
    ui.text.textContent = step.text;
    ui.more.hidden = !step.link;
    if (step.link) {
      ui.link.href = step.link.href;
      ui.link.textContent = step.link.text;
    }
    ui.back.disabled = index === 0;
    ui.next.textContent = index === state.steps.length - 1 ? "Finish" : "Next";
    place(true);
    ui.title.focus({ preventScroll: true });
  }

  function onKey(event) {
    if (!state) return;
    if (event.key === "Escape") {
      event.preventDefault();
      close("escape");
    } else if (state.ui.box.contains(document.activeElement)) {
      if (event.key === "ArrowRight") go(state.index + 1);
      else if (event.key === "ArrowLeft") go(state.index - 1);
    }
  }

  function reflow() {
    if (state) window.requestAnimationFrame(function () { place(false); });
  }

  function close(reason) {
    if (!state) return;
    var done = state;
    state = null;
    done.ui.box.remove();
    done.ui.ring.remove();
    document.removeEventListener("keydown", onKey);
    window.removeEventListener("resize", reflow);
    document.removeEventListener("htmx:afterSettle", reflow);
    if (done.back && document.contains(done.back) && done.back.focus) done.back.focus();
    if (done.options.onClose) done.options.onClose(reason, done.index);
  }

  function start(steps, options) {
    close("restart");
    options = options || {};
    var shown = (steps || []).filter(function (s) { return !s.target || document.querySelector(s.target); });
    if (!shown.length) return false;
    state = { steps: shown, index: 0, options: options, back: document.activeElement };
    state.ui = build(options.label || "Guided tour", options);
    document.addEventListener("keydown", onKey);
    window.addEventListener("resize", reflow);
    document.addEventListener("htmx:afterSettle", reflow); // a section swapped under the box
    go(0);
    return true;
  }

  window.pingduelTour = {
    start: start,
    close: function () { close("skip"); },
    isOpen: function () { return state !== null; },
  };

  // -- the game page's own tour ----------------------------------------------------------------
  var GAME_STEPS = [
    { target: "#status", title: "Where the game stands",
      text: "The turn, whose activation it is and whether it is your move. The pills show who is connected." },
    { target: "#mapwrap", title: "The map",
      text: "The table from above, north up. Your ships are blue darts, enemies orange diamonds; a dashed outline is a stale marker, where an enemy was last seen. Drag to pan, +/− to zoom, select one of your ships for its arcs and ranges." },
    { target: "#controls", title: "Your orders",
      text: "When it is your move, the form for it appears here: deploying, moving, pinging, firing. Nothing is sent until you press a button, and your orders stay secret." },
    { target: "#sheets", title: "Record sheets",
      text: "Your ships' hull and armour boxes, systems and weapons, with the dice each weapon rolls by range. Below them, what everyone can see of the enemy." },
    { target: "#log", title: "The log",
      text: "Everything your side may know, newest first: pings, shots, dice and damage. Words underlined with dots link to the glossary; hover for a short explanation." },
    { target: "#chat", title: "Chat",
      text: "Talk to your opponent here." },
    { target: ".top nav.site", title: "Help at hand",
      text: "How to play explains the rules from deployment to the final score. Take the tour shows this tour again." },
  ];

  function remembered() {
    try { return window.localStorage.getItem(KEY); } catch (e) { return "unavailable"; }
  }

  function remember() {
    try { window.localStorage.setItem(KEY, "seen"); } catch (e) { /* private mode: nothing */ }
  }

  function gamePage() {
    var live = document.getElementById("live");
    if (!live) return false;
    var status = document.getElementById("status");
    var finished = status && status.dataset.status === "finished";
    // a game with a clock: the tour would cost the player time (clock_panel.html draws #clocks)
    return finished || !document.getElementById("clocks");
  }

  function offerLink() {
    var nav = document.querySelector(".top nav.site");
    if (!nav || document.getElementById("tour-link")) return;
    var b = el("button", "tour-link", "Take the tour");
    b.type = "button";
    b.id = "tour-link";
    b.addEventListener("click", function () { start(GAME_STEPS, { label: "Tour of the game page" }); });
    nav.appendChild(b);
  }

  function init() {
    if (!gamePage()) return;
    offerLink();
    if (document.getElementById("live").dataset.guided) return; // guide.js teaches this game
    if (remembered() === null) {
      remember();
      start(GAME_STEPS, { label: "Tour of the game page" });
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
