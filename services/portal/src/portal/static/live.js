// The live board: follows the game's event stream (relayed by the portal) and draws the board
// again from the server after each event; between events the running clock counts down here.
(function () {
  "use strict";
  var root = document.getElementById("live");
  if (!root) return;
  var wrap = document.getElementById("board-wrap");
  var conn = root.querySelector(".conn");
  var numbers = document.getElementById("numbers");
  var base = { black: 0, white: 0 }, running = null, since = 0, ticking = null;
  var loading = false, again = false;

  numbers.addEventListener("change", function () { root.classList.toggle("numbers", numbers.checked); });

  function fmt(ms) {
    var s = Math.max(0, Math.floor(ms / 1000)), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
    var pad = function (n) { return (n < 10 ? "0" : "") + n; };
    return (h ? h + ":" + pad(m) : m) + ":" + pad(s % 60);
  }
  function showClocks() {
    var spent = running ? Date.now() - since : 0;
    wrap.querySelectorAll(".clock").forEach(function (el) {
      var c = el.getAttribute("data-colour");
      el.querySelector(".time").textContent = fmt(base[c] - (c === running ? spent : 0));
      el.classList.toggle("running", c === running);
    });
  }
  function setClocks(black, white, run) {
    base.black = black; base.white = white; running = run || null; since = Date.now(); showClocks();
  }
  function readClocks() {
    var b = wrap.querySelector('.clock[data-colour="black"]'), w = wrap.querySelector('.clock[data-colour="white"]');
    var run = wrap.querySelector(".clock.running");
    if (b && w) setClocks(+b.getAttribute("data-ms"), +w.getAttribute("data-ms"), run && run.getAttribute("data-colour"));
  }
  function redraw() {
    if (loading) { again = true; return; }
    loading = true;
    fetch(root.getAttribute("data-board"), { headers: { accept: "text/html" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) { if (html !== null) { wrap.innerHTML = html; readClocks(); } })
      .catch(function () { conn.hidden = false; })
      .then(function () { loading = false; if (again) { again = false; redraw(); } });
  }

  readClocks();
  ticking = setInterval(showClocks, 250);
  var status = wrap.querySelector(".game-status");
  if (status && status.getAttribute("data-status") === "finished") { running = null; return; }

  var seq = status ? status.getAttribute("data-seq") : "0";
  var stream = new EventSource(root.getAttribute("data-stream") + "?since=" + encodeURIComponent(seq));
  stream.onopen = function () { conn.hidden = true; };
  stream.onerror = function () { conn.hidden = false; };
  stream.addEventListener("clock", function (e) {
    var m = JSON.parse(e.data), c = m.data && m.data.clocks;
    if (c) setClocks(c.black_ms, c.white_ms, m.data.status === "active" ? c.running : null);
  });
  root.getAttribute("data-kinds").split(" ").forEach(function (kind) {
    stream.addEventListener(kind, function () {
      redraw();
      if (kind === "finished") { stream.close(); running = null; }
    });
  });
})();
