// The floor dashboard's push (cardroom/screens/floor_stream.py): while its event stream is
// open the dashboard is fetched when a table changes and does not poll; while it is not (the
// server serves no push, or the stream dropped) it polls every second, as without Redis.
(() => {
  let live = false;
  let dropped = false;
  window.floorPolls = () => !live;
  const say = (text) => {
    const state = document.getElementById("push-state");
    if (state) state.firstElementChild.textContent = text;
  };
  document.addEventListener("htmx:sseOpen", () => {
    live = true;
    say("Pushed: shown as the tables change.");
    // What changed while the stream was away is fetched once now.
    if (dropped) htmx.trigger("#dashboard", "floor:refresh");
    dropped = false;
  });
  document.addEventListener("htmx:sseError", () => {
    live = false;
    dropped = true;
    say("The push is away: refreshes every second.");
  });
})();
