#!/bin/sh
# SPDX-License-Identifier: MIT
# Stands in for the unit tests when configure did not find Criterion
# (libcriterion-dev): says that they were skipped, and why.
. "$(dirname "$0")/lib.sh"

skip "unit tests" "Criterion >= 2.3 not found by configure (install libcriterion-dev and configure again)"
finish
