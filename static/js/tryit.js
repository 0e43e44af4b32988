// Satranç try-it boards on the rules page. board.js moves the pieces; this
// file judges the moves. It has no texts of its own: the page renders the
// task, the praise and the explanations (hidden) in the page's language,
// and this file only shows the one that fits.
//
// Markup contract (views/rules_tryit.templ renders it):
//
//   <figure class="tryit" data-mark="e1" data-correct="e1g1">
//     <div class="board" data-interactive="true" data-color="w"
//          data-legal="e1e2 e1f1 e1g1"> ... </div>
//     <p data-tryit-praise hidden>…</p>
//     <p data-tryit-hint="b7b8r b7b8b" hidden>…</p>   (any number)
//     <p data-tryit-wrong hidden>…</p>                  (any other move)
//     <button data-tryit-reset hidden>…</button>
//     <template data-tryit-result="e1g1"><div class="board">…</div></template>
//   </figure>
//
// board.js dispatches a cancelable "satranc:move" event (detail.uci) on the
// board before it shows a move. A wrong move is cancelled, so the board
// stays as it was, and explained. A correct move goes ahead (board.js shows
// it and leaves the board waiting); a moment later the board is replaced by
// the server-drawn position after the move, which also shows what board.js
// cannot know: the castling rook, the pawn taken en passant, the new queen.
// The figure's data-state is "", "wrong" or "solved".
(function () {
  "use strict";

  var RESULT_DELAY_MS = 250; // long enough to see the piece arrive

  function figures() {
    return document.querySelectorAll(".tryit");
  }

  function boardOf(fig) {
    return fig.querySelector(".tryit-board .board");
  }

  function init(fig) {
    if (fig._tryit) return;
    var board = boardOf(fig);
    if (!board) return;
    fig._tryit = { start: board.cloneNode(true), timer: 0 };
    mark(fig, board);
    var reset = fig.querySelector("[data-tryit-reset]");
    if (reset) reset.hidden = false;
  }

  function mark(fig, board) {
    var sq = board.querySelector('.sq[data-square="' + fig.dataset.mark + '"]');
    if (sq) sq.classList.add("sq-mark");
  }

  // show reveals one feedback paragraph (or none) and hides the others.
  function show(fig, el) {
    fig.querySelectorAll("[data-tryit-praise], [data-tryit-hint], [data-tryit-wrong]").forEach(function (p) {
      p.hidden = p !== el;
    });
  }

  function words(s) {
    return (s || "").split(/\s+/).filter(Boolean);
  }

  // explanation returns the paragraph that explains the wrong move uci.
  function explanation(fig, uci) {
    var hints = fig.querySelectorAll("[data-tryit-hint]");
    for (var i = 0; i < hints.length; i++) {
      if (words(hints[i].dataset.tryitHint).indexOf(uci) >= 0) return hints[i];
    }
    return fig.querySelector("[data-tryit-wrong]");
  }

  document.addEventListener("satranc:move", function (e) {
    var fig = e.target.closest && e.target.closest(".tryit");
    if (!fig || !fig._tryit) return;
    var uci = e.detail && e.detail.uci;
    if (words(fig.dataset.correct).indexOf(uci) < 0) {
      e.preventDefault(); // board.js leaves the board as it was
      show(fig, explanation(fig, uci));
      fig.dataset.state = "wrong";
      return;
    }
    show(fig, fig.querySelector("[data-tryit-praise]"));
    fig.dataset.state = "solved";
    clearTimeout(fig._tryit.timer);
    fig._tryit.timer = setTimeout(function () { showResult(fig, uci); }, RESULT_DELAY_MS);
  });

  function showResult(fig, uci) {
    var tpl = fig.querySelector('template[data-tryit-result="' + uci + '"]');
    var board = boardOf(fig);
    var result = tpl && tpl.content.querySelector(".board");
    if (!board || !result) return;
    board.replaceWith(result.cloneNode(true));
  }

  function reset(fig) {
    clearTimeout(fig._tryit.timer);
    var fresh = fig._tryit.start.cloneNode(true);
    boardOf(fig).replaceWith(fresh);
    mark(fig, fresh);
    show(fig, null);
    fig.dataset.state = "";
  }

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("[data-tryit-reset]");
    var fig = button && button.closest(".tryit");
    if (fig && fig._tryit) reset(fig);
  });

  function initAll() {
    figures().forEach(init);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", initAll);
  } else {
    initAll();
  }
})();
