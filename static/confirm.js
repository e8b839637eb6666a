// Irreversible actions ask first (cardroom/screens/confirmation.py): a form with
// data-confirm="…" submits only when the user confirms the sentence with the browser's
// dialog, and then posts confirmed=1, so that the server does not ask again with its own
// confirmation page (what a browser without JavaScript gets). {total} in the sentence is the
// form's running total (count_total.js); htmx requests post the same fields.
window.cardroomConfirmed = (form) => {
  if (!form || form.querySelector('input[name="confirmed"]')) return;
  const input = document.createElement("input");
  input.type = "hidden";
  input.name = "confirmed";
  input.value = "1";
  form.appendChild(input);
};
window.cardroomSentence = (text, form) => {
  // The form's grand total (data-total=""), else its one total of a kind.
  const total = form && (form.querySelector('output[data-total=""]') ||
                         form.querySelector("output[data-total]"));
  return text.replace("{total}", total ? total.value : "");
};
document.addEventListener("submit", (event) => {
  const form = event.target;
  const question = form.dataset && form.dataset.confirm;
  if (!question) return;
  if (!window.confirm(window.cardroomSentence(question, form))) {
    event.preventDefault();
    event.stopImmediatePropagation();
    return;
  }
  window.cardroomConfirmed(form);
}, true);
