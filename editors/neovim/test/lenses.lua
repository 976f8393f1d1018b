-- A real-client test of the code lens in a client that cannot be asked to refresh it:
-- Neovim 0.7 asks for code lenses right after opening a file and never again on its
-- own, so the first answer must already hold the outcome lens. Opens two examples 20
-- times each and counts the lenses of the first answer after every open.
--
-- Run from the repository root:
--   CMG_BIN=target/debug/cmg nvim --headless -u NONE -i NONE -c "luafile editors/neovim/test/lenses.lua"
-- It exits 0 and prints "neovim lenses: N passed, 0 failed" on success, non-zero otherwise.

local harness = dofile(vim.fn.getcwd() .. "/editors/neovim/test/harness.lua")
local root, binary, say, check = harness.root, harness.binary, harness.say, harness.check
local opens = tonumber(os.getenv("CMG_LENS_OPENS") or "20")

local function run()
  local snippet = vim.fn.has("nvim-0.8") == 1 and "cmg.lua" or "cmg-0.7.lua"
  say("using editors/neovim/" .. snippet .. " with " .. binary)
  dofile(root .. "/editors/neovim/" .. snippet).setup({ cmd = { binary, "lsp" } })

  -- Every codeLens answer, in order, with the buffer it was for. Neovim 0.7 passes
  -- `on_codelens` as the handler of its requests, so that is where to listen.
  local answers = {}
  local codelens = vim.lsp.codelens
  local original = codelens.on_codelens
  codelens.on_codelens = function(err, result, ctx, config)
    table.insert(answers, { bufnr = ctx.bufnr, count = result and #result or 0, err = err, null = result == nil })
    return original(err, result, ctx, config)
  end

  for _, example in ipairs({ "leetcode-draw.cmg", "long-game.cmg" }) do
    local path = root .. "/examples/" .. example
    local missing = 0
    local why = {}
    for _ = 1, opens do
      local before = #answers
      vim.cmd("edit " .. vim.fn.fnameescape(path))
      local bufnr = vim.api.nvim_get_current_buf()
      local answered = vim.wait(15000, function()
        for i = before + 1, #answers do
          if answers[i].bufnr == bufnr then
            return true
          end
        end
        return false
      end, 20)
      local first = nil
      for i = before + 1, #answers do
        if answers[i].bufnr == bufnr then
          first = answers[i]
          break
        end
      end
      if not answered or first == nil or first.err ~= nil or first.count == 0 then
        missing = missing + 1
        table.insert(why, vim.inspect(first or "no answer"))
      end
      -- Closing the buffer sends didClose; the next `edit` opens the file afresh.
      vim.cmd("bwipeout! " .. bufnr)
    end
    check(
      ("the first code lens answer after opening %s holds the lens, %d times"):format(example, opens),
      missing == 0,
      ("missing in %d of %d opens: %s"):format(missing, opens, table.concat(why, "; "))
    )
  end
end

harness.finish("neovim lenses", run)
