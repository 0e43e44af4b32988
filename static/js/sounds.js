// Satranç game sounds, made on the spot with the Web Audio API (no sound
// files): a move, a capture, a check, the start and the end of a game, and
// a low-time warning. Players and spectators hear them alike, as the
// event stream redraws the game panel.
//
// Markup contract (views/game.templ, views/game_signals.templ):
//
//   <div data-testid="game-panel" data-ply="12" data-status="active"
//        data-last-move="capture">   ("move", "capture", "check" or "")
//   <span class="clock clock-critical" data-running="true"
//         data-testid="clock-white">   (board.js keeps clock-critical:
//                                        under 10 s)
//   <form class="sound-switch" data-sound="off">   (a member's choice; no
//                                                    switch: sounds on)
//
// What plays:
//   - a move or a capture: at once for the player's own move (the
//     "satranc:move" event of board.js), at the redraw for the others';
//   - a check (or a mate): at the redraw, also after the player's own move;
//   - the start: when the panel goes from "waiting" to "active", or when a
//     game with no move yet is opened;
//   - the end: when it goes from "active" to "finished" or "aborted" (also
//     across the page's reload after a resign: see KEEP);
//   - the low-time warning, once a game: when the player's own clock,
//     running, falls under 10 seconds (when it turns critical, red and
//     pulsing), having been above it on this page.
//
// Browsers keep audio silent until the page gets a gesture: the
// AudioContext, made at load, is resumed on the first pointerdown or
// keydown, and a sound due before then is skipped rather than kept for
// later. Each
// sound played is announced by a "satranc:sound" event on the document
// (detail: {name}). A member who turned the sounds off gets no
// AudioContext at all.
(function () {
  "use strict";

  var LOW_TIME_CLASS = "clock-critical"; // board.js: under 10 seconds
  var VOLUME = 0.5;

  var ctx = null;
  var out = null; // the master gain

  function enabled() {
    var el = document.querySelector("[data-sound]");
    return !el || el.dataset.sound !== "off";
  }

  function audio() {
    if (ctx) return ctx;
    var AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    try {
      ctx = new AC();
    } catch (e) {
      return null;
    }
    out = ctx.createGain();
    out.gain.value = VOLUME;
    out.connect(ctx.destination);
    return ctx;
  }

  function unlock() {
    if (!enabled()) return;
    var c = audio();
    if (c && c.state === "suspended" && c.resume) c.resume();
  }
  document.addEventListener("pointerdown", unlock, true);
  document.addEventListener("keydown", unlock, true);

  // tone plays one note at time at: a waveform gliding from f0 to f1 Hz,
  // with a 4 ms attack and an exponential fall to silence over dur seconds.
  function tone(c, at, type, f0, f1, peak, dur) {
    var o = c.createOscillator();
    var g = c.createGain();
    o.type = type;
    o.frequency.setValueAtTime(f0, at);
    if (f1 !== f0) o.frequency.exponentialRampToValueAtTime(f1, at + dur);
    g.gain.setValueAtTime(0.0001, at);
    g.gain.exponentialRampToValueAtTime(peak, at + 0.004);
    g.gain.exponentialRampToValueAtTime(0.0001, at + dur);
    o.connect(g);
    g.connect(out);
    o.start(at);
    o.stop(at + dur + 0.02);
  }

  var SOUNDS = {
    // A short wooden knock.
    move: function (c, t) {
      tone(c, t, "triangle", 540, 240, 0.5, 0.07);
      tone(c, t, "sine", 170, 120, 0.35, 0.06);
    },
    // A heavier knock with a second, lighter one just after.
    capture: function (c, t) {
      tone(c, t, "triangle", 420, 150, 0.6, 0.1);
      tone(c, t, "sine", 140, 90, 0.4, 0.09);
      tone(c, t + 0.045, "triangle", 620, 300, 0.3, 0.06);
    },
    // Two bright notes, a fifth apart.
    check: function (c, t) {
      tone(c, t, "sine", 880, 880, 0.28, 0.16);
      tone(c, t + 0.09, "sine", 1320, 1320, 0.22, 0.22);
    },
    // C, E, G going up.
    start: function (c, t) {
      tone(c, t, "sine", 523.25, 523.25, 0.22, 0.14);
      tone(c, t + 0.1, "sine", 659.25, 659.25, 0.22, 0.14);
      tone(c, t + 0.2, "sine", 783.99, 783.99, 0.24, 0.3);
    },
    // G, E, C going down, the last one held.
    end: function (c, t) {
      tone(c, t, "sine", 783.99, 783.99, 0.22, 0.16);
      tone(c, t + 0.13, "sine", 659.25, 659.25, 0.22, 0.16);
      tone(c, t + 0.26, "sine", 523.25, 523.25, 0.26, 0.5);
    },
    // Two quick high beeps.
    lowtime: function (c, t) {
      tone(c, t, "square", 1046.5, 1046.5, 0.08, 0.09);
      tone(c, t + 0.16, "square", 1046.5, 1046.5, 0.08, 0.09);
    }
  };

  // play plays the sound name after delay seconds, if the sounds are on
  // and the browser lets the page make sound now.
  function play(name, delay) {
    if (!enabled() || !SOUNDS[name]) return;
    var c = audio();
    if (!c || c.state !== "running") return;
    SOUNDS[name](c, c.currentTime + 0.005 + (delay || 0));
    document.dispatchEvent(new CustomEvent("satranc:sound", { detail: { name: name } }));
  }

  // ---- What happened ------------------------------------------------------

  function panel() {
    var p = document.querySelector('[data-testid="game-panel"]');
    if (!p) return null;
    return { ply: parseInt(p.dataset.ply, 10) || 0, status: p.dataset.status || "", cue: p.dataset.lastMove || "" };
  }

  var seen = null; // the panel as last heard
  var ownPly = -1; // the ply of the player's own move, already heard

  function changed() {
    var now = panel();
    if (!now) return;
    var before = seen;
    seen = now;
    if (!before || (now.ply === before.ply && now.status === before.status)) return;
    var delay = 0;
    if (before.status === "waiting" && now.status === "active") {
      play("start");
      delay = 0.35;
    }
    if (now.ply > before.ply) {
      if (now.ply === ownPly) {
        if (now.cue === "check") play("check");
      } else {
        play(now.cue || "move", delay);
      }
      delay = 0.2;
    }
    if (before.status === "active" && (now.status === "finished" || now.status === "aborted")) play("end", delay);
  }

  // The player's own move is heard at once, before the server answers.
  document.addEventListener("satranc:move", function (e) {
    if (e.defaultPrevented || !e.detail || !e.detail.uci) return;
    var board = e.target;
    var uci = e.detail.uci;
    var from = board.querySelector('.sq[data-square="' + uci.slice(0, 2) + '"] .piece');
    var taken = board.querySelector('.sq[data-square="' + uci.slice(2, 4) + '"] .piece');
    var enPassant = from && /P$/.test(from.dataset.piece || "") && uci.charAt(0) !== uci.charAt(2);
    ownPly = (parseInt(board.dataset.ply, 10) || 0) + 1;
    play(taken || enPassant ? "capture" : "move");
  });

  document.addEventListener("htmx:afterSwap", changed);

  // ---- Low time -------------------------------------------------------------

  var lowArmed = false; // the player's clock was seen above the mark
  var lowDone = false;

  function ownClock() {
    var board = document.querySelector(".board[data-move-form][data-color]");
    if (!board) return null;
    var side = board.dataset.color === "w" ? "white" : "black";
    return document.querySelector('[data-testid="clock-' + side + '"]');
  }

  setInterval(function () {
    if (lowDone) return;
    var clock = ownClock();
    if (!clock) return;
    if (!clock.classList.contains(LOW_TIME_CLASS)) {
      lowArmed = true;
    } else if (lowArmed && clock.dataset.running === "true") {
      lowDone = true;
      play("lowtime");
    }
  }, 200);

  // A form that is not htmx's (resign, leave) reloads the game's page: the
  // panel as last heard is kept for a moment in sessionStorage, so that
  // the new page hears the change (the end of the game) as a redraw would.
  var KEEP = "satranc:sounds:" + location.pathname;
  var KEEP_MS = 15000;

  window.addEventListener("pagehide", function () {
    if (!seen) return;
    try {
      sessionStorage.setItem(KEEP, JSON.stringify({ at: Date.now(), ply: seen.ply, status: seen.status }));
    } catch (e) { /* storage full or off: the sound is missed */ }
  });

  function kept() {
    try {
      var k = JSON.parse(sessionStorage.getItem(KEEP) || "null");
      sessionStorage.removeItem(KEEP);
      return k && Date.now() - k.at < KEEP_MS ? { ply: k.ply, status: k.status, cue: "" } : null;
    } catch (e) {
      return null;
    }
  }

  function init() {
    var before = kept();
    seen = panel();
    if (!enabled()) return;
    // Where the browser lets a page make sound before any gesture (it came
    // by a click, or the user often plays here), the context runs at once.
    audio();
    if (before) {
      seen = before;
      changed();
    } else if (seen && seen.status === "active" && seen.ply === 0) {
      play("start"); // a game opened before its first move
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
