// Game replay: shows the position after any ply by hiding the stones played later (every stone
// is on the page with its ply; class "later" hides one, so the page needs no inline style);
// buttons, the slider, the number box, the move list and the arrow keys.
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root) return;
  var total = +root.getAttribute("data-total"), ply = +root.getAttribute("data-ply");
  // the winning five (.win-five) is shown from its ply on, like a stone
  var stones = root.querySelectorAll(".stone, .win-five"), range = document.getElementById("ply-range");
  var box = document.getElementById("ply"), shown = document.getElementById("ply-shown");
  var numbers = document.getElementById("numbers");
  function go(n) {
    ply = Math.max(0, Math.min(total, n));
    stones.forEach(function (s) {
      var p = +s.getAttribute("data-ply");
      s.classList.toggle("later", p > ply);
      s.classList.toggle("last", p === ply);
    });
    range.value = ply; box.value = ply; shown.textContent = ply;
    root.querySelectorAll(".plies a").forEach(function (a) { a.classList.toggle("on", +a.getAttribute("data-ply") === ply); });
    history.replaceState(null, "", "?ply=" + ply);
  }
  var steps = { first: function () { return 0; }, prev: function () { return ply - 1; },
                next: function () { return ply + 1; }, last: function () { return total; } };
  root.querySelectorAll("[data-step]").forEach(function (a) {
    a.addEventListener("click", function (e) { e.preventDefault(); go(steps[a.getAttribute("data-step")]()); });
  });
  root.querySelectorAll(".plies a").forEach(function (a) {
    a.addEventListener("click", function (e) { e.preventDefault(); go(+a.getAttribute("data-ply")); });
  });
  range.addEventListener("input", function () { go(+range.value); });
  box.addEventListener("change", function () { go(+box.value); });
  root.querySelector("form").addEventListener("submit", function (e) { e.preventDefault(); go(+box.value); });
  numbers.addEventListener("change", function () { root.classList.toggle("numbers", numbers.checked); });
  document.addEventListener("keydown", function (e) {
    if (e.target.tagName === "INPUT") return;
    if (e.key === "ArrowLeft") go(ply - 1);
    if (e.key === "ArrowRight") go(ply + 1);
  });
  go(ply);
})();
