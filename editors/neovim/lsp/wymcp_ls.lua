-- wymcp-ls: Wymcp action-schema diagnostics (and completion, hover, fixes)
-- for Elixir tool modules. https://github.com/wymcp/wymcp-ls
--
-- Neovim 0.11+: put this file in an `lsp/` directory on 'runtimepath'
-- (e.g. ~/.config/nvim/lsp/wymcp_ls.lua) and call vim.lsp.enable('wymcp_ls').
-- It runs beside elixir-ls / lexical / expert; each client attaches on its own.
--
-- Lint switches go to the server as workspace/configuration section `wymcp`:
--   vim.lsp.config('wymcp_ls', {
--     settings = { wymcp = { lints = { ['lint/unknown-type'] = false } } },
--   })

-- The umbrella whose mix.exs apps_path holds the app directory app, or nil:
-- an umbrella's apps call into each other, so they are checked together.
local function umbrella_of(app)
  local apps = vim.fs.dirname(app)
  local d = vim.fs.root(apps, 'mix.exs')
  local ok, lines = pcall(vim.fn.readfile, (d or '') .. '/mix.exs')
  local p = d and ok and table.concat(lines, '\n'):match('apps_path:%s*"([^"]+)"')
  if p and vim.fs.normalize(d .. '/' .. p) == apps then
    return d
  end
end

---@type vim.lsp.Config
return {
  cmd = { 'wymcp-ls' },
  filetypes = { 'elixir', 'eelixir', 'heex' },
  -- The nearest mix.exs (or the umbrella holding that app), else the nearest
  -- .git (a directory, or a file in a worktree), else the file's own
  -- directory, as legacy.lua: with root_markers alone a file outside both
  -- would get no root (single-file mode).
  root_dir = function(bufnr, on_dir)
    local mix = vim.fs.root(bufnr, 'mix.exs')
    local root = mix and (umbrella_of(mix) or mix) or vim.fs.root(bufnr, '.git')
    on_dir(root or vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':p:h'))
  end,
}
