// The dealer screen's helpers. No build step, no framework; every form still posts without it.
// - The card picker: a tap on a card appends it to the cards field being filled, in deal order
//   (a full hand moves on to the next field); "Undo last card" takes the last tap back; cards
//   used anywhere in the round are greyed out. Cards fields open no soft keyboard (inputmode
//   "none"); "Type with the keyboard" turns it on, and a keyboard always types.
// - Chips: a chip adds its value to its row's ante (or to the wager field of that row tapped
//   last); "Same as last" fills a row with the player's last wagers; "Clear" empties a row.
//   Once a tap completes the last hand, the cards are entered by themselves a moment later
//   (no "Enter cards" tap); "Undo last card" in that moment stops it. Typed cards wait for
//   "Enter cards".
// - Decisions: once a tap decides the last spot, Settle asks its question by itself (no
//   "Settle" tap; the confirmation stays: settling moves money). Cancel, and nothing is posted.
// - Confirmation: a button with data-confirm asks before it submits ({amount} is replaced by
//   the form's amount field); confirmed, it posts confirmed=1 (confirm.js).
(function () {
  let target = null;
  const history = []; // the fields filled by taps, last tap last (for undo)

  function cardFields() { return [...document.querySelectorAll("input[data-cards]")]; }
  function count(input) { return input.value.split(/[\s,]+/).filter(Boolean).length; }
  function normal(text) {
    const t = text.trim();
    const rank = t.slice(0, -1).toUpperCase().replace("10", "T");
    return rank + t.slice(-1).toLowerCase();
  }
  function used() {
    const cards = new Set();
    cardFields().forEach((input) => {
      input.value.split(/[\s,]+/).filter(Boolean).forEach((c) => cards.add(normal(c)));
    });
    document.querySelectorAll("[data-dealt]").forEach((el) => cards.add(el.dataset.dealt));
    return cards;
  }
  function refresh() {
    const taken = used();
    document.querySelectorAll(".deck button[data-card]").forEach((button) => {
      button.disabled = taken.has(button.dataset.card);
    });
    cardFields().forEach((input) => input.classList.toggle("filling", input === current()));
  }
  function current() {
    if (target && document.contains(target) && count(target) < 7) return target;
    return cardFields().find((input) => count(input) < 7) || null;
  }
  function pick(button) {
    const field = current();
    if (!field) return;
    field.value = (field.value.trim() + " " + button.dataset.card).trim();
    history.push(field);
    target = field;
    if (count(field) >= 7) {
      const next = cardFields().find((input) => count(input) < 7);
      if (next) { target = next; next.focus({ preventScroll: true }); }
    }
    refresh();
    enterSoon();
  }
  // The moment between the last card's tap and its entry, to see it and undo it.
  const ENTER_AFTER_MS = 900;
  let entering = null;
  function complete() {
    const fields = cardFields();
    return fields.length > 0 && fields.every((input) => count(input) === 7);
  }
  function enterSoon() {
    const button = document.getElementById("enter-cards");
    if (!button || !complete()) return;
    stopEntering();
    const note = document.createElement("p");
    note.id = "entering-cards";
    note.className = "notice";
    note.setAttribute("role", "status");
    note.textContent = "Every hand is complete: entering the cards… (Undo last card stops it)";
    button.closest(".actions").before(note);
    entering = window.setTimeout(() => {
      entering = null;
      if (document.contains(button) && complete()) button.form.requestSubmit(button);
    }, ENTER_AFTER_MS);
  }
  function stopEntering() {
    if (entering) window.clearTimeout(entering);
    entering = null;
    const note = document.getElementById("entering-cards");
    if (note) note.remove();
  }
  // A tap (not the keyboard) that decides the last undecided spot brings up Settle's question.
  let tapped = false;
  function settleWhenDecided(radio) {
    const form = radio.form;
    const settle = form && form.querySelector("#decide-and-settle");
    if (!tapped || !settle) return;
    const groups = [...form.querySelectorAll(".choices[role=radiogroup]")];
    if (groups.some((group) => !group.querySelector("input[type=radio]:checked"))) return;
    window.setTimeout(() => { if (document.contains(settle)) settle.click(); }, 150);
  }
  function undo() {
    stopEntering();
    const field = history.pop() || [...cardFields()].reverse().find((input) => count(input) > 0);
    if (!field) return;
    const cards = field.value.split(/[\s,]+/).filter(Boolean);
    cards.pop();
    field.value = cards.join(" ");
    target = field;
    field.focus({ preventScroll: true });
    refresh();
  }
  function addChip(button) {
    const row = button.closest("tr");
    const active = row.dataset.active && row.querySelector(`input[data-wager="${row.dataset.active}"]`);
    const field = active || row.querySelector('input[data-wager="ante"]');
    const sum = (parseFloat(field.value) || 0) + parseFloat(button.dataset.chip);
    field.value = Number.isInteger(sum) ? String(sum) : sum.toFixed(2);
  }
  function fillRow(button, clear) {
    const row = button.closest("tr");
    row.querySelectorAll("input[data-wager]").forEach((input) => {
      input.value = clear ? "" : button.dataset[input.dataset.wager] || "";
    });
    delete row.dataset.active;
  }

  document.addEventListener("focusin", (event) => {
    if (event.target.matches("input[data-cards]")) { target = event.target; refresh(); }
    if (event.target.matches("input[data-wager]")) {
      event.target.closest("tr").dataset.active = event.target.dataset.wager;
    }
  });
  document.addEventListener("input", (event) => {
    if (event.target.matches("input[data-cards]")) { stopEntering(); refresh(); }
  });
  document.addEventListener("submit", (event) => {
    if (event.target.id === "cards-form") stopEntering(); // entered now: not twice
  }, true);
  document.addEventListener("pointerdown", () => { tapped = true; }, true);
  document.addEventListener("keydown", () => { tapped = false; }, true);
  document.addEventListener("change", (event) => {
    if (event.target.matches("#decisions-form .choices input[type=radio]")) {
      settleWhenDecided(event.target);
    }
  });
  document.addEventListener("click", (event) => {
    const el = event.target.closest("button");
    if (!el) return;
    if (el.matches("[data-confirm]")) {
      const form = el.form;
      const amount = form && form.querySelector('input[name="amount"]');
      const text = el.dataset.confirm.replace("{amount}", amount ? amount.value.trim() : "");
      if (!window.confirm(text)) { event.preventDefault(); event.stopImmediatePropagation(); }
      else if (window.cardroomConfirmed) window.cardroomConfirmed(form);
      return;
    }
    if (el.matches(".deck button[data-card]")) { event.preventDefault(); pick(el); return; }
    if (el.id === "undo-card") { undo(); return; }
    if (el.id === "type-cards") {
      cardFields().forEach((input) => input.setAttribute("inputmode", "text"));
      (current() || cardFields()[0]).focus();
      return;
    }
    if (el.matches("button[data-chip]")) { addChip(el); return; }
    if (el.matches("button.same")) { fillRow(el, false); return; }
    if (el.matches("button.clear")) { fillRow(el, true); }
  }, true);
  // The sticky limits bar's height, for the page's scroll padding (cardroom.css): whatever is
  // scrolled to, by a tap, the keyboard or a link, lands below the bar, however it wraps.
  const barWatch = window.ResizeObserver && new ResizeObserver(measureBar);
  let watched = null;
  function measureBar() {
    const bar = document.getElementById("limits");
    if (!bar) return;
    document.documentElement.style.setProperty("--limits-height", `${bar.offsetHeight}px`);
    if (barWatch && bar !== watched) { barWatch.disconnect(); barWatch.observe(bar); watched = bar; }
  }
  function ready() { refresh(); measureBar(); }

  document.addEventListener("htmx:afterSwap", () => {
    target = null;
    history.length = 0;
    stopEntering();
    ready();
  });
  document.addEventListener("DOMContentLoaded", ready);
})();
