// Clocks that tick between the server's messages: each board keeps the times it was last told
// and counts the running side down locally; one timer for every board on the page.
(function () {
  "use strict";
  var boards = [];
  function fmt(ms) {
    var s = Math.max(0, Math.floor(ms / 1000)), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
    var pad = function (n) { return (n < 10 ? "0" : "") + n; };
    return (h ? h + ":" + pad(m) : m) + ":" + pad(s % 60);
  }
  function Clocks(el) {
    this.el = el; this.base = { black: 0, white: 0 }; this.running = null; this.since = Date.now();
    boards.push(this);
    this.read();
  }
  Clocks.prototype.set = function (black, white, running) {
    this.base.black = black; this.base.white = white; this.running = running || null; this.since = Date.now();
    this.show();
  };
  Clocks.prototype.read = function () {
    var b = this.el.querySelector('.clock[data-colour="black"]'), w = this.el.querySelector('.clock[data-colour="white"]');
    var run = this.el.querySelector(".clock.running");
    var status = this.el.querySelector(".game-status");
    var over = status && status.getAttribute("data-status") !== "active";
    if (b && w) this.set(+b.getAttribute("data-ms"), +w.getAttribute("data-ms"), over ? null : run && run.getAttribute("data-colour"));
  };
  Clocks.prototype.show = function () {
    var spent = this.running ? Date.now() - this.since : 0, self = this;
    this.el.querySelectorAll(".clock").forEach(function (el) {
      var c = el.getAttribute("data-colour");
      el.querySelector(".time").textContent = fmt(self.base[c] - (c === self.running ? spent : 0));
      el.classList.toggle("running", c === self.running);
    });
  };
  // a "clock" message of the stream: the times as of now
  Clocks.prototype.message = function (m) {
    var c = m.data && m.data.clocks;
    if (c) this.set(c.black_ms, c.white_ms, m.data.status === "active" ? c.running : null);
  };
  setInterval(function () { boards.forEach(function (b) { b.show(); }); }, 250);
  window.GomokuClocks = Clocks;
})();
