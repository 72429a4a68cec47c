// The board wall: one stream for every game of the round; a game's tile is drawn again from the
// server after an event of that game, and its clocks tick here in between.
(function () {
  "use strict";
  var wall = document.getElementById("wall");
  if (!wall) return;
  var conn = document.querySelector(".conn");
  var tiles = {};
  wall.querySelectorAll(".tile").forEach(function (el) {
    tiles[el.getAttribute("data-game")] = { el: el, clocks: new window.GomokuClocks(el), loading: false, again: false };
  });
  function seqOf(tile) {
    var s = tile.el.querySelector(".game-status");
    return s ? +s.getAttribute("data-seq") : 0;
  }
  function redraw(tile) {
    if (tile.loading) { tile.again = true; return; }
    tile.loading = true;
    fetch(tile.el.getAttribute("data-tile"), { headers: { accept: "text/html" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) { if (html !== null) { tile.el.innerHTML = html; tile.clocks.read(); } })
      .catch(function () { conn.hidden = false; })
      .then(function () { tile.loading = false; if (tile.again) { tile.again = false; redraw(tile); } });
  }
  var live = Object.keys(tiles).some(function (id) {
    var s = tiles[id].el.querySelector(".game-status");
    return s && s.getAttribute("data-status") !== "finished";
  });
  if (!live) return;
  var stream = new EventSource(wall.getAttribute("data-stream"));
  stream.onopen = function () { conn.hidden = true; };
  stream.onerror = function () { conn.hidden = false; };
  // on (re)connecting: each game's last sequence number; a tile drawn from older data is redrawn
  stream.addEventListener("state", function (e) {
    var state = JSON.parse(e.data);
    Object.keys(state).forEach(function (id) { if (tiles[id] && state[id] > seqOf(tiles[id])) redraw(tiles[id]); });
  });
  stream.addEventListener("done", function () { stream.close(); });
  stream.addEventListener("clock", function (e) {
    var m = JSON.parse(e.data);
    if (tiles[m.game_id]) tiles[m.game_id].clocks.message(m);
  });
  wall.getAttribute("data-kinds").split(" ").forEach(function (kind) {
    stream.addEventListener(kind, function (e) {
      var m = JSON.parse(e.data), tile = tiles[m.game_id];
      if (tile && (m.seq === undefined || m.seq > seqOf(tile))) redraw(tile);
    });
  });
})();
