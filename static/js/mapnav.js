// The map by keyboard and the enemy arcs on demand: the arrow keys step from ship to ship once
// one has focus, Enter on an enemy seen now shows its arcs (Enter on an own ship is game.js's
// selection), the ship list's names find their ship, and the "Show enemy arcs" toggle.
(function () {
  "use strict";
  const wrap = document.getElementById("mapwrap");
  if (!wrap) return;
  const picked = new Set();  // the enemies whose arcs were asked for, kept across map refreshes
  let focused = null;        // the ship that had focus when the map was redrawn

  // what takes focus for a ship: the ship itself (own: game.js selects it) or its inner mark
  function target(ship) { return ship.hasAttribute("tabindex") ? ship : ship.querySelector(".pick"); }
  function ships() {
    return Array.from(document.querySelectorAll("#map .ship[data-ship]")).filter(target).sort(function (a, b) {
      // reading order: north to south, then west to east (table mu)
      return (parseFloat(b.dataset.y) - parseFloat(a.dataset.y)) || (parseFloat(a.dataset.x) - parseFloat(b.dataset.x));
    });
  }
  function shipOf(el) { return el && el.closest ? el.closest("#map .ship[data-ship]") : null; }
  function focusShip(id) {
    const ship = document.querySelector('#map .ship[data-ship="' + id + '"]');
    const el = ship && target(ship);
    if (el) el.focus();
    return el;
  }
  function showPicked() {
    document.querySelectorAll("#map .arcs.threat").forEach(function (g) { g.classList.toggle("picked", picked.has(g.dataset.threat)); });
  }
  function pick(id) {
    if (!document.querySelector('#map .arcs.threat[data-threat="' + id + '"]')) return false;
    if (picked.has(id)) picked.delete(id); else picked.add(id);
    showPicked();
    return true;
  }

  document.addEventListener("keydown", function (event) {
    const ship = shipOf(event.target);
    if (!ship) return;
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (step) {
      const all = ships(), i = all.indexOf(ship);
      const next = all[(i + step + all.length) % all.length];
      if (next) target(next).focus();
      event.preventDefault();
    } else if ((event.key === "Enter" || event.key === " ") && !ship.hasAttribute("tabindex")) {
      if (pick(ship.dataset.ship)) event.preventDefault();
    }
  });
  // a click on an enemy seen now shows (or hides) its arcs; the click still aims (game.js)
  document.addEventListener("click", function (event) {
    const ship = shipOf(event.target);
    if (ship && !ship.hasAttribute("tabindex")) pick(ship.dataset.ship);
    const find = event.target.closest && event.target.closest("button[data-find]");
    if (find) {
      const el = focusShip(find.dataset.find);
      if (el) wrap.scrollIntoView({ block: "nearest" });
    }
    const toggle = event.target.closest && event.target.closest("#threat-toggle");
    if (toggle) {
      const on = !wrap.classList.contains("show-threats");
      wrap.classList.toggle("show-threats", on);
      toggle.setAttribute("aria-pressed", on ? "true" : "false");
    }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "map") {
      const ship = shipOf(document.activeElement);
      focused = ship ? ship.dataset.ship : null;
    }
  });
  document.addEventListener("htmx:afterSettle", function () {
    showPicked();
    // a redrawn map drops the focused ship: give focus back unless it went elsewhere
    if (focused && (document.activeElement === document.body || !document.activeElement)) focusShip(focused);
    focused = null;
  });
})();
