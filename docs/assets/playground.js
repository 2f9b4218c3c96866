/* The playground (docs/playground.md): chunks the text in the browser with the npm
 * package's browser build (global `chunkspec`) and draws them as `chunkspec view` does
 * (VIEW-2: the text once, cut at every record's start and end, offsets in code points). */
(function () {
  "use strict";
  var root = document.getElementById("chunkspec-playground");
  if (!root) { return; }
  var status = root.querySelector(".pg-status");
  if (typeof chunkspec === "undefined" || typeof chunkspec.chunkDocument !== "function") {
    status.textContent = "The playground needs the browser build of the npm package: " +
      "cd ports/typescript && npm ci && npm run build, then build the docs again.";
    return;
  }
  var input = root.querySelector("textarea");
  var strategy = root.querySelector("select");
  var budget = root.querySelector("input[type=number]");
  var drawn = root.querySelector(".pg-text");
  var facts = root.querySelector(".pg-facts");
  var panel = root.querySelector(".pg-panel");
  var records = [];

  function options() {
    var choice = strategy.value;
    var chosen = {docId: "playground", maxTokens: Number(budget.value)};
    if (choice === "chars") {
      chosen.strategy = "window";
      chosen.counter = "chars1";
    } else {
      chosen.strategy = choice;
    }
    return chosen;
  }

  function span(start, end, chunks, text) {
    var el = document.createElement("span");
    el.className = "seg " + (start === end ? "empty " : "") + (chunks.length === 0 ? "gap" :
      chunks.length > 1 ? "overlap" : "k" + (chunks[0] % 2));
    chunks.forEach(function (c) {
      if (records[c].oversized) { el.classList.add("oversized"); }
      var max = Number((/max_tokens=(\d+)/.exec(records[c].strategy) || [])[1]);
      if (max && 8 * records[c].tokens < max) { el.classList.add("crumb"); }
    });
    el.setAttribute("data-start", String(start));
    el.setAttribute("data-end", String(end));
    el.setAttribute("data-chunks", chunks.join(" "));
    el.textContent = text;
    return el;
  }

  function show(chunks) {
    while (panel.firstChild) { panel.removeChild(panel.firstChild); }
    if (!chunks.length) { panel.textContent = "This text is in no chunk."; }
    chunks.forEach(function (c) {
      var r = records[c];
      var box = document.createElement("div");
      box.className = "pg-chunk";
      var lines = [r.id + " (" + r.kind + ")", "tokens: " + r.tokens, "span: " + r.start + "-" + r.end];
      if (r.heading_path.length) { lines.push("heading path: " + r.heading_path.join(" > ")); }
      if (r.page_start !== null) { lines.push("pages: " + r.page_start + "-" + r.page_end); }
      if (r.parent_id !== null) { lines.push("parent: " + r.parent_id); }
      if (r.oversized) { lines.push("oversized"); }
      lines.forEach(function (line) {
        var p = document.createElement("div");
        p.textContent = line;
        box.appendChild(p);
      });
      panel.appendChild(box);
    });
  }

  function draw() {
    try {
      records = chunkspec.chunkDocument(input.value, options());
    } catch (error) {
      records = [];
      status.textContent = error.message;
      drawn.textContent = "";
      facts.textContent = "";
      root.setAttribute("data-ready", "error");
      return;
    }
    var points = Array.from(input.value);
    var cuts = [0, points.length];
    var empty = {};
    records.forEach(function (r, n) {
      cuts.push(r.start, r.end);
      if (r.start === r.end) { (empty[r.start] = empty[r.start] || []).push(n); }
    });
    cuts = cuts.filter(function (v, i, all) { return all.indexOf(v) === i; });
    cuts.sort(function (a, b) { return a - b; });
    var pieces = document.createDocumentFragment();
    for (var i = 0; i < cuts.length; i++) {
      var left = cuts[i];
      (empty[left] || []).forEach(function (n) { pieces.appendChild(span(left, left, [n], "")); });
      if (i === cuts.length - 1) { break; }
      var right = cuts[i + 1];
      var covering = [];
      records.forEach(function (r, n) { if (r.start <= left && right <= r.end) { covering.push(n); } });
      pieces.appendChild(span(left, right, covering, points.slice(left, right).join("")));
    }
    drawn.textContent = "";
    drawn.appendChild(pieces);
    var tokens = records.reduce(function (sum, r) { return sum + r.tokens; }, 0);
    var oversized = records.filter(function (r) { return r.oversized; }).length;
    facts.textContent = records.length + " chunks, " + tokens + " tokens, " + oversized +
      " oversized; strategy " + (records[0] ? records[0].strategy : options().strategy);
    status.textContent = "";
    root.setAttribute("data-ready", "true");
  }

  var pending = null;
  function later() {
    if (pending !== null) { clearTimeout(pending); }
    pending = setTimeout(function () { pending = null; draw(); }, 150);
  }
  input.addEventListener("input", later);
  strategy.addEventListener("change", draw);
  budget.addEventListener("input", later);
  drawn.addEventListener("mouseover", function (event) {
    var seg = event.target.closest(".seg");
    if (!seg) { return; }
    var value = seg.getAttribute("data-chunks");
    show(value ? value.split(" ").map(Number) : []);
  });
  draw();
})();
