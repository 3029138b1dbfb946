// SPDX-License-Identifier: GPL-2.0
/*
 * kdump.c - makedumpfile's compressed kdump format ("KDUMP   ", what
 * makedumpfile -c writes; Debian's kdump-tools saves it flattened, -F) read as
 * physical pages, for vmcore.c.
 *
 * The file is blocks of block_size bytes: the disk_dump_header, the
 * kdump_sub_header (sub_hdr_size blocks), bitmap_blocks of two bitmaps of
 * equal length (the 1st says which page frames the machine had, the 2nd
 * which of them are in the file, a bit a frame, lowest bit first), then a
 * 24-byte page_desc for every bit set in the 2nd bitmap, in frame order,
 * each naming the file offset and size of its page's data, compressed
 * or not.  Only zlib is read; a page of another compression is refused
 * by its flag.  Nothing is trusted: the bitmaps and descriptors must lie
 * in the file, every page must come to block_size bytes exactly, and a
 * refusal names the file offset.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "frec_decode.h"

#define SIG		"KDUMP   "
#define SIG_LEN		8
/* The disk_dump_header's fields, by offset (x86_64's layout). */
#define H_VERSION	8
#define H_STATUS	424
#define H_BLOCK_SIZE	428
#define H_SUB_HDR_SIZE	432
#define H_BITMAP_BLOCKS	436
#define H_MAX_MAPNR	440
#define H_BYTES		464
/* The kdump_sub_header's, from its block. */
#define S_SPLIT		12
#define S_MAX_MAPNR_64	96
#define S_BYTES		104
#define DESC_BYTES	24
/* The page size of x86_64, the only machine frec-decode reads kdumps of. */
#define BLOCK		4096u
/*
 * 2^36 page frames is 256 TiB, the most x86_64's 4-level paging maps: a
 * bound on top of the file size, which the bitmaps already bound.
 */
#define MAX_MAPNR	(1ULL << 36)
/* A rank every this many frames: where a frame's descriptor is, quickly. */
#define RANK_BITS	4096u

#define F_ZLIB		0x1
#define F_LZO		0x2
#define F_SNAPPY	0x4
#define F_INCOMPLETE	0x8
#define F_ZSTD		0x20

struct frec_kdump {
	const struct frec_vmcore_src *src;
	u64 max_mapnr;
	u8 *bitmap;		/* the 2nd bitmap */
	u64 *rank;		/* descriptors before each RANK_BITS frames */
	u64 descs_off;		/* file offset of the first page_desc */
	u64 nr_descs;
	u8 in[BLOCK];		/* a page's data as the file holds it */
	u8 page[BLOCK];		/* the last page read, decompressed */
	u64 page_pfn;		/* its frame; max_mapnr when none */
	u64 page_at;		/* its data's file offset */
};

static int read_at(const struct frec_vmcore_src *src, u64 off, void *buf, u64 len,
		   const char *what, struct frec_err *err)
{
	if (off > src->size || len > src->size - off)
		return frec_errf(err, off, "%s of %llu bytes runs past the file's end (%llu bytes): cut short?",
				 what, (unsigned long long)len, (unsigned long long)src->size);
	if (src->read(src->ctx, off, buf, len))
		return frec_errf(err, off, "cannot read %s: %s", what, strerror(errno));
	return 0;
}

static bool dumped(const struct frec_kdump *kd, u64 pfn)
{
	return kd->bitmap[pfn / 8] >> (pfn % 8) & 1;
}

