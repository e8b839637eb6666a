// The card picker: a tap on a card appends it to the focused cards field (typing works too),
// and cards already used anywhere in the round are greyed out. No build step, no framework.
(function () {
  let target = null;
  function used() {
    const cards = new Set();
    document.querySelectorAll("input[data-cards]").forEach((input) => {
      input.value.split(/[\s,]+/).filter(Boolean).forEach((c) => cards.add(normal(c)));
    });
    document.querySelectorAll("[data-dealt]").forEach((el) => cards.add(el.dataset.dealt));
    return cards;
  }
  function normal(text) {
    const t = text.trim();
    const rank = t.slice(0, -1).toUpperCase().replace("10", "T");
    return rank + t.slice(-1).toLowerCase();
  }
  function refresh() {
    const taken = used();
    document.querySelectorAll(".deck button[data-card]").forEach((button) => {
      button.disabled = taken.has(button.dataset.card);
    });
  }
  document.addEventListener("focusin", (event) => {
    if (event.target.matches("input[data-cards]")) target = event.target;
  });
  document.addEventListener("input", (event) => {
    if (event.target.matches("input[data-cards]")) refresh();
  });
  document.addEventListener("click", (event) => {
    const button = event.target.closest(".deck button[data-card]");
    if (!button) return;
    event.preventDefault();
    target = target || document.querySelector("input[data-cards]");
    if (!target) return;
    target.value = (target.value.trim() + " " + button.dataset.card).trim();
    if (target.value.split(/\s+/).length >= 7) {
      const fields = [...document.querySelectorAll("input[data-cards]")];
      const next = fields[fields.indexOf(target) + 1];
      if (next) { target = next; next.focus(); }
    }
    refresh();
  });
  document.addEventListener("htmx:afterSwap", refresh);
  document.addEventListener("DOMContentLoaded", refresh);
})();
