#!/bin/sh
# SPDX-License-Identifier: MIT
# The language server, `rackc lsp` (src/lsp/lsp.c, src/lsp/lsp_query.c).
#
#   lsp/<case>      tests/lsp_check.py drives the server over pipes, one
#                   case a method: initialize, diagnostics (the compiler's,
#                   notes as related information, on open, change and
#                   close), UTF-16 columns, hover, definition, completion,
#                   document symbols, and malformed JSON-RPC (bad headers,
#                   bad JSON, wrong types, mutated requests): every
#                   expected place is found in the sources' text
#   nvim/<case>     Neovim's built-in LSP client, headless
#                   (tests/lsp_nvim.lua): diagnostics, hover on a part, a
#                   jump to a definition, a completion applied; skipped
#                   without nvim 0.7 or later
# Without Jansson (`rackc lsp` says so and exits 2) everything is skipped.
. "$(dirname "$0")/lib.sh"

cd "$top_srcdir" || exit 99
rc=0
"$RACKC" lsp </dev/null >"$tmp/probe.out" 2>"$tmp/probe.err" || rc=$?
if [ "$rc" = 2 ] && grep -q Jansson "$tmp/probe.err"; then
	skip lsp "rackc built without Jansson"
	finish
fi
if ! command -v python3 >/dev/null 2>&1; then
	skip lsp "python3 not installed"
	finish
fi

if timeout 600 python3 tests/lsp_check.py "$RACKC" "$top_srcdir" "$tmp" \
	>"$tmp/py.res" 2>"$tmp/py.err"; then
	:
else
	fail lsp/driver "tests/lsp_check.py stopped"
	show "$tmp/py.err"
fi
py_results lsp "$tmp/py.res"

# Neovim: 0.7 has the built-in client with vim.diagnostic
if ! command -v nvim >/dev/null 2>&1; then
	skip nvim "nvim not installed"
	finish
fi
if ! nvim --headless -u NONE -c 'lua if vim.diagnostic and vim.lsp.start_client then os.exit(0) end os.exit(1)' >/dev/null 2>&1; then
	skip nvim "nvim older than 0.7"
	finish
fi

# minimal.rack with the leaf switch past the top of its rack: one error,
# at the `switch leaf` statement
mkdir "$tmp/nv"
cp -R examples/include "$tmp/nv/include"
sed 's/^	at 40U$/	at 60U/' examples/minimal.rack >"$tmp/nv/bad.rack"
f=$tmp/nv/bad.rack
# line (0-based) and byte column (0-based) of the first match of an ERE
place() {
	awk -v re="$1" -v off="${2:-0}" '
		match($0, re) { print NR - 1, RSTART - 1 + off; exit }' "$f"
}
read -r err_line _ <<EOF
$(place '^switch leaf')
EOF
read -r part_line part_col <<EOF
$(place ': qm9700' 2)
EOF
read -r use_line use_col <<EOF
$(place '-> pdu_a' 3)
EOF
read -r def_line def_col <<EOF
$(place '^pdu pdu_a' 4)
EOF
# the part's power_max, as std/nvidia.rack writes it
figure="power_max: $(awk '/^part qm9700 /{p=1} p && /power_max/ {print $2; exit}' std/nvidia.rack)"
msg=$("$RACKC" --check --no-source "$f" 2>&1 |
	sed -n 's/^[^:]*:[0-9]*:[0-9]*: error: \(.*\) \[rack-overflow\]$/\1/p')

RK_FILE=$f RK_STDLIB=$top_srcdir RK_RESULTS=$tmp/nv.res \
	RK_ERR_LINE=$err_line RK_ERR_MSG=$msg \
	RK_PART_LINE=$part_line RK_PART_COL=$part_col \
	RK_PART_FIGURE=$figure \
	RK_USE_LINE=$use_line RK_USE_COL=$use_col \
	RK_DEF_LINE=$def_line RK_DEF_COL=$def_col \
	timeout 120 nvim --headless -u NONE -i NONE -n \
	-c "luafile tests/lsp_nvim.lua" >"$tmp/nv.out" 2>&1 || :
if [ -s "$tmp/nv.res" ]; then
	py_results nvim "$tmp/nv.res"
else
	fail nvim "no results from nvim"
	show "$tmp/nv.out"
fi
finish
