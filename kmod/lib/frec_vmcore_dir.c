// SPDX-License-Identifier: GPL-2.0
/*
 * frec_vmcore_dir.c - the kdump directory's checksum (uapi/frec_vmcore.h).
 */
#ifdef __KERNEL__
#include <linux/stddef.h>
#include <linux/types.h>
#else
#include "frec_user.h"
#endif

#include "frec_region_image.h"
#include "frec_vmcore_dir.h"

/**
 * frec_vmcore_dir_csum() - the checksum a directory copy is sealed with
 * @dir: the copy, @dir_bytes bytes of it readable.
 * @dir_bytes: the bytes it covers (the copy's @dir_bytes, checked by the
 *	caller against what holds it), at least sizeof(*@dir).
 *
 * The CRC-32C of the bytes before @csum, then of those after it, so that
 * the writer need not clear @csum to compute it.
 *
 * Context: Any context.
 * Return: the checksum.
 */
u32 frec_vmcore_dir_csum(const struct frec_vmcore_dir *dir, u32 dir_bytes)
{
	const u8 *p = (const u8 *)dir;
	u32 crc;

	crc = frec_region_csum_add(FREC_REGION_CSUM_START, p,
				   offsetof(struct frec_vmcore_dir, csum));
	crc = frec_region_csum_add(crc, p + sizeof(*dir), dir_bytes - sizeof(*dir));
	return frec_region_csum_end(crc);
}
