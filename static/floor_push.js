// The floor dashboard's push (cardroom/screens/floor_stream.py): while its event stream is
// open the dashboard does not poll; each event names what changed ("table:7 table:9"), and
// only those tables' rows are fetched (?tables=7,9) and put in place of theirs, with the
// sections under the rows. The whole dashboard is fetched instead when the event names
// something else (the cardroom), more than MAX tables or one not on the screen (a new
// table), when a table opened or closed, and when a fetch fails. While the stream is not
// open (the server serves no push, or it dropped) the dashboard polls every second.
(() => {
  const MAX = 20; // cardroom/screens/floor.py CHANGED_TABLES_MAX
  const SECTIONS = ["dealers-due", "dashboard-updated", "seat-openings"];
  let live = false;
  let dropped = false;
  let busy = false;
  let whole = false;
  const pending = new Set();
  window.floorPolls = () => !live;
  const say = (text) => {
    const state = document.getElementById("push-state");
    if (state) state.firstElementChild.textContent = text;
  };
  const refreshAll = () => htmx.trigger("#dashboard", "floor:refresh");

  // The tables an event names, or null when the whole dashboard is to be fetched.
  const changedTables = (data) => {
    const chains = String(data || "").split(" ").filter(Boolean);
    if (!chains.length || chains.length > MAX) return null;
    const ids = [];
    for (const chain of chains) {
      const found = /^table:(\d+)$/.exec(chain);
      if (!found || !document.getElementById(`rows-${found[1]}`)) return null;
      ids.push(found[1]);
    }
    return ids;
  };

  const swapIn = (page) => {
    let reopened = false;
    for (const rows of page.querySelectorAll("#changed-rows > tbody[id]")) {
      const mine = document.getElementById(rows.id);
      if (!mine) {
        reopened = true;
        continue;
      }
      const before = mine.querySelector("tr").className;
      mine.replaceWith(document.adoptNode(rows));
      if (rows.querySelector("tr").className !== before) reopened = true;
    }
    for (const id of SECTIONS) {
      const mine = document.getElementById(id);
      const theirs = page.getElementById(id);
      if (mine && theirs) mine.replaceWith(document.adoptNode(theirs));
    }
    return reopened;
  };

  // One fetch at a time: what is named meanwhile waits for the next.
  const run = async () => {
    if (busy) return;
    if (whole) {
      whole = false;
      pending.clear();
      refreshAll();
      return;
    }
    if (!pending.size) return;
    const ids = [...pending];
    pending.clear();
    busy = true;
    try {
      const url = document.getElementById("dashboard").getAttribute("hx-get");
      const response = await fetch(`${url}?tables=${ids.join(",")}`, {
        headers: { "HX-Request": "true" },
        credentials: "same-origin",
      });
      if (!response.ok) throw new Error(`the rows answered ${response.status}`);
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      // A table opened or closed changes more than its row: the whole dashboard then.
      if (swapIn(page)) whole = true;
    } catch (error) {
      whole = true;
    } finally {
      busy = false;
      run();
    }
  };

  document.addEventListener("htmx:confirm", (event) => {
    const trigger = event.detail.triggeringEvent;
    if (!trigger || trigger.type !== "sse:changed" || event.detail.elt.id !== "dashboard") return;
    const ids = changedTables(trigger.detail && trigger.detail.data);
    if (ids === null) return; // htmx fetches the whole dashboard
    event.preventDefault();
    for (const id of ids) pending.add(id);
    run();
  });
  document.addEventListener("htmx:sseOpen", () => {
    live = true;
    say("Pushed: shown as the tables change.");
    // What changed while the stream was away is fetched once now.
    if (dropped) refreshAll();
    dropped = false;
  });
  document.addEventListener("htmx:sseError", () => {
    live = false;
    dropped = true;
    say("The push is away: refreshes every second.");
  });
})();
