// SPDX-License-Identifier: GPL-2.0
/*
 * frec_merge_core.c - the merge engine, compiled into the KUnit module so
 * that frec_order tests the very source frec.ko and frec-decode use.
 */
#include "../kmod/lib/frec_merge.c"
