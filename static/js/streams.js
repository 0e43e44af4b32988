// streams.js: closes the page's event streams when the page is left, on
// every page of the site (views/layout.templ loads it after htmx's SSE
// extension). Chromium keeps a page it may bring back (the back-forward
// cache) with its streams open, and a browser opens only six connections
// to a site over HTTP/1.1: a few visits back and forth between pages with
// streams (a game, the Watch page, the lobby's waiting page) would leave
// none for the next page. A page that had streams and is brought back is
// loaded afresh, which opens new streams with the state as it stands.
(function () {
  "use strict";

  // The streams are taken where htmx's SSE extension makes them
  // (htmx.createEventSource), which is before it connects any: this
  // script runs before the document is ready, htmx processes it after.
  var sources = [];
  var closed = false;
  if (window.htmx && typeof htmx.createEventSource === "function") {
    var create = htmx.createEventSource;
    htmx.createEventSource = function (url) {
      var src = create(url);
      sources.push(src);
      return src;
    };
  }
  window.addEventListener("pagehide", function () {
    sources.forEach(function (src) {
      src.close();
      closed = true;
    });
    sources = [];
  });
  window.addEventListener("pageshow", function (e) {
    if (e.persisted && closed) {
      location.reload();
    }
  });
})();
