/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_vmcore_dir.h - the kdump directory's checksum (uapi/frec_vmcore.h),
 * one copy for the module, which writes the directory, frec-gen, which
 * writes test vmcores, and frec-decode, which checks it.
 */
#ifndef _FREC_VMCORE_DIR_H
#define _FREC_VMCORE_DIR_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "frec_user.h"
#endif

#include <frec_vmcore.h>

u32 frec_vmcore_dir_csum(const struct frec_vmcore_dir *dir, u32 dir_bytes);

#endif /* _FREC_VMCORE_DIR_H */
