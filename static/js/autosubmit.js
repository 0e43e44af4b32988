// Satranç: submits the form marked data-autosubmit once, on arrival (the
// Quick Play page a guest reaches after signing up from the home page's
// grid). The ?go=1 that asked for it is taken out of the address first, so
// that going back to the page does not join the queue a second time.
(function () {
  "use strict";
  var form = document.querySelector("form[data-autosubmit]");
  if (!form) {
    return;
  }
  var url = new URL(window.location.href);
  url.searchParams.delete("go");
  window.history.replaceState(null, "", url.pathname + url.search + url.hash);
  if (form.requestSubmit) {
    form.requestSubmit();
  } else {
    form.submit();
  }
})();
