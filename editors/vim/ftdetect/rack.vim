" SPDX-License-Identifier: MIT
" rackc designs: *.rack files
autocmd BufRead,BufNewFile *.rack setfiletype rack
