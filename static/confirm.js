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
// A form the server checks first (the dealer's Settle): the first post is only tried, and
// once it would succeed the play area comes back with data-ask="…" on the form, as filled; the
// dialog asks then, and confirmed, the form posts again with confirmed=1. A refused post
// comes back with its reasons beside the fields instead, and nothing asks.
document.addEventListener("htmx:afterSettle", () => {
  const form = document.querySelector("form[data-ask]");
  if (!form) return;
  const question = form.dataset.ask;
  form.removeAttribute("data-ask");
  if (!window.confirm(question)) {
    // Not now: the form is as it was before (what the answer added to it goes).
    form.querySelectorAll("[data-asked]").forEach((input) => input.remove());
    return;
  }
  window.cardroomConfirmed(form);
  form.requestSubmit();
});
