/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * frec's kdump directory: what frec-decode --vmcore looks for in a vmcore
 * (doc/decode.md, "A kdump").  frec loaded with vmcore_region= keeps two
 * copies of it in its own memory, each physically contiguous and
 * page-aligned; a directory names, by physical address, the pages of a
 * region image (uapi/frec_region.h) holding the sites, texts and pool
 * (its parts section unused) and the per-CPU slot arrays of every ring.
 * The decoder finds a copy by its magic at the start of a page, checks
 * its checksum, and joins the pages into one region image.
 *
 * A vmcore is read by code that trusts none of it: fixed-width types, no
 * pointers, every number little-endian.
 *
 *   struct frec_vmcore_dir            at the page's start
 *   struct frec_vmcore_ring[nr_rings]  right after it
 *   struct frec_vmcore_extent[nr_extents]  after the rings: the region
 *                                     image's first, then each ring's
 */
#ifndef _UAPI_FREC_VMCORE_H
#define _UAPI_FREC_VMCORE_H

#include <linux/types.h>

#include "frec_region.h"

/* 16 bytes, as FREC_REGION_MAGIC: a top-bit byte, the name, CR LF, NUL. */
#define FREC_VMCORE_MAGIC	"\x89\x46RECKDUMPDIR\r\n"	/* 16 with NUL */
#define FREC_VMCORE_MAGIC_LEN	16

/* Bumped on any change a reader must know about. */
#define FREC_VMCORE_VERSION	1

/* A copy's largest size: the kernel's two copies, the decoder's bound. */
#define FREC_VMCORE_DIR_BYTES	65536

/* struct frec_vmcore_extent @phys of bytes no memory holds: zeros. */
#define FREC_VMCORE_NO_PHYS	(~0ULL)

/**
 * struct frec_vmcore_dir - one copy of the directory
 * @magic: FREC_VMCORE_MAGIC.
 * @version: FREC_VMCORE_VERSION.
 * @dir_bytes: the bytes from @magic to the last extent's end.
 * @gen: generation; the valid copy with the higher one is current.
 * @tables_bytes: the region image's size, a multiple of FREC_REGION_BLOCK.
 * @tables_extents: the extents holding it, from extent 0.
 * @nr_rings: struct frec_vmcore_ring entries.
 * @nr_extents: struct frec_vmcore_extent entries.
 * @reserved: 0.
 * @csum: frec_vmcore_dir_csum() of the @dir_bytes with @csum 0.
 */
struct frec_vmcore_dir {
	char magic[FREC_VMCORE_MAGIC_LEN];
	__le32 version;
	__le32 dir_bytes;
	__le64 gen;
	__le64 tables_bytes;
	__le32 tables_extents;
	__le32 nr_rings;
	__le32 nr_extents;
	__le32 reserved[2];
	__le32 csum;
};

/**
 * struct frec_vmcore_ring - a ring's store
 * @name: the ring's name, NUL-padded (struct frec_region_ring's rule).
 * @kind: as struct frec_region_ring @kind.
 * @order: as struct frec_region_ring @order.
 * @nr_cpus: the per-CPU slot arrays, CPU 0 to @nr_cpus - 1.
 * @max_record_len: as struct frec_region_ring @max_record_len.
 * @nr_slots: slots per CPU, a power of two.
 * @first_extent: the extent CPU 0's slots start in.
 * @nr_extents: the extents holding the @nr_cpus arrays one after the
 *	other: @nr_cpus * @nr_slots * FREC_SLOT_BYTES bytes in all.
 */
struct frec_vmcore_ring {
	char name[FREC_REGION_RING_NAME_LEN];
	__le32 kind;
	__le32 order;
	__le32 nr_cpus;
	__le32 max_record_len;
	__le64 nr_slots;
	__le32 first_extent;
	__le32 nr_extents;
};

/**
 * struct frec_vmcore_extent - bytes at consecutive physical addresses
 * @phys: the first one's, or FREC_VMCORE_NO_PHYS for zeros.
 * @bytes: how many.
 */
struct frec_vmcore_extent {
	__le64 phys;
	__le64 bytes;
};

#endif /* _UAPI_FREC_VMCORE_H */
