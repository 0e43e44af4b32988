// movelist.js: the move list of the game and replay pages (following the
// game, stepping back through it on the game page), and the button that
// turns the board round. The pages work without it: the list then opens at
// its end on every load (static/css/play.css), past positions are seen on
// the replay, and the board keeps its side.
//
// Markup contract (views/game.templ moveList, views/replay.templ):
//
//   <div class="moves" id="moves" tabindex="0" role="region" data-ply="7"
//        data-position="/games/1/position" data-back-label="..."> the box that scrolls
//     <div class="moves-body">
//       <ol class="move-list"> <li><span class="move move-last" data-ply="7">Qxf7#</span> ...
//       (the replay: <span class="move current"><a ...>...</a></span>)
//       <p class="move-list-end"> the score and the reason, once the game is over
//   </div></div>
//   <button data-flip-board hidden> inside the panel; the class board-flipped
//   goes on the .game element around it, which the event stream never swaps.
//
// The game page's panel, move list included, is replaced on every move
// (the event stream swaps #game-panel), and a replay step replaces
// #replay: each swap would put the list back at its top. So the list
// follows the game: after a swap it shows the latest move, unless the
// reader had scrolled back to read, in which case it stays where they
// were; scrolling back to the end makes it follow again. On the replay
// the list shows the move of the position on the board.
(function () {
  "use strict";

  var follow = true; // the reader is at the end of the list
  var kept = 0; // where they were when not at the end, from the top

  // The box is a reversed flex column (static/css/play.css), so that it
  // starts at its end without a script; browsers then count its scrollTop
  // from the end (0 there, negative above). fromTop and setFromTop hide
  // the difference.
  function reversed(box) {
    return window.getComputedStyle(box).flexDirection === "column-reverse";
  }

  function fromTop(box) {
    return reversed(box) ? box.scrollHeight - box.clientHeight + box.scrollTop : box.scrollTop;
  }

  function setFromTop(box, top) {
    box.scrollTop = reversed(box) ? top - (box.scrollHeight - box.clientHeight) : top;
  }

  function atEnd(box) {
    return box.scrollHeight - box.clientHeight - fromTop(box) < 8;
  }

  // Scroll events do not bubble: listen while they go down to the box.
  document.addEventListener("scroll", function (e) {
    var box = e.target;
    if (!box.classList || !box.classList.contains("moves")) return;
    follow = atEnd(box);
    kept = fromTop(box);
  }, true);

  // place scrolls the list as the page's state wants it.
  function place() {
    var box = document.querySelector(".moves");
    if (!box) return;
    var current = box.querySelector(".move.current");
    if (current) {
      // A replay: the move on the board, in the middle of the box.
      var b = box.getBoundingClientRect();
      var r = current.getBoundingClientRect();
      box.scrollTop += r.top - b.top - (box.clientHeight - r.height) / 2;
    } else if (follow) {
      setFromTop(box, box.scrollHeight);
    } else {
      setFromTop(box, kept);
    }
  }

  // ---- Stepping back through the moves (the game page) ----------------------

  // A move clicked in the list, or the arrow keys, Home and End, show the
  // position after that move: the server draws it (data-position?ply=N)
  // and the page puts it in place of the live board, which stays in the
  // page, hidden, and is still redrawn by the stream. A button on the board
  // (and End, or a click on the board) goes back to the live position; so
  // does reaching the last move. The game goes on meanwhile: a new move
  // leaves the reader where they are.
  var browsing = null; // the ply shown, or null for the live board
  var boards = {}; // the boards drawn so far, by ply (a game's past never changes)

  function movesBox() {
    return document.querySelector(".game .moves[data-position]");
  }

  function livePly(box) {
    return parseInt(box.dataset.ply, 10) || 0;
  }

  function showPly(ply) {
    var box = movesBox();
    if (!box) return;
    var live = livePly(box);
    ply = Math.max(0, Math.min(live, ply));
    if (ply === live) {
      backToLive();
      return;
    }
    browsing = ply;
    if (boards[ply]) {
      drawBrowsed();
      return;
    }
    var url = box.dataset.position + (box.dataset.position.indexOf("?") < 0 ? "?" : "&") + "ply=" + ply;
    fetch(url, { credentials: "same-origin", headers: { "HX-Request": "true" } })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        boards[ply] = html;
        if (browsing === ply) drawBrowsed();
      })
      .catch(function () { if (browsing === ply) backToLive(); });
  }

  // drawBrowsed puts the board of the ply being browsed in place, after a
  // step or after the stream redrew the panel.
  function drawBrowsed() {
    var main = document.querySelector(".game .game-main");
    var box = movesBox();
    if (!main || !box || browsing === null || !boards[browsing]) return;
    if (browsing >= livePly(box)) {
      backToLive();
      return;
    }
    var old = main.querySelector(".board-browsed");
    if (old) old.remove();
    var t = document.createElement("template");
    t.innerHTML = boards[browsing].trim();
    var board = t.content.querySelector(".board");
    if (!board) return;
    board.classList.add("board-browsed");
    board.removeAttribute("data-testid");
    var back = document.createElement("button");
    back.type = "button";
    back.className = "browse-live";
    back.dataset.browseLive = "";
    back.dataset.testid = "browse-live";
    back.textContent = (box.dataset.backLabel || "") + " »";
    board.appendChild(back);
    main.querySelectorAll(".board:not(.board-browsed)").forEach(function (live) {
      live.classList.add("board-hidden");
      live.parentNode.insertBefore(board, live.nextSibling);
    });
    main.closest(".game").classList.add("browsing");
    markMove(box);
  }

  function backToLive() {
    var was = browsing;
    browsing = null;
    document.querySelectorAll(".board-browsed").forEach(function (b) { b.remove(); });
    document.querySelectorAll(".board-hidden").forEach(function (b) { b.classList.remove("board-hidden"); });
    document.querySelectorAll(".game.browsing").forEach(function (g) { g.classList.remove("browsing"); });
    var box = movesBox();
    if (!box) return;
    markMove(box);
    if (was !== null) {
      follow = true; // back at the live position, the list follows the game again
      place();
    }
  }

  function markMove(box) {
    box.querySelectorAll(".move-browsed").forEach(function (m) { m.classList.remove("move-browsed"); });
    if (browsing === null) return;
    var m = box.querySelector('.move[data-ply="' + browsing + '"]');
    if (!m) return;
    m.classList.add("move-browsed");
    var b = box.getBoundingClientRect();
    var r = m.getBoundingClientRect();
    if (r.top < b.top || r.bottom > b.bottom) box.scrollTop += r.top - b.top - (box.clientHeight - r.height) / 2;
  }

  document.addEventListener("click", function (e) {
    if (!e.target.closest) return;
    if (e.target.closest("[data-browse-live]")) {
      backToLive();
      return;
    }
    var move = e.target.closest(".moves[data-position] .move[data-ply]");
    if (move) showPly(parseInt(move.dataset.ply, 10));
  });

  // A press on the board being browsed goes back to the live board, where
  // the player moves.
  document.addEventListener("pointerdown", function (e) {
    if (browsing !== null && e.target.closest && e.target.closest(".board-browsed") && !e.target.closest("[data-browse-live]")) backToLive();
  }, true);

  // A move typed while browsing is made on the live board.
  document.addEventListener("submit", function () {
    if (browsing !== null) backToLive();
  }, true);

  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    var t = e.target;
    if (t.closest && t.closest("input, textarea, select, [contenteditable], .promotion-picker")) return;
    var box = movesBox();
    if (!box) return;
    var live = livePly(box);
    var at = browsing === null ? live : browsing;
    var to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: live }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    showPly(to);
  });

  // ---- Turning the board round ---------------------------------------------

  // The choice is kept for the page (this game, this replay) in the tab's
  // session, so that a reload keeps it.
  var flipKey = "satranc.flip:" + location.pathname;

  function flipped() {
    try {
      return window.sessionStorage.getItem(flipKey) === "1";
    } catch (err) {
      return document.documentElement.dataset.flipped === "1";
    }
  }

  function setFlipped(on) {
    try {
      if (on) window.sessionStorage.setItem(flipKey, "1");
      else window.sessionStorage.removeItem(flipKey);
    } catch (err) {
      document.documentElement.dataset.flipped = on ? "1" : "";
    }
    showFlip();
  }

  function showFlip() {
    var on = flipped();
    document.querySelectorAll(".game").forEach(function (g) {
      g.classList.toggle("board-flipped", on);
    });
    document.querySelectorAll("[data-flip-board]").forEach(function (button) {
      button.hidden = false;
      button.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("[data-flip-board]");
    if (!button) return;
    setFlipped(!flipped());
  });

  function refresh() {
    showFlip();
    place();
    if (browsing !== null) drawBrowsed();
  }

  document.addEventListener("htmx:afterSwap", refresh);
  document.addEventListener("htmx:sseMessage", refresh);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", refresh);
  } else {
    refresh();
  }
})();
