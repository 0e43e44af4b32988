// Satranç: a player whose tab is hidden sees when it becomes their move.
// The page's title turns into "Your move · Satranç" (in the page language)
// and the site icon gets a dot, until the tab is shown again or it is no
// longer their move (their premove went, the game ended).
//
// Markup contract (views/game_signals.templ, views/game.templ):
//
//   <div class="game-signals" data-attention-title="Your move · Satranç"
//        data-attention-icon="/static/img/favicon-move.svg?v=...">
//   <link rel="icon" href="...">            (views/layout.templ)
//   <div class="board" data-move-form="move-form" data-interactive="true">
//   <div data-testid="game-panel" data-status="active">
(function () {
  "use strict";

  var shown = false; // the page shows the "your move" title and icon
  var title = ""; // the title and icon it had before
  var icon = "";

  function signals() {
    return document.querySelector("[data-attention-title]");
  }

  function iconLink() {
    return document.querySelector('link[rel~="icon"]');
  }

  function myMove() {
    var board = document.querySelector(".board[data-move-form]");
    var panel = board && board.closest("[data-status]");
    return !!board && board.dataset.interactive === "true" && (!panel || panel.dataset.status === "active");
  }

  function update() {
    var s = signals();
    var want = !!s && document.hidden && myMove();
    if (want === shown) return;
    shown = want;
    var link = iconLink();
    if (want) {
      title = document.title;
      document.title = s.dataset.attentionTitle;
      if (link) {
        icon = link.getAttribute("href");
        link.setAttribute("href", s.dataset.attentionIcon);
      }
      return;
    }
    document.title = title;
    if (link && icon) link.setAttribute("href", icon);
  }

  document.addEventListener("visibilitychange", update);
  document.addEventListener("htmx:afterSwap", update);
})();
