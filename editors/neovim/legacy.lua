-- wymcp-ls for Neovim 0.7 to 0.10 (no vim.lsp.enable): paste into init.lua.
-- One client per project root (nearest mix.exs, else nearest .git, else the
-- file's directory: the root lsp/wymcp_ls.lua finds on 0.11+).
-- Without wymcp-ls on PATH it says so once and starts nothing.
local wymcp_clients, wymcp_warned = {}, false
vim.api.nvim_create_autocmd('FileType', { pattern = { 'elixir', 'eelixir', 'heex' }, callback = function(args)
  if vim.fn.executable('wymcp-ls') ~= 1 then
    if not wymcp_warned then
      wymcp_warned = true
      vim.notify('wymcp-ls not found on PATH (see https://github.com/wymcp/wymcp-ls#install)', vim.log.levels.WARN)
    end
    return
  end
  local dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(args.buf), ':p:h')
  local function up_to(marker) -- the nearest directory from dir up that holds marker
    local d = dir
    while vim.fn.getftype(d .. '/' .. marker) == '' do
      local up = vim.fn.fnamemodify(d, ':h')
      if up == d then return nil end
      d = up
    end
    return d
  end
  local root = up_to('mix.exs') or up_to('.git') or dir -- .git: a directory, or a file (worktree)
  local id = wymcp_clients[root]
  if id == nil or vim.lsp.get_client_by_id(id) == nil then
    id = vim.lsp.start_client({ name = 'wymcp_ls', cmd = { 'wymcp-ls' }, root_dir = root })
    wymcp_clients[root] = id
  end
  if id ~= nil then
    vim.lsp.buf_attach_client(args.buf, id)
  end
end })
