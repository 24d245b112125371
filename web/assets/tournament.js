// Chimera's tournament page: follows the tournament live. Each server-sent event of
// /t/{key}/live is (as a JSON string) the HTML of the page's changing part (standings, crosstable, bracket,
// rounds), drawn and escaped on the server; it replaces that part. Once the tournament is
// over the stream is closed. Without this script the page is whole; reloading shows the latest.
"use strict";
(function () {
  var part = document.getElementById("tournament-live");
  if (!part || !window.EventSource) return;
  var address = part.getAttribute("data-live");
  if (!address) return;
  var source = new EventSource(address);
  source.onmessage = function (event) {
    part.innerHTML = JSON.parse(event.data);
    if (part.querySelector("[data-over]")) source.close();
  };
})();
