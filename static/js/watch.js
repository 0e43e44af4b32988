// watch.js: counts the running clocks of the mini-boards down between the
// Watch stream's events (views/watch.templ, handlers/watch.go); every
// redrawn board brings the server's time again (static/js/streams.js
// closes the stream when the page is left). The clocks are written as
// the server writes them (views.MiniClockText): m:ss, h:mm:ss from an hour.
(function () {
  "use strict";

  // When each running clock was first seen, by element: a redrawn board
  // is a new element with the time as it stood then.
  var seen = new WeakMap();

  function pad(n) {
    return (n < 10 ? "0" : "") + n;
  }

  function text(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    var h = Math.floor(s / 3600);
    var m = Math.floor(s / 60) % 60;
    return h > 0 ? h + ":" + pad(m) + ":" + pad(s % 60) : Math.floor(s / 60) + ":" + pad(s % 60);
  }

  function tick() {
    var now = performance.now();
    document.querySelectorAll('.mini-clock[data-running="true"]').forEach(function (el) {
      var start = seen.get(el);
      if (start === undefined) {
        start = now;
        seen.set(el, start);
      }
      var t = text(Number(el.dataset.remainingMs) - (now - start));
      if (el.textContent !== t) {
        el.textContent = t;
      }
    });
  }

  setInterval(tick, 250);
})();
