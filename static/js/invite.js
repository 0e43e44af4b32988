// The invitation box of a private game's waiting page: Copy puts the link
// on the clipboard and says so; Share, shown only where the Web Share API
// exists on a touch screen (a phone), hands the link to the phone's share
// sheet. The box is re-rendered by the game's stream, so the buttons are
// handled from the document and Share is revealed after every swap.
(function () {
  "use strict";

  function canShare() {
    return typeof navigator.share === "function" &&
      window.matchMedia("(pointer: coarse)").matches;
  }

  function revealShare() {
    if (!canShare()) {
      return;
    }
    document.querySelectorAll("[data-invite-share]").forEach(function (b) {
      b.hidden = false;
    });
  }

  function linkOf(button) {
    var box = button.closest(".invite");
    var input = box && box.querySelector("[data-testid=invite-link]");
    return input ? input : null;
  }

  function copied(button) {
    var note = button.closest(".invite").querySelector("[data-invite-status]");
    if (note) {
      note.textContent = button.dataset.copied;
    }
    button.textContent = button.dataset.copied;
    button.classList.add("invite-copied");
    window.setTimeout(function () {
      button.textContent = button.dataset.label;
      button.classList.remove("invite-copied");
    }, 2500);
  }

  function copy(button) {
    var input = linkOf(button);
    if (!input) {
      return;
    }
    var fallback = function () {
      input.select();
      try {
        if (document.execCommand("copy")) {
          copied(button);
        }
      } catch (e) {
        // Nothing more to try: the link stays selected for the user to copy.
      }
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(input.value).then(function () {
        copied(button);
      }, fallback);
    } else {
      fallback();
    }
  }

  function share(button) {
    var input = linkOf(button);
    if (!input || !canShare()) {
      return;
    }
    navigator.share({ title: button.dataset.title, url: input.value }).catch(function () {
      // Cancelled by the user, or refused: the link is still on the page.
    });
  }

  document.addEventListener("click", function (e) {
    var button = e.target.closest("[data-invite-copy], [data-invite-share]");
    if (!button) {
      return;
    }
    if (button.hasAttribute("data-invite-copy")) {
      copy(button);
    } else {
      share(button);
    }
  });
  document.addEventListener("focusin", function (e) {
    if (e.target.matches && e.target.matches("[data-testid=invite-link]")) {
      e.target.select();
    }
  });
  document.addEventListener("htmx:afterSettle", revealShare);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", revealShare);
  } else {
    revealShare();
  }
})();
