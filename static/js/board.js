// Satranç board interaction: moving pieces by click-click or by drag and
// drop (mouse, pen and touch), the promotion picker, and the clocks that
// count down between server updates. The page works without this file: the
// move form then posts a typed move.
//
// Markup contract (views/game.templ renders it):
//
//   <div class="board" data-interactive="true" data-color="w" data-ply="12"
//        data-legal="e2e4 e7e8q ..." data-move-form="move-form">
//     <div class="sq" data-square="e2"><img class="piece" data-piece="wP"></div> ...
//     <div class="promotion-picker" hidden>
//       <button type="button" data-promotion="q"><img ...></button> (q r b n)
//     </div>
//   </div>
//   <form id="move-form" ...><input name="uci" type="hidden"> ...</form>
//
//   <span class="clock" data-remaining-ms="180000" data-running="true">3:00</span>
//   <span class="countdown" data-remaining-ms="45000">45</span>
//   <p data-grace-ms="45000" hidden>... <span class="lost-countdown">45</span></p>
//
// data-legal lists the viewer's legal moves in UCI (castling as e1g1). A
// king may also be dropped on its own rook to castle. A move is sent by
// filling the form's uci (and ply) fields and submitting the form (htmx
// posts it). Before that a cancelable "satranc:move" event is dispatched on
// the board (see send).
(function () {
  "use strict";

  // ---- Moving pieces ------------------------------------------------------

  var state = null; // {board, from, ghost, pointerId, dragging, startX, startY}
  var DRAG_THRESHOLD = 4; // pixels before a press becomes a drag

  function boardOf(el) {
    var b = el && el.closest ? el.closest(".board") : null;
    return b && b.dataset.interactive === "true" ? b : null;
  }

  function squareAt(x, y) {
    var el = document.elementFromPoint(x, y);
    return el && el.closest ? el.closest(".sq[data-square]") : null;
  }

  function squareEl(board, name) {
    return board.querySelector('.sq[data-square="' + name + '"]');
  }

  function legalMoves(board) {
    return (board.dataset.legal || "").split(/\s+/).filter(Boolean);
  }

  function ownPieceOn(board, sq) {
    var img = sq && sq.querySelector(".piece");
    return img && img.dataset.piece && img.dataset.piece.charAt(0) === board.dataset.color ? img : null;
  }

  // destinations maps each square a piece on `from` may go to onto the
  // moves that go there (several for a promotion). A castling move is also
  // reachable by dropping the king on its rook.
  function destinations(board, from) {
    var out = {};
    var king = (squareEl(board, from).querySelector(".piece") || {}).dataset;
    var isKing = king && /K$/.test(king.piece || "");
    legalMoves(board).forEach(function (m) {
      if (m.slice(0, 2) !== from) return;
      var to = m.slice(2, 4);
      (out[to] = out[to] || []).push(m);
      var fileStep = to.charCodeAt(0) - from.charCodeAt(0);
      if (isKing && Math.abs(fileStep) === 2) {
        var rook = (fileStep > 0 ? "h" : "a") + from.charAt(1);
        (out[rook] = out[rook] || []).push(m);
      }
    });
    return out;
  }

  function clearMarks(board) {
    board.querySelectorAll(".sq-selected, .sq-target, .sq-target-capture, .sq-hover").forEach(function (el) {
      el.classList.remove("sq-selected", "sq-target", "sq-target-capture", "sq-hover");
    });
  }

  function select(board, from) {
    clearMarks(board);
    var dests = destinations(board, from);
    squareEl(board, from).classList.add("sq-selected");
    Object.keys(dests).forEach(function (to) {
      var sq = squareEl(board, to);
      if (sq) sq.classList.add(sq.querySelector(".piece") ? "sq-target-capture" : "sq-target");
    });
    board.dataset.selected = from;
    kept = { square: from, piece: (squareEl(board, from).querySelector(".piece") || {}).dataset.piece };
  }

  function deselect(board) {
    clearMarks(board);
    delete board.dataset.selected;
    kept = null;
  }

  // kept is the selected square and its piece. The event stream may redraw
  // the board between a player's two clicks (a clock, a draw offer, the
  // opponent's move arriving): the new board takes the selection over when
  // the same piece still stands there and the board still takes moves.
  var kept = null;

  function keepSelection(root) {
    if (!kept || !root.querySelectorAll) return;
    var boards = root.matches && root.matches(".board") ? [root] : root.querySelectorAll(".board");
    Array.prototype.forEach.call(boards, function (board) {
      if (board.dataset.interactive !== "true") return;
      var sq = squareEl(board, kept.square);
      var img = sq && sq.querySelector(".piece");
      if (img && img.dataset.piece === kept.piece) select(board, kept.square);
    });
  }

  // liveBoard returns the board a gesture should end on: the one it began
  // on, or the board that replaced it meanwhile.
  function liveBoard(board) {
    if (document.body.contains(board)) return board;
    return document.querySelector('.board[data-interactive="true"]');
  }

  // tryMove plays from -> to if it is legal; it returns whether it did.
  function tryMove(board, from, to) {
    var moves = destinations(board, from)[to];
    if (!moves) return false;
    if (moves.length > 1) {
      openPicker(board, from, moves[0].slice(2, 4));
    } else {
      send(board, moves[0]);
    }
    return true;
  }

  // send plays uci: it first dispatches a cancelable "satranc:move" event
  // (detail: {uci}) on the board, so that a page without a server game, such
  // as a try-it board on the rules page, can judge the move itself; a
  // cancelled event leaves the board as it was.
  function send(board, uci) {
    deselect(board);
    var ev = new CustomEvent("satranc:move", { bubbles: true, cancelable: true, detail: { uci: uci } });
    if (!board.dispatchEvent(ev)) return;
    showMove(board, uci);
    board.dataset.interactive = "pending"; // until the server's update arrives
    var form = document.getElementById(board.dataset.moveForm);
    if (!form) return;
    form.elements.uci.value = uci;
    if (form.elements.ply && board.dataset.ply) form.elements.ply.value = board.dataset.ply;
    if (form.elements.move) form.elements.move.value = "";
    if (form.requestSubmit) form.requestSubmit();
    else form.submit();
  }

  // showMove moves the piece on the page at once so that the move feels
  // immediate; the server's update then redraws the board.
  function showMove(board, uci) {
    var from = squareEl(board, uci.slice(0, 2));
    var to = squareEl(board, uci.slice(2, 4));
    var img = from && from.querySelector(".piece");
    if (!img || !to) return;
    var old = to.querySelector(".piece");
    if (old) old.remove();
    to.insertBefore(img, to.firstChild);
    board.querySelectorAll(".sq-last").forEach(function (el) { el.classList.remove("sq-last"); });
    from.classList.add("sq-last");
    to.classList.add("sq-last");
  }

  // ---- Promotion picker ---------------------------------------------------

  function openPicker(board, from, to) {
    var picker = board.querySelector(".promotion-picker");
    if (!picker) {
      send(board, from + to + "q");
      return;
    }
    var sq = squareEl(board, to);
    // The picker drops down from the promotion square (up from it when the
    // square is at the bottom of the screen).
    var b = board.getBoundingClientRect();
    var r = sq.getBoundingClientRect();
    var fromTop = r.top - b.top < b.height / 2;
    picker.style.left = (r.left - b.left) + "px";
    picker.style.width = r.width + "px";
    picker.style.top = fromTop ? (r.top - b.top) + "px" : "";
    picker.style.bottom = fromTop ? "" : (b.bottom - r.bottom) + "px";
    picker.classList.toggle("picker-up", !fromTop);
    picker.dataset.move = from + to;
    picker.hidden = false;
    var queen = picker.querySelector('[data-promotion="q"]');
    if (queen) queen.focus(); // the Queen is pre-selected: Enter takes her
  }

  function closePicker(board) {
    var picker = board.querySelector(".promotion-picker");
    if (picker) picker.hidden = true;
    deselect(board);
  }

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest(".promotion-picker [data-promotion]");
    if (!button) return;
    var board = boardOf(button);
    var picker = button.closest(".promotion-picker");
    if (!board || !picker.dataset.move) return;
    picker.hidden = true;
    send(board, picker.dataset.move + button.dataset.promotion);
  });

  document.addEventListener("keydown", function (e) {
    if (e.key !== "Escape") return;
    document.querySelectorAll(".board").forEach(function (b) {
      var picker = b.querySelector(".promotion-picker");
      if (picker && !picker.hidden) closePicker(b);
    });
  });

  // ---- Pointer input: click-click and drag and drop -----------------------

  document.addEventListener("pointerdown", function (e) {
    if (e.button !== 0 || (e.target.closest && e.target.closest(".promotion-picker"))) return;
    var board = boardOf(e.target);
    if (!board) return;
    var sq = e.target.closest(".sq[data-square]");
    if (!sq) return;
    var name = sq.dataset.square;
    // htmx announces a swapped-in board (and so keepSelection runs) only
    // after it settles: a click in between takes the selection over here.
    if (!board.dataset.selected) keepSelection(board);
    var selected = board.dataset.selected;

    if (selected && selected !== name && tryMove(board, selected, name)) {
      e.preventDefault();
      return;
    }
    var img = ownPieceOn(board, sq);
    if (!img) {
      deselect(board);
      return;
    }
    e.preventDefault(); // no text selection, no scrolling, no native image drag
    select(board, name);
    state = { board: board, from: name, img: img, ghost: null, pointerId: e.pointerId,
      startX: e.clientX, startY: e.clientY, wasSelected: selected === name };
  });

  document.addEventListener("pointermove", function (e) {
    if (!state || e.pointerId !== state.pointerId) return;
    if (!state.ghost) {
      if (Math.abs(e.clientX - state.startX) + Math.abs(e.clientY - state.startY) < DRAG_THRESHOLD) return;
      startDrag(e);
    }
    e.preventDefault();
    moveGhost(e.clientX, e.clientY);
    state.board.querySelectorAll(".sq-hover").forEach(function (el) { el.classList.remove("sq-hover"); });
    var over = squareAt(e.clientX, e.clientY);
    if (over && state.board.contains(over)) over.classList.add("sq-hover");
  }, { passive: false });

  function startDrag(e) {
    var r = state.img.getBoundingClientRect();
    var ghost = state.img.cloneNode(false);
    ghost.classList.add("piece-ghost");
    ghost.style.width = r.width + "px";
    ghost.style.height = r.height + "px";
    document.body.appendChild(ghost);
    state.ghost = ghost;
    state.img.classList.add("piece-lifted");
  }

  function moveGhost(x, y) {
    var g = state.ghost;
    g.style.transform = "translate(" + (x - g.offsetWidth / 2) + "px," + (y - g.offsetHeight / 2) + "px)";
  }

  function endPointer(e, cancelled) {
    if (!state || e.pointerId !== state.pointerId) return;
    var s = state;
    state = null;
    if (s.ghost) {
      s.ghost.remove();
      s.img.classList.remove("piece-lifted");
      var board = liveBoard(s.board);
      var over = cancelled ? null : squareAt(e.clientX, e.clientY);
      if (board && over && board.contains(over) && over.dataset.square !== s.from && tryMove(board, s.from, over.dataset.square)) {
        return;
      }
      deselect(board || s.board); // dropped off the board or on an illegal square: back home
      return;
    }
    // A click: a second click on the selected piece puts it down again.
    if (s.wasSelected) deselect(s.board);
  }

  document.addEventListener("pointerup", function (e) { endPointer(e, false); });
  document.addEventListener("pointercancel", function (e) { endPointer(e, true); });

  // The move form's answers. A refused typed move (409, 422, 429) shows the
  // server's message in the form; a refused board move already shows on the
  // page, so the page reloads to show the game as the server has it.
  function moveFormOf(e) {
    var d = e.detail || {};
    var el = (d.requestConfig && d.requestConfig.elt) || d.elt; // beforeSwap's elt is the target
    return el && el.id && document.querySelector('.board[data-move-form="' + el.id + '"]') ? el : null;
  }

  // A typed move is sent with the ply the board shows now, which the event
  // stream keeps current (the form itself is not redrawn, to keep the text).
  document.addEventListener("submit", function (e) {
    var form = e.target;
    var board = form && form.id && document.querySelector('.board[data-move-form="' + form.id + '"]');
    if (board && form.elements.ply && board.dataset.ply) form.elements.ply.value = board.dataset.ply;
  }, true);

  document.addEventListener("htmx:beforeSwap", function (e) {
    var form = moveFormOf(e);
    if (!form) return;
    var status = e.detail.xhr.status;
    if (status < 400) return;
    if (form.elements.uci.value !== "") {
      window.location.reload();
      return;
    }
    if (status === 409 || status === 422 || status === 429) {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    }
  });

  document.addEventListener("htmx:afterRequest", function (e) {
    var form = moveFormOf(e);
    if (!form) return;
    if (e.detail.xhr && e.detail.xhr.status < 300 && form.elements.move) form.elements.move.value = "";
    form.elements.uci.value = "";
  });

  // ---- Clocks and countdowns ----------------------------------------------

  // Each clock shows the server's value when its fragment arrives and
  // counts down from it locally; every server update replaces the element
  // and so snaps the display back to the server's value.
  var clocks = [];

  var CLOCK = ".clock[data-remaining-ms], .countdown[data-remaining-ms]";

  function track(root) {
    clocks = clocks.filter(function (c) { return document.body.contains(c.el); });
    var scope = root.querySelectorAll ? root : document;
    var found = Array.prototype.slice.call(scope.querySelectorAll(CLOCK));
    // A clock update swaps the clock element itself (outerHTML), and htmx
    // announces that element, not its parent: it is the root here.
    if (scope.matches && scope.matches(CLOCK)) found.push(scope);
    found.forEach(function (el) {
      if (el._tracked) return;
      el._tracked = true;
      clocks.push({ el: el, ms: parseInt(el.dataset.remainingMs, 10) || 0, t0: performance.now(),
        running: el.classList.contains("countdown") || el.dataset.running === "true" });
    });
    render();
  }

  function format(ms, countdown) {
    if (ms < 0) ms = 0;
    if (countdown) return String(Math.ceil(ms / 1000));
    var tenths = Math.floor(ms / 100);
    var s = Math.floor(ms / 1000);
    var h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
    var pad = function (n) { return (n < 10 ? "0" : "") + n; };
    if (h > 0) return h + ":" + pad(m) + ":" + pad(sec);
    if (ms < 10000) return m + ":" + pad(sec) + "." + (tenths % 10);
    return m + ":" + pad(sec);
  }

  function render() {
    var now = performance.now();
    clocks.forEach(function (c) {
      var ms = c.running ? c.ms - (now - c.t0) : c.ms;
      var countdown = c.el.classList.contains("countdown");
      var text = format(ms, countdown);
      if (c.el.textContent !== text) c.el.textContent = text;
      if (!countdown) {
        c.el.classList.toggle("clock-low", ms < 30000);
        c.el.classList.toggle("clock-critical", ms < 10000);
      }
    });
  }

  // ---- The player's own connection ------------------------------------------

  // When the page's event stream fails, this player may be the one whose
  // connection dropped, and the server gives them the grace period to come
  // back (SPEC section 8): the page says so and counts the grace down from
  // the failure until the stream is open again. A failure shorter than
  // LOST_AFTER (the browser reconnecting at once) shows nothing. Only a
  // player's page of a live game has the notice ([data-grace-ms]).
  var LOST_AFTER = 2000;
  var lostAt = null;

  document.addEventListener("htmx:sseError", function () {
    if (lostAt === null) lostAt = performance.now();
  });
  document.addEventListener("htmx:sseOpen", function () {
    lostAt = null;
    renderLost();
  });

  function renderLost() {
    var down = lostAt === null ? 0 : performance.now() - lostAt;
    var show = down >= LOST_AFTER;
    document.querySelectorAll("[data-grace-ms]").forEach(function (el) {
      if (el.hidden === show) el.hidden = !show;
      var span = el.querySelector(".lost-countdown");
      if (!show || !span) return;
      var text = format((parseInt(el.dataset.graceMs, 10) || 0) - down, true);
      if (span.textContent !== text) span.textContent = text;
    });
  }

  setInterval(function () {
    render();
    renderLost();
  }, 100);

  function init(root) {
    track(root || document);
    keepSelection(root || document);
  }

  if (window.htmx && window.htmx.onLoad) {
    window.htmx.onLoad(init); // also runs for content swapped in by SSE
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { init(document); });
  } else {
    init(document);
  }
})();
