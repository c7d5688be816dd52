// Injected by book/test.sh into a copy of a page that headless Chromium loads: measures the layout as laid out,
// then appends a report that `chromium --dump-dom` shows. One line per finding:
//   listings N / too-wide I W>C / outside I / image SRC WIDTH NATURAL / broken-image SRC / copy-buttons N /
//   contents open|closed HEIGHT / wrapped-lines N / results N
"use strict";
window.addEventListener("load", function () {
  setTimeout(function () {
    var lines = [], main = document.querySelector("main") || document.body, column = main.getBoundingClientRect();
    var pres = document.querySelectorAll("main pre");
    lines.push("listings " + pres.length);
    pres.forEach(function (pre, i) {
      // Sideways scrolling: the content is wider than the box. Sticking out: the box is wider than the text column.
      if (pre.scrollWidth > pre.clientWidth + 1) lines.push("too-wide " + i + " " + pre.scrollWidth + ">" + pre.clientWidth);
      var box = pre.getBoundingClientRect();
      if (box.right > column.right + 1 || box.right > window.innerWidth) lines.push("outside " + i + " " + Math.round(box.right));
    });
    // Wrapped: a listing's line (Pandoc gives each its span) taller than one line of its listing.
    var wrapped = 0;
    document.querySelectorAll("main pre > code.sourceCode > span").forEach(function (line) {
      var height = parseFloat(getComputedStyle(line.closest("pre")).lineHeight);
      if (height > 0 && line.getBoundingClientRect().height > 1.5 * height) wrapped++;
    });
    lines.push("wrapped-lines " + wrapped);
    if (document.documentElement.scrollWidth > window.innerWidth + 1) lines.push("page-too-wide " + document.documentElement.scrollWidth);
    document.querySelectorAll("main img").forEach(function (img) {
      var src = img.getAttribute("src").slice(0, 80);
      if (!img.complete || img.naturalWidth === 0) lines.push("broken-image " + src);
      else lines.push("image " + src + " " + Math.round(img.getBoundingClientRect().width) + " " + img.naturalWidth);
    });
    lines.push("copy-buttons " + document.querySelectorAll("button.copy").length);
    var contents = document.querySelector("nav.sidebar details.contents");
    if (contents) lines.push("contents " + (contents.open ? "open" : "closed") + " " + Math.round(contents.getBoundingClientRect().height));
    var results = document.querySelectorAll("#search-results li");
    lines.push("results " + results.length);
    var report = document.createElement("pre");
    report.id = "layout-report";
    report.textContent = "\n" + lines.join("\n") + "\n";
    document.body.appendChild(report);
  }, 200);
});
