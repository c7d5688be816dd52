-- Pandoc filter: replaces a code block {include="FILE" region="NAME"} with that region of the real, tested FILE.
--
-- In a chapter:
--
--   ```{.cuda include="solutions/01-allocation/alloc.cu" region="allocate"}
--   ```
--
-- shows the lines between `// region: allocate` and `// end region: allocate` of that file (the
-- marker lines themselves left out, and any other region's markers inside it too), with their common
-- leading indentation removed. Without `region`, the whole file is shown. FILE is relative to the
-- repository root (in the committed tree book/build.sh staged, BOOK_SOURCE). Markers may also start with
-- `#` (shell, Make).
--
-- A missing file, a missing or unterminated region, a region named twice or an empty one stops the
-- build: a listing that silently went stale would teach code the grader no longer runs.

-- The tree FILE is read from: BOOK_SOURCE, where book/build.sh staged the committed files; else the repository
-- root, the folder above book/ ("." when run as book/include-code.lua from the root).
local root = os.getenv("BOOK_SOURCE") or (PANDOC_SCRIPT_FILE and PANDOC_SCRIPT_FILE:match("^(.*)/[^/]+/[^/]+$")) or "."

-- The chapter being rendered, for error messages (build.sh renders one chapter per pandoc run).
local function chapter()
  local files = PANDOC_STATE.input_files
  if files and #files > 0 then
    return table.concat(files, ", ")
  end
  return "(standard input)"
end

local function fail(fmt, ...)
  error("book: " .. chapter() .. ": " .. string.format(fmt, ...), 0)
end

-- The name of the region a marker line opens or closes, and whether it is an end marker; nil otherwise.
local function marker(line)
  local name = line:match("^%s*//%s*end region:%s*(%S+)%s*$") or line:match("^%s*#%s*end region:%s*(%S+)%s*$")
  if name then
    return name, true
  end
  name = line:match("^%s*//%s*region:%s*(%S+)%s*$") or line:match("^%s*#%s*region:%s*(%S+)%s*$")
  if name then
    return name, false
  end
  return nil
end

local function read_lines(path)
  local f = io.open(root .. "/" .. path, "r")
  if not f then
    return nil
  end
  local lines = {}
  for line in f:lines() do
    lines[#lines + 1] = line
  end
  f:close()
  return lines
end

-- The lines of region `name` (nil: the whole file), marker lines left out.
local function region_lines(lines, path, name)
  local out, inside, seen, closed = {}, name == nil, false, false
  for _, line in ipairs(lines) do
    local m, is_end = marker(line)
    if m then
      if name and m == name and not is_end then
        if seen then
          fail('%s has region "%s" twice', path, name)
        end
        seen, inside = true, true
      elseif name and m == name and is_end then
        if not inside then
          fail('%s ends region "%s" before it starts', path, name)
        end
        inside, closed = false, true
      end
    elseif inside then
      out[#out + 1] = line
    end
  end
  if name and not seen then
    fail('%s has no region "%s" (no line "// region: %s")', path, name, name)
  end
  if name and not closed then
    fail('%s: region "%s" never ends (no line "// end region: %s")', path, name, name)
  end
  return out
end

-- Removes the indentation every non-blank line shares, and blank lines at either end.
local function dedent(lines)
  local common
  for _, line in ipairs(lines) do
    if line:find("%S") then
      local indent = line:match("^[ \t]*")
      if common == nil or #indent < #common then
        common = indent
      end
    end
  end
  local out = {}
  for _, line in ipairs(lines) do
    if common and line:sub(1, #common) == common then
      line = line:sub(#common + 1)
    end
    out[#out + 1] = line:match("^%s*$") and "" or line
  end
  while #out > 0 and out[1] == "" do
    table.remove(out, 1)
  end
  while #out > 0 and out[#out] == "" do
    table.remove(out)
  end
  return out
end

function CodeBlock(block)
  local path = block.attributes["include"]
  if path == nil then
    return nil
  end
  local name = block.attributes["region"]
  if path == "" then
    fail("a code block has an empty include attribute")
  end
  if name == "" then
    fail('code block including %s has an empty region attribute', path)
  end
  local lines = read_lines(path)
  if lines == nil then
    if name then
      fail('cannot include region "%s" of %s: no such file (paths are relative to the repository root)', name, path)
    end
    fail("cannot include %s: no such file (paths are relative to the repository root)", path)
  end
  local shown = dedent(region_lines(lines, path, name))
  if #shown == 0 then
    fail('%s: region "%s" is empty', path, name or "(whole file)")
  end
  block.text = table.concat(shown, "\n")
  block.attributes["include"] = nil
  block.attributes["region"] = nil
  -- Say where the listing comes from, so a student can find it in the repository.
  local source = name and (path .. ", region " .. name) or path
  return pandoc.Div({ pandoc.Para({ pandoc.Code(source) }), block }, pandoc.Attr("", { "listing" }))
end
