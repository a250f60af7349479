// factgrain report page: keep hover cards on screen, keyboard access, link text and units,
// sortable batch table. The page works without this script (cards still open on hover/focus).
(function () {
  "use strict";
  var doc = document;

  // Hover / focus card: shift it back inside the viewport, flip above when there is no room below.
  function place(seg) {
    var tip = seg.querySelector(":scope > .tip");
    if (!tip) return;
    tip.classList.remove("above");
    tip.style.left = "0px";
    var r = tip.getBoundingClientRect();
    var over = r.right - (window.innerWidth - 8);
    if (over > 0) tip.style.left = Math.min(over, r.left - 8) * -1 + "px";
    if (r.bottom > window.innerHeight - 8 && seg.getBoundingClientRect().top > r.height + 16) tip.classList.add("above");
  }

  function units(seg) {
    return (seg.getAttribute("data-r") || "").split(" ").filter(Boolean);
  }

  // While a passage is hovered or focused, outline the units listed for it (and vice versa).
  function link(seg, on) {
    var root = seg.closest("main, article") || doc;
    var t = seg.getAttribute("data-target");
    var ids = units(seg);
    root.querySelectorAll(".unit").forEach(function (li) {
      if (ids.indexOf(li.getAttribute("data-r")) >= 0 || li.id === t) li.classList.toggle("linked", on);
    });
  }

  function wireText(root) {
    root.querySelectorAll(".doc .seg").forEach(function (seg) {
      seg.addEventListener("mouseenter", function () { doc.body.classList.remove("tips-off"); place(seg); });
      seg.addEventListener("focus", function () { doc.body.classList.remove("tips-off"); place(seg); link(seg, true); });
      seg.addEventListener("blur", function () { link(seg, false); });
      seg.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          var target = doc.getElementById(seg.getAttribute("data-target"));
          if (target) {
            var more = target.querySelector("details.more");
            if (more) more.open = true;
            target.setAttribute("tabindex", "-1");
            target.focus();
            target.scrollIntoView({ block: "center" });
          }
        }
      });
    });
    // Hovering a unit outlines its words in the text.
    root.querySelectorAll(".unit").forEach(function (li) {
      function mark(on) {
        var r = li.getAttribute("data-r");
        var scope = li.closest("main, article") || doc;
        scope.querySelectorAll(".doc .seg").forEach(function (seg) {
          if (units(seg).indexOf(r) >= 0) seg.classList.toggle("linked", on);
        });
      }
      li.addEventListener("mouseenter", function () { mark(true); });
      li.addEventListener("mouseleave", function () { mark(false); });
    });
  }

  doc.addEventListener("keydown", function (e) {
    if (e.key === "Escape") doc.body.classList.add("tips-off");
  });

  // Sortable batch table: click (or Enter/Space on) a header; numbers sort numerically, blanks last.
  function wireSort(table) {
    var heads = table.querySelectorAll("thead th");
    heads.forEach(function (th, col) {
      th.querySelector("button").addEventListener("click", function () {
        var dir = th.getAttribute("aria-sort") === "ascending" ? "descending" : "ascending";
        heads.forEach(function (h) { h.setAttribute("aria-sort", "none"); });
        th.setAttribute("aria-sort", dir);
        var num = th.getAttribute("data-kind") === "num";
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = a.cells[col].getAttribute("data-sort"), y = b.cells[col].getAttribute("data-sort");
          if (num) {
            var fx = x === "" ? NaN : parseFloat(x), fy = y === "" ? NaN : parseFloat(y);
            if (isNaN(fx) || isNaN(fy)) return isNaN(fx) - isNaN(fy);
            return dir === "ascending" ? fx - fy : fy - fx;
          }
          var c = x.localeCompare(y);
          return dir === "ascending" ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  }

  wireText(doc);
  doc.querySelectorAll("table.sortable").forEach(wireSort);
  doc.documentElement.setAttribute("data-fg-ready", "1");
})();
