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

  function build(events) {
    const ships = {}, out = [];
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
      out.push({ seq: e.seq, turn: e.turn, type: e.type, ships: JSON.parse(JSON.stringify(ships)) });
    });
    return out;
  }
  function draw(i) {
    const frame = frames[i];
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
    label.textContent = "Event " + frame.seq + " of " + frames[frames.length - 1].seq + " — turn " + frame.turn + ": " + frame.type.replace(/_/g, " ");
  }
  fetch(section.dataset.record, { credentials: "same-origin" }).then(function (r) { return r.json(); }).then(function (data) {
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
    if (!record) { out.textContent = "The record is still loading."; return; }
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