/* Check the headers and read the 2nd bitmap, ranked. */
static int open_kdump(struct frec_kdump *kd, struct frec_err *err)
{
	const struct frec_vmcore_src *src = kd->src;
	u8 h[H_BYTES], s[S_BYTES];
	u64 sub_blocks, bitmap_blocks, bitmap_off, half, i, n = 0;
	u32 version, block, status;

	if (read_at(src, 0, h, sizeof(h), "the disk_dump_header", err))
		return -1;
	if (memcmp(h, SIG, SIG_LEN))
		return frec_errf(err, 0, "no \"KDUMP   \" signature: not a compressed kdump");
	version = frec_get_le32(h + H_VERSION);
	block = frec_get_le32(h + H_BLOCK_SIZE);
	status = frec_get_le32(h + H_STATUS);
	sub_blocks = frec_get_le32(h + H_SUB_HDR_SIZE);
	bitmap_blocks = frec_get_le32(h + H_BITMAP_BLOCKS);
	if (block != BLOCK)
		return frec_errf(err, H_BLOCK_SIZE, "block_size %u: want %u, x86_64's page size",
				 block, BLOCK);
	if (!sub_blocks || sub_blocks > src->size / BLOCK)
		return frec_errf(err, H_SUB_HDR_SIZE, "a sub-header of %llu blocks: want 1 to the file's %llu",
				 (unsigned long long)sub_blocks,
				 (unsigned long long)(src->size / BLOCK));
	if (read_at(src, BLOCK, s, sizeof(s), "the kdump_sub_header", err))
		return -1;
	if (version >= 2 && frec_get_le32(s + S_SPLIT))
		return frec_errf(err, BLOCK + S_SPLIT, "one part of a split dump (makedumpfile --split): join them with makedumpfile --reassemble");
	kd->max_mapnr = version >= 6 ? frec_get_le64(s + S_MAX_MAPNR_64) : frec_get_le32(h + H_MAX_MAPNR);
	if (status & F_INCOMPLETE)
		return frec_errf(err, H_STATUS, "an incomplete dump (status 0x%x: makedumpfile ran out of space?): not read",
				 status);
	bitmap_off = (1 + sub_blocks) * BLOCK;
	if (!bitmap_blocks || bitmap_blocks % 2 ||
	    bitmap_blocks > src->size / BLOCK - 1 - sub_blocks)
		return frec_errf(err, H_BITMAP_BLOCKS, "bitmaps of %llu blocks at offset %llu: want an even number, in the file's %llu bytes",
				 (unsigned long long)bitmap_blocks,
				 (unsigned long long)bitmap_off,
				 (unsigned long long)src->size);
	half = bitmap_blocks / 2 * BLOCK;
	if (!kd->max_mapnr || kd->max_mapnr > MAX_MAPNR || kd->max_mapnr > half * 8)
		return frec_errf(err, version >= 6 ? BLOCK + S_MAX_MAPNR_64 : H_MAX_MAPNR,
				 "max_mapnr %llu: want 1 to %llu, the frames the bitmaps of %llu bytes each hold",
				 (unsigned long long)kd->max_mapnr,
				 (unsigned long long)(half * 8 < MAX_MAPNR ? half * 8 : MAX_MAPNR),
				 (unsigned long long)half);
	/* Both bound by the file's size: its bitmap is in it. */
	kd->bitmap = malloc(half);
	kd->rank = malloc((kd->max_mapnr / RANK_BITS + 1) * sizeof(*kd->rank));
	if (!kd->bitmap || !kd->rank)
		return frec_errf(err, bitmap_off, "out of memory for a bitmap of %llu bytes",
				 (unsigned long long)half);
	if (read_at(src, bitmap_off + half, kd->bitmap, half, "the 2nd bitmap", err))
		return -1;
	/* Frames past max_mapnr are not the machine's: their bits are not read. */
	for (i = 0; i < kd->max_mapnr; i++) {
		if (i % RANK_BITS == 0)
			kd->rank[i / RANK_BITS] = n;
		n += dumped(kd, i);
	}
	kd->nr_descs = n;
	kd->descs_off = bitmap_off + bitmap_blocks * BLOCK;
	if (kd->descs_off > src->size || n > (src->size - kd->descs_off) / DESC_BYTES)
		return frec_errf(err, kd->descs_off, "%llu page descriptors (the 2nd bitmap's bits) run past the file's end (%llu bytes): cut short?",
				 (unsigned long long)n, (unsigned long long)src->size);
	kd->page_pfn = kd->max_mapnr;
	return 0;
}

/**
 * frec_kdump_open() - a compressed kdump's headers checked, its bitmap read
 * @src: the file.
 * @kd: set to the kdump, for frec_kdump_page(); frec_kdump_close() it.
 * @err: set on failure, with the file offset.
 *
 * Return: 0, or -1 with @err set (and *@kd NULL).
 */
int frec_kdump_open(const struct frec_vmcore_src *src, struct frec_kdump **kd,
		    struct frec_err *err)
{
	*kd = calloc(1, sizeof(**kd));
	if (!*kd)
		return frec_errf(err, 0, "out of memory");
	(*kd)->src = src;
	if (open_kdump(*kd, err)) {
		frec_kdump_close(*kd);
		*kd = NULL;
		return -1;
	}
	return 0;
}

