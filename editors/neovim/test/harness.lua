-- What the Neovim tests share: the binary under test, result lines on stdout, the count
-- of checks, and ending Neovim with an exit code that says whether every check passed.
-- Load it with `dofile(vim.fn.getcwd() .. "/editors/neovim/test/harness.lua")` from the
-- repository root.

local harness = {}

harness.root = vim.fn.getcwd()
harness.binary = os.getenv("CMG_BIN") or "target/debug/cmg"
if not harness.binary:match("^/") then
  harness.binary = harness.root .. "/" .. harness.binary
end

local passed, failed = 0, 0

-- `print` in headless Neovim goes to stderr without reliable line breaks; the results
-- belong on stdout, one per line.
function harness.say(line)
  io.stdout:write(line, "\n")
end

function harness.check(name, ok, detail)
  if ok then
    passed = passed + 1
    harness.say("ok   " .. name)
  else
    failed = failed + 1
    harness.say("FAIL " .. name .. (detail and (": " .. detail) or ""))
  end
end

-- Runs `body`, counts an error it raises as a failure, prints "<title>: N passed, M
-- failed", and quits Neovim: exit code 0 only when nothing failed.
function harness.finish(title, body)
  local ok, err = xpcall(body, debug.traceback)
  if not ok then
    failed = failed + 1
    harness.say("FAIL the test script raised an error: " .. tostring(err))
  end
  harness.say(("%s: %d passed, %d failed"):format(title, passed, failed))
  -- Stop the server first, so that nothing lingers after Neovim exits.
  vim.lsp.stop_client(vim.lsp.get_active_clients())
  if failed > 0 then
    vim.cmd("cquit 1")
  else
    vim.cmd("qall!")
  end
end

return harness
