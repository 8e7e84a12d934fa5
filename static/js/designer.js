// pingduel — the ship designer. The page works without this: the arc checkboxes are the real
// controls, and the server adds up mass and points. This lets a click on the rosette tick them
// (off → full → weak → off), keeps the rosette in step with the boxes, and reads a chosen file
// into the import box.
(function () {
  "use strict";

  function boxes(form, n, kind, arc) {
    const name = "sys-" + n + "-" + kind;
    return Array.prototype.find.call(form.querySelectorAll('input[type=checkbox]'), function (input) {
      return input.name === name && input.value === arc;
    }) || null;
  }

  function sync(svg) {
    const form = svg.closest("form");
    const n = svg.dataset.sys;
    if (!form || svg.classList.contains("fixed")) return;
    svg.querySelectorAll(".wedge").forEach(function (wedge) {
      const full = boxes(form, n, "arc", wedge.dataset.arc);
      const weak = boxes(form, n, "weak", wedge.dataset.arc);
      const state = full && full.checked ? "full" : weak && weak.checked ? "weak" : "off";
      wedge.classList.remove("full", "weak", "off");
      wedge.classList.add(state);
    });
  }

  function changed(input) {
    // the form's htmx trigger listens for "input"; "change" for anything else that listens
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  document.addEventListener("click", function (event) {
    const wedge = event.target.closest(".rosette .wedge");
    if (!wedge) return;
    const svg = wedge.closest(".rosette");
    const form = svg.closest("form");
    if (!form || svg.classList.contains("fixed")) return;
    const n = svg.dataset.sys;
    const full = boxes(form, n, "arc", wedge.dataset.arc);
    const weak = boxes(form, n, "weak", wedge.dataset.arc);
    if (!full) return;
    if (full.checked) {
      full.checked = false;
      if (weak) weak.checked = true;
    } else if (weak && weak.checked) {
      weak.checked = false;
    } else {
      full.checked = true;
    }
    sync(svg);
    changed(full);
  });

  // an answer for a form that a button has since redrawn (the totals of an edit, still out
  // when "Add" or "↓" was pressed) is the old form's: its costs, swapped in out of band by
  // the cards' ids, would land on the new form's cards (another system after a move or a
  // removal). htmx hands such an answer to the old, detached form, so the guard sits on each
  // form that sends a request
  const guarded = new WeakSet();
  function dropIfGone(event) {
    if (!event.currentTarget.isConnected) event.detail.shouldSwap = false;
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    const form = event.target.closest && event.target.closest("form.designer");
    if (!form || guarded.has(form)) return;
    guarded.add(form);
    form.addEventListener("htmx:beforeSwap", dropIfGone);
  });

  document.addEventListener("change", function (event) {
    const input = event.target;
    if (input.type === "checkbox" && /^sys-\d+-(arc|weak)$/.test(input.name)) {
      const card = input.closest(".sys-card");
      const svg = card && card.querySelector(".rosette");
      if (svg) sync(svg);
    }
    if (input.id === "import-file" && input.files && input.files[0] && window.FileReader) {
      const reader = new FileReader();
      reader.onload = function () {
        const box = document.getElementById("import-json");
        if (box) box.value = String(reader.result);
        input.value = "";
      };
      reader.readAsText(input.files[0]);
    }
  });
})();
