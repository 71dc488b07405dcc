/* SPDX-License-Identifier: MIT */
/* `rackc parts`: list and show catalog parts (parts.c). */
#ifndef RACKC_PARTS_H
#define RACKC_PARTS_H

/* argv[0] is "parts"; returns the exit status. */
int parts_main(int argc, char **argv);

#endif
