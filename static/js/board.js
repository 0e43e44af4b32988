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
//
// Premove: on the opponent's turn a player's board (data-color and
// data-move-form, data-interactive "false", or "pending" while their own
// move is on its way) takes one move ahead, set by drag or click-click with
// the piece movement rules only, as on lichess (see Premove below).
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
    board.querySelectorAll(".sq-selected, .sq-target, .sq-target-capture, .sq-hover, .sq-premove-target").forEach(function (el) {
      el.classList.remove("sq-selected", "sq-target", "sq-target-capture", "sq-hover", "sq-premove-target");
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

  // A closed picker forgets its move, so that nothing can send it later.
  function closePicker(board) {
    var picker = board.querySelector(".promotion-picker");
    if (picker) {
      picker.hidden = true;
      delete picker.dataset.move;
    }
    deselect(board);
  }

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest(".promotion-picker [data-promotion]");
    if (!button) return;
    var board = boardOf(button);
    var picker = button.closest(".promotion-picker");
    var move = picker.dataset.move;
    if (!board || !move) return;
    picker.hidden = true;
    delete picker.dataset.move;
    send(board, move + button.dataset.promotion);
  });

  document.addEventListener("keydown", function (e) {
    if (e.key !== "Escape") return;
    document.querySelectorAll(".board").forEach(function (b) {
      var picker = b.querySelector(".promotion-picker");
      if (picker && !picker.hidden) closePicker(b);
      if (b.dataset.moveForm) cancelPremove(b);
    });
  });

  // ---- Pointer input: click-click and drag and drop -----------------------

  document.addEventListener("pointerdown", function (e) {
    if (e.button !== 0 || (e.target.closest && e.target.closest(".promotion-picker"))) return;
    var board = boardOf(e.target);
    if (!board) {
      premoveDown(e);
      return;
    }
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
    if (s.premove) {
      endPremovePointer(s, e, cancelled);
      return;
    }
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

  document.addEventListener("htmx:beforeRequest", function (e) {
    if (moveFormOf(e)) formBusy = true;
  });

  document.addEventListener("htmx:afterRequest", function (e) {
    var form = moveFormOf(e);
    if (!form) return;
    if (e.detail.xhr && e.detail.xhr.status < 300 && form.elements.move) form.elements.move.value = "";
    form.elements.uci.value = "";
    formBusy = false;
    if (queued) setTimeout(sendQueued, 0); // after htmx has let go of the form
  });

  // ---- Premove --------------------------------------------------------------
  //
  // As on lichess: on the opponent's turn the player picks up a piece of
  // theirs and sets one move for it, by drag or click-click, to any square
  // its movement allows (whatever stands there or in between; a pawn may
  // aim diagonally, a king at its castling squares and rooks). The move is
  // shown (.sq-premove on its two squares) and kept over the stream's
  // redraws. When the board becomes theirs to move, it is played at once
  // if it is among the new position's legal moves (data-legal), and
  // dropped silently if not. A pawn premoved to the last rank becomes a
  // Queen. A click on an empty square or an opponent's piece, a
  // right-click on the board, or Escape cancels it; picking up another
  // piece replaces it.

  var premove = null; // {from, to, uci, piece, minPly}: the move set ahead
  var preselected = null; // {square, piece}: a piece picked up for a premove
  var formBusy = false; // the move form's request is on its way
  var queued = null; // a premove due while formBusy: {uci, ply}

  function canPremove(board) {
    if (!board || !board.dataset.color || !board.dataset.moveForm) return false;
    if (board.dataset.interactive === "true" || !document.getElementById(board.dataset.moveForm)) return false;
    var panel = board.closest("[data-status]");
    return !panel || panel.dataset.status === "active";
  }

  function premoveBoardOf(el) {
    var b = el && el.closest ? el.closest(".board") : null;
    return canPremove(b) ? b : null;
  }

  // gameBoard is the game page's board, the one the stream redraws.
  function gameBoard() {
    return document.querySelector(".board[data-move-form]");
  }

  function pieceCode(board, name) {
    var sq = squareEl(board, name);
    var img = sq && sq.querySelector(".piece");
    return img ? img.dataset.piece || "" : "";
  }

  // premoveDests maps each square the piece on from may be premoved to
  // onto the move in UCI (a King dropped on a rook castles).
  function premoveDests(board, from) {
    var out = {};
    var code = pieceCode(board, from);
    if (!code) return out;
    var color = code.charAt(0), type = code.charAt(1);
    var f = from.charCodeAt(0) - 97, r = parseInt(from.charAt(1), 10) - 1;
    var forward = color === "w" ? 1 : -1;
    var last = color === "w" ? 7 : 0;
    function name(nf, nr) { return String.fromCharCode(97 + nf) + (nr + 1); }
    function on(nf, nr) { return nf >= 0 && nf < 8 && nr >= 0 && nr < 8; }
    function add(nf, nr, uci) {
      if (!on(nf, nr)) return false;
      var to = name(nf, nr);
      out[to] = uci || from + to + (type === "P" && nr === last ? "q" : "");
      return true;
    }
    function slide(dirs) {
      dirs.forEach(function (d) {
        for (var i = 1; add(f + d[0] * i, r + d[1] * i); i++) {}
      });
    }
    var straight = [[1, 0], [-1, 0], [0, 1], [0, -1]];
    var diagonal = [[1, 1], [1, -1], [-1, 1], [-1, -1]];
    switch (type) {
      case "P":
        add(f, r + forward);
        if (r === (color === "w" ? 1 : 6)) add(f, r + 2 * forward);
        add(f - 1, r + forward);
        add(f + 1, r + forward);
        break;
      case "N":
        [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]].forEach(function (d) { add(f + d[0], r + d[1]); });
        break;
      case "B": slide(diagonal); break;
      case "R": slide(straight); break;
      case "Q": slide(straight.concat(diagonal)); break;
      case "K":
        straight.concat(diagonal).forEach(function (d) { add(f + d[0], r + d[1]); });
        var home = color === "w" ? 0 : 7;
        if (f === 4 && r === home) {
          var rook = color + "R";
          if (pieceCode(board, name(7, home)) === rook) {
            add(6, home, from + name(6, home));
            add(7, home, from + name(6, home));
          }
          if (pieceCode(board, name(0, home)) === rook) {
            add(2, home, from + name(2, home));
            add(0, home, from + name(2, home));
          }
        }
        break;
    }
    return out;
  }

  function clearPremoveMarks(board) {
    board.querySelectorAll(".sq-premove").forEach(function (el) { el.classList.remove("sq-premove"); });
  }

  function markPremove(board) {
    clearPremoveMarks(board);
    if (!premove) return;
    [premove.from, premove.to].forEach(function (n) {
      var sq = squareEl(board, n);
      if (sq) sq.classList.add("sq-premove");
    });
  }

  function preselect(board, from) {
    clearMarks(board);
    var sq = squareEl(board, from);
    sq.classList.add("sq-selected");
    Object.keys(premoveDests(board, from)).forEach(function (to) {
      var t = squareEl(board, to);
      if (t) t.classList.add("sq-premove-target");
    });
    preselected = { square: from, piece: pieceCode(board, from) };
  }

  function unselectPremove(board) {
    clearMarks(board);
    preselected = null;
  }

  function cancelPremove(board) {
    if (!premove && !preselected) return false;
    premove = null;
    unselectPremove(board);
    clearPremoveMarks(board);
    return true;
  }

  // setPremove keeps from -> to as the move to play when the turn comes;
  // minPly is the first ply it may be played at: the next one, or the one
  // after while the player's own move is still on its way.
  function setPremove(board, from, to, uci) {
    var ply = parseInt(board.dataset.ply, 10) || 0;
    premove = { from: from, to: to, uci: uci, piece: pieceCode(board, from),
      minPly: ply + (board.dataset.interactive === "pending" ? 2 : 1) };
    unselectPremove(board);
    markPremove(board);
  }

  function premoveDown(e) {
    var board = premoveBoardOf(e.target);
    if (!board) return;
    var sq = e.target.closest(".sq[data-square]");
    if (!sq) return;
    var name = sq.dataset.square;
    if (preselected && preselected.square !== name) {
      var uci = premoveDests(board, preselected.square)[name];
      if (uci) {
        e.preventDefault();
        setPremove(board, preselected.square, name, uci);
        return;
      }
    }
    var img = ownPieceOn(board, sq);
    if (!img) {
      cancelPremove(board); // an empty square or the opponent's piece
      return;
    }
    e.preventDefault();
    var was = !!preselected && preselected.square === name;
    premove = null;
    clearPremoveMarks(board);
    preselect(board, name);
    state = { board: board, from: name, img: img, ghost: null, pointerId: e.pointerId,
      startX: e.clientX, startY: e.clientY, wasSelected: was, premove: true };
  }

  function endPremovePointer(s, e, cancelled) {
    var board = document.body.contains(s.board) ? s.board : gameBoard();
    if (!s.ghost) {
      // A click: a second click on the picked-up piece puts it down.
      if (s.wasSelected && board) unselectPremove(board);
      return;
    }
    s.ghost.remove();
    s.img.classList.remove("piece-lifted");
    if (!board) return;
    var over = cancelled ? null : squareAt(e.clientX, e.clientY);
    var to = over && board.contains(over) && over.dataset.square !== s.from ? over.dataset.square : null;
    if (board.dataset.interactive === "true") {
      // The turn came while the piece was in the hand: a normal move.
      if (!to || !tryMove(board, s.from, to)) deselect(board);
      return;
    }
    var uci = to && canPremove(board) && premoveDests(board, s.from)[to];
    if (uci) setPremove(board, s.from, to, uci);
    else unselectPremove(board);
  }

  document.addEventListener("contextmenu", function (e) {
    var board = e.target.closest && e.target.closest(".board[data-move-form]");
    if (board && cancelPremove(board)) e.preventDefault();
  });

  // When the stream redraws the board: on the player's turn the premove
  // is played if legal (a piece only picked up stays picked up); otherwise
  // the premove and the pick are shown again on the new board, as long as
  // the piece still stands there and the game goes on. This runs at the
  // swap itself (htmx:afterSwap), not after htmx settles, so that the move
  // leaves within a few milliseconds of the opponent's.
  document.addEventListener("htmx:afterSwap", function () {
    if (!premove && !preselected) return;
    var board = gameBoard();
    if (!board || !board.dataset.color) {
      premove = preselected = null; // the game is over
      return;
    }
    if (board._premoveSeen) return;
    board._premoveSeen = true;
    var ply = parseInt(board.dataset.ply, 10) || 0;
    if (board.dataset.interactive === "true" && (!premove || ply >= premove.minPly)) {
      var pm = premove, pick = preselected;
      premove = preselected = null;
      if (pm) playPremove(board, pm);
      else if (pick && pieceCode(board, pick.square) === pick.piece) select(board, pick.square);
      return;
    }
    if (premove && pieceCode(board, premove.from) !== premove.piece) premove = null; // taken
    if (preselected && pieceCode(board, preselected.square) !== preselected.piece) preselected = null;
    if (preselected && canPremove(board)) preselect(board, preselected.square);
    markPremove(board);
  });

  function playPremove(board, pm) {
    if (pieceCode(board, pm.from) !== pm.piece || legalMoves(board).indexOf(pm.uci) < 0) return; // dropped
    if (formBusy) {
      queued = { uci: pm.uci, ply: board.dataset.ply };
      return;
    }
    send(board, pm.uci);
  }

  function sendQueued() {
    var q = queued;
    queued = null;
    var board = gameBoard();
    if (!q || !board || board.dataset.interactive !== "true" || board.dataset.ply !== q.ply) return;
    if (legalMoves(board).indexOf(q.uci) >= 0) send(board, q.uci);
  }

  // A whole panel in another language than the page's reloads the page, as
  // a piece set other than the page's does below: the language was changed
  // in another tab, and the stream, reconnecting, took it up. A fresh load
  // draws the page and the panel alike.
  document.addEventListener("htmx:afterSwap", function (e) {
    if (!e.target || e.target.id !== "game-panel") return;
    var panel = e.target.querySelector('[data-testid="game-panel"]');
    if (panel && panel.lang && panel.lang !== document.documentElement.lang) location.reload();
  });

  // ---- Moves as deltas ------------------------------------------------------
  //
  // The game page's stream sends a move as its delta (views/game_delta.templ,
  // event "move", swapped into #game-delta). htmx puts the parts of the
  // buttons that changed in their places (out-of-band swaps), and at the
  // game's end the status line, the result panel and the move list's end;
  // the rest is left in #game-delta as attributes, applied here: the
  // panel's ply, status and last-move cue, whose move and the legal moves
  // (or, at the end, the board out of play), the last move's and the
  // check's squares, the clocks, the pieces of the squares that changed,
  // the move added to the list, the status line, the materials that
  // changed and the ratings the game's end settled. What this draws is the
  // markup the server draws in a whole panel (views/game.templ,
  // views/board.templ), so that a page after deltas is the page a fresh
  // load shows. It runs in the capture phase, before the other scripts'
  // afterSwap listeners (sounds, attention, premove, the move list) read
  // the panel.
  window.addEventListener("htmx:afterSwap", function (e) {
    var sink = e.target;
    if (!sink || sink.id !== "game-delta") return;
    var d = sink.querySelector("[data-delta]");
    var panel = document.querySelector('[data-testid="game-panel"]');
    var board = document.getElementById("game-board");
    if (!d || !board) return;
    var pieces = document.getElementById("game-pieces");
    if (!pieces || pieces.dataset.pieces !== board.dataset.pieces) {
      // The stream draws another piece set than the page's images (the
      // set was changed elsewhere and the stream reconnected): a fresh
      // page has both alike.
      location.reload();
      return;
    }
    panel.dataset.ply = d.dataset.ply;
    panel.dataset.lastMove = d.dataset.cue || "";
    placePieces(board, pieces, d.dataset.board || "");
    addMove(panel, d);
    var status = panel.querySelector('[data-testid="status"]');
    if (status && d.dataset.statusText !== undefined) status.textContent = d.dataset.statusText;
    ["white", "black"].forEach(function (side) {
      var m = d.getAttribute("data-material-" + side);
      var el = m === null ? null : panel.querySelector('.material[data-testid="material-' + side + '"]');
      if (el) drawMaterial(el, pieces, m);
    });
    ["white", "black"].forEach(function (side) {
      var r = d.getAttribute("data-rating-" + side);
      var el = r === null ? null : panel.querySelector('[data-testid="player-rating-' + side + '"]');
      if (el) el.textContent = r;
    });
    var opening = d.getAttribute("data-opening");
    if (opening !== null) setOpening(pieces, opening);
    setResignTexts(panel, d);
    var moves = panel.querySelector(".moves");
    if (moves) moves.dataset.ply = d.dataset.ply;
    panel.querySelectorAll(".move.move-last").forEach(function (m) {
      if (m.dataset.ply !== d.dataset.ply) m.classList.remove("move-last");
    });
    if (board.dataset.ply !== undefined) board.dataset.ply = d.dataset.ply;
    if (d.dataset.interactive !== undefined) {
      board.dataset.interactive = d.dataset.interactive;
      board.dataset.legal = expandDests(d.dataset.dests || "");
    }
    var last = (d.dataset.last || "").split(" ");
    board.querySelectorAll(".sq").forEach(function (sq) {
      var name = sq.dataset.square;
      sq.classList.toggle("sq-last", last.indexOf(name) >= 0);
      sq.classList.toggle("sq-check", name === d.dataset.check);
    });
    ["white", "black"].forEach(function (side) {
      var c = (d.getAttribute("data-" + side) || "").split(" ");
      var el = document.querySelector('.clock[data-testid="clock-' + side + '"]');
      if (c.length === 2 && el) setClock(el, parseInt(c[0], 10) || 0, c[1] === "1");
    });
    if (d.dataset.status) {
      panel.dataset.status = d.dataset.status;
      showEnd(panel, pieces, d);
      endPlay(board);
    }
    // As after a whole panel: marks cleared, a kept selection taken over,
    // the premove looked at again.
    clearMarks(board);
    clearPremoveMarks(board);
    delete board.dataset.selected;
    keepSelection(board);
    board._premoveSeen = false;
  }, true);

  // showEnd draws the game's end from its delta as a whole panel of the
  // ended game shows it (views/game.templ, views/game_result.templ): the
  // status line's reason and result, the result panel after the status
  // line and the end of the move list, each a copy of the page's
  // (views/game_result.templ resultAhead) with the delta's texts and
  // figures; the player's buttons and the notice of a lost connection go.
  function showEnd(panel, copies, d) {
    var status = panel.querySelector('[data-testid="status"]');
    if (status) {
      status.dataset.reason = d.dataset.endReason;
      status.dataset.result = d.dataset.endResult;
    }
    var result = copyOf(copies, ".result-panel");
    if (status && result && !panel.querySelector('[data-testid="result-panel"]')) {
      result.dataset.headline = d.dataset.headline;
      result.querySelector(".result-title").textContent = d.dataset.title;
      writeEnd(result.querySelector(".result-reason"), d);
      var rematch = result.querySelector('[data-testid="rematch"]');
      if (rematch && d.dataset.rematchable === undefined) rematch.closest("form").remove();
      var figures = result.querySelector(".result-figures");
      if (figures && d.dataset.settled === "true") settle(figures, copies, d);
      status.after(result);
      if (figures && d.dataset.settled === "false" && window.htmx) htmx.process(figures);
    }
    var list = panel.querySelector("#moves .moves-body");
    var end = copyOf(copies, ".move-list-end");
    if (list && end && !list.querySelector(".move-list-end")) {
      writeEnd(end, d);
      list.appendChild(end);
    }
    panel.querySelectorAll('[data-testid="actions"], [data-testid="connection-lost"]').forEach(function (el) {
      el.remove();
    });
  }

  // copyOf returns a copy of the page's template copies' element that
  // matches selector, its data-tid turned into data-testid, or null.
  function copyOf(copies, selector) {
    var el = copies.content.querySelector(selector);
    if (!el) return null;
    el = document.importNode(el, true);
    [el].concat(Array.from(el.querySelectorAll("[data-tid]"))).forEach(function (e) {
      if (e.dataset.tid === undefined) return;
      e.dataset.testid = e.dataset.tid;
      delete e.dataset.tid;
    });
    return el;
  }

  // writeEnd writes the delta's score (or takes its place away when the
  // game has none) and reason into a copy of the result panel's reason
  // line or of the move list's end.
  function writeEnd(el, d) {
    var score = el.querySelector("strong");
    if (d.dataset.score !== undefined) score.textContent = d.dataset.score;
    else score.remove();
    var reason = el.querySelector(".move-end-reason");
    if (reason) reason.textContent = d.dataset.reasonText;
    else el.appendChild(document.createTextNode(" " + d.dataset.reasonText));
  }

  // settle turns the result panel's pending figures into those the delta
  // carries, as views/game_result.templ ResultFigures draws them: the
  // rating change (written as RatingText does, a minus sign for a loss),
  // the chips and the experience, each from the page's copy of its row.
  function settle(figures, copies, d) {
    ["hx-get", "hx-trigger", "hx-swap"].forEach(function (a) { figures.removeAttribute(a); });
    figures.dataset.settled = "true";
    var dl = document.createElement("dl");
    var row = function (testid, text, data) {
      var el = copyOf(copies, '[data-tid="' + testid + '"]');
      if (!el) return;
      el.querySelector("dd").textContent = text;
      Object.keys(data).forEach(function (k) { el.dataset[k] = data[k]; });
      dl.appendChild(el);
    };
    var rating = (d.dataset.figureRating || "").split(" ");
    if (rating.length === 2) {
      var before = parseInt(rating[0], 10), after = parseInt(rating[1], 10), diff = after - before;
      var signed = diff > 0 ? "+" + diff : diff < 0 ? "\u2212" + -diff : "0";
      row("result-rating", before + " \u2192 " + after + " (" + signed + ")", {before: String(before), after: String(after), diff: String(diff)});
    }
    if (d.dataset.figureChips !== undefined) row("result-chips", d.dataset.figureChipsText, {diff: d.dataset.figureChips});
    if (d.dataset.figureXp !== undefined) row("result-xp", d.dataset.figureXpText, {xp: d.dataset.figureXp});
    figures.replaceChildren(dl);
  }

  // endPlay takes the board out of play at the game's end, as a finished
  // game's board is drawn (views/game.templ boardFor): no side, legal
  // moves or move form, and no promotion picker.
  function endPlay(board) {
    closePicker(board);
    ["data-interactive", "data-color", "data-legal", "data-ply", "data-move-form"].forEach(function (a) {
      board.removeAttribute(a);
    });
    var picker = board.querySelector(".promotion-picker");
    if (picker) picker.remove();
  }

  // placePieces puts on the board's squares the pieces the delta names
  // ("e1: f1:wR g1:wK h1:", nothing after the colon for an empty square),
  // each a copy of its image among the page's pieces (the template
  // views/game_delta.templ deltaTemplates draws as squareContent does).
  function placePieces(board, pieces, squares) {
    squares.split(" ").forEach(function (part) {
      var sq = part && squareEl(board, part.slice(0, 2));
      if (!sq) return;
      var code = part.slice(3);
      var img = code && pieces.content.querySelector('img[data-piece="' + code + '"]');
      sq.replaceChildren();
      if (img) sq.appendChild(document.importNode(img, true));
    });
  }

  // addMove adds the delta's move (data-san) to the move list as
  // views/game.templ moveSpan draws it, the latest: in a new row numbered
  // data-row (moveRow), or at the end of the last row.
  function addMove(panel, d) {
    var list = panel.querySelector(".move-list");
    if (!list || d.dataset.san === undefined) return;
    var span = document.createElement("span");
    span.className = "move move-last";
    span.dataset.testid = "move";
    span.dataset.ply = d.dataset.ply;
    span.textContent = d.dataset.san;
    var row = list.lastElementChild;
    if (d.dataset.row !== undefined || !row) {
      row = document.createElement("li");
      row.setAttribute("value", d.dataset.row || "1");
      list.appendChild(row);
    }
    row.appendChild(span);
  }

  // drawMaterial draws a player's material from the delta's text ("bP2
  // bN1 +3": the pieces taken by code and count, then the lead) as
  // views/game.templ material does: a group of empty elements per piece
  // type, then the lead with its words for a screen reader, copied from
  // the page's pieces.
  function drawMaterial(el, pieces, text) {
    var lead = 0;
    el.replaceChildren();
    text.split(" ").forEach(function (group) {
      if (!group) return;
      if (group.charAt(0) === "+") {
        lead = parseInt(group.slice(1), 10) || 0;
        return;
      }
      var n = parseInt(group.slice(2), 10) || 0;
      var taken = document.createElement("span");
      taken.className = "taken";
      taken.dataset.piece = group.slice(0, 2);
      taken.dataset.count = String(n);
      for (var i = 0; i < n; i++) taken.appendChild(document.createElement("i"));
      el.appendChild(taken);
    });
    el.dataset.lead = String(lead);
    var label = pieces.content.querySelector(".lead");
    if (lead > 0 && label) {
      var span = document.importNode(label, true);
      span.appendChild(document.createTextNode("+" + lead));
      el.appendChild(span);
    }
  }

  // setOpening shows the delta's opening ("B20 Sicilian Defence": the code,
  // a space, the name) as views/game.templ openingLine draws it, before the
  // move list, from the page's copy of an opening line when there was none.
  function setOpening(pieces, text) {
    var cut = text.indexOf(" ");
    var eco = text.slice(0, cut), name = text.slice(cut + 1);
    var line = document.querySelector('[data-testid="opening"]');
    if (!line) {
      var copy = pieces.content.querySelector(".opening");
      var moves = document.getElementById("moves");
      if (!copy || !moves) return;
      line = document.importNode(copy, true);
      line.dataset.testid = "opening";
      line.querySelector(".opening-eco").dataset.testid = "opening-eco";
      moves.parentNode.insertBefore(line, moves);
    }
    var code = line.querySelector('[data-testid="opening-eco"]');
    if (!code) return;
    line.title = name;
    code.textContent = eco;
    while (code.nextSibling) line.removeChild(code.nextSibling);
    line.appendChild(document.createTextNode(" " + name));
  }

  // setResignTexts puts the delta's texts of the resign confirmation in
  // place when the move changed them (the abort rule ended: Abort became
  // Resign): its button, its question and its confirming button.
  function setResignTexts(panel, d) {
    if (d.dataset.resignButton === undefined) return;
    var confirm = panel.querySelector('[data-testid="resign"]');
    if (!confirm) return;
    var parts = [
      [confirm.querySelector('[data-testid="resign-open"]'), d.dataset.resignButton],
      [confirm.querySelector("form > span"), d.dataset.resignConfirm],
      [confirm.querySelector('[data-testid="resign-confirm"]'), d.dataset.resignYes]
    ];
    parts.forEach(function (p) {
      if (p[0]) p[0].textContent = p[1];
    });
  }

  // expandDests turns the delta's legal moves, grouped by their square, a
  // promotion's piece in capitals ("e2:e3e4 e7:e8Qe8N"), into data-legal's
  // list ("e2e3 e2e4 e7e8q e7e8n").
  function expandDests(dests) {
    var out = [];
    dests.split(" ").forEach(function (group) {
      var from = group.slice(0, 2), rest = group.slice(3);
      for (var i = 0; i + 2 <= rest.length;) {
        var to = rest.slice(i, i + 2);
        i += 2;
        if (i < rest.length && "QRBN".indexOf(rest.charAt(i)) >= 0) to += rest.charAt(i++).toLowerCase();
        out.push(from + to);
      }
    });
    return out.join(" ");
  }

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

  // setClock sets a clock to the server's ms, running or not, as a clock
  // update that replaced the element would.
  function setClock(el, ms, running) {
    el.dataset.remainingMs = String(ms);
    el.dataset.running = running ? "true" : "false";
    clocks = clocks.filter(function (c) { return c.el !== el; });
    el._tracked = false;
    track(el);
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

  // The stream's URL says which panel the page was drawn with (shown=,
  // views.GameView.ShownQuery), so that its first stream does not send
  // that panel again. Once the stream is open it comes off the URL, and
  // that first stream is not left to reconnect on its own (an
  // EventSource would ask with the same URL): on a failure it is closed,
  // and htmx opens a new one from the URL without it, which gets the
  // whole panel, since the page may have missed events.
  function dropShown() {
    document.querySelectorAll('[sse-connect*="&shown="]').forEach(function (el) {
      el.setAttribute("sse-connect", el.getAttribute("sse-connect").replace(/&shown=[^&]*/, ""));
    });
  }
  document.addEventListener("htmx:sseOpen", dropShown);
  document.addEventListener("htmx:sseError", function (e) {
    var src = e.detail && e.detail.source;
    dropShown();
    if (src && src.url.indexOf("&shown=") >= 0 && src.readyState !== EventSource.CLOSED) src.close();
  });

  // ---- Lag measurement ------------------------------------------------------

  // A player's event stream sends a "lag-ping" event every few seconds while
  // the game is live. The page keeps the latest nonce and sends it back with
  // the player's next move, with the milliseconds it held it: the server
  // times the round trip on its own clock, less that hold, and gives it back
  // on this player's clock, within bounds (handlers/lag.go). Riding on the
  // move, the nonce costs no request of its own; a ping that no move takes
  // back before the next one comes is simply not measured.
  var pingSources = new WeakSet();
  var heldPing = null; // {nonce, at}: the latest ping, not yet sent back
  document.addEventListener("htmx:sseOpen", function (e) {
    var src = e.detail && e.detail.source;
    if (!src || pingSources.has(src)) return;
    pingSources.add(src);
    src.addEventListener("lag-ping", function (ev) {
      heldPing = { nonce: ev.data, at: performance.now() };
    });
  });
  // A move goes in the address of a POST without a body: over HTTP/2 a
  // body is a frame of its own, and the server's HTTP/2 library takes a
  // buffer for it that a few bytes never give back (docs/performance.md,
  // "The move path"). The no-JavaScript form posts the same fields in a body.
  document.addEventListener("htmx:configRequest", function (e) {
    if (!e.detail || !e.detail.elt || e.detail.elt.id !== "move-form") return;
    e.detail.useUrlParams = true;
    if (!heldPing) return;
    e.detail.parameters.lag = heldPing.nonce;
    e.detail.parameters.held = String(Math.max(0, Math.round(performance.now() - heldPing.at)));
    heldPing = null;
  });

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
