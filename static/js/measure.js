// The map's measuring tool: range and bearing from one of the seat's own ships to a point, and
// the band each of its weapons would fire in there (from the ship's own public weapon data in
// the map's #fx-data, app/web/mapfx.py). Nothing is sent anywhere.
//
// Panning and measuring share the map: a drag that starts on an own ship measures (game.js
// never pans from a ship), and so does any drag while "Measure" is on (key M), from the own
// ship nearest to where it starts; otherwise a drag pans as before. With a ship focused and
// Measure on, the arrow keys move the measured point (1 mu, 6 with Shift).
(function () {
  "use strict";
  const live = document.getElementById("live");
  const wrap = document.getElementById("mapwrap");
  if (!live || !wrap) return;
  const H = parseFloat(live.dataset.height);
  const SVGNS = "http://www.w3.org/2000/svg";
  const EDGE = 1e-9;  // as the rules' arc and band edges (app/rules/geometry.py)
  const SPANS = { F: [330, 30], FS: [30, 90], AS: [90, 150], A: [150, 210], AP: [210, 270], FP: [270, 330],
    SF: [0, 60], S: [60, 120], SA: [120, 180], PA: [180, 240], P: [240, 300], PF: [300, 360] };
  const R3 = Math.sqrt(3) / 2;
  const UNIT = [[0, 1], [0.5, R3], [R3, 0.5], [1, 0], [R3, -0.5], [0.5, -R3], [0, -1], [-0.5, -R3], [-R3, -0.5], [-1, 0], [-R3, 0.5], [-0.5, R3]];
  let on = false, drag = null, shown = null, swallowUntil = 0;

  function ships() {
    const el = document.getElementById("fx-data");
    if (!el) return [];
    try { return JSON.parse(el.dataset.fx).ships || []; } catch (e) { return []; }
  }
  function shipById(id) { return ships().filter(function (s) { return s.id === id; })[0] || null; }
  function nearest(p) {
    let best = null;
    ships().forEach(function (s) {
      const d = Math.hypot(s.at[0] - p.x, s.at[1] - p.y);
      if (!best || d < best.d) best = { s: s, d: d };
    });
    return best ? best.s : null;
  }
  function toSvg(clientX, clientY) {
    const svg = document.getElementById("map");
    const pt = svg.createSVGPoint();
    pt.x = clientX; pt.y = clientY;
    const local = pt.matrixTransform(svg.getScreenCTM().inverse());
    return { x: local.x, y: local.y };
  }

  // -- the geometry, as the rules do it ------------------------------------------------------
  const mod = function (a, n) { return ((a % n) + n) % n; };
  function relative(ship, dx, dy) {  // degrees clockwise from the bow (rules' ``bearing``)
    if (!dx && !dy) return 0;
    const a = UNIT[mod(ship.heading, 12)], s = UNIT[mod(ship.heading + 3, 12)];
    let deg = Math.atan2(dx * s[0] + dy * s[1], dx * a[0] + dy * a[1]) * 180 / Math.PI;
    if (deg < 0) deg += 360;
    return deg >= 360 ? 0 : deg;
  }
  function absolute(dx, dy) {  // degrees clockwise from the table's north (up)
    if (!dx && !dy) return 0;
    const deg = mod(Math.atan2(dx, dy) * 180 / Math.PI, 360);
    return deg >= 360 ? 0 : deg;
  }
  function clock(deg) { const h = Math.round(deg / 30) % 12; return h === 0 ? 12 : h; }
  function inArc(arc, deg) {
    const span = SPANS[arc];
    if (!span) return false;
    let width = span[1] - span[0];
    if (width <= 0) width += 360;
    const off = mod(deg - span[0], 360);
    return off <= width + EDGE || off >= 360 - EDGE;
  }
  function bandAt(bands, rng) {
    for (let i = 0; i < bands.length; i++) if (rng <= bands[i].to + EDGE) return { n: i + 1, dice: bands[i].dice };
    return null;
  }
  // what one weapon would do at the point: its band and dice, or why not
  function weaponAt(w, rng, deg) {
    const any = rng === 0;
    let bands = null, weak = false;
    if (w.arcs.length && (any || w.arcs.some(function (a) { return inArc(a, deg); }))) bands = w.bands;
    else if (w.weak_arcs && (any || w.weak_arcs.some(function (a) { return inArc(a, deg); }))) { bands = w.weak_bands; weak = true; }
    if (!bands) return { id: w.id, text: "out of arc", band: null };
    const b = bandAt(bands, rng);
    if (!b) return { id: w.id, text: "out of range", band: null };
    let text = "band " + b.n + (b.dice ? " (" + b.dice + ")" : "") + (weak ? ", weak arc" : "");
    if (!w.ready) text += ", not ready now";
    return { id: w.id, text: text, band: b.n };
  }
  function measure(ship, p) {
    const dx = p.x - ship.at[0], dy = ship.at[1] - p.y;  // table axes: y runs north
    const rng = Math.hypot(dx, dy);
    const rel = relative(ship, dx, dy), abs = absolute(dx, dy);
    return { ship: ship, point: p, range: rng, rel: rel, abs: abs,
      weapons: ship.weapons.map(function (w) { return weaponAt(w, rng, rel); }) };
  }

  // -- drawing and words -----------------------------------------------------------------------
  function layer() {
    let g = document.getElementById("measure-layer");
    const overlay = document.getElementById("overlay");
    if (!g && overlay) {
      g = document.createElementNS(SVGNS, "g");
      g.setAttribute("id", "measure-layer");
      overlay.appendChild(g);
    }
    while (g && g.firstChild) g.removeChild(g.firstChild);
    return g;
  }
  function el(parent, name, attrs, text) {
    const e = document.createElementNS(SVGNS, name);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text) e.textContent = text;
    parent.appendChild(e);
    return e;
  }
  function words(m) {
    const table = "(" + m.point.x.toFixed(1) + ", " + (H - m.point.y).toFixed(1) + ")";
    return "From " + m.ship.name + " to " + table + ": " + m.range.toFixed(1) + " mu, bearing " +
      clock(m.rel) + " o'clock (" + mod(Math.round(m.rel), 360) + "°) from the bow, " +
      clock(m.abs) + " o'clock (" + mod(Math.round(m.abs), 360) + "°) on the table.";
  }
  function draw(m) {
    shown = m;
    const g = layer(), out = readout();
    if (!g) return;
    const x1 = m.ship.at[0], y1 = m.ship.at[1], x2 = m.point.x, y2 = m.point.y;
    el(g, "line", { x1: x1, y1: y1, x2: x2, y2: y2, class: "measure-line" });
    el(g, "circle", { cx: x1, cy: y1, r: m.range, class: "measure-ring" });
    el(g, "circle", { cx: x2, cy: y2, r: 0.5, class: "measure-end" });
    el(g, "text", { x: x2 + 1, y: y2 - 1, class: "measure-label" },
      m.range.toFixed(1) + " mu · " + clock(m.rel) + " o'clock");
    if (!out) return;
    out.hidden = false;
    out.querySelector(".measure-words").textContent = words(m);
    const list = out.querySelector(".measure-bands");
    while (list.firstChild) list.removeChild(list.firstChild);
    m.weapons.forEach(function (w) {
      const li = document.createElement("li");
      li.className = w.band ? "in-band band-" + w.band : "out";
      li.dataset.weapon = w.id;
      li.textContent = w.id + ": " + w.text;
      list.appendChild(li);
    });
    if (!m.weapons.length) {
      const li = document.createElement("li");
      li.textContent = "no direct-fire weapons";
      list.appendChild(li);
    }
  }
  function clear() {
    shown = null;
    layer();
    const out = readout();
    if (out) out.hidden = true;
  }

  // -- the button and the readout (made here: without JavaScript there is nothing to measure) --
  function tools() {
    return document.querySelector("#mapwrap ~ .map-tools") || wrap.parentNode;
  }
  function button() {
    let b = document.getElementById("measure-toggle");
    if (b) return b;
    b = document.createElement("button");
    b.type = "button";
    b.id = "measure-toggle";
    b.className = "measure-toggle";
    b.setAttribute("aria-pressed", "false");
    b.setAttribute("aria-keyshortcuts", "M");
    b.title = "Measure range, bearing and weapon bands from one of your ships (key M)";
    b.textContent = "Measure";
    const place = tools();
    place.insertBefore(b, place.querySelector("#map-help"));
    return b;
  }
  function readout() {
    let out = document.getElementById("measure-readout");
    if (out) return out;
    out = document.createElement("div");
    out.id = "measure-readout";
    out.className = "measure-readout";
    out.setAttribute("aria-live", "polite");
    out.hidden = true;
    const p = document.createElement("p");
    p.className = "measure-words";
    const ul = document.createElement("ul");
    ul.className = "measure-bands";
    ul.setAttribute("aria-label", "Weapon bands at the measured point");
    out.appendChild(p);
    out.appendChild(ul);
    const place = tools();
    place.parentNode.insertBefore(out, place.nextSibling);
    return out;
  }
  function setOn(value) {
    on = value;
    const b = button();
    b.setAttribute("aria-pressed", on ? "true" : "false");
    b.classList.toggle("on", on);
    b.textContent = on ? "Measuring (M)" : "Measure";
    wrap.classList.toggle("measuring", on);
    if (!on) clear();
  }
  if (live.dataset.seat === "spectator") return;  // a spectator sees no ship truly
  button().addEventListener("click", function () { setOn(!on); });

  // -- pointer: capture phase, so that a measuring drag never reaches game.js's panning -------
  // a press game.js turns into dragging a step-2 order (a group, its launch or destination
  // point within 1.5 mu) stays game.js's, unless Measure is on
  function orderNear(p) {
    const x = p.x, y = H - p.y;
    return Array.from(document.querySelectorAll("#markers-form .marker-order")).some(function (row) {
      const order = row.dataset.order, pre = row.dataset.field || "to";
      const fx = row.querySelector('[name="' + pre + "_x@" + order + '"]'), fy = row.querySelector('[name="' + pre + "_y@" + order + '"]');
      const points = [[parseFloat(row.dataset.x), parseFloat(row.dataset.y)]];
      if (fx && fy) points.push([parseFloat(fx.value), parseFloat(fy.value)]);
      return points.some(function (q) { return Math.hypot(q[0] - x, q[1] - y) <= 1.5; });
    });
  }
  wrap.addEventListener("pointerdown", function (event) {
    if (event.button !== undefined && event.button !== 0) return;
    if (!on && orderNear(toSvg(event.clientX, event.clientY))) return;
    const onShip = event.target.closest && event.target.closest(".ship[data-ship]");
    const own = onShip ? shipById(onShip.dataset.ship) : null;
    let ship = own;
    const at = toSvg(event.clientX, event.clientY);
    if (!ship && on) ship = nearest(at);
    if (!ship) return;
    event.stopPropagation();
    if (on) event.preventDefault();
    drag = { ship: ship, onShip: !!own, x: event.clientX, y: event.clientY, moved: false, id: event.pointerId };
  }, true);
  wrap.addEventListener("pointermove", function (event) {
    if (!drag) return;
    if (!drag.moved && Math.abs(event.clientX - drag.x) + Math.abs(event.clientY - drag.y) <= 4) return;
    // the pointer is captured only once it is a drag: captured from the press, a plain click
    // on a ship would land on the map's frame and no longer select the ship
    if (!drag.moved) { try { wrap.setPointerCapture(drag.id); } catch (e) { /* a synthetic pointer */ } }
    drag.moved = true;
    event.stopPropagation();
    readout().setAttribute("aria-busy", "true");  // read out once, when the drag ends
    draw(measure(drag.ship, toSvg(event.clientX, event.clientY)));
  }, true);
  function end(event) {
    if (!drag) return;
    if (drag.moved) { swallowUntil = Date.now() + 500; event.stopPropagation(); }
    else if (on && !drag.onShip) draw(measure(drag.ship, toSvg(event.clientX, event.clientY)));  // a tap measures too
    try { wrap.releasePointerCapture(drag.id); } catch (e) { /* already released */ }
    readout().setAttribute("aria-busy", "false");
    drag = null;
  }
  wrap.addEventListener("pointerup", end, true);
  wrap.addEventListener("pointercancel", end, true);
  // the click that ends a measuring drag is not a click on the map (no deployment, no select)
  // (a touch drag may end with no click at all: only a click on the map, just after, is taken)
  document.addEventListener("click", function (event) {
    if (Date.now() > swallowUntil || !wrap.contains(event.target)) return;
    swallowUntil = 0;
    event.stopPropagation(); event.preventDefault();
  }, true);

  // -- keys ---------------------------------------------------------------------------------
  function typing(target) {
    return target && target.closest && target.closest("input, textarea, select, [contenteditable]");
  }
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) return;
    if (event.key === "m" || event.key === "M") { setOn(!on); event.preventDefault(); return; }
    if (event.key === "Escape" && (on || shown)) { setOn(false); return; }
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const focused = event.target.closest && event.target.closest(".ship[data-ship]");
    if (!on || !steps[event.key] || !focused) return;
    const ship = shipById(focused.dataset.ship);
    if (!ship) return;
    const from = shown && shown.ship.id === ship.id ? shown.point : { x: ship.at[0], y: ship.at[1] };
    const k = event.shiftKey ? 6 : 1;
    draw(measure(ship, { x: from.x + steps[event.key][0] * k, y: from.y + steps[event.key][1] * k }));
    event.preventDefault(); event.stopPropagation();
  }, true);

  // a live update redraws the map: the measurement follows its ship (which may have moved)
  document.addEventListener("htmx:afterSettle", function () {
    if (!shown) return;
    const ship = shipById(shown.ship.id);
    if (ship) draw(measure(ship, shown.point)); else clear();
  });
})();
