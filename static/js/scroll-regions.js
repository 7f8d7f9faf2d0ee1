/* A table wider than its box scrolls inside it (.table-scroll, app.css), never the page. When a box scrolls and holds
   nothing the keyboard can reach, the box itself takes the focus (tabindex=0), so that the arrow keys scroll it, and is
   named after its section's heading for a screen reader (WCAG 2.1.1; axe-core's scrollable-region-focusable). Checked
   when the page loads, when the window is resized and after htmx swaps part of the page; nothing else changes. */
(function () {
  "use strict";
  var FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex]";
  var MARK = "data-scroll-region";

  function name(box) {
    var section = box.closest("section, .card");
    var heading = section && section.querySelector("h2, h3");
    return (heading ? heading.textContent.replace(/\s+/g, " ").trim() : "Table") + " (scrolls sideways)";
  }

  function update() {
    document.querySelectorAll(".table-scroll, .scroll-x").forEach(function (box) {
      var needed = box.scrollWidth > box.clientWidth + 1 && box.querySelector(FOCUSABLE) === null;
      if (needed && !box.hasAttribute(MARK)) {
        box.setAttribute(MARK, "");
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", name(box));
      } else if (!needed && box.hasAttribute(MARK)) {
        ["tabindex", "role", "aria-label", MARK].forEach(function (attribute) { box.removeAttribute(attribute); });
      }
    });
  }

  var pending = false;
  function soon() {
    if (!pending) {
      pending = true;
      window.requestAnimationFrame(function () { pending = false; update(); });
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", update);
  } else {
    update();
  }
  window.addEventListener("resize", soon);
  document.addEventListener("htmx:afterSettle", soon);
})();
