// SPDX-License-Identifier: GPL-2.0
/*
 * frec_format_scan_core.c - the format scanner, compiled into the KUnit
 * module so that its suites test the very source frec.ko is built from.
 */
#include "../kmod/frec_format_scan.c"
