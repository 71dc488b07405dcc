" SPDX-License-Identifier: MIT
" rackc designs: comments and indentation as the examples write them
if exists('b:did_ftplugin')
  finish
endif
let b:did_ftplugin = 1
setlocal commentstring=#\ %s comments=:#,://,s1:/*,mb:*,ex:*/
setlocal noexpandtab shiftwidth=8 tabstop=8
let b:undo_ftplugin = 'setlocal commentstring< comments< expandtab< shiftwidth< tabstop<'
