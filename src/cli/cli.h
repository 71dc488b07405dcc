/* SPDX-License-Identifier: MIT */
/*
 * The rackc command line as a library function (cli.c): main() sets the
 * process up and calls it; a fuzz target or a test may call it again and
 * again in one process.
 */
#ifndef RACKC_CLI_H
#define RACKC_CLI_H

/*
 * `rackc ARG...` (@argv[0] is the program's name, @argv[1..] the
 * arguments; -D NAME=VALUE arguments are written to): parse the options
 * and run the compiler, `rackc diff` or `rackc parts`.  Returns the exit
 * status; frees everything it allocated.
 */
int rackc_cli(int argc, char **argv);

#endif
