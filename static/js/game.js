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
    drag = { x: event.clientX, y: event.clientY, moved: false, start: toSvg(event.clientX, event.clientY), order: orderToDrag(event) };
  });
  wrap.addEventListener("pointermove", function (event) {
    if (!drag) return;
    const here = toSvg(event.clientX, event.clientY);
    if (Math.abs(event.clientX - drag.x) + Math.abs(event.clientY - drag.y) > 4) drag.moved = true;
    if (!drag.moved) return;
    // dragging an own group (or its destination) moves the destination, not the map
    if (drag.order) { setOrderPoint(drag.order, { x: here.x, y: H - here.y }); drawAims(); }
    else pan(drag.start.x - here.x, drag.start.y - here.y);
  });
  wrap.addEventListener("pointerup", function (event) {
    if (drag && (!drag.moved || drag.order)) place(event);
    drag = null;
  });
  // the step-2 row a press on the map drags: the one whose group (or launch point) or whose
  // destination is within 1.5 mu of the press, the active row first, else the closest
  function orderToDrag(event) {
    const form = document.getElementById("markers-form");
    if (!form) return null;
    const at = toSvg(event.clientX, event.clientY), here = { x: at.x, y: H - at.y };
    const active = activeRow();
    let best = null;
    form.querySelectorAll(".marker-order").forEach(function (row) {
      const p = orderPoint(row), from = { x: parseFloat(row.dataset.x), y: parseFloat(row.dataset.y) };
      [from, p].forEach(function (q) {
        if (!q) return;
        const d = Math.hypot(q.x - here.x, q.y - here.y) - (row === active ? 0.5 : 0);
        if (d <= 1.5 && (!best || d < best.d)) best = { row: row, d: d };
      });
    });
    if (!best) return null;
    const pick = best.row.querySelector("input[name=ordering]");
    if (pick) pick.checked = true;
    return best.row;
  }
  function setOrderPoint(row, p) {
    field(row, prefix(row) + "_x@" + row.dataset.order).value = p.x.toFixed(1);
    field(row, prefix(row) + "_y@" + row.dataset.order).value = p.y.toFixed(1);
  }
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
    if (aimClick(event)) return;
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
  // the orders' problems by the rules' own checks (RULES §10, app/rules/movement.py): each
  // limit broken, in the words the server refuses with
  function orderProblems(ship, form) {
    const limits = ship.limits || {};
    const problems = [];
    const raw = function (name) { const el = form.querySelector("[name=" + name + "]"); return el ? el.value.trim() : "0"; };
    const names = movement === "vector" ? ["rotate", "thrust"] : ["speed_change", "turn"];
    for (const name of names) {
      if (!/^[+-]?[0-9]{1,9}$/.test(raw(name) || "0")) problems.push(name.replace("_", " ") + " must be a whole number");
    }
    if (problems.length) return problems;
    const num = function (name) { return parseInt(raw(name) || "0", 10); };
    if (movement === "vector") {
      const r = num("rotate"), n = num("thrust"), thrust = limits.thrust;
      const maxRotate = limits.max_rotate === undefined ? 6 : limits.max_rotate;
      if (thrust === 0 && r !== 0) problems.push("rotate " + r + " is not possible: a ship with no thrust cannot rotate");
      else if (Math.abs(r) > maxRotate) problems.push("rotate " + r + " exceeds the limit of " + maxRotate + " clock points");
      if (n < 0) problems.push("thrust " + n + " is negative; a burn is 0 or more");
      else if (thrust !== undefined && n > thrust) problems.push("thrust " + n + " exceeds this ship's thrust of " + thrust);
    } else {
      const s = num("speed_change"), t = num("turn"), thrust = limits.thrust;
      if (limits.max_turn !== undefined && Math.abs(t) > limits.max_turn) problems.push("turn " + t + " exceeds this ship's limit of " + limits.max_turn);
      if (ship.speed + s < 0) problems.push("speed change " + s + " would leave speed " + (ship.speed + s) + "; speed cannot go below 0");
      if (thrust !== undefined && Math.abs(s) + Math.abs(t) > thrust) problems.push("|speed change| + |turn| = " + (Math.abs(s) + Math.abs(t)) + " exceeds thrust " + thrust);
    }
    return problems;
  }
  // the form says what the preview says: orders the rules would refuse cannot be sent, and the
  // reason stands next to the button (the server refuses them too, for a page without script)
  function fitMove(form, problem) {
    const button = document.getElementById("move-button"), why = document.getElementById("move-why");
    if (!button) return;
    button.disabled = !!problem;
    if (why) { why.textContent = problem ? "Move is off: " + problem + "." : ""; why.classList.toggle("bad", !!problem); }
  }
  // the chosen ship's limits: the line under the orders and the fields' bounds
  function fitLimits(form) {
    const picked = form.querySelector("input[name=ship]:checked");
    if (!picked || !picked.dataset.limits) return;
    const limits = JSON.parse(picked.dataset.limits || "{}"), line = document.getElementById("limits");
    if (line && picked.dataset.limitsWords !== undefined) line.textContent = picked.dataset.limitsWords;
    const bound = function (name, low, high) {
      const el = form.querySelector("[name=" + name + "]");
      if (!el || high === undefined) return;
      el.min = String(low); el.max = String(high);
    };
    if (movement === "vector") { bound("rotate", -limits.max_rotate, limits.max_rotate); bound("thrust", 0, limits.thrust); }
    else { bound("speed_change", -limits.max_speed_change, limits.max_speed_change); bound("turn", -limits.max_turn, limits.max_turn); }
  }
  function drawPreview() {
    const form = document.getElementById("orders-form");
    if (!form) return;
    fitLimits(form);
    const layer = clear();
    const text = document.getElementById("preview-text");
    const ship = shipData(form);
    if (!ship || !layer) { fitMove(form, ""); return; }
    const problems = orderProblems(ship, form);
    let problem = problems.join("; ");
    const num = function (name) { const el = form.querySelector("[name=" + name + "]"); return el ? parseInt(el.value || "0", 10) || 0 : 0; };
    let result;
    if (movement === "vector") result = vector(ship, num("rotate"), num("thrust"));
    else result = cinematic(ship, num("speed_change"), num("turn"));
    if (!result) { fitMove(form, problem); if (text) text.textContent = problem; return; }
    const end = result.path[result.path.length - 1];
    const off = end.x < 0 || end.y < 0 || end.x > W || end.y > H;
    const leave = form.querySelector("input[name=leave]");
    if (off && !(leave && leave.checked)) {
      problem = (problem ? problem + "; " : "") + "this move ends off the table: tick \u201cAllow leaving the table\u201d to leave the battle";
    }
    fitMove(form, problem);
    const line = document.createElementNS(SVGNS, "polyline");
    line.setAttribute("points", result.path.map(function (p) { return p.x + "," + (H - p.y); }).join(" "));
    if (problem || off) line.setAttribute("class", "bad");
    layer.appendChild(line);
    marker(layer, end.x, end.y, result.heading, problem || off ? "bad" : "");
    if (text) {
      let words = "Ends at (" + end.x.toFixed(1) + ", " + end.y.toFixed(1) + ") facing " + (result.heading === 0 ? 12 : result.heading) + " o'clock";
      words += result.velocity ? ", velocity (" + result.velocity.x.toFixed(1) + ", " + result.velocity.y.toFixed(1) + ")" : ", speed " + result.speed;
      if (off) words += " — off the table";
      if (problem) words += " — refused: " + problem;
      text.textContent = words + ".";
    }
  }
  // the orders form's "activate" buttons: only the one that fits the chosen ship (missile
  // orders first for a ship in control, a drift for one out of control)
  function fitButtons() {
    const form = document.getElementById("orders-form");
    if (!form) return;
    const picked = form.querySelector("input[name=ship]:checked") || form.querySelector("input[name=ship]");
    if (!picked) return;
    form.querySelectorAll("button[data-for-ships]").forEach(function (b) {
      b.hidden = b.dataset.forShips.split(" ").indexOf(picked.value) < 0;
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target.closest("#orders-form")) fitButtons();
  });
  document.addEventListener("input", function (event) {
    if (event.target.closest("#fire-form, #markers-form")) drawAims();
    if (event.target.closest("#orders-form")) drawPreview();
    if (event.target.closest("#deploy-form")) drawDeployment();
  });
  document.addEventListener("change", function (event) {
    if (event.target.closest("#fire-form, #markers-form")) drawAims();
    if (event.target.closest("#orders-form")) drawPreview();
    if (event.target.closest("#deploy-form")) drawDeployment();
  });
  // -- aiming launches and ordering heavy missiles: the point is checked on the page (arc,
  // reach, table) with the reason shown, before anything is sent ----------------------------
  let aiming = null;  // the launcher row (or marker order) a click on the map aims
  function aimLayer() {
    const layer = document.getElementById("aims");
    while (layer && layer.firstChild) layer.removeChild(layer.firstChild);
    return layer;
  }
  function svgEl(layer, name, attrs, cls) {
    const el = document.createElementNS(SVGNS, name);
    Object.keys(attrs).forEach(function (k) { el.setAttribute(k, attrs[k]); });
    if (cls) el.setAttribute("class", cls);
    layer.appendChild(el);
    return el;
  }
  const SPANS = { F: [330, 30], FS: [30, 90], AS: [90, 150], A: [150, 210], AP: [210, 270], FP: [270, 330],
    SF: [0, 60], S: [60, 120], SA: [120, 180], PA: [180, 240], P: [240, 300], PF: [300, 360] };
  function bearing(from, heading, to) {
    const dx = to.x - from.x, dy = to.y - from.y;
    if (!dx && !dy) return 0;
    const a = UNIT[mod12(heading)], s = UNIT[mod12(heading + 3)];
    let deg = Math.atan2(dx * s[0] + dy * s[1], dx * a[0] + dy * a[1]) * 180 / Math.PI;
    if (deg < 0) deg += 360;
    return deg >= 360 ? 0 : deg;
  }
  function inArc(arc, deg) {
    const span = SPANS[arc];
    if (!span) return false;
    let width = span[1] - span[0];
    if (width <= 0) width += 360;
    const off = ((deg - span[0]) % 360 + 360) % 360;
    return off <= width + 1e-6 || off >= 360 - 1e-6;
  }
  function wedgePath(cx, cy, heading, arc, r) {
    const span = SPANS[arc];
    const a0 = (heading * 30 + span[0]) * Math.PI / 180, a1 = (heading * 30 + span[1]) * Math.PI / 180;
    return "M" + cx + "," + cy + " L" + (cx + r * Math.sin(a0)) + "," + (cy - r * Math.cos(a0)) +
      " A" + r + "," + r + " 0 0 1 " + (cx + r * Math.sin(a1)) + "," + (cy - r * Math.cos(a1)) + " Z";
  }
  function field(root, name) { return root.querySelector('[name="' + name + '"]'); }
  function launchOf(row) {
    const loads = JSON.parse(row.dataset.loads || "[]");
    const select = field(row, "load@" + row.dataset.launch);
    const load = select ? select.value : (loads[0] ? loads[0].load : row.dataset.kind);
    const found = loads.filter(function (l) { return l.load === load; })[0] || loads[0] || { reach: 0 };
    return { load: load, reach: parseFloat(found.reach), amt: load === "amt" || row.dataset.kind === "amt",
      from: { x: parseFloat(row.dataset.x), y: parseFloat(row.dataset.y) }, heading: parseInt(row.dataset.heading, 10),
      arcs: JSON.parse(row.dataset.arcs || "[]"), seeker: parseFloat(row.dataset.seeker) };
  }
  const WORDS = { salvo: "salvo", er_salvo: "extended-range salvo", af_salvo: "anti-fighter salvo", amt: "torpedo" };
  function aimProblem(row, p) {
    const l = launchOf(row);
    if (p.x < 0 || p.y < 0 || p.x > W || p.y > H) return "the aim point is off the table";
    const d = Math.hypot(p.x - l.from.x, p.y - l.from.y);
    const what = WORDS[l.load] || "missile";
    if (d > l.reach + 1e-9) return "aim point " + d.toFixed(1) + " mu away; this " + what + " reaches " + l.reach;
    const deg = bearing(l.from, l.heading, p);
    if (!l.arcs.some(function (a) { return inArc(a, deg); })) return "out of arc: the point bears " + Math.round(deg) + "° from the bow, this launcher fires into " + l.arcs.join(" ");
    return "";
  }
  function chosenPoint(row) {
    const radio = row.querySelector("input[type=radio]:checked");
    if (!radio || !radio.value) return null;
    if (radio.dataset.aimX !== undefined) return { x: parseFloat(radio.dataset.aimX), y: parseFloat(radio.dataset.aimY) };
    const x = parseFloat(field(row, "aim_x@" + row.dataset.launch).value), y = parseFloat(field(row, "aim_y@" + row.dataset.launch).value);
    return isNaN(x) || isNaN(y) ? { missing: true } : { x: x, y: y };
  }
  function drawLaunch(layer, row, active) {
    const l = launchOf(row), cx = l.from.x, cy = H - l.from.y;
    if (active) {
      l.arcs.forEach(function (a) { if (SPANS[a]) svgEl(layer, "path", { d: wedgePath(cx, cy, l.heading, a, l.reach) }, "arc-preview"); });
      svgEl(layer, "circle", { cx: cx, cy: cy, r: l.reach }, "reach-preview");
    }
    const p = chosenPoint(row), check = row.querySelector(".aim-check");
    if (!p || p.missing) { if (check && !check.classList.contains("bad")) check.textContent = p ? "Click the map to place the aim point." : ""; return; }
    const problem = aimProblem(row, p), px = p.x, py = H - p.y;
    svgEl(layer, "polyline", { points: cx + "," + cy + " " + px + "," + py }, problem ? "bad" : "");
    if (l.amt) [1, 2, 3].forEach(function (r) { svgEl(layer, "circle", { cx: px, cy: py, r: r }, "blast-preview" + (problem ? " bad" : "")); });
    else svgEl(layer, "circle", { cx: px, cy: py, r: l.seeker }, "seeker-preview" + (problem ? " bad" : ""));
    if (check) {
      check.classList.toggle("bad", !!problem); check.classList.toggle("good", !problem);
      check.textContent = problem ? "Refused: " + problem + "." : "Aim point (" + p.x.toFixed(1) + ", " + p.y.toFixed(1) + "), " +
        Math.hypot(p.x - l.from.x, p.y - l.from.y).toFixed(1) + " mu away: " + (l.amt ? "the torpedo bursts there (blast 1, 2, 3 mu)" : "it attacks the closest enemy ship within " + l.seeker + " mu of it") + ".";
    }
  }
  // a step-2 row: a heavy missile's point, a group's destination, or a launch's (the fields'
  // prefix is the row's data-field, "to" unless said)
  const FLIES = { group: "this group flies", launch: "a new group flies at once" };
  const STAYS = { group: "No destination: it stays where it is.", launch: "No destination: the group stays at the launch point." };
  function prefix(row) { return row.dataset.field || "to"; }
  function orderProblem(row, p) {
    if (p.x < 0 || p.y < 0 || p.x > W || p.y > H) return "the point is off the table";
    const d = Math.hypot(p.x - parseFloat(row.dataset.x), p.y - parseFloat(row.dataset.y));
    const reach = parseFloat(row.dataset.reach);
    return d > reach + 1e-9 ? "the point is " + d.toFixed(1) + " mu away; " + (FLIES[row.dataset.what] || "this missile flies") + " " + reach + " mu" : "";
  }
  function landing(row) { const box = row.querySelector("input[name^='land@']"); return !!(box && box.checked); }
  function orderPoint(row) {
    const id = row.dataset.order;
    const x = parseFloat(field(row, prefix(row) + "_x@" + id).value), y = parseFloat(field(row, prefix(row) + "_y@" + id).value);
    return isNaN(x) || isNaN(y) ? null : { x: x, y: y };
  }
  function drawOrder(layer, row, active) {
    const cx = parseFloat(row.dataset.x), cy = H - parseFloat(row.dataset.y);
    if (active) svgEl(layer, "circle", { cx: cx, cy: cy, r: parseFloat(row.dataset.reach) }, "reach-preview");
    const p = orderPoint(row), check = row.querySelector(".marker-check");
    if (landing(row)) { if (check) { check.textContent = p ? "Refused: a group lands or flies to a point, not both: clear the point." : "Lands on its mother ship."; check.className = "marker-check aim-check " + (p ? "bad" : "good"); } return; }
    if (!p) { if (check) { check.textContent = STAYS[row.dataset.what] || "No point: it holds where it is."; check.className = "marker-check aim-check"; } return; }
    const problem = orderProblem(row, p);
    svgEl(layer, "polyline", { points: cx + "," + cy + " " + p.x + "," + (H - p.y) }, problem ? "bad" : "");
    svgEl(layer, "circle", { cx: p.x, cy: H - p.y, r: parseFloat(row.dataset.seeker) }, "seeker-preview" + (problem ? " bad" : ""));
    if (check) {
      check.className = "marker-check aim-check " + (problem ? "bad" : "good");
      check.textContent = problem ? "Refused: " + problem + "." : "Flies to (" + p.x.toFixed(1) + ", " + p.y.toFixed(1) + ").";
    }
  }
  function activeRow() {
    const rows = Array.from(document.querySelectorAll("#fire-form .launch-choice"));
    if (rows.length) return rows.indexOf(aiming) >= 0 ? aiming : rows[0];
    const picked = document.querySelector("#markers-form input[name=ordering]:checked");
    return picked ? picked.closest(".marker-order") : document.querySelector("#markers-form .marker-order");
  }
  function drawAims() {
    const layer = aimLayer();
    if (!layer) return;
    const active = activeRow();
    document.querySelectorAll("#fire-form .launch-choice").forEach(function (row) { drawLaunch(layer, row, row === active); });
    document.querySelectorAll("#markers-form .marker-order").forEach(function (row) { drawOrder(layer, row, row === active); });
  }
  function aimClick(event) {
    const row = activeRow();
    if (!row) return false;
    const at = toSvg(event.clientX, event.clientY), p = { x: +at.x.toFixed(1), y: +(H - at.y).toFixed(1) };
    const launch = row.classList.contains("launch-choice");
    const problem = launch ? aimProblem(row, p) : orderProblem(row, p);
    const check = row.querySelector(".aim-check");
    if (problem) {  // the point is not taken: the reason says why
      if (check) { check.textContent = "Refused: " + problem + "."; check.classList.add("bad"); check.classList.remove("good"); }
      return true;
    }
    if (check) check.classList.remove("bad");
    const key = launch ? row.dataset.launch : row.dataset.order;
    field(row, (launch ? "aim" : prefix(row)) + "_x@" + key).value = p.x.toFixed(1);
    field(row, (launch ? "aim" : prefix(row)) + "_y@" + key).value = p.y.toFixed(1);
    if (launch) row.querySelector("input.aim-own").checked = true;
    const bay = row.querySelector("input[name^='launch@']");
    if (bay) bay.checked = true;  // a destination for a bay's group launches it
    const land = row.querySelector("input[name^='land@']");
    if (land) land.checked = false;
    drawAims();
    return true;
  }
  document.addEventListener("focusin", function (event) {
    const row = event.target.closest && event.target.closest(".launch-choice");
    if (row && row !== aiming) { aiming = row; drawAims(); }
  });
  document.addEventListener("click", function (event) {
    const row = event.target.closest && event.target.closest(".launch-choice");
    if (row && row !== aiming) { aiming = row; drawAims(); }
  });
  // a launch the page knows to be illegal is not sent: the row says why
  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (event.submitter && event.submitter.dataset.hold) return;
    let bad = null;
    if (form.id === "fire-form") {
      form.querySelectorAll(".launch-choice").forEach(function (row) {
        const p = chosenPoint(row);
        if (!p) return;
        const problem = p.missing ? "give it an aim point: click the map, or type x and y" : aimProblem(row, p);
        const check = row.querySelector(".aim-check");
        if (problem) { check.textContent = "Refused: " + problem + "."; check.classList.add("bad"); bad = bad || row; }
      });
    } else if (form.id === "markers-form") {
      form.querySelectorAll(".marker-order").forEach(function (row) {
        const p = orderPoint(row);
        const problem = p && landing(row) ? "a group lands or flies to a point, not both: clear the point" : p ? orderProblem(row, p) : "";
        if (problem) { const check = row.querySelector(".marker-check"); check.textContent = "Refused: " + problem + "."; check.className = "marker-check aim-check bad"; bad = bad || row; }
      });
    }
    if (bad) { event.preventDefault(); event.stopImmediatePropagation(); bad.scrollIntoView({ block: "nearest" }); }
  }, true);

  document.addEventListener("htmx:afterSettle", function () {
    applyBox(); showArcs(); drawAims(); fitButtons();
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
  drawPreview(); drawDeployment(); drawAims(); fitButtons();
})();
