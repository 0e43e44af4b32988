// Table chat: the chat form (views/chat.templ) is sent by htmx. A refused
// message (422, 429) shows the server's notice in #chat-error; a message
// sent clears the input and the notice; the log, which the event stream
// redraws, keeps its latest line in view.
(function () {
  "use strict";

  function chatForm(e) {
    var d = e.detail || {};
    var el = (d.requestConfig && d.requestConfig.elt) || d.elt;
    return el && el.id === "chat-form" ? el : null;
  }

  document.addEventListener("htmx:beforeSwap", function (e) {
    if (!chatForm(e)) return;
    var status = e.detail.xhr.status;
    if (status === 422 || status === 429) {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    }
  });

  document.addEventListener("htmx:afterRequest", function (e) {
    var form = chatForm(e);
    if (!form || !e.detail.xhr || e.detail.xhr.status >= 300) return;
    form.elements.text.value = "";
    var err = document.getElementById("chat-error");
    if (err) err.textContent = "";
  });

  function scrollLog() {
    document.querySelectorAll(".chat-log").forEach(function (log) {
      log.scrollTop = log.scrollHeight;
    });
  }
  document.addEventListener("htmx:afterSettle", scrollLog);
  document.addEventListener("DOMContentLoaded", scrollLog);
})();
