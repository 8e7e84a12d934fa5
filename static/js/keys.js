// Keyboard shortcuts of the game page (the "Keys" list in the orders block says them): each key
// presses the button that carries its data-key, when that button is on the page, shown and
// enabled, so a key can never send what the page would not let a click send. Ignored while
// typing in a field, with a modifier held, or when the key is meant for the map or a button.
(function () {
  "use strict";
  if (!document.getElementById("live")) return;
  const TYPING = "input, textarea, select, [contenteditable], [contenteditable=''], [contenteditable='true']";
  // Enter already means something on these: a button or link presses itself, a map ship selects
  const OWN_ENTER = "button, a, summary, [role=button], .ship, #mapwrap";

  function shown(el) { return !el.hidden && !el.disabled && el.getClientRects().length > 0; }
  function press(key) {
    const buttons = Array.from(document.querySelectorAll("#controls [data-key='" + key + "']")).filter(shown);
    if (!buttons.length) return false;
    buttons[0].click();
    return true;
  }
  // N: the next own ship of the orders form's choice (wrapping round), as if clicked
  function nextShip() {
    const radios = Array.from(document.querySelectorAll("#orders-form input[name=ship][type=radio]"));
    if (radios.length < 2) return false;
    const at = radios.findIndex(function (r) { return r.checked; });
    const next = radios[(at + 1) % radios.length];
    next.click();
    return true;
  }
  function toggleKeys() {
    const list = document.getElementById("keys");
    if (!list) return false;
    list.open = !list.open;
    if (list.open) list.querySelector("summary").focus();
    return true;
  }
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    const target = event.target;
    if (target && target.closest && target.closest(TYPING)) return;
    let done = false;
    const key = event.key;
    if (key === "Enter") {
      if (target && target.closest && target.closest(OWN_ENTER)) return;
      done = press("enter");
    } else if (key === "p" || key === "P") done = press("p");
    else if (key === "o" || key === "O") done = press("o");
    else if (key === "n" || key === "N") done = nextShip();
    else if (key === "?") done = toggleKeys();
    if (done) event.preventDefault();
  });
})();
