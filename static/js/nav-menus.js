/* The header's menus (base.html: a <details class="nav-group"> per group of pages). The browser opens and closes
   each with the mouse and the keyboard (Enter, Space on its button) and tells a screen reader whether it is expanded;
   the shared name keeps one open at a time. This adds what a menu is expected to do besides: Escape closes the open
   menu and puts the focus back on its button, and a click or a focus outside it closes it. Without this script the
   menus still work. */
(function () {
  "use strict";
  var OPEN = "header details.nav-group[open]";

  function closeAll(except) {
    document.querySelectorAll(OPEN).forEach(function (menu) {
      if (menu !== except) { menu.open = false; }
    });
  }

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") { return; }
    var menu = event.target.closest && event.target.closest(OPEN);
    if (menu) {
      menu.open = false;
      menu.querySelector("summary").focus();
    } else {
      closeAll(null);
    }
  });
  document.addEventListener("click", function (event) {
    closeAll(event.target.closest ? event.target.closest("details.nav-group") : null);
  });
  document.addEventListener("focusin", function (event) {
    closeAll(event.target.closest ? event.target.closest("details.nav-group") : null);
  });
}());
