-- Pandoc filter run on the whole book (every chapter, as chapter.lua left it): cuts out what one output shows.
--
-- Metadata `mode` says which output (build.sh sets it):
--   page    one chapter's page; `page` names it (01-allocation). Links to an anchor of another chapter
--           become links to that chapter's page; a sidebar with the whole contents (this chapter open)
--           and previous/next links go to the template (book/page.html).
--   index   the index page: the chapters, their first paragraph, the other editions.
--   search  the search page; and, with `search-out`, writes the search index (search-index.js) there.
--   one     the one-page edition: every chapter, the sidebar linking within the page.
--   epub    every chapter, nothing added (pandoc's EPUB writer makes its own contents).

local escapes = { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;" }
local function esc(s)
  return (s:gsub('[&<>"]', escapes))
end

local function str(value)
  return value and pandoc.utils.stringify(value) or nil
end

-- The book's chapters in order: { page, id, title, number (nil for an appendix), blocks, sections }.
local function chapters_of(blocks)
  local list, current, number = {}, nil, 0
  for _, block in ipairs(blocks) do
    if block.t == "Header" and block.level == 1 and block.attributes["page"] then
      local numbered = not block.classes:includes("unnumbered")
      if numbered then
        -- A lesson's chapter has its lesson's number (lesson 00 is chapter 0); others count on.
        number = tonumber(block.identifier:match("^lesson%-(%d+)$") or "") or number + 1
      end
      current = { page = block.attributes["page"], id = block.identifier, title = str(block.content),
        number = numbered and number or nil, blocks = {}, sections = {} }
      block.attributes["page"] = nil
      list[#list + 1] = current
    elseif block.t == "Header" and block.level == 2 and current then
      current.sections[#current.sections + 1] = { id = block.identifier, title = str(block.content),
        unnumbered = block.classes:includes("unnumbered") }
    end
    if current then
      current.blocks[#current.blocks + 1] = block
    end
  end
  return list
end

-- Every id of the book, mapped to the page that holds it.
local function id_pages(chapters)
  local map = {}
  local function note(page)
    return function(el)
      if el.identifier and el.identifier ~= "" then
        map[el.identifier] = page
      end
    end
  end
  for _, ch in ipairs(chapters) do
    local n = note(ch.page)
    pandoc.Div(ch.blocks):walk({ Header = n, Div = n, Span = n, CodeBlock = n, Image = n })
  end
  return map
end

-- Numbers the sections of every chapter as pandoc's --number-sections would (1, 1.1, 1.1.1; appendices
-- not), but from the chapter's own number (lesson 00 is 0), in every edition: pandoc's --number-sections
-- counts from 1, and 2.17's --number-offset, which would shift it, drops the headers' ids.
local function number_headers(chapters, epub)
  for _, ch in ipairs(chapters) do
    local counters = { ch.number or 0, 0, 0, 0, 0, 0 }
    for _, block in ipairs(ch.blocks) do
      if ch.number and block.t == "Header" and not block.classes:includes("unnumbered") then
        if block.level > 1 then
          counters[block.level] = counters[block.level] + 1
        end
        for deeper = block.level + 1, 6 do
          counters[deeper] = 0
        end
        local number = table.concat(counters, ".", 1, block.level)
        -- (The EPUB writer puts a data-number of its own on the section: a second one is invalid there.)
        if not epub then
          block.attributes["data-number"] = number
        end
        block.content:insert(1, pandoc.Space())
        block.content:insert(1, pandoc.Span(number, pandoc.Attr("", { "header-section-number" })))
      end
    end
  end
end

-- Links "#id" to an anchor on another page become "PAGE.html#id" ("PAGE.html" for a chapter's title).
local function relink(blocks, here, map, chapter_ids)
  return pandoc.Div(blocks):walk({ Link = function(link)
    local id = link.target:match("^#(.+)$")
    local page = id and map[id]
    if page and page ~= here then
      link.target = page .. ".html" .. (chapter_ids[id] and "" or "#" .. id)
      return link
    end
  end }).content
end

-- The sidebar: the book's title, the search box, the whole contents, the other editions.
-- `here` is the current page (its chapter open) or nil; `single` makes every link an anchor on this page.
local function sidebar(meta, chapters, here, single)
  local function href(page, id)
    if single then
      return "#" .. id
    end
    return page .. ".html" .. (id and "#" .. id or "")
  end
  local out = { '<nav class="sidebar" id="sidebar" aria-label="Contents">',
    '<a class="book-title" href="' .. (single and "#top" or "index.html") .. '">' .. esc(str(meta.title)) .. "</a>",
    '<form class="search-box" action="search.html" role="search"><input type="search" name="q" ' ..
    'placeholder="Search the book" aria-label="Search the book"></form>',
    -- Open unless a narrow screen's reader closes it (book.js closes it there, so that a phone shows the
    -- chapter first); the print edition and a browser without scripts show it whole.
    '<details class="contents" open><summary>Contents</summary>', '<ol class="toc">' }
  for _, ch in ipairs(chapters) do
    local current = ch.page == here
    local label = (ch.number and ('<span class="num">' .. ch.number .. "</span> ") or "") .. esc(ch.title)
    out[#out + 1] = "<li" .. (current and ' class="current"' or "") .. "><details" .. (current and " open" or "") ..
      "><summary><a href=\"" .. (single and "#" .. ch.id or href(ch.page)) .. '"' ..
      (current and ' aria-current="page"' or "") .. ">" .. label .. "</a></summary><ol>"
    local k = 0
    for _, s in ipairs(ch.sections) do
      local num = ""
      if ch.number and not s.unnumbered then
        k = k + 1
        num = '<span class="num">' .. ch.number .. "." .. k .. "</span> "
      end
      out[#out + 1] = '<li><a href="' .. href(ch.page, s.id) .. '">' .. num .. esc(s.title) .. "</a></li>"
    end
    out[#out + 1] = "</ol></details></li>"
  end
  -- The other editions, those this build writes (metadata `editions`, e.g. "epub pdf").
  local links = { single and '<a href="index.html">Pages</a>' or '<a href="workbook.html">One page</a>' }
  local editions = " " .. (str(meta.editions) or "") .. " "
  if editions:find(" epub ") then
    links[#links + 1] = '<a href="workbook.epub">EPUB</a>'
  end
  if editions:find(" pdf ") then
    links[#links + 1] = '<a href="workbook.pdf">PDF</a>'
  end
  out[#out + 1] = '</ol></details><p class="editions">' .. table.concat(links, " · ") .. "</p></nav>"
  return table.concat(out, "\n")
end

-- Previous and next links under a page.
local function pager(prev, next)
  local out = { '<nav class="pager" aria-label="Previous and next">' }
  if prev then
    out[#out + 1] = '<a class="prev" rel="prev" href="' .. prev.href .. '"><span>Previous</span> ' .. esc(prev.title) .. "</a>"
  end
  if next then
    out[#out + 1] = '<a class="next" rel="next" href="' .. next.href .. '"><span>Next</span> ' .. esc(next.title) .. "</a>"
  end
  out[#out + 1] = "</nav>"
  return table.concat(out, "\n")
end

local function label(ch)
  return (ch.number and (ch.number .. " ") or "") .. ch.title
end

-- "Also as one page, EPUB and PDF.": the other editions this build writes.
local function editions_para(meta)
  local links = { pandoc.Link("one page", "workbook.html") }
  local editions = " " .. (str(meta.editions) or "") .. " "
  if editions:find(" epub ") then
    links[#links + 1] = pandoc.Link("EPUB", "workbook.epub")
  end
  if editions:find(" pdf ") then
    links[#links + 1] = pandoc.Link("PDF", "workbook.pdf")
  end
  local inlines = { pandoc.Str("Also as ") }
  for i, link in ipairs(links) do
    inlines[#inlines + 1] = link
    if i < #links then
      inlines[#inlines + 1] = pandoc.Str(i == #links - 1 and " and " or ", ")
    end
  end
  inlines[#inlines + 1] = pandoc.Str(".")
  return inlines
end

-- The index page: every chapter with its first paragraph.
local function index_blocks(meta, chapters)
  local items = {}
  for _, ch in ipairs(chapters) do
    local item = { pandoc.Plain({ pandoc.Link(label(ch), ch.page .. ".html") }) }
    for _, block in ipairs(ch.blocks) do
      if block.t == "Para" then
        item[#item + 1] = block
        break
      end
    end
    items[#items + 1] = item
  end
  return {
    pandoc.Header(1, { pandoc.Str(str(meta.title)) }, pandoc.Attr("top")),
    pandoc.Para({ pandoc.Emph({ pandoc.Str(str(meta.subtitle or "")) }) }),
    pandoc.Div({ pandoc.BulletList(items) }, pandoc.Attr("", { "chapters" })),
    pandoc.Para(editions_para(meta)),
  }
end

-- JSON string literal (the search index is written by this filter: pandoc 2.17's Lua has no JSON module).
local function json(s)
  return '"' .. s:gsub('[%c"\\]', function(c)
    local named = { ['"'] = '\\"', ["\\"] = "\\\\", ["\n"] = "\\n", ["\t"] = "\\t" }
    return named[c] or string.format("\\u%04x", c:byte())
  end) .. '"'
end

-- The search index: one entry per section (and per chapter's opening), with its text.
local function write_search_index(path, chapters)
  local entries = {}
  for _, ch in ipairs(chapters) do
    local title, id, text = label(ch), ch.id, {}
    local function flush()
      entries[#entries + 1] = "{" .. table.concat({ '"chapter":' .. json(label(ch)), '"title":' .. json(title),
        '"url":' .. json(ch.page .. ".html" .. (id == ch.id and "" or "#" .. id)),
        '"text":' .. json(table.concat(text, " ")) }, ",") .. "}"
    end
    for i, block in ipairs(ch.blocks) do
      if block.t == "Header" and block.level == 2 then
        flush()
        title, id, text = str(block.content), block.identifier, {}
      elseif i > 1 then
        -- The plain-text writer keeps the spaces between a table's cells, which stringify loses; its rules
        -- (lines of dashes) are dropped, so that a snippet shows the cells, not the table's drawing.
        local plain = block.t == "CodeBlock" and block.text or
          ("\n" .. pandoc.write(pandoc.Pandoc({ block }), "plain")):gsub("\n[ \t%-=+:|]*%-[ \t%-=+:|]*\n", "\n"):gsub("\n[ \t%-=+:|]*%-[ \t%-=+:|]*\n", "\n")
        text[#text + 1] = plain
      end
    end
    flush()
  end
  local f = assert(io.open(path, "w"))
  -- A script, not a bare .json file: a page opened from disk (file://) may not fetch() a file beside it.
  f:write("// The book's search index, written by book/pages.lua at `make book`; read by book.js.\n",
    "var BOOK_SEARCH_INDEX = [\n", table.concat(entries, ",\n"), "\n];\n")
  f:close()
end

function Pandoc(doc)
  local mode = str(doc.meta.mode) or error("book: pages.lua needs metadata mode=page|index|search|one|epub")
  local chapters = chapters_of(doc.blocks)
  local map, chapter_ids = id_pages(chapters), {}
  for _, ch in ipairs(chapters) do
    chapter_ids[ch.id] = true
  end
  local meta = doc.meta
  local function raw(html)
    return { pandoc.RawBlock("html", html) }
  end
  if mode == "epub" then
    number_headers(chapters, true)
    return pandoc.Pandoc(doc.blocks, meta)
  end
  if mode == "one" then
    number_headers(chapters)
    meta.sidebar = raw(sidebar(meta, chapters, nil, true))
    return pandoc.Pandoc(doc.blocks, meta)
  end

  -- The pages in reading order: index, chapters; the search page stands outside it.
  local order = { { page = "index", title = "Contents", href = "index.html" } }
  for _, ch in ipairs(chapters) do
    order[#order + 1] = { page = ch.page, title = label(ch), href = ch.page .. ".html", chapter = ch }
  end
  local here = mode == "page" and str(meta.page) or mode
  local blocks
  if mode == "index" then
    blocks = index_blocks(meta, chapters)
  elseif mode == "search" then
    if meta["search-out"] then
      write_search_index(str(meta["search-out"]), chapters)
    end
    blocks = { pandoc.Header(1, { pandoc.Str("Search") }, pandoc.Attr("search")),
      pandoc.RawBlock("html", '<div id="search-results" aria-live="polite"><noscript>Searching needs JavaScript; ' ..
        'the <a href="index.html">contents</a> and the <a href="workbook.html">one-page edition</a> work without it.' ..
        "</noscript></div>") }
    meta["search-page"] = true
  elseif mode ~= "page" then
    error("book: pages.lua: unknown mode " .. mode)
  end
  local position
  for i, p in ipairs(order) do
    if p.page == here then
      position = i
    end
  end
  if mode == "page" then
    number_headers(chapters)
    if not position then
      error("book: pages.lua: no chapter has page " .. tostring(here))
    end
    blocks = order[position].chapter.blocks
  end
  meta.pagetitle = (position and position > 1) and (order[position].title .. " · " .. str(meta.title)) or
    (mode == "search" and "Search · " .. str(meta.title)) or str(meta.title)
  meta.sidebar = raw(sidebar(meta, chapters, here, false))
  if position then
    meta.pager = raw(pager(order[position - 1], order[position + 1]))
  end
  return pandoc.Pandoc(relink(blocks, here, map, chapter_ids), meta)
end
