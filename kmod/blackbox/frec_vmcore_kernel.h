/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_vmcore_kernel.h - the kdump directory (frec_vmcore_kernel.c, uapi/frec_vmcore.h).
 */
#ifndef _FREC_VMCORE_KERNEL_H
#define _FREC_VMCORE_KERNEL_H

#include <linux/types.h>

struct frec_rb_cpu;

/*
 * vmcore_region= at most: the directory lists its pages among its extents,
 * 2048 of them at worst, half of a copy.
 */
#define FREC_VMCORE_REGION_MAX	(8ULL << 20)

int frec_vmcore_init(void *tables, u64 tables_bytes);
void frec_vmcore_exit(void);
unsigned int frec_vmcore_store_add(const char *name, unsigned int max_record_len,
				   bool global_order, unsigned long nr_slots,
				   struct frec_rb_cpu __percpu *cpus);
void frec_vmcore_store_del(unsigned int id);

#endif /* _FREC_VMCORE_KERNEL_H */
