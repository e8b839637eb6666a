// A count's running total before it is recorded: every form with data-running-total sums its
// pieces (an input with data-denomination="25.00" holds a number of chips or bills) into its
// <output data-total="chips|cash|"> elements. Sums are kept in whole cents (no float money).
(function () {
  const cents = (text) => {
    const [whole, part = ""] = String(text).split(".");
    return parseInt(whole, 10) * 100 + parseInt((part + "00").slice(0, 2), 10);
  };
  const dollars = (amount) => {
    const whole = Math.floor(amount / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return "$" + whole + "." + String(amount % 100).padStart(2, "0");
  };
  const refresh = (form) => {
    const sums = { "": 0 };
    form.querySelectorAll("input[data-denomination]").forEach((input) => {
      const pieces = /^\d+$/.test(input.value.trim()) ? parseInt(input.value, 10) : 0;
      const amount = cents(input.dataset.denomination) * pieces;
      sums[""] += amount;
      sums[input.dataset.kind] = (sums[input.dataset.kind] || 0) + amount;
    });
    form.querySelectorAll("output[data-total]").forEach((output) => {
      output.value = dollars(sums[output.dataset.total] || 0);
    });
  };
  document.addEventListener("input", (event) => {
    const form = event.target.closest && event.target.closest("form[data-running-total]");
    if (form) refresh(form);
  });
  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("form[data-running-total]").forEach(refresh);
  });
})();
