// SPDX-License-Identifier: GPL-2.0
/*
 * frec_hist_core.c - the latency histogram, compiled into the KUnit module
 * so that frec_hist_test.c tests the very source frec.ko and frec-decode
 * use.
 */
#include "../kmod/lib/frec_hist.c"
