/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_compat.h - the differences between the kernels frec builds for
 * (Debian 12's 6.1, 6.12 and 6.12-rt), each handled once, here, with the
 * version that changed and why.  No other file tests LINUX_VERSION_CODE.
 */
#ifndef _FREC_COMPAT_H
#define _FREC_COMPAT_H

#include <linux/version.h>

/*
 * 6.10: __assign_str() lost its second argument (v6.10 commit 2c92ca849fcc
 * "tracing/treewide: Remove second parameter of __assign_str()"); the
 * source is the one the event's __string() named.  FREC_ASSIGN_STR(dst,
 * src) takes both and passes what the kernel wants; src must be the
 * __string() source.
 */
#if KERNEL_VERSION(6, 10, 0) <= LINUX_VERSION_CODE
#define FREC_ASSIGN_STR(dst, src)	__assign_str(dst)
#else
#define FREC_ASSIGN_STR(dst, src)	__assign_str(dst, src)
#endif

#endif /* _FREC_COMPAT_H */
