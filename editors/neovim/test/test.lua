-- A real-client test: Neovim opens a broken .cmg file with `cmg lsp` attached through
-- the snippet for this Neovim version, then checks the diagnostics and a hover.
--
-- Run from the repository root:
--   CMG_BIN=target/debug/cmg nvim --headless -u NONE -i NONE -c "luafile editors/neovim/test/test.lua"
-- It exits 0 and prints "neovim: N passed, 0 failed" on success, non-zero otherwise.

local harness = dofile(vim.fn.getcwd() .. "/editors/neovim/test/harness.lua")
local root, binary, say, check = harness.root, harness.binary, harness.say, harness.check

local function run()
  -- Both snippets must at least load; only the one for this version can run.
  for _, file in ipairs({ "cmg.lua", "cmg-0.7.lua" }) do
    local chunk, err = loadfile(root .. "/editors/neovim/" .. file)
    check("editors/neovim/" .. file .. " parses", chunk ~= nil, err)
  end
  local snippet = vim.fn.has("nvim-0.8") == 1 and "cmg.lua" or "cmg-0.7.lua"
  say("using editors/neovim/" .. snippet .. " with " .. binary)
  check("the server binary is executable", vim.fn.executable(binary) == 1, binary)
  dofile(root .. "/editors/neovim/" .. snippet).setup({ cmd = { binary, "lsp" } })

  vim.cmd("edit " .. vim.fn.fnameescape(root .. "/editors/neovim/test/broken.cmg"))
  local bufnr = vim.api.nvim_get_current_buf()
  check("the filetype is cmg", vim.bo[bufnr].filetype == "cmg", vim.bo[bufnr].filetype)

  local attached = vim.wait(10000, function()
    return #vim.lsp.buf_get_clients(bufnr) > 0
  end, 50)
  check("cmg lsp is attached", attached)

  -- Each expected diagnostic: code, and 0-based start and end as the protocol has them.
  local expected = {
    { code = "self-loop", lnum = 2, col = 0, end_lnum = 2, end_col = 6 },
    { code = "syntax", lnum = 3, col = 5, end_lnum = 3, end_col = 7 },
  }
  local arrived = vim.wait(10000, function()
    return #vim.diagnostic.get(bufnr) >= #expected
  end, 50)
  local diagnostics = vim.diagnostic.get(bufnr)
  check("diagnostics arrive", arrived, #diagnostics .. " diagnostics")
  table.sort(diagnostics, function(a, b)
    return a.lnum < b.lnum
  end)
  check("exactly the expected diagnostics", #diagnostics == #expected, vim.inspect(diagnostics))
  for i, want in ipairs(expected) do
    local got = diagnostics[i] or {}
    local same = got.code == want.code
      and got.lnum == want.lnum
      and got.col == want.col
      and got.end_lnum == want.end_lnum
      and got.end_col == want.end_col
      and got.severity == vim.diagnostic.severity.ERROR
    check(
      ("%s at %d:%d"):format(want.code, want.lnum, want.col),
      same,
      vim.inspect({ code = got.code, lnum = got.lnum, col = got.col, end_lnum = got.end_lnum, end_col = got.end_col })
    )
  end

  -- Hover on the `3` of "0 -- 1 -- 2 -- 3" (line 1, column 15): node 3 has a label.
  local client = vim.lsp.buf_get_clients(bufnr)[1] or vim.lsp.get_active_clients()[1]
  local offers_hover = client ~= nil and client.server_capabilities.hoverProvider
  check("the server offers hover", offers_hover)
  local responses = vim.lsp.buf_request_sync(bufnr, "textDocument/hover", {
    textDocument = vim.lsp.util.make_text_document_params(bufnr),
    position = { line = 1, character = 15 },
  }, 10000)
  local text = nil
  for _, response in pairs(responses or {}) do
    if response.result and response.result.contents then
      text = table.concat(vim.lsp.util.convert_input_to_markdown_lines(response.result.contents), "\n")
    end
  end
  local mentions = text ~= nil and text:find("node 3", 1, true) ~= nil and text:find("door", 1, true) ~= nil
  check("hover on node 3 names it and its label", mentions, vim.inspect(text or responses))
end

harness.finish("neovim", run)
