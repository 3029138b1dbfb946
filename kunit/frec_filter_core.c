// SPDX-License-Identifier: GPL-2.0
/*
 * frec_filter_core.c - the filter language, compiled into the KUnit
 * module, so that frec_filter_test.c tests the very source frec.ko is
 * built from, in isolation (as frec_rb_core.c does for the ring core).
 */
#include "../kmod/lib/frec_filter.c"
