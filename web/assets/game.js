// Chimera's game page: steps through the moves in place (click, ←/→, Home/End), flips the
// board, counts the running clock down and follows the game live (server-sent events).
// Without this script the page still shows the position; its links do the same by address.
"use strict";
(function () {
  var blob = document.getElementById("game-data");
  var board = document.getElementById("board");
  if (!blob || !board) return;
  var data = JSON.parse(blob.textContent);
  var state = data.state;
  var ply = data.ply;
  var flip = data.flip;
  var received = Date.now();
  var FILES = "abcdefghijklmnopqrstuvwxyz";

  function last() { return state.moves.length; }
  function fenAt(n) { return n === 0 ? state.start : state.moves[n - 1].fen; }

  // The FEN's placement as rows of letters or nulls, the top rank first.
  function placement(fen) {
    var rows = fen.split(" ")[0].replace(/[\[\]]+$/, "").split("/");
    return rows.map(function (row) {
      var out = [], run = "";
      for (var i = 0; i < row.length; i++) {
        var c = row[i];
        if (c >= "0" && c <= "9") { run += c; continue; }
        if (run) { for (var k = 0; k < +run; k++) out.push(null); run = ""; }
        out.push(c);
      }
      if (run) { for (var j = 0; j < +run; j++) out.push(null); }
      return out;
    });
  }

  // The squares a coordinate move starts and ends on (a Grolman chain's lead move only).
  function moveSquares(coord) {
    var m = /^([a-z])(\d+)([a-z])(\d+)/.exec(coord || "");
    return m ? [m[1] + m[2], m[3] + m[4]] : [];
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function altText(fen) {
    var turn = fen.split(" ")[1] === "b" ? "Black" : "White";
    return turn + " to move. FEN: " + fen;
  }

  function drawBoard() {
    var fen = fenAt(ply);
    var rows = placement(fen);
    var marked = ply > 0 ? moveSquares(state.moves[ply - 1].coord) : [];
    var ranks = [], files = [];
    for (var r = data.ranks - 1; r >= 0; r--) ranks.push(r);
    for (var f = 0; f < data.files; f++) files.push(f);
    if (flip) { ranks.reverse(); files.reverse(); }
    var squares = document.createDocumentFragment();
    ranks.forEach(function (rank, row) {
      files.forEach(function (file, col) {
        var name = FILES[file] + (rank + 1);
        var light = (file + rank) % 2 === 1;
        var sq = el("div", "sq " + (light ? "light" : "dark") + (marked.indexOf(name) >= 0 ? " last" : ""));
        var letter = (rows[data.ranks - 1 - rank] || [])[file];
        if (letter && data.pieces[letter]) {
          var img = el("img");
          img.src = data.pieces[letter];
          img.alt = "";
          sq.appendChild(img);
        }
        if (col === 0) sq.appendChild(el("span", "coord rank", String(rank + 1)));
        if (row === ranks.length - 1) sq.appendChild(el("span", "coord file", FILES[file]));
        squares.appendChild(sq);
      });
    });
    board.replaceChildren(squares);
    board.setAttribute("aria-label", altText(fen));
    var alt = document.getElementById("board-alt");
    if (alt) alt.textContent = altText(fen);
  }

  function drawPlayers() {
    var area = board.parentNode;
    var white = area.querySelector('.player[data-color="white"]');
    var black = area.querySelector('.player[data-color="black"]');
    if (!white || !black) return;
    var top = flip ? white : black, bottom = flip ? black : white;
    area.insertBefore(top, board);
    area.insertBefore(bottom, board.nextSibling);
  }

  function href(n, f) { return "?ply=" + n + (f ? "&flip=1" : ""); }

  function drawMoves() {
    var list = document.getElementById("moves");
    if (!list) return;
    var items = document.createDocumentFragment(), li = null;
    state.moves.forEach(function (m, i) {
      if (i % 2 === 0) { li = el("li"); items.appendChild(li); }
      var a = el("a", "ply", m.san);
      a.href = href(i + 1, flip);
      a.setAttribute("data-ply", String(i + 1));
      li.appendChild(a);
    });
    list.replaceChildren(items);
    var none = document.getElementById("no-moves");
    if (none) none.hidden = state.moves.length > 0;
    var outcome = document.getElementById("outcome");
    if (outcome) { outcome.textContent = state.outcome || ""; outcome.hidden = !state.outcome; }
  }

  function markCurrent() {
    var list = document.getElementById("moves");
    if (!list) return;
    var current = null;
    list.querySelectorAll("a.ply").forEach(function (a) {
      var on = +a.getAttribute("data-ply") === ply;
      a.classList.toggle("current", on);
      if (on) current = a;
    });
    if (current && list.scrollHeight > list.clientHeight) {
      list.scrollTop = current.offsetTop - list.offsetTop - list.clientHeight / 2;
    }
    var links = { first: 0, prev: Math.max(ply - 1, 0), next: Math.min(ply + 1, last()), last: last() };
    Object.keys(links).forEach(function (id) {
      var a = document.getElementById(id);
      if (a) a.href = href(links[id], flip);
    });
    var flipLink = document.getElementById("flip");
    if (flipLink) flipLink.href = href(ply, !flip);
  }

  function go(n) {
    ply = Math.max(0, Math.min(n, last()));
    drawBoard();
    markCurrent();
    markGraph();
    history.replaceState(null, "", ply === last() && !flip ? location.pathname : href(ply, flip));
  }

  // An analysed game's graph (drawn by the server, 600 units wide): its line follows the ply.
  function markGraph() {
    var line = document.querySelector(".graph .shown");
    if (!line || last() === 0) return;
    var x = String(600 * ply / last());
    line.setAttribute("x1", x);
    line.setAttribute("x2", x);
  }

  function clockText(ms) {
    ms = Math.max(0, ms);
    var s = Math.floor(ms / 1000);
    function two(n) { return (n < 10 ? "0" : "") + n; }
    if (s >= 86400) return Math.floor(s / 86400) + "d " + two(Math.floor((s % 86400) / 3600)) + "h";
    if (s >= 3600) return Math.floor(s / 3600) + ":" + two(Math.floor((s % 3600) / 60)) + ":" + two(s % 60);
    if (s >= 10) return Math.floor(s / 60) + ":" + two(s % 60);
    return "0:" + two(s) + "." + Math.floor((ms % 1000) / 100);
  }

  function drawClocks() {
    var clock = state.clock;
    if (!clock) return;
    ["white", "black"].forEach(function (color) {
      var span = document.querySelector('.clock[data-color="' + color + '"]');
      if (!span) return;
      var running = clock.running === color;
      span.textContent = clockText(clock[color] - (running ? Date.now() - received : 0));
      span.classList.toggle("running", running);
    });
  }

  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("a");
    if (!a || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (a.hasAttribute("data-ply")) { e.preventDefault(); go(+a.getAttribute("data-ply")); return; }
    switch (a.id) {
      case "first": e.preventDefault(); go(0); break;
      case "prev": e.preventDefault(); go(ply - 1); break;
      case "next": e.preventDefault(); go(ply + 1); break;
      case "last": e.preventDefault(); go(last()); break;
      case "flip": e.preventDefault(); flip = !flip; drawPlayers(); go(ply); break;
    }
  });

  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var target = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: last() }[e.key];
    if (target === undefined) return;
    e.preventDefault();
    go(target);
  });

  function follow() {
    if (state.status !== "active" || !window.EventSource) return;
    var source = new EventSource(data.live);
    // Says on the page whether it follows the game (for styles, and for the browser tests).
    source.onopen = function () { document.documentElement.setAttribute("data-live", "open"); };
    source.onerror = function () { document.documentElement.setAttribute("data-live", "retrying"); };
    source.onmessage = function (e) {
      var next;
      try { next = JSON.parse(e.data); } catch (err) { return; }
      if (!next) return;
      var following = ply === last();
      state = next;
      received = Date.now();
      drawMoves();
      go(following ? last() : Math.min(ply, last()));
      drawClocks();
      if (state.status !== "active") source.close();
    };
  }

  drawPlayers();
  drawBoard();
  markCurrent();
  drawClocks();
  setInterval(drawClocks, 100);
  follow();
})();
