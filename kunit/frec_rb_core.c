// SPDX-License-Identifier: GPL-2.0
/*
 * frec_rb_core.c - the ring core, compiled into the KUnit module with
 * its test hooks (FREC_RB_TEST_HOOKS, set in kunit/Kbuild), so the suite
 * tests the very source frec.ko is built from, in isolation.
 */
#include "../kmod/lib/frec_rb.c"
