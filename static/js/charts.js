/* Draws every <canvas data-chart="ID"> from the JSON of <script type="application/json" id="ID"> (Django's
   json_script; apps/core/charts.py gives its shape), with Chart.js (static/vendor/chart.js/). A file, not an inline
   script: the Content-Security-Policy allows scripts from our own origin only. Money arrives as exact strings
   ("1234.50") and is drawn as numbers; the page's table under each chart keeps the exact figures. */
(function () {
  "use strict";
  var PALETTE = ["#0b5d3b", "#b8860b", "#1f5fa8", "#b3261e", "#6a3d9a", "#138086", "#8c564b", "#d45087",
                 "#4d6b00", "#7f7f7f", "#e07b00", "#2f4b7c"];
  var dollars = new Intl.NumberFormat("en-US", {style: "currency", currency: "USD"});
  var whole = new Intl.NumberFormat("en-US", {maximumFractionDigits: 0});

  function money(value) { return dollars.format(value); }

  function config(spec, canvas) {
    var money_axes = {};
    var datasets = spec.series.map(function (s, i) {
      var colour = PALETTE[i % PALETTE.length];
      if (s.money) { money_axes[s.axis] = true; }
      return {
        type: s.kind, label: s.label, yAxisID: spec.horizontal ? undefined : s.axis,
        xAxisID: spec.horizontal ? "x" : undefined,
        data: s.values.map(Number), money: s.money,
        backgroundColor: s.kind === "line" ? colour : colour + "cc", borderColor: colour,
        borderWidth: s.kind === "line" ? 2 : 0, pointRadius: s.kind === "line" ? 2 : 0, tension: 0,
        stack: spec.stacked ? "all" : undefined, order: s.kind === "line" ? 0 : 1
      };
    });
    var axis = function (id, side) {
      var isMoney = !!money_axes[id];
      return {
        position: side, stacked: spec.stacked, beginAtZero: true, grid: {drawOnChartArea: id !== "y2"},
        ticks: {precision: isMoney ? undefined : 0,
                callback: function (v) { return isMoney ? "$" + whole.format(v) : whole.format(v); }}
      };
    };
    var scales = {};
    if (spec.horizontal) {
      scales.x = axis("y", "bottom");
      scales.y = {stacked: spec.stacked};
    } else {
      scales.x = {stacked: spec.stacked, ticks: {autoSkip: true, maxRotation: 0}};
      scales.y = axis("y", "left");
      if (spec.series.some(function (s) { return s.axis === "y2"; })) { scales.y2 = axis("y2", "right"); }
    }
    // A bar a table tall enough to read, whatever the number of tables; a wide chart flatter than a narrow one.
    var box = canvas.parentNode;
    if (spec.horizontal) { box.style.height = (70 + 30 * spec.labels.length) + "px"; }
    var aspect = box.clientWidth > 700 ? 3.2 : 2;
    return {
      type: spec.kind,
      data: {labels: spec.labels, datasets: datasets},
      options: {
        animation: false, responsive: true, maintainAspectRatio: !spec.horizontal, aspectRatio: aspect,
        indexAxis: spec.horizontal ? "y" : "x", interaction: {mode: "index", intersect: false},
        scales: scales,
        plugins: {
          legend: {display: spec.series.length > 1, position: "bottom"},
          tooltip: {callbacks: {label: function (item) {
            var v = item.parsed[spec.horizontal ? "x" : "y"];
            return item.dataset.label + ": " + (item.dataset.money ? money(v) : whole.format(v));
          }}}
        }
      }
    };
  }

  function draw(root) {
    if (typeof window.Chart === "undefined") { return; }
    (root || document).querySelectorAll("canvas[data-chart]").forEach(function (canvas) {
      if (window.Chart.getChart(canvas)) { return; }
      var source = document.getElementById(canvas.dataset.chart);
      if (!source) { return; }
      new window.Chart(canvas, config(JSON.parse(source.textContent), canvas));
      canvas.dataset.drawn = "true";
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { draw(document); });
  } else {
    draw(document);
  }
  document.addEventListener("htmx:afterSettle", function (event) { draw(event.target); });
}());
