-- cmg for Neovim 0.8 and later: the `cmg` filetype and the `cmg lsp` language server.
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

-- Neovim 0.8 does not refresh code lenses by itself; the lens on the first line shows
-- the optimal line, and `:lua vim.lsp.codelens.run()` asks the server to show it.
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
  -- Inlay hints exist from Neovim 0.10; semantic tokens (0.9+) need no setup.
  if client.server_capabilities.inlayHintProvider and vim.lsp.inlay_hint then
    pcall(vim.lsp.inlay_hint.enable, true, { bufnr = bufnr })
  end
end

function M.setup(options)
  local config = vim.tbl_deep_extend("force", defaults, options or {})
  vim.filetype.add({ extension = { cmg = "cmg" } })
  vim.api.nvim_create_autocmd("FileType", {
    pattern = "cmg",
    group = vim.api.nvim_create_augroup("cmg_lsp", { clear = true }),
    callback = function(event)
      local file = vim.api.nvim_buf_get_name(event.buf)
      -- One server per project: the nearest folder with a .git, else the file's folder.
      local git = vim.fs.find(".git", { upward = true, path = vim.fs.dirname(file) })[1]
      vim.lsp.start({
        name = "cmg",
        cmd = config.cmd,
        root_dir = git and vim.fs.dirname(git) or vim.fs.dirname(file),
        -- The server reads the same table from both: initialization options at start,
        -- the `cmg` section of workspace/configuration afterwards.
        init_options = config.settings,
        settings = { cmg = config.settings },
        on_attach = on_attach,
      }, { bufnr = event.buf })
    end,
  })
end

return M
