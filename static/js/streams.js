// streams.js: closes the page's event streams when the page is left, and
// says why when the server refused one, on every page of the site
// (views/layout.templ loads it after htmx's SSE extension). Chromium keeps a page it may bring back (the back-forward
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
      src.addEventListener("error", function () {
        if (src.readyState === EventSource.CLOSED) explainRefusal(url);
      });
      return src;
    };
  }

  // A stream the server refused (429: too many live pages from this
  // account or network, or on the server; docs/operations.md, "Limits on
  // event streams") fails without a word from EventSource, and htmx tries
  // again later. The page asks once what the refusal said and shows it at
  // the top, in the page's language, until a stream gets through.
  var explained = false;
  function explainRefusal(url) {
    if (explained || closed || !window.fetch || !window.AbortController) return;
    explained = true;
    var ctl = new AbortController();
    fetch(url, { credentials: "same-origin", signal: ctl.signal })
      .then(function (r) {
        if (r.status !== 429) {
          ctl.abort(); // let go of a stream that got through meanwhile
          explained = false;
          return null;
        }
        return r.text();
      })
      .then(function (html) {
        if (!html) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        var text = doc.querySelector(".error-text");
        if (!text || !document.body) return;
        var note = document.createElement("p");
        note.className = "notice stream-refused";
        note.setAttribute("role", "alert");
        note.dataset.testid = "stream-refused";
        note.textContent = text.textContent.trim();
        var main = document.querySelector("main") || document.body;
        main.insertBefore(note, main.firstChild);
        document.addEventListener("htmx:sseOpen", function () { note.remove(); }, { once: true });
      })
      .catch(function () { explained = false; });
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
