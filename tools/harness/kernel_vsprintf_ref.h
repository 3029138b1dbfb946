/* SPDX-License-Identifier: GPL-2.0 */
/* kernel_vsprintf_ref.h - the kernel's vsnprintf(), for test_format.c. */
#ifndef _FREC_KERNEL_VSPRINTF_REF_H
#define _FREC_KERNEL_VSPRINTF_REF_H

#include <stddef.h>

/*
 * Linux 6.1's vsnprintf() with its arguments read from @args, one
 * unsigned long each; %s reads @args' pointers directly, %p prints as %px.
 */
int ref_vsnprintf(char *buf, size_t size, const char *fmt,
		  const unsigned long *args);

#endif /* _FREC_KERNEL_VSPRINTF_REF_H */
