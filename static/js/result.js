// result.js: once both players agreed to a rematch, the game's event
// stream sends each player's page a link to the new game (event "rematch",
// swapped into the page's .rematch-slot); this follows it, so that both
// players land in the rematch instead of one staying on the old page. A
// page loaded later shows the link in the result panel and stays put.
(function () {
  "use strict";

  function follow(elt) {
    if (!elt || !elt.querySelector) {
      return;
    }
    var a = elt.matches && elt.matches("[data-navigate]") ? elt : elt.querySelector("[data-navigate]");
    if (a && a.href) {
      window.location.assign(a.href);
    }
  }

  if (window.htmx && window.htmx.onLoad) {
    window.htmx.onLoad(follow); // runs for content the stream swaps in
  }
})();
