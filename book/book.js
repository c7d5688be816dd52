// The book's script (HTML pages and one-page edition): copy buttons on listings, search, the current chapter in view.
// Plain JavaScript, nothing fetched: the pages work opened from disk (file://) and offline.
"use strict";

// A "Copy" button on every listing: copies the code as the file has it.
function addCopyButtons() {
  document.querySelectorAll("main pre").forEach(function (pre) {
    var box = pre.closest("div.sourceCode");
    if (!box) { // a listing pandoc did not highlight: give it the same box
      box = document.createElement("div");
      box.className = "sourceCode";
      pre.parentNode.insertBefore(box, pre);
      box.appendChild(pre);
    }
    if (box.querySelector("button.copy")) return;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "copy";
    button.textContent = "Copy";
    button.setAttribute("aria-label", "Copy this listing");
    button.addEventListener("click", function () {
      var text = pre.textContent;
      var done = function () {
        button.textContent = "Copied";
        setTimeout(function () { button.textContent = "Copy"; }, 1500);
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, function () { copyBySelection(text); done(); });
      } else {
        copyBySelection(text);
        done();
      }
    });
    box.appendChild(button);
  });
}

// The old way, for pages where the clipboard API is refused.
function copyBySelection(text) {
  var area = document.createElement("textarea");
  area.value = text;
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  try { document.execCommand("copy"); } catch (e) { /* nothing more to try */ }
  document.body.removeChild(area);
}

// Search page: every word of the query must appear; title matches rank first.
function search(query) {
  var results = document.getElementById("search-results");
  var words = query.toLowerCase().split(/\s+/).filter(function (w) { return w.length > 0; });
  results.textContent = "";
  if (words.length === 0) {
    results.appendChild(paragraph("Type a word or a CUDA call, e.g. cudaMemcpy."));
    return;
  }
  var hits = [];
  BOOK_SEARCH_INDEX.forEach(function (entry) {
    var title = entry.title.toLowerCase(), text = entry.text.toLowerCase(), score = 0;
    for (var i = 0; i < words.length; i++) {
      var inTitle = title.indexOf(words[i]) >= 0, inText = text.indexOf(words[i]) >= 0;
      if (!inTitle && !inText) return;
      score += (inTitle ? 10 : 0) + (inText ? 1 : 0);
    }
    hits.push({ entry: entry, score: score });
  });
  hits.sort(function (a, b) { return b.score - a.score; });
  results.appendChild(paragraph(hits.length + (hits.length === 1 ? " section" : " sections") + " match “" + query + "”."));
  var list = document.createElement("ol");
  hits.slice(0, 50).forEach(function (hit) {
    var item = document.createElement("li"), link = document.createElement("a");
    link.href = hit.entry.url;
    link.textContent = hit.entry.title;
    item.appendChild(link);
    var where = document.createElement("div");
    where.className = "where";
    where.textContent = hit.entry.chapter;
    item.appendChild(where);
    item.appendChild(snippet(hit.entry.text, words[0]));
    list.appendChild(item);
  });
  results.appendChild(list);
}

function paragraph(text) {
  var p = document.createElement("p");
  p.textContent = text;
  return p;
}

// The text around the first match of WORD, the match marked.
function snippet(text, word) {
  var at = text.toLowerCase().indexOf(word), p = document.createElement("div");
  if (at < 0) { p.textContent = text.slice(0, 160) + "…"; return p; }
  var start = Math.max(0, at - 70);
  p.appendChild(document.createTextNode((start > 0 ? "…" : "") + text.slice(start, at)));
  var mark = document.createElement("mark");
  mark.textContent = text.slice(at, at + word.length);
  p.appendChild(mark);
  p.appendChild(document.createTextNode(text.slice(at + word.length, at + word.length + 90) + "…"));
  return p;
}

function startSearch() {
  var results = document.getElementById("search-results");
  if (!results || typeof BOOK_SEARCH_INDEX === "undefined") return;
  var input = document.querySelector("form.search-box input");
  var query = new URLSearchParams(window.location.search).get("q") || "";
  input.value = query;
  input.addEventListener("input", function () { search(input.value); });
  search(query);
}

function showCurrentChapter() {
  var current = document.querySelector("nav.sidebar li.current");
  if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
}

// On a narrow screen the contents start closed, behind their summary, so that the chapter comes first;
// widened again, they open.
function collapseContentsWhenNarrow() {
  var contents = document.querySelector("nav.sidebar details.contents");
  if (!contents || !window.matchMedia) return;
  var narrow = window.matchMedia("(max-width: 60rem)");
  var apply = function () { contents.open = !narrow.matches; };
  apply();
  if (narrow.addEventListener) narrow.addEventListener("change", apply);
}

document.addEventListener("DOMContentLoaded", function () {
  collapseContentsWhenNarrow();
  addCopyButtons();
  startSearch();
  showCurrentChapter();
});
