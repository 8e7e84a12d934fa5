// "Notify me" (issue 15): in this tab, the favicon gets a dot and an optional sound plays when
// it becomes my move, and a desktop alert shows while the tab is hidden; the panel subscribes
// this device to Web Push and sets a webhook or an e-mail address (the seat cookie and the
// CSRF token authenticate the posts).
(function () {
  "use strict";
  var panel = document.getElementById("notify");
  var live = document.getElementById("live");
  if (!live) return;
  var game = live.dataset.game;
  var SOUND_KEY = "pingduel-sound";
  var plain = null;
  var badged = null;
  var wasMyMove = null;

  function favicon() {
    var link = document.querySelector("link[rel='icon']");
    if (!link) {
      link = document.createElement("link");
      link.rel = "icon";
      document.head.appendChild(link);
    }
    return link;
  }

  function drawIcon(dot) {
    var canvas = document.createElement("canvas");
    canvas.width = 32;
    canvas.height = 32;
    var c = canvas.getContext("2d");
    if (!c) return "data:,";
    c.fillStyle = "#1d3557";
    c.beginPath();
    c.arc(16, 16, 13, 0, 2 * Math.PI);
    c.fill();
    if (dot) {
      c.fillStyle = "#e63946";
      c.beginPath();
      c.arc(24, 8, 8, 0, 2 * Math.PI);
      c.fill();
    }
    return canvas.toDataURL("image/png");
  }

  function beep() {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    try {
      var ctx = new Ctx();
      var osc = ctx.createOscillator();
      osc.frequency.value = 660;
      osc.connect(ctx.destination);
      osc.start();
      osc.stop(ctx.currentTime + 0.15);
    } catch (e) {
      /* no sound where audio is refused */
    }
  }

  function myMove() {
    var status = document.getElementById("status");
    return !!(status && status.classList.contains("your-move"));
  }

  function update() {
    var mine = myMove();
    if (plain === null) plain = drawIcon(false);
    if (badged === null) badged = drawIcon(true);
    var icon = favicon();
    icon.href = mine ? badged : plain;
    icon.dataset.badge = mine ? "on" : "off";
    if (mine && wasMyMove === false) {
      if (localStorage.getItem(SOUND_KEY) === "on") beep();
      if (document.hidden && "Notification" in window && Notification.permission === "granted") {
        new Notification("pingduel", { body: "Your move in game " + game, tag: "pingduel-" + game });
      }
    }
    wasMyMove = mine;
  }

  update();
  document.body.addEventListener("htmx:afterSwap", update);

  if (!panel) return;
  panel.hidden = false;
  var msg = document.getElementById("notify-msg");
  var csrf = document.getElementById("notify-csrf").value;
  var path = "/games/" + encodeURIComponent(game) + "/notify";

  function say(text) {
    msg.textContent = text;
  }

  function post(body) {
    return fetch(path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify(body),
    }).then(function (r) {
      return r.json().then(function (data) {
        if (!r.ok) throw new Error(data.detail || "refused");
        return data;
      });
    });
  }

  function show(data) {
    var hook = document.getElementById("notify-webhook");
    if (data.webhook && !hook.value) hook.value = data.webhook;
    document.getElementById("notify-push").textContent = data.push
      ? "Push notifications: on (press to turn off)"
      : "Push notifications on this device";
    panel.dataset.push = data.push ? "on" : "off";
    if (data.email_available) document.getElementById("notify-email-form").hidden = false;
  }

  fetch(path, { credentials: "same-origin" })
    .then(function (r) {
      return r.ok ? r.json() : null;
    })
    .then(function (data) {
      if (data) show(data);
    });

  var sound = document.getElementById("notify-sound");
  sound.checked = localStorage.getItem(SOUND_KEY) === "on";
  sound.addEventListener("change", function () {
    localStorage.setItem(SOUND_KEY, sound.checked ? "on" : "off");
  });

  document.getElementById("notify-desktop").addEventListener("click", function () {
    if (!("Notification" in window)) return say("This browser has no desktop alerts.");
    Notification.requestPermission().then(function (p) {
      say(p === "granted" ? "Desktop alerts are on while this tab is hidden." : "Desktop alerts were not allowed.");
    });
  });

  function b64ToBytes(text) {
    var padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded);
    var out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }

  document.getElementById("notify-push").addEventListener("click", function () {
    if (panel.dataset.push === "on") {
      post({ push: null }).then(function (d) { show(d); say("Push notifications are off."); }, function (e) { say(e.message); });
      return;
    }
    if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
      return say("This browser cannot receive push notifications.");
    }
    var key;
    fetch("/api/v1/push/key")
      .then(function (r) { return r.json(); })
      .then(function (k) {
        key = k.public_key;
        return navigator.serviceWorker.register("/sw.js", { scope: "/" });
      })
      .then(function () { return navigator.serviceWorker.ready; })
      .then(function (reg) {
        return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: b64ToBytes(key) });
      })
      .then(function (sub) { return post({ push: sub.toJSON() }); })
      .then(function (d) { show(d); say("Push notifications are on for this device."); })
      .catch(function (e) { say("Push notifications could not be set: " + e.message); });
  });

  document.getElementById("notify-webhook-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var value = document.getElementById("notify-webhook").value.trim();
    post({ webhook: value || null }).then(
      function (d) { show(d); say(value ? "Webhook saved." : "Webhook removed."); },
      function (e) { say(e.message); },
    );
  });

  document.getElementById("notify-email-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var value = document.getElementById("notify-email").value.trim();
    post({ email: value || null }).then(
      function (d) { show(d); say(value ? "A confirmation link was mailed to " + value + "." : "E-mail removed."); },
      function (e) { say(e.message); },
    );
  });
})();
