-- SPDX-License-Identifier: MIT
-- A real client for `rackc lsp`: Neovim's built-in LSP client (0.7 or
-- later), run headless by tests/lsp.sh.  It opens a design with one error,
-- waits for the server's diagnostics, hovers a part, jumps to a definition
-- and applies a completion, and writes one "PASS<TAB>case" or
-- "FAIL<TAB>case<TAB>why" line a case to $RK_RESULTS.  The expected
-- places come from the shell, which finds them in the file's text.
local env = function(k) return os.getenv(k) end
local out = assert(io.open(env('RK_RESULTS'), 'w'))
local function res(ok, name, why)
  out:write((ok and 'PASS' or 'FAIL') .. '\t' .. name .. '\t' ..
            tostring(why or ''):gsub('\n', ' '):sub(1, 400) .. '\n')
  out:flush()
end

local function run()
  vim.cmd('edit ' .. vim.fn.fnameescape(env('RK_FILE')))
  local buf = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({
    name = 'rackc',
    cmd = { env('RACKC'), 'lsp', '--stdlib=' .. env('RK_STDLIB') },
    root_dir = vim.fn.fnamemodify(env('RK_FILE'), ':h'),
    flags = { debounce_text_changes = 0 },
  })
  vim.lsp.buf_attach_client(buf, id)
  local client = vim.lsp.get_client_by_id(id)
  local uri = vim.uri_from_bufnr(buf)

  -- 1. the diagnostics, as the server published them
  local got = vim.wait(30000, function()
    return #vim.diagnostic.get(buf) > 0
  end, 50)
  local d = vim.diagnostic.get(buf)
  res(got and #d == 1 and d[1].lnum == tonumber(env('RK_ERR_LINE')) and
      d[1].severity == vim.diagnostic.severity.ERROR and
      d[1].message == env('RK_ERR_MSG'), 'diagnostics', vim.inspect(d))

  -- 2. hover on a part: its figures
  local r = client.request_sync('textDocument/hover', {
    textDocument = { uri = uri },
    position = { line = tonumber(env('RK_PART_LINE')),
                 character = tonumber(env('RK_PART_COL')) },
  }, 10000, buf)
  local text = r and r.result and r.result.contents and
               r.result.contents.value or ''
  res(text:find(env('RK_PART_FIGURE'), 1, true) ~= nil, 'hover', text)

  -- 3. go to definition, as the client jumps
  vim.api.nvim_win_set_cursor(0, { tonumber(env('RK_USE_LINE')) + 1,
                                   tonumber(env('RK_USE_COL')) })
  r = client.request_sync('textDocument/definition', {
    textDocument = { uri = uri },
    position = { line = tonumber(env('RK_USE_LINE')),
                 character = tonumber(env('RK_USE_COL')) },
  }, 10000, buf)
  local loc = r and r.result
  if loc and loc[1] then loc = loc[1] end
  if loc then vim.lsp.util.jump_to_location(loc, 'utf-16') end
  local cur = vim.api.nvim_win_get_cursor(0)
  res(loc ~= nil and cur[1] == tonumber(env('RK_DEF_LINE')) + 1 and
      cur[2] == tonumber(env('RK_DEF_COL')), 'definition',
      vim.inspect(cur) .. ' ' .. vim.inspect(loc))

  -- 4. completion of a part name, applied as the client applies it
  local n = vim.api.nvim_buf_line_count(buf)
  vim.api.nvim_buf_set_lines(buf, n, n, false, { 'switch sw2 : qm97' })
  vim.wait(300)
  r = client.request_sync('textDocument/completion', {
    textDocument = { uri = uri },
    position = { line = n, character = #'switch sw2 : qm97' },
  }, 10000, buf)
  local items = r and r.result or {}
  if items.items then items = items.items end
  local pick
  for _, it in ipairs(items) do
    if it.label == 'qm9700' then pick = it end
  end
  if pick then
    vim.lsp.util.apply_text_edits({ pick.textEdit }, buf, 'utf-16')
  end
  local line = vim.api.nvim_buf_get_lines(buf, n, n + 1, false)[1]
  res(line == 'switch sw2 : qm9700', 'completion',
      line .. ' ' .. vim.inspect(items):sub(1, 200))
  client.stop()
end

local ok, err = pcall(run)
if not ok then res(false, 'run', err) end
out:close()
vim.cmd('qa!')
