// Irreversible actions ask first: a form with data-confirm="…" submits only when
// the user confirms the question; htmx requests use hx-confirm, which asks the same way.
document.addEventListener("submit", (event) => {
  const form = event.target;
  const question = form.dataset && form.dataset.confirm;
  if (question && !window.confirm(question)) {
    event.preventDefault();
    event.stopImmediatePropagation();
  }
}, true);
