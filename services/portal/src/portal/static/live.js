// The live board: follows the game's event stream (fanned out by the portal) and draws the board
// again from the server after each event; between events the running clock counts down here.
(function () {
  "use strict";
  var root = document.getElementById("live");
  if (!root) return;
  var wrap = document.getElementById("board-wrap");
  var conn = root.querySelector(".conn");
  var numbers = document.getElementById("numbers");
  var clocks = new window.GomokuClocks(wrap);
  var loading = false, again = false;

  function showNumbers() { root.classList.toggle("numbers", numbers.checked); }
  numbers.addEventListener("change", showNumbers);
  showNumbers();

  function redraw() {
    if (loading) { again = true; return; }
    loading = true;
    fetch(root.getAttribute("data-board"), { headers: { accept: "text/html" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) { if (html !== null) { wrap.innerHTML = html; clocks.read(); } })
      .catch(function () { conn.hidden = false; })
      .then(function () { loading = false; if (again) { again = false; redraw(); } });
  }

  var status = wrap.querySelector(".game-status");
  if (status && status.getAttribute("data-status") === "finished") return;

  var seq = status ? status.getAttribute("data-seq") : "0";
  var stream = new EventSource(root.getAttribute("data-stream") + "?since=" + encodeURIComponent(seq));
  stream.onopen = function () { conn.hidden = true; };
  stream.onerror = function () { if (stream.readyState !== 2) conn.hidden = false; };
  stream.addEventListener("clock", function (e) { clocks.message(JSON.parse(e.data)); });
  root.getAttribute("data-kinds").split(" ").forEach(function (kind) {
    stream.addEventListener(kind, function () {
      redraw();
      if (kind === "finished") stream.close();
    });
  });
})();
