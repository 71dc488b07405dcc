#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The examples of the documentation, compiled as the reader would (the
# way jq tests its manual): every ```rack block of doc/language.md, and
# every command of its ```console blocks.
#
# The conventions (doc/testing.md, "Examples in the documentation"): an
# HTML comment on the line before a block says what it is.
#
#   (none)                     a complete design: `rackc --check` exits 0
#                              and prints nothing
#   <!-- fragment -->          part of a design (a statement's shape, a
#                              body without its parts): not compiled
#   <!-- file: NAME.rack -->   saved as NAME.rack, for the console blocks
#                              and imports after it; compiled like a
#                              complete design unless a console command
#                              names it or a block imports it
#   <!-- expect: L:C LEVEL [CHECK] -->
#                              `rackc --check` reports LEVEL (error or
#                              warning) at line L, column C of the block,
#                              with CHECK; exit 1 for an error, else 0
#   <!-- abridged -->          (console) the output shown is shortened:
#                              the command must run (exit 0 or 1, no
#                              crash), its output is not compared
#
# In a ```console block each line "$ COMMAND" is run by sh in a directory
# that holds the document's files saved so far, with rackc first on the
# PATH; the lines up to the next "$ " are what it prints, standard output
# and standard error together.  Cases are named by document and line.
#
# Usage: tests/docblocks.sh [DOC.md...] (default: doc/language.md)

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/doclib.sh"

if [ $# -eq 0 ]; then
	set -- doc/language.md
fi
for d in "$@"; do
	doc_blocks "$d"
done

finish
