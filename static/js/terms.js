/* Rules terms on the game page link to their glossary entry on /help, with the short text as
   hover help. The glossary is app/web/glossary.py, served as /help/glossary.json (cacheable).
   The templates stay as they are: this walks the text of the game's sections after the page
   loads and after every htmx swap, and wraps the first occurrence of each term in each section
   in <a class="term">. It never enters links, buttons, form controls, labels (a click there
   must not leave a half-filled form), code, the chat (players' own words) or the SVG map. */
(function () {
  "use strict";
  var ROOTS = "#status, #controls, #sheets, #log, #replay, .mapcol .legend, .map-tools";
  var SKIP = "a, button, input, select, option, textarea, label, legend, summary, code, script, style, svg, time, [contenteditable], [data-no-terms], .chat, .clocks";
  var terms = null;
  var pending = false;

  function compile(data) {
    return data.terms.map(function (t) {
      // longer forms first, so that "fire window" wins over a shorter form of another term
      var forms = t.forms.slice().sort(function (a, b) { return b.length - a.length; });
      return {
        href: t.href,
        short: t.short,
        exact: t.case,
        re: new RegExp("(?<![\\w-])(?:" + forms.join("|") + ")(?![\\w-])", t.case ? "" : "i"),
      };
    });
  }

  function textNodes(root) {
    var out = [];
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
      acceptNode: function (node) {
        if (!node.nodeValue || !/\S/.test(node.nodeValue)) return NodeFilter.FILTER_REJECT;
        var parent = node.parentElement;
        if (!parent || parent.closest(SKIP)) return NodeFilter.FILTER_REJECT;
        return NodeFilter.FILTER_ACCEPT;
      },
    });
    while (walker.nextNode()) out.push(walker.currentNode);
    return out;
  }

  // the earliest match of a term not linked yet in this section (ties: the longer match, then
  // the term whose case must match: PINGED the mark rather than pinged the verb)
  function firstMatch(text, done) {
    var best = null;
    terms.forEach(function (term) {
      if (done.has(term.href)) return;
      var m = term.re.exec(text);
      if (!m) return;
      var same = best && m.index === best.index && m[0].length === best.text.length;
      if (!best || m.index < best.index || (m.index === best.index && m[0].length > best.text.length) ||
          (same && term.exact && !best.term.exact)) {
        best = { term: term, index: m.index, text: m[0] };
      }
    });
    return best;
  }

  function link(term, text) {
    var a = document.createElement("a");
    a.className = "term";
    a.href = term.href;
    a.title = term.short;
    a.target = "_blank"; // the game page (and a half-filled form) stays open
    a.rel = "noopener";
    a.textContent = text;
    return a;
  }

  // in a flex or grid box every piece of text would become an item of its own, and the spaces
  // around the new link would collapse: the pieces stay together in one span there
  function keepTogether(node) {
    var display = window.getComputedStyle(node.parentElement).display;
    if (!/flex|grid/.test(display)) return node;
    var span = document.createElement("span");
    node.parentNode.replaceChild(span, node);
    span.appendChild(node);
    return node;
  }

  function markSection(root) {
    var done = new Set();
    root.querySelectorAll("a.term").forEach(function (a) { done.add(a.getAttribute("href")); });
    textNodes(root).forEach(function (node) {
      if (done.size === terms.length) return;
      var found = firstMatch(node.nodeValue, done);
      if (found) node = keepTogether(node);
      while (found) {
        done.add(found.term.href);
        var rest = node.splitText(found.index);
        var after = rest.splitText(found.text.length);
        rest.parentNode.replaceChild(link(found.term, found.text), rest);
        node = after;
        found = firstMatch(node.nodeValue, done);
      }
    });
  }

  function markAll() {
    pending = false;
    if (!terms) return;
    document.querySelectorAll(ROOTS).forEach(markSection);
  }

  function soon() {
    if (pending) return;
    pending = true;
    window.requestAnimationFrame(markAll);
  }

  function start() {
    fetch("/help/glossary.json", { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data) return;
        terms = compile(data);
        markAll();
        document.body.dataset.terms = "ready"; // for tests and for the tour: links are in place
      })
      .catch(function () { /* no glossary, no links: the page works as before */ });
  }

  // the game page has one script tag for learning (templates/game.html): this file brings the
  // guided tour along (a same-origin script, which the CSP's 'self' allows)
  function loadTour() {
    if (window.pingduelTour || document.getElementById("tour-js")) return;
    var s = document.createElement("script");
    s.id = "tour-js";
    s.src = "/static/js/tour.js";
    document.head.appendChild(s);
  }

  loadTour();
  document.addEventListener("htmx:afterSettle", soon);
  document.addEventListener("htmx:afterSwap", soon);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
