// The game page: map zoom and pan, arcs on selection, deployment by clicking, orders preview.
(function () {
  "use strict";
  const live = document.getElementById("live");
  if (!live) return;
  const W = parseFloat(live.dataset.width), H = parseFloat(live.dataset.height);
  const movement = live.dataset.movement;
  const SVGNS = "http://www.w3.org/2000/svg";
  let box = { x: 0, y: 0, w: W, h: H };
  let selected = null;

  function applyBox() {
    const value = box.x + " " + box.y + " " + box.w + " " + box.h;
    for (const id of ["map", "overlay"]) {
      const svg = document.getElementById(id);
      if (svg) svg.setAttribute("viewBox", value);
    }
  }
  function zoom(factor, cx, cy) {
    const w = Math.min(W * 1.2, Math.max(6, box.w * factor));
    const h = w * (H / W);
    cx = cx === undefined ? box.x + box.w / 2 : cx;
    cy = cy === undefined ? box.y + box.h / 2 : cy;
    box = { x: cx - (cx - box.x) * (w / box.w), y: cy - (cy - box.y) * (h / box.h), w: w, h: h };
    applyBox();
  }
  function pan(dx, dy) { box.x += dx; box.y += dy; applyBox(); }
  function toSvg(clientX, clientY) {
    const svg = document.getElementById("map");
    const point = svg.createSVGPoint();
    point.x = clientX; point.y = clientY;
    const local = point.matrixTransform(svg.getScreenCTM().inverse());
    return { x: local.x, y: local.y };
  }

  document.addEventListener("click", function (event) {
    const z = event.target.closest("[data-zoom]");
    if (!z) return;
    if (z.dataset.zoom === "in") zoom(0.75);
    else if (z.dataset.zoom === "out") zoom(1 / 0.75);
    else { box = { x: 0, y: 0, w: W, h: H }; applyBox(); }
  });

  const wrap = document.getElementById("mapwrap");
  let drag = null;
  wrap.addEventListener("pointerdown", function (event) {
    if (event.target.closest(".ship[tabindex]")) return;
    drag = { x: event.clientX, y: event.clientY, moved: false, start: toSvg(event.clientX, event.clientY) };
  });
  wrap.addEventListener("pointermove", function (event) {
    if (!drag) return;
    const here = toSvg(event.clientX, event.clientY);
    if (Math.abs(event.clientX - drag.x) + Math.abs(event.clientY - drag.y) > 4) drag.moved = true;
    if (drag.moved) { pan(drag.start.x - here.x, drag.start.y - here.y); }
  });
  wrap.addEventListener("pointerup", function (event) {
    if (drag && !drag.moved) place(event);
    drag = null;
  });
  wrap.addEventListener("wheel", function (event) {
    event.preventDefault();
    const at = toSvg(event.clientX, event.clientY);
    zoom(event.deltaY > 0 ? 1.15 : 1 / 1.15, at.x, at.y);
  }, { passive: false });
  wrap.addEventListener("keydown", function (event) {
    const step = box.w / 10;
    const keys = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    if (keys[event.key] && !event.target.closest(".ship")) { pan(keys[event.key][0], keys[event.key][1]); event.preventDefault(); }
    else if (event.key === "+" || event.key === "=") { zoom(0.75); event.preventDefault(); }
    else if (event.key === "-") { zoom(1 / 0.75); event.preventDefault(); }
    else if ((event.key === "Enter" || event.key === " ") && event.target.closest(".ship[tabindex]")) {
      select(event.target.closest(".ship").dataset.ship); event.preventDefault();
    }
  });
  document.addEventListener("click", function (event) {
    const ship = event.target.closest(".ship[tabindex]");
    if (ship) select(ship.dataset.ship);
  });
  function select(id) {
    selected = selected === id ? null : id;
    showArcs();
  }
  function showArcs() {
    document.querySelectorAll(".arcs").forEach(function (g) { g.classList.toggle("shown", g.dataset.arcs === selected); });
  }

  // -- deployment: click the map to place the chosen ship -------------------------------------
  function place(event) {
    const form = document.getElementById("deploy-form");
    if (!form) return;
    const chosen = form.querySelector("input[name=placing]:checked");
    if (!chosen) return;
    const at = toSvg(event.clientX, event.clientY);
    const id = chosen.value;
    form.querySelector("[name=x_" + id + "]").value = at.x.toFixed(1);
    form.querySelector("[name=y_" + id + "]").value = (H - at.y).toFixed(1);
    drawDeployment();
  }
  function clear() {
    const layer = document.getElementById("preview");
    while (layer && layer.firstChild) layer.removeChild(layer.firstChild);
    return layer;
  }
  function marker(layer, x, y, heading, cls) {
    const g = document.createElementNS(SVGNS, "path");
    g.setAttribute("d", "M0,-1.8 L1.2,1.3 L0,0.6 L-1.2,1.3 Z");
    g.setAttribute("class", "end " + (cls || ""));
    g.setAttribute("transform", "translate(" + x + "," + (H - y) + ") rotate(" + heading * 30 + ")");
    layer.appendChild(g);
  }
  function drawDeployment() {
    const form = document.getElementById("deploy-form");
    if (!form) return;
    const layer = clear();
    form.querySelectorAll(".deploy-ship").forEach(function (fs) {
      const id = fs.dataset.ship;
      const x = parseFloat(form.querySelector("[name=x_" + id + "]").value);
      const y = parseFloat(form.querySelector("[name=y_" + id + "]").value);
      const h = parseInt(form.querySelector("[name=heading_" + id + "]").value, 10);
      if (!isNaN(x) && !isNaN(y)) marker(layer, x, y, h);
    });
  }

  // -- orders preview: the same movement rules as the server (RULES §10) -----------------------
  const ROOT3 = Math.sqrt(3) / 2;
  const UNIT = [[0, 1], [0.5, ROOT3], [ROOT3, 0.5], [1, 0], [ROOT3, -0.5], [0.5, -ROOT3], [0, -1], [-0.5, -ROOT3], [-ROOT3, -0.5], [-1, 0], [-ROOT3, 0.5], [-0.5, ROOT3]];
  const mod12 = function (h) { return ((h % 12) + 12) % 12; };
  function cinematic(ship, s, t) {
    const v = ship.speed + s;
    if (v < 0) return null;
    const first = Math.sign(t) * Math.floor(Math.abs(t) / 2);
    const h1 = mod12(ship.heading + first), h2 = mod12(ship.heading + t);
    const leg1 = Math.floor(v / 2), leg2 = v - leg1;
    const p1 = { x: ship.x + UNIT[h1][0] * leg1, y: ship.y + UNIT[h1][1] * leg1 };
    const p2 = { x: p1.x + UNIT[h2][0] * leg2, y: p1.y + UNIT[h2][1] * leg2 };
    return { path: [{ x: ship.x, y: ship.y }, p1, p2], heading: h2, speed: v };
  }
  function vector(ship, r, n) {
    const h = mod12(ship.heading + r);
    const vx = ship.vx + UNIT[h][0] * n, vy = ship.vy + UNIT[h][1] * n;
    const end = { x: ship.x + vx, y: ship.y + vy };
    return { path: [{ x: ship.x, y: ship.y }, end], heading: h, velocity: { x: vx, y: vy } };
  }
  function shipData(form) {
    const el = document.getElementById("named-ship") || form.querySelector("input[name=ship]:checked");
    if (!el || el.dataset.x === undefined || el.dataset.x === "") return null;
    return {
      x: parseFloat(el.dataset.x), y: parseFloat(el.dataset.y), heading: parseInt(el.dataset.heading, 10),
      speed: parseInt(el.dataset.speed || "0", 10), vx: parseFloat(el.dataset.vx || "0"), vy: parseFloat(el.dataset.vy || "0"),
      limits: el.dataset.limits ? JSON.parse(el.dataset.limits) : {},
    };
  }
  function drawPreview() {
    const form = document.getElementById("orders-form");
    if (!form) return;
    const layer = clear();
    const text = document.getElementById("preview-text");
    const ship = shipData(form);
    if (!ship || !layer) return;
    const num = function (name) { const el = form.querySelector("[name=" + name + "]"); return el ? parseInt(el.value || "0", 10) : 0; };
    const limits = ship.limits || {};
    let result, problem = "";
    if (movement === "vector") {
      const r = num("rotate"), n = num("thrust");
      result = vector(ship, r, n);
      if (limits.thrust !== undefined && (n > limits.thrust || n < 0)) problem = "burn exceeds thrust " + limits.thrust;
      if (Math.abs(r) > (limits.max_rotate === undefined ? 6 : limits.max_rotate)) problem = "rotation too large";
    } else {
      const s = num("speed_change"), t = num("turn");
      result = cinematic(ship, s, t);
      if (!result) problem = "speed cannot go below 0";
      else if (limits.max_turn !== undefined && Math.abs(t) > limits.max_turn) problem = "turn " + t + " exceeds the limit of " + limits.max_turn;
      else if (limits.thrust !== undefined && Math.abs(s) + Math.abs(t) > limits.thrust) problem = "|speed change| + |turn| exceeds thrust " + limits.thrust;
    }
    if (!result) { if (text) text.textContent = problem; return; }
    const end = result.path[result.path.length - 1];
    const off = end.x < 0 || end.y < 0 || end.x > W || end.y > H;
    const line = document.createElementNS(SVGNS, "polyline");
    line.setAttribute("points", result.path.map(function (p) { return p.x + "," + (H - p.y); }).join(" "));
    if (problem || off) line.setAttribute("class", "bad");
    layer.appendChild(line);
    marker(layer, end.x, end.y, result.heading, problem || off ? "bad" : "");
    if (text) {
      let words = "Ends at (" + end.x.toFixed(1) + ", " + end.y.toFixed(1) + ") facing " + (result.heading === 0 ? 12 : result.heading) + " o'clock";
      words += result.velocity ? ", velocity (" + result.velocity.x.toFixed(1) + ", " + result.velocity.y.toFixed(1) + ")" : ", speed " + result.speed;
      if (off) words += " — off the table";
      if (problem) words += " — " + problem;
      text.textContent = words + ".";
    }
  }
  document.addEventListener("input", function (event) {
    if (event.target.closest("#orders-form")) drawPreview();
    if (event.target.closest("#deploy-form")) drawDeployment();
  });
  document.addEventListener("change", function (event) {
    if (event.target.closest("#orders-form")) drawPreview();
    if (event.target.closest("#deploy-form")) drawDeployment();
  });
  document.addEventListener("htmx:afterSettle", function () {
    applyBox(); showArcs();
    if (document.getElementById("orders-form")) drawPreview();
    else if (document.getElementById("deploy-form")) drawDeployment();
    else clear();
  });
  // the referee's belief layers
  document.addEventListener("change", function (event) {
    const toggle = event.target.closest("input[data-belief]");
    if (toggle) wrap.classList.toggle("show-belief-" + toggle.dataset.belief, toggle.checked);
  });
  // "hold fire" sends the declaration with no shots, whatever is chosen: every weapon's choice
  // goes back to "hold" so that the form shows what was sent
  document.addEventListener("click", function (event) {
    const hold = event.target.closest("button[data-hold]");
    if (!hold) return;
    hold.form.querySelectorAll("input[name^='shot@'][value='']").forEach(function (radio) { radio.checked = true; });
  });
  drawPreview(); drawDeployment();
})();
