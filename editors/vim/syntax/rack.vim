" SPDX-License-Identifier: MIT
" Vim syntax file
" Language:	rackc hardware designs (*.rack; doc/language.md)
"
" The word lists follow the compiler: reserved words from grammar/lexer.l,
" object kinds from kind_table in src/ir/schema.c, attribute names from
" src/ir/schema_attrs.def, functions from src/elab/eval.c and units from the unit
" table of src/base/units.c; tests/editors.sh fails when they disagree.

if exists('b:current_syntax')
  finish
endif
let s:cpo_save = &cpo
set cpo&vim

" reserved words (doc/language.md 2.4)
syn keyword rackKeyword import param let for in if else module require
syn keyword rackBoolean true false

" the words that declare objects (section 9): a kind wins over an
" attribute of the same name (rack, cpu, gpu, ...)
syn keyword rackKind part site row rack feed air loop group instance node switch pdu
syn keyword rackKind cdu shelf device fabric link port cpu pcie_switch gpu nic

" attribute names, as the first word of a statement (section 10)
syn match rackAttribute "\%(^\|[{;]\)\s*\zs\<\%(vendor\|model\|part_number\|description\|assembly\|price\|source
      \\|estimated\|unknown\|height\|width\|depth\|weight\|max_load
      \\|power_max\|power_typ\|heat\|liquid_fraction\|cooling\|psus
      \\|psu_rating\|psu_redundancy\|psu_min_run\|inlet\|voltage\|current
      \\|phases\|derate\|outlets_c13\|outlets_c19\|capacity\|max_flow
      \\|approach\|sm\|arch\|hbm\|hbm_bw\|tdp\|nvlinks\|nvlink_bw
      \\|nvswitches\|cores\|pcie_gen\|pcie_width\|cpu_family\|cpu_model
      \\|c2c_bw\|pci_class\|form\|cage\|top\|speed\|protocol\|lanes\|role
      \\|required\|media\|reach\|lengths\|part_numbers\|split\|far_form
      \\|numa\|pcie\|bus\|ports\|devname\|x\|y\|pitch\|label_code\|tray_height
      \\|spares\|slack\|slot\|rdhx\|rack_limit\|supply\|coolant\|delta_t
      \\|redundancy\|at\|power\|hostname\|length\|cable\|endpoints
      \\|spine_switch\|tiers\|oversubscription\|su_size\|place_leaves
      \\|place_spines\|place_cores\|per_rack\|members\|final_sus\|planes
      \\|uplinks\|core_growth\|leaf_band\|leaves_per_rack\|waive
      \\|flops_fp64\|flops_tf32\|flops_bf16\|flops_fp8\|flops_fp4
      \\|latency\|message_size\|pue\|faceplate\|label\|in_assembly\)\>"

" the eight functions (section 4.5), before their '('
syn match rackFunction "\<\%(len\|min\|max\|ceil_div\|floor\|ceil\|round\|to\)\ze\s*("

" numbers with their unit suffix, touching (2.6, 3); a ratio a:b (2.7)
syn match rackNumber "\<\d[0-9_]*\%(\.\d[0-9_]*\)\=\%([eE][+-]\=\d\+\)\=" nextgroup=rackUnit
syn match rackUnit contained "\%(EFLOP\/s\|GFLOP\/s\|PFLOP\/s\|TFLOP\/s\|FLOP\/s\|mL\/min\|L\/min
      \\|GB\/s\|Gb\/s\|Gbps\|Kbps\|MB\/s\|Mb\/s\|Mbps\|TB\/s\|Tb\/s\|Tbps
      \\|kB\/s\|kb\/s\|B\/s\|GiB\|KiB\|L\/s\|MiB\|TiB\|USD\|b\/s\|bps
      \\|ppm\|GB\|MB\|MW\|PB\|TB\|cm\|ft\|in\|kB\|kV\|kW\|kg\|km\|mA\|mV
      \\|mW\|mm\|ms\|ns\|um\|us\|%\|A\|B\|C\|K\|U\|V\|W\|g\|m\|s\|t\)\%([A-Za-z0-9_%/]\)\@!"
syn match rackRatio "\<\d\+:\d\+\>"

syn match rackOperator "--\|->\|\.\.\|==\|!=\|<=\|>=\|&&\|||"

" strings (2.5) and format strings f"..{EXPR:SPEC}..": in a field the
" first ':' starts the spec, so no ratio there
syn match rackEscape contained +\\[\\"nt]+
syn match rackBadEscape contained +\\[^\\"nt]+
syn region rackString start=+"+ skip=+\\\\\|\\"+ end=+"+ end=+$+ oneline contains=rackEscape,rackBadEscape
syn region rackFString matchgroup=rackString start=+\<f"+ skip=+\\\\\|\\"+ end=+"+ end=+$+ oneline contains=rackEscape,rackBadEscape,rackBraceEscape,rackField
syn region rackField contained matchgroup=rackFieldDelim start="{" end="}" oneline contains=rackNumber,rackFunction,rackKeyword,rackBoolean,rackOperator,rackFieldSpec
syn match rackFieldSpec contained ":[<>]\=0\=[0-9]*\%(\.[0-9]\+\)\=[A-Za-z%/]*\ze}"
" after the field: "{{" is a brace, not a field
syn match rackBraceEscape contained "{{\|}}"

" comments (2.2)
syn keyword rackTodo contained TODO FIXME XXX NOTE
syn match rackComment "#.*$" contains=rackTodo,@Spell
syn match rackComment "//.*$" contains=rackTodo,@Spell
syn region rackComment start="/\*" end="\*/" contains=rackTodo,@Spell

hi def link rackKeyword Statement
hi def link rackBoolean Boolean
hi def link rackKind Structure
hi def link rackAttribute Identifier
hi def link rackFunction Function
hi def link rackNumber Number
hi def link rackUnit Type
hi def link rackRatio Number
hi def link rackOperator Operator
hi def link rackString String
hi def link rackFString String
hi def link rackEscape SpecialChar
hi def link rackBraceEscape SpecialChar
hi def link rackBadEscape Error
hi def link rackFieldDelim Delimiter
hi def link rackFieldSpec Special
hi def link rackTodo Todo
hi def link rackComment Comment

let b:current_syntax = 'rack'
let &cpo = s:cpo_save
unlet s:cpo_save
