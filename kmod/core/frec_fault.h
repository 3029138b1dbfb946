/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_fault.h - test-only fault injection in the write path and in ring
 * administration (frec_fault.c).
 */
#ifndef _FREC_FAULT_H
#define _FREC_FAULT_H

struct dentry;

void frec_fault_init(struct dentry *root);
int frec_fault_store_alloc(void);

#endif /* _FREC_FAULT_H */
