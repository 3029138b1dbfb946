/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_memmap.h - did this boot's command line set a range aside with
 * memmap=SIZE$ADDR (frec_memmap.c)?
 */
#ifndef _FREC_MEMMAP_H
#define _FREC_MEMMAP_H

#include <linux/types.h>

int frec_memmap_set_aside(const char *what, u64 addr, u64 size);

#endif /* _FREC_MEMMAP_H */
