// After the game: step through the whole record with true positions, and verify every die.
(function () {
  "use strict";
  const section = document.getElementById("replay");
  if (!section) return;
  const live = document.getElementById("live");
  const H = parseFloat(live.dataset.height);
  const SVGNS = "http://www.w3.org/2000/svg";
  const slider = document.getElementById("replay-step");
  const label = document.getElementById("replay-label");
  const layer = document.getElementById("replay-layer");
  let record = null, frames = [];

  // ordnance from the full record: where each marker was launched from (its mother's true
  // position then), its aim point, and every step-2 move, until it attacked or was removed
  const GONE = { salvo_wasted: 1, salvo_attack: 1, amt_detonated: 1, heavy_missile_attack: 1 };
  function follow(e, ships, markers) {
    const d = e.data;
    if (e.type === "ordnance_launched" && d.marker && d.aim) {
      const mother = ships[d.ship] || {};
      markers[d.marker] = { id: d.marker, kind: d.kind, missile: d.missile || null, side: mother.side, mother: mother.name,
        pos: d.aim, aim: d.aim, endurance: d.endurance === undefined ? null : d.endurance, trail: mother.pos ? [mother.pos, d.aim] : [d.aim] };
    } else if (e.type === "ordnance_acted" && d.markers) {
      d.markers.forEach(function (m) {
        if (GROUPS[m.kind] && !groupActed(m, ships[d.ship] || {}, markers)) return;
        const mk = markers[m.marker];
        if (!mk) return;
        mk.trail.push(m.to); mk.pos = m.to;
        if (m.endurance !== undefined) mk.endurance = m.endurance;
        if (m.result === "burnt_out") delete markers[m.marker];
      });
    } else if (e.type === "fighters_attack" && markers[d.marker]) {
      markers[d.marker].engaged = d.target;
      if (d.fighters !== undefined) markers[d.marker].strength = d.fighters;
    } else if (e.type === "defence_resolved") {
      // point defence and interceptors at groups: each kill is a fighter less
      (d.defences || []).forEach(function (f) { const mk = markers[f.against]; if (mk && GROUPS[mk.kind] && f.kills) mk.strength = Math.max(0, (mk.strength || 0) - f.kills); });
    } else if (e.type === "contact_lost" && markers[d.marker]) {
      markers[d.marker].engaged = null;
      if (d.at) { markers[d.marker].pos = d.at; markers[d.marker].trail.push(d.at); }
    } else if (e.type === "ship_moved") {
      // an engaged group follows its ship (a lost contact comes as its own event)
      Object.values(markers).forEach(function (mk) { if (mk.engaged === d.ship && d.to) { mk.pos = d.to; mk.trail.push(d.to); } });
    } else if (GONE[e.type]) delete markers[d.marker];
    else if (e.type === "marker_removed") (d.markers || []).forEach(function (m) { delete markers[m.marker]; });
  }
  // a group's step-2 item: launched (a new marker at its mother's true position), landed
  // (gone), moved or stayed; false when nothing more is to be done with it
  const GROUPS = { fighters: 1, drones: 1 };
  function groupActed(m, mother, markers) {
    if (m.result === "launched") {
      const start = m.from || mother.pos || m.to;
      markers[m.marker] = { id: m.marker, kind: m.kind, group: m.group || m.type || null, side: mother.side, mother: mother.name,
        pos: m.to || start, aim: m.to || start, strength: m.strength, cef: m.cef === undefined ? null : m.cef, trail: [start, m.to || start], endurance: null };
      return false;
    }
    if (m.result === "landed") { delete markers[m.marker]; return false; }
    const mk = markers[m.marker];
    if (mk && m.cef !== undefined) mk.cef = m.cef;
    if (mk && m.strength !== undefined) mk.strength = m.strength;
    return !!(mk && m.to);
  }
  function build(events) {
    const ships = {}, markers = {}, out = [];
    const roster = events[0].data.ships;
    roster.forEach(function (s) { ships[s.id] = { id: s.id, name: s.name, side: s.side, pos: null, heading: 0, trail: [], status: "active", revealed: "unseen" }; });
    events.forEach(function (e) {
      if (e.voided) return;
      const d = e.data;
      if (e.type === "deployed") d.ships.forEach(function (p) { const s = ships[p.ship]; s.pos = p.position; s.heading = p.heading; s.trail = [p.position]; });
      if (e.type === "ship_moved") { const s = ships[d.ship]; d.path.forEach(function (p) { s.trail.push(p); }); s.pos = d.to; s.heading = d.heading; if (s.revealed === "live") s.revealed = "stale"; }
      if (e.type === "ship_revealed") ships[d.ship].revealed = "live";
      if (e.type === "ship_destroyed") ships[d.ship].status = "destroyed";
      if (e.type === "ship_left") ships[d.ship].status = "left";
      follow(e, ships, markers);
      out.push({ seq: e.seq, turn: e.turn, type: e.type, ships: JSON.parse(JSON.stringify(ships)), markers: JSON.parse(JSON.stringify(markers)) });
    });
    return out;
  }
  function el(name, attrs, parent) {
    const node = document.createElementNS(SVGNS, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    (parent || layer).appendChild(node);
    return node;
  }
  const KINDS = { salvo: "salvo", er_salvo: "ER salvo", af_salvo: "AF salvo", heavy_missile: "heavy missile", amt: "torpedo" };
  function drawGroup(m) {
    const g = el("g", { "class": "group grp-" + m.kind + " side-" + m.side, "data-group": m.id });
    el("polyline", { "class": "ord-track", fill: "none", points: m.trail.map(function (p) { return p.x + "," + (H - p.y); }).join(" ") }, g);
    el("circle", { "class": "grp-sight", cx: m.pos.x, cy: H - m.pos.y, r: 6 }, g);
    const mark = el("g", { "class": "grp-mark", transform: "translate(" + m.pos.x + "," + (H - m.pos.y) + ")" }, g);
    el("path", { "class": "grp-shape", d: m.kind === "drones" ? "M-1,-0.7 h2 v1.4 h-2 Z" : "M-1.1,0.8 L-0.55,-0.6 L0,0.8 M0,0.8 L0.55,-0.6 L1.1,0.8" }, mark);
    const text = el("text", { "class": "label", y: "-1.3" }, mark);
    text.textContent = (m.group ? m.group.replace(/_/g, " ") + " " : "") + m.kind + " " + m.id + (m.strength !== undefined && m.strength !== null ? " ×" + m.strength : "") + " · " + m.mother + (m.cef !== null && m.cef !== undefined ? " · CEF " + m.cef : "") + (m.engaged ? " (engaged)" : "");
  }
  function drawMarker(m) {
    if (GROUPS[m.kind]) { drawGroup(m); return; }
    const g = el("g", { "class": "ordnance ord-" + m.kind + " side-" + m.side, "data-marker": m.id });
    el("polyline", { "class": "ord-track", fill: "none", points: m.trail.map(function (p) { return p.x + "," + (H - p.y); }).join(" ") }, g);
    const x = m.pos.x, y = H - m.pos.y;
    if (m.kind === "amt") [1, 2, 3].forEach(function (r) { el("circle", { "class": "blast", cx: m.aim.x, cy: H - m.aim.y, r: r }, g); });
    else el("circle", { "class": "seeker", cx: m.kind === "heavy_missile" ? x : m.aim.x, cy: m.kind === "heavy_missile" ? y : H - m.aim.y, r: live.dataset.movement === "vector" ? 3 : 6 }, g);
    const mark = el("g", { "class": "ord-mark", transform: "translate(" + x + "," + y + ")" }, g);
    if (m.kind === "heavy_missile") el("path", { "class": "ord-shape", d: "M0,-1.2 L0.6,0.9 L-0.6,0.9 Z" }, mark);
    else if (m.kind === "amt") el("path", { "class": "ord-shape", d: "M0,-1 L1,0 L0,1 L-1,0 Z" }, mark);
    else el("circle", { "class": "ord-shape", r: "0.8" }, mark);
    const text = el("text", { "class": "label", y: "-1.4" }, mark);
    text.textContent = (m.missile ? m.missile.replace(/_/g, " ") + " " : "") + (KINDS[m.kind] || m.kind) + " · " + m.mother + (m.endurance !== null ? " · E" + m.endurance : "");
  }
  function draw(i) {
    const frame = frames[i];
    if (!frame) return;  // a step asked for before the record is in: the label says it loads
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    Object.values(frame.ships).forEach(function (s) {
      if (!s.pos) return;
      const trail = document.createElementNS(SVGNS, "polyline");
      trail.setAttribute("points", s.trail.map(function (p) { return p.x + "," + (H - p.y); }).join(" "));
      trail.setAttribute("class", "trail side-" + s.side);
      layer.appendChild(trail);
      const g = document.createElementNS(SVGNS, "g");
      g.setAttribute("class", "ship own side-" + s.side + " " + s.status);
      g.setAttribute("transform", "translate(" + s.pos.x + "," + (H - s.pos.y) + ")");
      const hull = document.createElementNS(SVGNS, "path");
      hull.setAttribute("d", "M0,-1.8 L1.2,1.3 L0,0.6 L-1.2,1.3 Z");
      hull.setAttribute("class", "hullmark");
      hull.setAttribute("transform", "rotate(" + s.heading * 30 + ")");
      const text = document.createElementNS(SVGNS, "text");
      text.setAttribute("class", "label"); text.setAttribute("y", "3.6");
      text.textContent = s.name + (s.status !== "active" ? " (" + s.status + ")" : s.revealed !== "unseen" ? " (" + s.revealed + ")" : " (hidden)");
      g.appendChild(hull); g.appendChild(text); layer.appendChild(g);
    });
    Object.values(frame.markers || {}).forEach(function (m) { drawMarker(m); });
    label.textContent = "Event " + frame.seq + " of " + frames[frames.length - 1].seq + " — turn " + frame.turn + ": " + frame.type.replace(/_/g, " ");
  }
  // kept as a promise: a dice check asked for before the record is in waits for it
  const loaded = fetch(section.dataset.record, { credentials: "same-origin" }).then(function (r) { return r.json(); }).then(function (data) {
    record = data;
    frames = build(data.events);
    slider.max = String(frames.length - 1);
    slider.value = String(frames.length - 1);
    draw(frames.length - 1);
  }).catch(function () { label.textContent = "The record could not be loaded."; });
  slider.addEventListener("input", function () { draw(parseInt(slider.value, 10)); });
  document.getElementById("replay-prev").addEventListener("click", function () { slider.value = String(Math.max(0, slider.value - 1)); draw(parseInt(slider.value, 10)); });
  document.getElementById("replay-next").addEventListener("click", function () { slider.value = String(Math.min(frames.length - 1, +slider.value + 1)); draw(parseInt(slider.value, 10)); });

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
