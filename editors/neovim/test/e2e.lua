-- Headless end-to-end test: Neovim is the LSP client of a real wymcp-ls.
-- Run by ../test.sh as `nvim --headless -u e2e.lua`; everything comes from
-- the environment:
--   WYMCP_MODE     legacy (Neovim 0.7 to 0.10: runs editors/neovim/legacy.lua,
--                  the README's snippet, which starts `wymcp-ls` from PATH
--                  with vim.lsp.start_client) or enable (0.11+:
--                  vim.lsp.enable('wymcp_ls') loading lsp/wymcp_ls.lua from
--                  WYMCP_RTP)
--   WYMCP_LS       the server binary (legacy: the same file must be the
--                  `wymcp-ls` found on PATH)
--   WYMCP_RTP      editors/neovim (holds lsp/wymcp_ls.lua)
--   WYMCP_ROOT     a copy of testdata/example
--   WYMCP_OUT      directory for before.txt and after.txt
--   WYMCP_TIMEOUT  milliseconds to wait for each step (default 30000)
-- before.txt: every diagnostic once both fixture files have some; after.txt:
-- every diagnostic once the notes.ex offence is fixed in the buffer (the
-- buffer is never written); lens.txt: the code lens of notes.ex and its
-- command's result. Lines: file line:col-line:col (0-based, LSP
-- positions; the fixture is ASCII so bytes = UTF-16 units) severity source
-- code message. Exit code 0, or 1 when a wait timed out.

vim.cmd('filetype on')
local lsplog = require('vim.lsp.log')
lsplog.set_level(vim.log.levels.DEBUG) -- mode.txt reads the message log

local mode = os.getenv('WYMCP_MODE') or 'legacy'
local bin = assert(os.getenv('WYMCP_LS'), 'WYMCP_LS not set')
local rtp = assert(os.getenv('WYMCP_RTP'), 'WYMCP_RTP not set')
local root = assert(os.getenv('WYMCP_ROOT'), 'WYMCP_ROOT not set')
local out = assert(os.getenv('WYMCP_OUT'), 'WYMCP_OUT not set')
local timeout = tonumber(os.getenv('WYMCP_TIMEOUT') or '30000')

local notes = root .. '/lib/app/tools/notes.ex'
local schemas = root .. '/lib/app/tools/schemas.ex'
local failed = false

local function write(name, lines)
  local f = assert(io.open(out .. '/' .. name, 'w'))
  f:write(table.concat(lines, '\n') .. '\n')
  f:close()
end

local function rel(path)
  path = vim.fn.fnamemodify(path, ':p')
  local r = vim.fn.fnamemodify(root, ':p')
  if path:sub(1, #r) == r then
    return path:sub(#r + 1)
  end
  return path
end

local severities = { 'error', 'warning', 'info', 'hint' }

-- Every diagnostic of every buffer, one line each, sorted.
local function dump()
  local lines = {}
  for _, d in ipairs(vim.diagnostic.get()) do
    local code = d.code
    if code == nil and d.user_data and d.user_data.lsp then
      code = d.user_data.lsp.code
    end
    lines[#lines + 1] = string.format(
      '%s %d:%d-%d:%d %s %s %s %s',
      rel(vim.api.nvim_buf_get_name(d.bufnr)),
      d.lnum,
      d.col,
      d.end_lnum,
      d.end_col,
      severities[d.severity] or tostring(d.severity),
      tostring(d.source),
      tostring(code),
      (d.message:gsub('\n', '\\n'))
    )
  end
  table.sort(lines)
  return lines
end

local function count(bufnr)
  return #vim.diagnostic.get(bufnr)
end

-- The shipped config, also used by the 0.7 path so both test the same file.
local cfg = dofile(rtp .. '/lsp/wymcp_ls.lua')

if mode == 'enable' then
  vim.opt.runtimepath:prepend(rtp)
  vim.lsp.config('wymcp_ls', { cmd = { bin } }) -- the test binary instead of PATH
  vim.lsp.enable('wymcp_ls')
elseif mode == 'legacy' then
  -- The README's Neovim 0.7 to 0.10 snippet, as shipped; it finds wymcp-ls on PATH.
  assert(vim.fn.exepath('wymcp-ls') ~= '', 'wymcp-ls is not on PATH')
  dofile(rtp .. '/legacy.lua')
else
  error('unknown WYMCP_MODE ' .. mode)
end

vim.cmd('edit ' .. vim.fn.fnameescape(schemas))
local schemas_buf = vim.api.nvim_get_current_buf()
-- Both files in windows of their own: Neovim 0.12 pulls diagnostics only
-- for buffers shown in a window (vim/lsp/diagnostic.lua, only_visible).
vim.cmd('vsplit ' .. vim.fn.fnameescape(notes))
local notes_buf = vim.api.nvim_get_current_buf()

local function the_client()
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ name = 'wymcp_ls' })[1]
  end
  for _, c in pairs(vim.lsp.get_active_clients()) do -- 0.7: no filter argument
    if c.name == 'wymcp_ls' then
      return c
    end
  end
