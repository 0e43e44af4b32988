// confirm.js: the confirmations of the game page (resign, abort, leave:
// details elements, views/game.templ confirmAction) stay open across the
// event stream's swaps. The stream replaces the game panel, or the
// buttons, on moves, offers and answers; without this, a confirmation the
// player has just opened would close under their finger, and the click
// meant for its button would land on whatever took its place.
(function () {
  "use strict";

  var open = []; // data-testid of the confirmations open before a swap

  // A whole panel or a move's delta (whose buttons land in the panel out
  // of band) may replace them: look at the whole page.
  document.addEventListener("htmx:sseBeforeMessage", function () {
    open = Array.prototype.map.call(document.querySelectorAll("details.confirm[open][data-testid]"), function (d) {
      return d.dataset.testid;
    });
  });

  document.addEventListener("htmx:sseMessage", function () {
    open.forEach(function (id) {
      var d = document.querySelector('details.confirm[data-testid="' + id + '"]');
      if (d) d.open = true;
    });
    open = [];
  });
})();
