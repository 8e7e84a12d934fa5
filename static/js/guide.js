/* The lessons of a guided first duel ("Learn to play", issue 17: POST /learn, app/web/guide.py).

   Loaded only on the page of a guided game (#live data-guided). Each step of the game is
   explained once, when the page first shows it, as a short tour (static/js/tour.js) pointing at
   the part of the page that step uses. A lesson is due when its part is on the page: the forms
   and log lines the server draws for the phase (#deploy-form, #fire-form, …), so whatever
   brought them — a reload, the player's own order, or the computer's move over the live
   stream — the check after each htmx swap finds them.

   Seen lessons are kept per game in localStorage ("pingduel.lessons.<game id>"), so a reload
   does not repeat them; "Stop the lessons" (in the site header and in each lesson) turns them
   off for this game, and the header button turns them back on. Lessons due at the same time are
   one tour of several steps; a lesson never interrupts another tour the player opened. */
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !live.dataset.guided) return;
  var KEY = "pingduel.lessons." + live.dataset.game;
  var LABEL = "Lesson";
  var memory = { seen: [], off: false }; // when localStorage is unavailable (private mode)

  function help(anchor, text) {
    return { href: "/help#" + anchor, text: text };
  }

  // in the order a duel meets them; ``when`` is a selector whose match makes the lesson due
  var LESSONS = [
    { id: "deploy", when: "#deploy-form", steps: [
      { target: "#map .zone", title: "Your deployment zone",
        text: "Your frigate starts inside the shaded box along your edge of the table. Click in it on the map to place the ship, or type x and y in the form. The cadet never learns where you put it.",
        link: help("deploy", "Deployment in the rules") },
      { target: "#deploy-form", title: "Heading and speed",
        text: "The heading is where the nose points, read as a clock face: 12 o'clock is north, up the map. The speed is how far the ship coasts each turn. Press Deploy in secret when you are ready; play starts once both sides have deployed.",
        link: help("move", "How ships move") },
    ] },
    { id: "activate", when: "#orders-form input[name=ship][type=radio]", steps: [
      { target: "#orders-form fieldset", title: "Your activation: name a ship",
        text: "A turn is a run of activations: the sides take turns, one ship each. First you choose which of your ships acts now — with one frigate the choice is made for you.",
        link: help("turn", "Turns and activations") },
    ] },
    { id: "move", when: "#move-button", steps: [
      { target: "#orders-form .orders", title: "Secret orders",
        text: "Change the speed and turn by clock points; the map draws the path before you send it. Nobody else sees the move: to the cadet your ship simply vanishes into the dark.",
        link: help("move", "Moving") },
      { target: "#move-button", title: "Move, or ping first",
        text: "A ping is how you look for the enemy: your sensors may reveal it, and only a revealed ship can be shot at. The cost: a ping always shows your own ship, exactly where it is, and opens a fire window in which the enemy's quiet ships may shoot at it. One ping per activation, before or after the move.",
        link: help("ping", "What a ping does") },
    ] },
    { id: "overwatch", when: "#controls button[value=end_activation]", steps: [
      { target: "#controls button[value=end_activation]", title: "Stay quiet: overwatch",
        text: "Ending the activation without a ping keeps your ship hidden, on overwatch. When the enemy pings, a ship on overwatch may fire at it — but firing shows where the shooter is, too.",
        link: help("overwatch", "Overwatch") },
    ] },
    { id: "fire", when: "#fire-form", steps: [
      { target: "#fire-form", title: "A fire window",
        text: "Someone pinged, so guns may fire. Each side picks its shots, or holds, in secret; when both have answered, every shot lands at the same moment: the volley.",
        link: help("fire", "The fire window") },
      { target: "#fire-form .weapon-choice", title: "Dice and hits",
        text: "\"Rolls 2\" means two beam dice. Against a ship without screens a 4 or 5 is one hit and a 6 is two hits plus one more die; screens turn the low rolls into misses. The farther the target, the fewer dice.",
        link: help("dice", "Beam dice and screens") },
    ] },
    { id: "damage", when: "#log li.ev-damage:not(.voided)", steps: [
      { target: "#log li.ev-damage", title: "Damage",
        text: "Every hit crosses off one box: armour first, then hull. When the last hull box goes, the ship is destroyed.",
        link: help("damage", "Damage") },
      { target: "#sheets .hull", title: "Hull rows and threshold checks",
        text: "The hull boxes come in rows. A volley that finishes a row makes the ship test each system on a die — a threshold check — and a failed system stops working until it is repaired.",
        link: help("damage", "Threshold checks") },
    ] },
    { id: "end", when: "#replay", steps: [
      { target: "#result", title: "The end",
        text: "A duel ends when one side has no ship left, or at the turn limit, when the points of the ships destroyed decide. Below, the replay shows both tracks and what each side knew. Ready for more? Try the captain from the lobby.",
        link: help("end", "The end and the points") },
    ] },
  ];

  function load() {
    try {
      var raw = window.localStorage.getItem(KEY);
      var got = raw ? JSON.parse(raw) : null;
      if (got && Array.isArray(got.seen)) return { seen: got.seen, off: !!got.off };
    } catch (e) { /* unavailable or garbled: start afresh */ }
    return memory;
  }

  function save(kept) {
    memory = kept;
    try { window.localStorage.setItem(KEY, JSON.stringify(kept)); } catch (e) { /* memory only */ }
  }

  var ours = null; // the ids of the lessons in the tour on screen, while it is ours

  function due(kept) {
    return LESSONS.filter(function (l) {
      return kept.seen.indexOf(l.id) < 0 && document.querySelector(l.when);
    });
  }

  // the game just ended: app.js reloads the page for its reveal (#replay), a lesson would flash
  function reloading() {
    var status = document.getElementById("status");
    return status && status.dataset.status === "finished" && !document.getElementById("replay");
  }

  function check() {
    var tour = window.pingduelTour;
    var kept = load();
    if (!tour || kept.off || reloading()) return;
    var lessons = due(kept);
    if (!lessons.length) return;
    if (tour.isOpen()) {
      // another tour the player opened, or a lesson still in use: wait for it to close
      if (!ours) return;
      var stillHere = LESSONS.some(function (l) {
        return ours.indexOf(l.id) >= 0 && document.querySelector(l.when);
      });
      if (stillHere) return;
    }
    var steps = [];
    lessons.forEach(function (l) { steps = steps.concat(l.steps); });
    var ids = lessons.map(function (l) { return l.id; });
    var shown = tour.start(steps, {
      label: LABEL,
      skipText: "Close",
      extra: { text: "Stop the lessons", onClick: stop },
      onClose: function (reason) {
        ours = null; // closed, or replaced by another tour (the player's "Take the tour")
        if (reason !== "restart") window.setTimeout(check, 0); // a lesson due meanwhile
      },
    });
    if (!shown) return;
    ours = ids;
    save({ seen: kept.seen.concat(ids), off: false });
  }

  function toggle() {
    return document.getElementById("lessons-toggle");
  }

  function label() {
    var b = toggle();
    if (b) b.textContent = load().off ? "Resume the lessons" : "Stop the lessons";
  }

  function stop() {
    var kept = load();
    save({ seen: kept.seen, off: true });
    if (ours && window.pingduelTour) window.pingduelTour.close();
    label();
  }

  function resume() {
    var kept = load();
    save({ seen: kept.seen, off: false });
    label();
    check();
  }

  function offerToggle() {
    var nav = document.querySelector(".top nav.site");
    if (!nav || toggle()) return;
    var b = document.createElement("button");
    b.type = "button";
    b.id = "lessons-toggle";
    b.className = "tour-link";
    b.addEventListener("click", function () { if (load().off) resume(); else stop(); });
    nav.appendChild(b);
    label();
  }

  // tour.js comes with terms.js (loaded just before this file); wait for it if it is not in yet
  function whenTour(then) {
    if (window.pingduelTour) return then();
    var script = document.getElementById("tour-js");
    if (script) script.addEventListener("load", then);
  }

  function init() {
    offerToggle();
    whenTour(check);
    document.addEventListener("htmx:afterSettle", check);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