end

local function header()
  local c = the_client()
  if not c then
    return { 'client: none attached' }
  end
  local ft = table.concat(c.config.filetypes or cfg.filetypes, ',')
  return {
    string.format(
      'client %s root=%s filetypes=%s attached=%s,%s',
      c.name,
      rel(c.config.root_dir or '?') == '' and '.' or rel(c.config.root_dir or '?'),
      ft,
      tostring(vim.lsp.buf_is_attached(schemas_buf, c.id)),
      tostring(vim.lsp.buf_is_attached(notes_buf, c.id))
    ),
  }
end

local ok = vim.wait(timeout, function()
  return count(notes_buf) > 0 and count(schemas_buf) > 0
end, 50)
local before = header()
vim.list_extend(before, dump())
if not ok then
  before[#before + 1] = 'TIMEOUT waiting for diagnostics in notes.ex and schemas.ex'
  failed = true
end
write('before.txt', before)

-- Fix the offence in the buffer: `example` -> `examples` on the one line
-- that reads `    example: [%{"limit" => 10}]`.
local fix_at
for i, l in ipairs(vim.api.nvim_buf_get_lines(notes_buf, 0, -1, true)) do
  if l == '    example: [%{"limit" => 10}]' then
    fix_at = i - 1
  end
end
if not fix_at then
  write('after.txt', { 'no line `    example: [%{"limit" => 10}]` in notes.ex' })
  vim.cmd('cquit 1')
end
vim.api.nvim_buf_set_text(notes_buf, fix_at, 4, fix_at, 11, { 'examples' })

ok = vim.wait(timeout, function()
  return count(notes_buf) == 0
end, 50)
local after = dump()
if not ok then
  after[#after + 1] = 'TIMEOUT waiting for notes.ex diagnostics to clear'
  failed = true
end
write('after.txt', after)

-- The code lens above `def actions` in notes.ex, and the result of its
-- command (workspace/executeCommand): Neovim receives the preview as the
-- command's result.
local lens = {}
local lres = vim.lsp.buf_request_sync(notes_buf, 'textDocument/codeLens', { textDocument = vim.lsp.util.make_text_document_params(notes_buf) }, timeout)
local cl = the_client()
for _, r in pairs(lres or {}) do
  for _, l in ipairs(r.result or {}) do
    lens[#lens + 1] = string.format('lens %d:%d %s %s', l.range.start.line, l.range.start.character, l.command.command, l.command.title)
    local res = cl and cl.request_sync('workspace/executeCommand', l.command, timeout, notes_buf)
    if res and res.result then
      lens[#lens + 1] = string.format('result tool=%s figures=%s entry.name=%s help.tool=%s', res.result.tool, res.result.figures, res.result.toolsListEntry.name, res.result.help.tool)
    else
      lens[#lens + 1] = 'result: none (' .. vim.inspect(res and res.err) .. ')'
      failed = true
    end
  end
end
if #lens == 0 then
  lens[1] = 'no code lens in notes.ex'
  failed = true
end
write('lens.txt', lens)

-- mode.txt: how diagnostics travelled. "push" when only publishDiagnostics
-- notifications came, "pull" when only textDocument/diagnostic requests went,
-- then whether the server offered pull (diagnosticProvider).
local function count_in_log(kind, needle)
  local f = io.open(lsplog.get_filename(), 'r')
  if not f then
    return 0
  end
  local n = 0
  for l in f:lines() do
    if l:find(kind, 1, true) and l:find(needle, 1, true) then
      n = n + 1
    end
  end
  f:close()
  return n
end
local c = the_client()
local pushes = count_in_log('rpc.receive', 'method = "textDocument/publishDiagnostics"')
local pulls = count_in_log('rpc.send', 'method = "textDocument/diagnostic"')
local how = (pushes > 0 and pulls == 0) and 'push' or (pulls > 0 and pushes == 0) and 'pull' or 'mixed'
local offered = c and c.server_capabilities and c.server_capabilities.diagnosticProvider ~= nil
write('mode.txt', { how .. ' ' .. (offered and 'offered-pull' or 'no-pull') })
-- keep Neovim's LSP log beside the results (test.sh copies out/ to $WYMCP_KEEP)
local logf = io.open(lsplog.get_filename(), 'r')
if logf then
  local copy = assert(io.open(out .. '/lsp.log', 'w'))
  copy:write(logf:read('*a'))
  copy:close()
  logf:close()
end

if c then
  c:stop()
  vim.wait(2000, function()
    return c:is_stopped()
  end, 50)
end
if failed then
  vim.cmd('cquit 1')
end
vim.cmd('qall!')