/**
 * frec_kdump_frames() - how many page frames the crashed machine had
 * @kd: the kdump.
 *
 * Return: max_mapnr: frames 0 to it less one are read by frec_kdump_page().
 */
u64 frec_kdump_frames(const struct frec_kdump *kd)
{
	return kd->max_mapnr;
}

/* The page of the descriptor at file offset @at into kd->page. */
static int read_page(struct frec_kdump *kd, u64 at, struct frec_err *err)
{
	u8 d[DESC_BYTES];
	u64 off;
	u32 size, flags;
	uLongf out = BLOCK;
	int ret;

	if (read_at(kd->src, at, d, sizeof(d), "a page descriptor", err))
		return -1;
	off = frec_get_le64(d);
	size = frec_get_le32(d + 8);
	flags = frec_get_le32(d + 12);
	if (flags & ~F_ZLIB)
		return frec_errf(err, at, "a page compressed with %s (flags 0x%x): frec-decode reads zlib (makedumpfile -c) or uncompressed pages",
				 flags & F_LZO ? "lzo (makedumpfile -l)" :
				 flags & F_SNAPPY ? "snappy (makedumpfile -p)" :
				 flags & F_ZSTD ? "zstd (makedumpfile -z)" : "an unknown method",
				 flags);
	if (!size || size > BLOCK || (!flags && size != BLOCK))
		return frec_errf(err, at, "a page descriptor of %u bytes%s: want %s%u",
				 size, flags ? ", zlib" : "", flags ? "1 to " : "", BLOCK);
	if (read_at(kd->src, off, flags ? kd->in : kd->page, size, "a page's data", err))
		return -1;
	kd->page_at = off;
	if (!flags)
		return 0;
	ret = uncompress(kd->page, &out, kd->in, size);
	if (ret == Z_BUF_ERROR)
		return frec_errf(err, off, "a zlib page of %u bytes decompresses to more than %u",
				 size, BLOCK);
	if (ret != Z_OK)
		return frec_errf(err, off, "a zlib page of %u bytes does not decompress: %s",
				 size, zError(ret));
	if (out != BLOCK)
		return frec_errf(err, off, "a zlib page of %u bytes decompresses to %lu, not %u",
				 size, (unsigned long)out, BLOCK);
	return 0;
}

/**
 * frec_kdump_page() - the bytes of one page frame
 * @kd: the kdump.
 * @pfn: the frame, below frec_kdump_frames().
 * @at: set to the file offset of its data, for messages.
 * @err: set on failure, with the file offset.
 *
 * The last page read is kept: reading a page a piece at a time
 * decompresses it once.
 *
 * Return: the page's block of bytes, valid until the next call; NULL if the
 * file leaves the page out (a zero, free, cache or user page makedumpfile
 * -d dropped), or NULL with @err->msg set on failure.
 */
const u8 *frec_kdump_page(struct frec_kdump *kd, u64 pfn, u64 *at, struct frec_err *err)
{
	u64 idx, i;

	err->msg[0] = 0;
	if (pfn >= kd->max_mapnr || !dumped(kd, pfn))
		return NULL;
	if (pfn != kd->page_pfn) {
		idx = kd->rank[pfn / RANK_BITS];
		for (i = pfn / RANK_BITS * RANK_BITS; i < pfn; i++)
			idx += dumped(kd, i);
		kd->page_pfn = kd->max_mapnr;
		if (read_page(kd, kd->descs_off + idx * DESC_BYTES, err))
			return NULL;
		kd->page_pfn = pfn;
	}
	*at = kd->page_at;
	return kd->page;
}

/**
 * frec_kdump_next() - the first frame at or after @pfn the file holds
 * @kd: the kdump.
 * @pfn: where to look from.
 *
 * Return: the frame, or frec_kdump_frames() if there is none.
 */
u64 frec_kdump_next(const struct frec_kdump *kd, u64 pfn)
{
	while (pfn < kd->max_mapnr && !dumped(kd, pfn))
		pfn++;
	return pfn < kd->max_mapnr ? pfn : kd->max_mapnr;
}

/**
 * frec_kdump_close() - free a kdump of frec_kdump_open()
 * @kd: the kdump, or NULL.
 */
void frec_kdump_close(struct frec_kdump *kd)
{
	if (!kd)
		return;
	free(kd->bitmap);
	free(kd->rank);
	free(kd);
}
