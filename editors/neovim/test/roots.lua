-- Headless root test: which root_dir the wymcp_ls client of each fixture
-- file gets. Run by ../test.sh as `nvim --headless -u roots.lua`, from the
-- environment (as e2e.lua): WYMCP_MODE (legacy: legacy.lua with wymcp-ls on
-- PATH; enable: vim.lsp.enable('wymcp_ls') loading lsp/wymcp_ls.lua),
-- WYMCP_LS, WYMCP_RTP, WYMCP_ROOT (the directory test.sh laid out) and
-- WYMCP_OUT. Writes roots.txt: one line per file, `FILE ROOT`, both relative
-- to WYMCP_ROOT (`none` when no client attached within WYMCP_TIMEOUT ms,
-- `no-root` for a client without root_dir).
vim.cmd('filetype on')

local mode = os.getenv('WYMCP_MODE') or 'legacy'
local bin = assert(os.getenv('WYMCP_LS'), 'WYMCP_LS not set')
local rtp = assert(os.getenv('WYMCP_RTP'), 'WYMCP_RTP not set')
local root = vim.fn.fnamemodify(assert(os.getenv('WYMCP_ROOT'), 'WYMCP_ROOT not set'), ':p')
local out = assert(os.getenv('WYMCP_OUT'), 'WYMCP_OUT not set')
local timeout = tonumber(os.getenv('WYMCP_TIMEOUT') or '30000')

if mode == 'enable' then
  vim.opt.runtimepath:prepend(rtp)
  vim.lsp.config('wymcp_ls', { cmd = { bin } })
  vim.lsp.enable('wymcp_ls')
else
  dofile(rtp .. '/legacy.lua')
end

local function client_of(buf)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = buf, name = 'wymcp_ls' })[1]
  end
  for _, c in pairs(vim.lsp.buf_get_clients(buf)) do -- 0.7
    if c.name == 'wymcp_ls' then
      return c
    end
  end
end

local function rel(path)
  path = vim.fn.fnamemodify(path, ':p'):gsub('/$', '')
  if path .. '/' == root then
    return '.'
  end
  return path:sub(1, #root) == root and path:sub(#root + 1) or path
end

local lines, clients = {}, {}
for _, file in ipairs({ 'prio/lib/a.ex', 'git/lib/b.ex', 'gitfile/lib/c.ex', 'none/lib/d.ex', 'umb/apps/web/lib/e.ex', 'umb/apps/web/deep/x/lib/f.ex' }) do
  vim.cmd('edit ' .. vim.fn.fnameescape(root .. file))
  local buf = vim.api.nvim_get_current_buf()
  local c
  vim.wait(timeout, function()
    c = client_of(buf)
    return c ~= nil
  end, 20)
  lines[#lines + 1] = file .. ' ' .. (c == nil and 'none' or c.config.root_dir == nil and 'no-root' or rel(c.config.root_dir))
  if c then
    clients[c.id] = c
  end
end
local f = assert(io.open(out .. '/roots.txt', 'w'))
f:write(table.concat(lines, '\n') .. '\n')
f:close()
for _, c in pairs(clients) do
  c:stop()
end
vim.wait(2000, function()
  for _, c in pairs(clients) do
    if not c:is_stopped() then
      return false
    end
  end
  return true
end, 50)
vim.cmd('qall!')
