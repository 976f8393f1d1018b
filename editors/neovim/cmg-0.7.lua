-- cmg for Neovim 0.7 (as Debian 12 ships it), which has neither `vim.lsp.start` nor a
-- default-on `vim.filetype.add`: the `cmg` filetype and the `cmg lsp` language server.
--
-- Copy this file to ~/.config/nvim/lua/cmg.lua and call `require("cmg").setup()` from
-- init.lua. Options (all optional):
--   cmd      the server command, default { "cmg", "lsp" }
--   settings the server settings (see the settings table in editors/README.md), e.g.
--            { solver = { maxNodes = 500 } }; none are sent by default, so the
--            server's own defaults apply

local M = {}

local defaults = {
  cmd = { "cmg", "lsp" },
  settings = vim.empty_dict(),
}

-- One client serves every cmg buffer; it is started with the first one and again if it
-- has stopped since.
local client_id = nil

local function on_attach(client, bufnr)
  if client.server_capabilities.codeLensProvider then
    vim.api.nvim_create_autocmd({ "BufEnter", "InsertLeave", "TextChanged" }, {
      buffer = bufnr,
      callback = function()
        vim.lsp.codelens.refresh()
      end,
    })
    vim.lsp.codelens.refresh()
  end
end

function M.setup(options)
  local config = vim.tbl_deep_extend("force", defaults, options or {})
  local group = vim.api.nvim_create_augroup("cmg_lsp", { clear = true })
  vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, {
    pattern = "*.cmg",
    group = group,
    command = "setfiletype cmg",
  })
  vim.api.nvim_create_autocmd("FileType", {
    pattern = "cmg",
    group = group,
    callback = function(event)
      local client = client_id and vim.lsp.get_client_by_id(client_id)
      if not client or client.is_stopped() then
        client_id = vim.lsp.start_client({
          name = "cmg",
          cmd = config.cmd,
          root_dir = vim.fn.getcwd(),
          -- The server reads the same table from both: initialization options at
          -- start, the `cmg` section of workspace/configuration afterwards.
          init_options = config.settings,
          settings = { cmg = config.settings },
          on_attach = on_attach,
        })
      end
      if client_id then
        vim.lsp.buf_attach_client(event.buf, client_id)
      end
    end,
  })
end

return M
