/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec - a printk-style flight recorder for the Linux kernel.
 *
 * This is the header a client driver includes.  Build the driver with
 * frec's include/ directory on its include path and frec's Module.symvers
 * in KBUILD_EXTRA_SYMBOLS (see README.md).
 */
#ifndef _FREC_H
#define _FREC_H

/* Version of the client API declared in this header. */
#define FREC_API_VERSION_MAJOR	0
#define FREC_API_VERSION_MINOR	1

#endif /* _FREC_H */
