-- Pandoc filter run on each chapter alone (after include-code.lua): makes its anchors unique across the book.
--
-- Chapters 2-4 each have a "Your task" section; rendered together, pandoc would give all four the id
-- "your-task" and every contents link would jump to chapter 1's. So every id inside a chapter gets the
-- chapter's own id as prefix ("your-task" in {#lesson-02} becomes "lesson-02-your-task"), and the
-- chapter's links to its own anchors follow. The chapter's title keeps its id (other chapters link to it).
--
-- Also:
-- * what comes before the chapter's title is dropped: the raw file's note on where to read it rendered;
-- * the title is tagged with the page it will be (metadata `page`, e.g. 01-allocation), for pages.lua;
-- * with metadata `appendix` set, every header is unnumbered (appendices are not numbered chapters).

local page, appendix, prefix

local function meta_string(value)
  return value and pandoc.utils.stringify(value) or nil
end

-- The ids this chapter defines before prefixing, so that only links to them are rewritten.
local own = {}

local function rename(id)
  if id == nil or id == "" or id == prefix then
    return id
  end
  return prefix .. "-" .. id
end

local function collect(el)
  if el.identifier and el.identifier ~= "" then
    own[el.identifier] = true
  end
end

local function prefix_id(el)
  if el.identifier and el.identifier ~= "" and el.identifier ~= prefix then
    el.identifier = rename(el.identifier)
    return el
  end
end

local function prefix_link(link)
  local target = link.target:match("^#(.+)$")
  if target and own[target] and target ~= prefix then
    link.target = "#" .. rename(target)
    return link
  end
end

function Pandoc(doc)
  page = meta_string(doc.meta.page) or error("book: chapter.lua needs metadata page=NAME")
  appendix = doc.meta.appendix ~= nil
  -- Drop what precedes the title; the title's id (given or pandoc's) is the chapter's prefix.
  local first
  for i, block in ipairs(doc.blocks) do
    if block.t == "Header" and block.level == 1 then
      first = i
      break
    end
  end
  if not first then
    error("book: " .. page .. ": the chapter has no title (a level-1 header)", 0)
  end
  local blocks = {}
  for i = first, #doc.blocks do
    blocks[#blocks + 1] = doc.blocks[i]
  end
  local title = blocks[1]
  prefix = title.identifier ~= "" and title.identifier or page
  title.identifier = prefix
  for i = 2, #blocks do
    if blocks[i].t == "Header" and blocks[i].level == 1 then
      error("book: " .. page .. ": one chapter per file (a second level-1 header: " ..
        pandoc.utils.stringify(blocks[i].content) .. ")", 0)
    end
  end
  title.attributes["page"] = page
  doc.blocks = blocks

  local walker = { Header = collect, Div = collect, Span = collect, CodeBlock = collect, Image = collect }
  doc = doc:walk(walker)
  doc = doc:walk({ Header = prefix_id, Div = prefix_id, Span = prefix_id, CodeBlock = prefix_id,
    Image = prefix_id, Link = prefix_link })
  if appendix then
    doc = doc:walk({ Header = function(h)
      h.classes:insert("unnumbered")
      return h
    end })
  end
  return doc
end
