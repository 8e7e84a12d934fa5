// Short animations of what just happened on the map: the seat's own moves along their paths,
// pings' rings, a volley's beam lines, damage numbers, markers arriving. The items come from the
// map's #fx-data (app/web/mapfx.py: the seat's view and events only; never an enemy's path).
// Each item carries its event's seq; the page remembers the last seq it showed for this game
// and seat, so a reload or a live update plays only what is new. With prefers-reduced-motion
// nothing moves: the new items are drawn once as a still highlight until the next update.
(function () {
  "use strict";
  const live = document.getElementById("live");
  if (!live) return;
  const SVGNS = "http://www.w3.org/2000/svg";
  const KEY = "pd-fx:" + live.dataset.game + ":" + live.dataset.seat;
  const still = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };
  const STEP = 320, LONGEST = 4000;  // ms between items, and for all of them at most
  const SHIP = "M0,-1.8 L1.2,1.3 L0,0.6 L-1.2,1.3 Z";  // the own dart (app/web/mapview.py)

  function data() {
    const el = document.getElementById("fx-data");
    if (!el) return null;
    try { return JSON.parse(el.dataset.fx); } catch (e) { return null; }
  }
  function seen() {
    try { const v = window.localStorage.getItem(KEY); return v === null ? null : parseInt(v, 10); } catch (e) { return null; }
  }
  function remember(seq) {
    try { window.localStorage.setItem(KEY, String(seq)); } catch (e) { /* private mode: replays on reload */ }
  }
  function layer() {
    let g = document.getElementById("fx-layer");
    const overlay = document.getElementById("overlay");
    if (!g && overlay) {
      g = document.createElementNS(SVGNS, "g");
      g.setAttribute("id", "fx-layer");
      // under the measuring tool's line, if it is there
      overlay.insertBefore(g, document.getElementById("measure-layer"));
    }
    return g;
  }
  function el(parent, name, attrs, text) {
    const e = document.createElementNS(SVGNS, name);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    parent.appendChild(e);
    return e;
  }
  function pts(points) { return points.map(function (p) { return p[0] + "," + p[1]; }).join(" "); }
  function tr(p) { return "translate(" + p[0] + "px," + p[1] + "px)"; }

  // each kind: the elements it draws, and (in motion) how they move
  function drawMove(g, item, delay, motion) {
    const last = item.points[item.points.length - 1];
    const trail = el(g, "polyline", { points: pts(item.points), class: "fx fx-move-trail", pathLength: "1" });
    const ship = el(g, "path", { d: SHIP, class: "fx fx-move-ship" });
    ship.setAttribute("transform", "translate(" + last[0] + "," + last[1] + ") rotate(" + item.heading * 30 + ")");
    if (!motion) return [trail, ship];
    ship.removeAttribute("transform");
    const frames = item.points.map(function (p) { return { transform: tr(p) + " rotate(" + item.heading * 30 + "deg)" }; });
    return [
      trail.animate([{ strokeDashoffset: 1 }, { strokeDashoffset: 0, offset: 0.7 }, { strokeDashoffset: 0, opacity: 0 }],
        { duration: 1600, delay: delay, fill: "both", easing: "ease-in-out" }),
      ship.animate(frames, { duration: 1100, delay: delay, fill: "both", easing: "ease-in-out" }),
      ship.animate([{ opacity: 0.9 }, { opacity: 0 }], { duration: 500, delay: delay + 1100, fill: "forwards" }),
    ];
  }
  function drawPing(g, item, delay, motion) {
    const ring = el(g, "circle", { cx: item.at[0], cy: item.at[1], r: item.r, class: "fx fx-ping" });
    if (!motion) return [ring];
    return [ring.animate([{ transform: "scale(0.05)", opacity: 1 }, { transform: "scale(1)", opacity: 0 }],
      { duration: 1500, delay: delay, fill: "both", easing: "ease-out" })];
  }
  function drawBeam(g, item, delay, motion) {
    const line = el(g, "line", { x1: item.from[0], y1: item.from[1], x2: item.to[0], y2: item.to[1],
      class: "fx fx-beam " + (item.hit ? "hit" : "miss"), pathLength: "1" });
    if (!motion) return [line];
    return [line.animate([{ strokeDashoffset: 1, opacity: 1 }, { strokeDashoffset: 0, opacity: 1, offset: 0.35 }, { strokeDashoffset: 0, opacity: 0 }],
      { duration: 1200, delay: delay, fill: "both", easing: "ease-out" })];
  }
  function drawDamage(g, item, delay, motion) {
    const text = el(g, "text", { x: item.at[0], y: item.at[1] - 2.5, class: "fx fx-damage" + (item.destroyed ? " destroyed" : "") },
      "−" + item.amount + (item.destroyed ? " destroyed" : ""));
    if (!motion) return [text];
    return [text.animate([{ transform: "translateY(0px)", opacity: 0 }, { transform: "translateY(-1px)", opacity: 1, offset: 0.2 }, { transform: "translateY(-4px)", opacity: 0 }],
      { duration: 1800, delay: delay, fill: "both", easing: "ease-out" })];
  }
  function drawArrive(g, item, delay, motion) {
    const mark = el(g, "circle", { cx: item.at[0], cy: item.at[1], r: 1.4, class: "fx fx-arrive kind-" + item.marker_kind });
    if (!motion) return [mark];
    return [mark.animate([{ transform: "scale(3)", opacity: 0 }, { transform: "scale(1)", opacity: 1, offset: 0.6 }, { transform: "scale(1.3)", opacity: 0 }],
      { duration: 1300, delay: delay, fill: "both", easing: "ease-in" })];
  }
  function drawFly(g, item, delay, motion) {
    const a = item.points[0], b = item.points[item.points.length - 1];
    const line = el(g, "line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "fx fx-fly-track", pathLength: "1" });
    const dot = el(g, "circle", { cx: 0, cy: 0, r: 0.6, class: "fx fx-fly kind-" + item.marker_kind });
    dot.setAttribute("transform", "translate(" + b[0] + "," + b[1] + ")");
    if (!motion) return [line, dot];
    dot.removeAttribute("transform");
    return [
      line.animate([{ strokeDashoffset: 1 }, { strokeDashoffset: 0, offset: 0.7 }, { strokeDashoffset: 0, opacity: 0 }],
        { duration: 1400, delay: delay, fill: "both" }),
      dot.animate([{ transform: tr(a), opacity: 1 }, { transform: tr(b), opacity: 1, offset: 0.75 }, { transform: tr(b), opacity: 0 }],
        { duration: 1400, delay: delay, fill: "both", easing: "ease-in-out" }),
    ];
  }
  const DRAW = { move: drawMove, ping: drawPing, beam: drawBeam, damage: drawDamage, arrive: drawArrive, fly: drawFly };

  function clearStill(g) {
    g.querySelectorAll(".fx-still").forEach(function (e) { e.remove(); });
  }
  function play() {
    const d = data(), g = layer();
    if (!d || !g) return;
    const items = (d.fx || []).filter(function (i) { return DRAW[i.kind]; });
    const top = items.reduce(function (m, i) { return Math.max(m, i.seq); }, 0);
    let last = seen();
    if (last === null) {
      // a first look at this game here: what happened this turn is what "just happened"
      const turn = items.reduce(function (m, i) { return Math.max(m, i.turn); }, 0);
      last = items.filter(function (i) { return i.turn < turn; }).reduce(function (m, i) { return Math.max(m, i.seq); }, 0);
    }
    const fresh = items.filter(function (i) { return i.seq > last; });
    if (top > last) remember(top);
    if (!fresh.length) return;
    const motion = !still.matches;
    if (!motion) clearStill(g);
    const step = Math.min(STEP, LONGEST / fresh.length);
    let order = 0, prevSeq = null;
    fresh.forEach(function (item) {
      if (prevSeq !== null && item.seq !== prevSeq) order += 1;  // one event's items together
      prevSeq = item.seq;
      const box = el(g, "g", { class: "fx-item fx-" + item.kind + "-item" + (motion ? " fx-moving" : " fx-still"), "data-seq": item.seq });
      const made = DRAW[item.kind](box, item, order * step, motion);
      if (motion) {
        // each item's group goes once its last animation is over
        Promise.all(made.map(function (a) { return a.finished; })).then(function () { box.remove(); }, function () { box.remove(); });
      }
    });
    // what was played, for whoever wants to know (tests, assistive notes): kinds and seqs
    g.setAttribute("data-played", fresh.map(function (i) { return i.kind + ":" + i.seq; }).join(" "));
    g.setAttribute("data-mode", motion ? "motion" : "still");
  }

  // any settled swap may be the map's (a new #fx-data): items already shown are not replayed
  document.addEventListener("htmx:afterSettle", play);
  play();
})();
