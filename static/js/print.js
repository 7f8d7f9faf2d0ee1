// A button marked data-print prints the page (the table sign): a file, not an onclick attribute, for the CSP.
document.addEventListener("click", function (event) {
  if (event.target.closest("[data-print]")) {
    window.print();
  }
});
