// Issue 34: the roster page's quota counter: players with a name and no exemption claim, of the
// delegation's quota, counted again as the roster fills (the server judges the claims).
(function () {
  var counter = document.getElementById("quota");
  if (!counter) return;
  var limit = parseInt(counter.getAttribute("data-limit"), 10);
  var template = counter.textContent.replace(/\d+\s*\/\s*\d+/, "{n} / {limit}");
  function count() {
    var n = 0;
    document.querySelectorAll("fieldset.person").forEach(function (row) {
      var role = row.querySelector("select.role");
      var name = row.querySelector("input.name");
      var exempt = row.querySelector("input.exempt");
      var removed = row.querySelector("input[type=checkbox]");
      if (role && role.value === "player" && name && name.value.trim() && !(exempt && exempt.value.trim()) && !(removed && removed.checked)) n++;
    });
    counter.textContent = template.replace("{n}", n).replace("{limit}", limit);
    counter.classList.toggle("over", n > limit);
  }
  document.addEventListener("input", count);
  document.addEventListener("change", count);
  count();
})();
