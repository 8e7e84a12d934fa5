// After the game: step through the record as each side knew it, or the truth, and verify every die.
// The frames come from the server (/games/{id}/replay.json): each viewpoint's ships and markers at
// every event are that side's own view then, so nothing here works out who knew what.
(function () {
  "use strict";
  const box = document.getElementById("after-replay");
  if (!box) return;
  const H = parseFloat(box.dataset.height);
  const SVGNS = "http://www.w3.org/2000/svg";
  const slider = document.getElementById("replay-step");
  const label = document.getElementById("replay-label");
  const said = document.getElementById("replay-text");
  const layer = document.getElementById("replay-layer");
  const fxLayer = document.getElementById("replay-fx");
  const playButton = document.getElementById("replay-play");
  const still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  let record = null, replay = null, frames = [], names = {}, timer = null;
  let viewpoint = "all";

  function el(name, attrs, parent) {
    const node = document.createElementNS(SVGNS, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    (parent || layer).appendChild(node);
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  const HULL = "M0,-1.8 L1.2,1.3 L0,0.6 L-1.2,1.3 Z";
  // the tracks of what this viewpoint truly knew: its own ships and markers (all of them for
  // "everything"), through their positions in this viewpoint's frames so far
  function tracks(upto) {
    const ships = {}, markers = {};
    function add(out, item) {
      const t = out[item.id] || (out[item.id] = { side: item.side, points: [] });
      const last = t.points[t.points.length - 1];
      if (!last || last.x !== item.x || last.y !== item.y) t.points.push({ x: item.x, y: item.y });
    }
    for (let i = 0; i <= upto; i++) {
      const view = frames[i].views[viewpoint];
      view.ships.forEach(function (s) { if (s.kind === "own" || s.kind === "truth") add(ships, s); });
      view.markers.forEach(function (m) { if (!m.beside) add(markers, m); });
    }
    return { ships: ships, markers: markers };
  }
  function points(list) { return list.map(function (p) { return p.x + "," + (H - p.y); }).join(" "); }
  function drawShip(s) {
    const ship = names[s.id] || { name: s.id };
    const g = el("g", { "class": "ship rp-" + s.kind + " side-" + s.side + " " + s.status, "data-ship": s.id, "data-kind": s.kind,
      transform: "translate(" + s.x + "," + (H - s.y) + ")" });
    el("path", { "class": "hullmark", d: HULL, transform: "rotate(" + s.heading * 30 + ")" }, g);
    const text = el("text", { "class": "label", y: "3.6" }, g);
    let note = s.status !== "active" ? s.status.replace(/_/g, " ") : s.kind === "stale" ? "last seen T" + s.seen
      : s.kind === "live" ? "seen" : s.revealed === "live" ? "revealed" : "hidden";
    text.textContent = ship.name + " (" + note + ")";
  }
  const GROUPS = { fighters: 1, drones: 1 };
  function drawMarker(m, track) {
    const group = GROUPS[m.kind];
    const g = el("g", group ? { "class": "group grp-" + m.kind + " side-" + m.side, "data-group": m.id }
      : { "class": "ordnance ord-" + m.kind + " side-" + m.side, "data-marker": m.id });
    if (track) el("polyline", { "class": "ord-track", fill: "none", points: points(track.points) }, g);
    const mark = el("g", { "class": group ? "grp-mark" : "ord-mark", transform: "translate(" + m.x + "," + (H - m.y) + ")" }, g);
    if (group) el("path", { "class": "grp-shape", d: m.kind === "drones" ? "M-1,-0.7 h2 v1.4 h-2 Z" : "M-1.1,0.8 L-0.55,-0.6 L0,0.8 M0,0.8 L0.55,-0.6 L1.1,0.8" }, mark);
    else el("circle", { "class": "ord-shape", r: "0.8" }, mark);
    const text = el("text", { "class": "label", y: "-1.4" }, mark);
    text.textContent = m.kind.replace(/_/g, " ") + " " + m.id + (m.strength > 1 ? " ×" + m.strength : "") + (m.target ? " → " + ((names[m.target] || {}).name || m.target) : "");
  }
  function drawFx(fx) {
    if (fx.fx === "ping") el("circle", { "class": "rp-ping", cx: fx.x, cy: H - fx.y, r: 4 }, fxLayer);
    else if (fx.fx === "shot") el("line", { "class": "rp-shot " + (fx.hits ? "hit" : "miss"), x1: fx.x1, y1: H - fx.y1, x2: fx.x2, y2: H - fx.y2 }, fxLayer);
    else if (fx.fx === "damage") el("text", { "class": "rp-damage", x: fx.x + 1.5, y: H - fx.y - 1.5 }, fxLayer).textContent = "−" + fx.amount;
    else if (fx.fx === "destroyed") el("circle", { "class": "rp-destroyed", cx: fx.x, cy: H - fx.y, r: 2.5 }, fxLayer);
  }
  function draw(i) {
    const frame = frames[i];
    if (!frame) return;  // a step asked for before the record is in: the label says it loads
    const view = frame.views[viewpoint];
    clear(layer); clear(fxLayer);
    const t = tracks(i);
    Object.keys(t.ships).forEach(function (id) { el("polyline", { "class": "trail side-" + t.ships[id].side, points: points(t.ships[id].points) }); });
    view.ships.forEach(drawShip);
    view.markers.forEach(function (m) { drawMarker(m, t.markers[m.id]); });
    view.fx.forEach(drawFx);
    if (!still) fxLayer.setAttribute("class", "fresh");
    label.textContent = "Event " + frame.seq + " of " + frames[frames.length - 1].seq + " — turn " + frame.turn + ": " + frame.type.replace(/_/g, " ");
    said.textContent = (viewpoint === "all" ? "" : "Side " + viewpoint + " was told: ") + view.text;
    box.dataset.seq = String(frame.seq);
    box.dataset.view = viewpoint;
  }
  function at() { return parseInt(slider.value, 10); }
  function go(i) { slider.value = String(Math.max(0, Math.min(frames.length - 1, i))); draw(at()); }
  function stop() { if (timer) clearInterval(timer); timer = null; playButton.textContent = "Play"; playButton.setAttribute("aria-pressed", "false"); }
  playButton.addEventListener("click", function () {
    if (timer) { stop(); return; }
    if (!frames.length) return;
    if (at() >= frames.length - 1) go(0);
    playButton.textContent = "Pause"; playButton.setAttribute("aria-pressed", "true");
    timer = setInterval(function () { if (at() >= frames.length - 1) stop(); else go(at() + 1); }, 600);
  });
  document.querySelectorAll('input[name="replay-view"]').forEach(function (r) {
    r.addEventListener("change", function () { if (r.checked) { viewpoint = r.value; draw(at()); } });
  });
  const json = function (r) { if (!r.ok) throw new Error(r.status); return r.json(); };
  // kept as a promise: a dice check asked for before the record is in waits for it
  const loaded = fetch(box.dataset.record, { credentials: "same-origin" }).then(json).then(function (data) { record = data; });
  Promise.all([loaded, fetch(box.dataset.replay, { credentials: "same-origin" }).then(json)]).then(function (both) {
    replay = both[1];
    frames = replay.frames;
    // a viewpoint's ships or markers sent as null are as in the frame before
    frames.forEach(function (f, i) {
      Object.keys(f.views).forEach(function (name) {
        ["ships", "markers"].forEach(function (part) { if (f.views[name][part] === null) f.views[name][part] = i ? frames[i - 1].views[name][part] : []; });
      });
    });
    replay.ships.forEach(function (s) { names[s.id] = s; });
    slider.max = String(frames.length - 1);
    go(frames.length - 1);
  }).catch(function () { label.textContent = "The record could not be loaded."; });
  slider.addEventListener("input", function () { draw(at()); });
  document.getElementById("replay-prev").addEventListener("click", function () { stop(); go(at() - 1); });
  document.getElementById("replay-next").addEventListener("click", function () { stop(); go(at() + 1); });

  // -- verify the dice (RULES §12) in the page, with the browser's own SHA-256 ---------------
  function values(e) {
    const d = e.data;
    switch (e.type) {
      case "turn_started": return (d.rolloff || []).flat();
      case "core_roll": return [d.die];
      case "ping": return d.detections.flatMap(function (x) { return x.ping_dice.concat(x.ecm_drawn); });
      case "fire_resolved": return d.shots.filter(function (s) { return !s.cancelled; }).flatMap(function (s) { return s.rolled; });
      case "threshold_check": return d.results.map(function (r) { return r.die; });
      case "system_damaged": return ["core_roll", "effect_roll"].filter(function (k) { return k in d; }).map(function (k) { return d[k]; });
      case "damage_control": return d.attempts.map(function (a) { return a.die; });
      // ordnance (RULES §9): the dice in the order they were rolled
      case "salvo_attack": return [d.missiles_die].concat(d.rolled);
      case "amt_detonated": return (d.blasts || []).flatMap(function (b) { return b.rolled; });
      case "heavy_missile_attack": return (d.needles !== undefined && d.needles !== null ? [d.needles] : []).concat(d.rolled || []);
      case "fighters_attack": return (d.rolled || []).concat(d.damage_rolled || []);
      case "dogfight": return ((d.attacker || {}).rolled || []).concat((d.defender || {}).rolled || []);
      // an interception rolls its dice, then the attacking group's back at it
      case "defence_resolved": return (d.defences || []).flatMap(function (f) { return f.dice.concat(f.back || []).map(function (x) { return x.natural; }); });
      default: return [];
    }
  }
  function hexBytes(hex) { const out = new Uint8Array(hex.length / 2); for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16); return out; }
  function toHex(buf) { return Array.from(new Uint8Array(buf)).map(function (b) { return b.toString(16).padStart(2, "0"); }).join(""); }
  async function d6(key, gameId, k) {
    for (let n = 0; ; n++) {
      const msg = gameId + ":" + k + (n ? ":" + n : "");
      const digest = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(msg)));
      for (const b of digest) if (b < 252) return (b % 6) + 1;
    }
  }
  document.getElementById("verify-dice").addEventListener("click", async function () {
    const out = document.getElementById("verify-result");
    if (!record) {
      out.textContent = "The record is still loading; the check starts when it is in.";
      await loaded;
      if (!record) { out.textContent = "The record could not be loaded, so the dice cannot be checked."; out.dataset.verified = "no"; return; }
    }
    if (!window.crypto || !crypto.subtle) { out.textContent = "This browser cannot compute SHA-256 here (it needs HTTPS or localhost)."; return; }
    out.textContent = "Checking…";
    const seed = hexBytes(record.seed);
    const commitment = toHex(await crypto.subtle.digest("SHA-256", seed));
    const key = await crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    let checked = 0; const bad = [];
    for (const e of record.events) {
      const rolls = e.data.rolls || [], dice = values(e);
      if (rolls.length !== dice.length) { bad.push("event " + e.seq + ": roll numbers and dice differ"); continue; }
      for (let i = 0; i < rolls.length; i++) {
        const expected = await d6(key, record.game_id, rolls[i]);
        checked++;
        if (expected !== dice[i]) bad.push("event " + e.seq + ", roll " + rolls[i] + ": seed gives " + expected + ", record says " + dice[i]);
      }
    }
    if (commitment !== record.seed_commitment) bad.unshift("the seed does not match its commitment");
    out.textContent = bad.length ? "Problems: " + bad.slice(0, 5).join("; ") : "✓ The seed matches its commitment and all " + checked + " dice verify.";
    out.dataset.verified = bad.length ? "no" : "yes";
  });
})();
