-- wymcp-ls for Neovim 0.7 to 0.10 (no vim.lsp.enable): paste into init.lua.
-- One client per project root (nearest mix.exs, or the umbrella holding that
-- app, else nearest .git, else the file's directory: the root
-- lsp/wymcp_ls.lua finds on 0.11+).
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
  local function umbrella_of(app) -- the umbrella whose mix.exs apps_path holds app, or nil
    local apps, d = vim.fn.fnamemodify(app, ':h'), vim.fn.fnamemodify(app, ':h')
    while vim.fn.filereadable(d .. '/mix.exs') == 0 do
      local up = vim.fn.fnamemodify(d, ':h')
      if up == d then return nil end
      d = up
    end
    local p = table.concat(vim.fn.readfile(d .. '/mix.exs'), '\n'):match('apps_path:%s*"([^"]+)"')
    if p and vim.fn.simplify(d .. '/' .. p):gsub('/$', '') == apps then return d end
  end
  local mix = up_to('mix.exs')
  local root = mix and (umbrella_of(mix) or mix) or up_to('.git') or dir -- .git: a directory, or a file (worktree)
  local id = wymcp_clients[root]
  if id == nil or vim.lsp.get_client_by_id(id) == nil then
    id = vim.lsp.start_client({ name = 'wymcp_ls', cmd = { 'wymcp-ls' }, root_dir = root })
    wymcp_clients[root] = id
  end
  if id ~= nil then
    vim.lsp.buf_attach_client(args.buf, id)
  end
end })
