-- Headless end-to-end test: Neovim is the LSP client of a real wymcp-ls.
-- Run by ../test.sh as `nvim --headless -u e2e.lua`; everything comes from
-- the environment:
--   WYMCP_MODE     start_client (Neovim 0.7+: vim.lsp.start_client with the
--                  shipped lsp/wymcp_ls.lua values) or enable (0.11+:
--                  vim.lsp.enable('wymcp_ls') loading lsp/wymcp_ls.lua from
--                  WYMCP_RTP)
--   WYMCP_LS       the server binary
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

local mode = os.getenv('WYMCP_MODE') or 'start_client'
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
local client_id

if mode == 'enable' then
  vim.opt.runtimepath:prepend(rtp)
  vim.lsp.config('wymcp_ls', { cmd = { bin } }) -- the test binary instead of PATH
  vim.lsp.enable('wymcp_ls')
else
  -- Neovim 0.7: no vim.lsp.start; find the root by the shipped root_markers.
  local function find_root(path)
    local dir = vim.fn.fnamemodify(path, ':p:h')
    while true do
      for _, m in ipairs(cfg.root_markers) do
        if vim.loop.fs_stat(dir .. '/' .. m) then
          return dir
        end
      end
      local parent = vim.fn.fnamemodify(dir, ':h')
      if parent == dir then
        return nil
      end
      dir = parent
    end
  end
  local rootdir = assert(find_root(notes), 'no root marker above ' .. notes)
  client_id = vim.lsp.start_client({
    name = 'wymcp_ls',
    cmd = { bin },
    root_dir = rootdir,
    workspace_folders = { { uri = vim.uri_from_fname(rootdir), name = 'example' } },
  })
  assert(client_id, 'start_client failed')
  vim.api.nvim_create_autocmd('FileType', {
    pattern = cfg.filetypes,
    callback = function(args)
      vim.lsp.buf_attach_client(args.buf, client_id)
    end,
  })
end

vim.cmd('edit ' .. vim.fn.fnameescape(schemas))
local schemas_buf = vim.api.nvim_get_current_buf()
vim.cmd('edit ' .. vim.fn.fnameescape(notes))
local notes_buf = vim.api.nvim_get_current_buf()

local function the_client()
  if client_id then
    return vim.lsp.get_client_by_id(client_id)
  end
  return (vim.lsp.get_clients or vim.lsp.get_active_clients)({ name = 'wymcp_ls' })[1]
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

local c = the_client()
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
