// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_vmcore.c - libFuzzer target for frec-decode --vmcore (vmcore.c),
 * aware of the kdump directory's structure.
 *
 * Raw bytes almost never carry an ELF header, the directory's magic at a
 * page start and a valid checksum.  Here the input is the physical memory
 * of a vmcore of one PT_LOAD (at a physical address the input chooses,
 * maybe cut short in the file, its memory maybe claimed to reach the
 * 2^64th byte, where sizes wrap), whose first page starts with a directory
 * copy: its counts chosen by the input (a few rings and extents, or raw
 * numbers), its dir_bytes the one its counts say (or the input's), the
 * rest of it and every ring and extent the input's bytes, and its
 * checksum made valid with the module's own frec_vmcore_dir_csum(), its
 * tables of a size join() takes (6 to 13 blocks).  So what vmcore.c must
 * not trust is what it reads: extents pointing anywhere, of any length,
 * rings claiming any number of CPUs and slots.  An image it joins is decoded as frec-decode
 * decodes one (frec_region_decode_open()).  With the input's bit 4, the
 * same memory is written in makedumpfile's compressed kdump format
 * (kdump.c) instead: its pages zlib-compressed or raw, zero pages (or
 * every other page) left out of the 2nd bitmap, and a second word of the
 * input crafting what kdump.c must not trust: max_mapnr, the bitmaps'
 * blocks, the header's version, a page descriptor's size, flags and
 * offset.  A crash, a sanitizer report,
 * a leak, a hang or an allocation larger than the vmcore could need
 * (-malloc_limit_mb) is what is looked for.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "frec_decode.h"
#include "frec_vmcore_dir.h"

#define PAGE	4096

struct mem {
	const uint8_t *p;
	size_t len;
};

static int mem_read(void *ctx, u64 off, void *buf, size_t len)
{
	const struct mem *m = ctx;

	if (off > m->len || len > m->len - off)
		return -1;
	memcpy(buf, m->p + off, len);
	return 0;
}

static uint32_t take32(const uint8_t **d, size_t *n)
{
	uint32_t v = 0;

	if (*n >= 4) {
		memcpy(&v, *d, 4);
		*d += 4;
		*n -= 4;
	}
	return v;
}

static void put32(uint8_t *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, 8);
}

/*
 * @mem (@mem_bytes at physical @paddr) as a compressed kdump, crafted by
 * @k: its size in *@len; malloc'd.  Header, sub-header, a block for each
 * bitmap, then the page descriptors and the pages.
 */
static uint8_t *kdump(const uint8_t *mem, size_t mem_bytes, u64 paddr, uint32_t k,
		      size_t *len)
{
	size_t npages = (mem_bytes + PAGE - 1) / PAGE, i, kept = 0, at;
	u64 first = paddr / PAGE, mapnr = first + npages, descs = 4 * PAGE;
	uint8_t *f = calloc(1, descs + npages * (24 + PAGE + 64)), page[PAGE];
	uLongf zlen;

	if (!f)
		abort();
	memcpy(f, "KDUMP   ", 8);
	put32(f + 8, k & 8 ? 5 : 6);
	put32(f + 424, 1);
	put32(f + 428, PAGE);
	put32(f + 432, 1);
	put32(f + 436, k & 2 ? k >> 8 & 0xff : 2);
	put32(f + 440, (uint32_t)(k & 1 ? k >> 8 : mapnr));
	put64(f + PAGE + 96, k & 1 ? k >> 8 : mapnr);
	for (i = 0; i < npages; i++) {
		memset(page, 0, PAGE);
		memcpy(page, mem + i * PAGE, mem_bytes - i * PAGE < PAGE ? mem_bytes - i * PAGE : PAGE);
		f[2 * PAGE + (first + i) / 8] |= 1 << (first + i) % 8;
		if (k & 16 ? i % 2 : !memcmp(page, page + 1, PAGE - 1) && !page[0])
			continue;
		f[3 * PAGE + (first + i) / 8] |= 1 << (first + i) % 8;
		kept++;
	}
	at = descs + kept * 24;
	for (i = 0, kept = 0; i < npages; i++) {
		uint8_t *d = f + descs + kept * 24;

		if (!(f[3 * PAGE + (first + i) / 8] >> (first + i) % 8 & 1))
			continue;
		memset(page, 0, PAGE);
		memcpy(page, mem + i * PAGE, mem_bytes - i * PAGE < PAGE ? mem_bytes - i * PAGE : PAGE);
		zlen = PAGE + 64;
		if (k & 32 || compress2(f + at, &zlen, page, PAGE, 1) != Z_OK || zlen >= PAGE) {
			memcpy(f + at, page, PAGE);
			zlen = PAGE;
			put32(d + 12, 0);
		} else {
			put32(d + 12, 1);
		}
		put64(d, at);
		put32(d + 8, (uint32_t)zlen);
		if (k & 4 && kept == (k >> 16 & 63)) {
			/* One descriptor crafted: its size, flags or offset. */
			if (k & 64)
				put32(d + 8, k >> 22);
			if (k & 128)
				put32(d + 12, k >> 28);
			if (k & 256)
				put64(d, at + (k >> 22) - 512);
		}
		at += zlen;
		kept++;
	}
	*len = at;
	return f;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t how = take32(&data, &size), rings, exts, bytes, cut;
	uint32_t k = how & 16 ? take32(&data, &size) : 0;
	size_t mem_bytes = 2 * PAGE + (size > 64 * PAGE ? 64 * PAGE : size);
	size_t file_len = 64 + 56 + mem_bytes;
	struct frec_region_decode rd = { .name = "fuzz" };
	struct frec_vmcore_src src = { .read = mem_read };
	unsigned long long warnings = 0;
	struct frec_vmcore_dir *dir;
	unsigned char *image = NULL;
	uint8_t *f = calloc(1, file_len);
	u64 paddr = (u64)(how >> 8 & 0xff) * PAGE;
	struct frec_err err;
	struct mem m;
	size_t len;
	FILE *null = fopen("/dev/null", "w");

	if (!f || !null)
		abort();
	/* The ELF header and one PT_LOAD. */
	memcpy(f, "\177ELF\2\1\1", 7);
	f[54] = 56;
	f[56] = 1;
	*(uint64_t *)(f + 32) = htole64(64);
	*(uint32_t *)(f + 64) = htole32(1);
	*(uint64_t *)(f + 64 + 8) = htole64(120);
	*(uint64_t *)(f + 64 + 24) = htole64(paddr);
	*(uint64_t *)(f + 64 + 32) = htole64(mem_bytes);
	/* Its memory: its bytes, 16 pages more, or the whole 2^64 bytes. */
	*(uint64_t *)(f + 64 + 40) = htole64(how & 16 ? ~paddr :
					     mem_bytes + (how & 1 ? 0 : 16 * PAGE));
	/* The memory: the directory at its start, the input's bytes. */
	memcpy(f + 120 + sizeof(*dir), data, size < mem_bytes - sizeof(*dir) ?
	       size : mem_bytes - sizeof(*dir));
	dir = (void *)(f + 120);
	memcpy(dir->magic, FREC_VMCORE_MAGIC, FREC_VMCORE_MAGIC_LEN);
	dir->version = htole32(FREC_VMCORE_VERSION);
	rings = how & 2 ? le32toh(dir->nr_rings) : (how >> 16 & 7);
	exts = how & 2 ? le32toh(dir->nr_extents) : (how >> 19 & 63);
	bytes = how & 4 ? le32toh(dir->dir_bytes) :
		(uint32_t)(sizeof(*dir) + rings * sizeof(struct frec_vmcore_ring) +
			   exts * sizeof(struct frec_vmcore_extent));
	dir->nr_rings = htole32(rings);
	dir->nr_extents = htole32(exts);
	dir->dir_bytes = htole32(bytes);
	if (!(how & 2))
		dir->tables_extents = htole32(le32toh(dir->tables_extents) % (exts + 1));
	/*
	 * Tables of 6 to 13 blocks (the input's bits 5-7), as join() wants,
	 * or it refuses the directory before reading a single extent.
	 */
	dir->tables_bytes = htole64((u64)(FREC_REGION_MIN_BYTES / FREC_REGION_BLOCK +
					  (how >> 5 & 7)) * FREC_REGION_BLOCK);
	if (bytes >= sizeof(*dir) && bytes <= mem_bytes)
		dir->csum = htole32(frec_vmcore_dir_csum(dir, bytes));
	/* Maybe cut short anywhere in the memory. */
	cut = how & 8 ? (how >> 25) * PAGE / 2 : 0;
	if (how & 16) {
		uint8_t *kd = kdump(f + 120, mem_bytes, paddr, k, &file_len);

		free(f);
		f = kd;
	}
	m.p = f;
	m.len = cut && cut < file_len ? cut : file_len;
	src.ctx = &m;
	src.size = m.len;
	if (!frec_vmcore_image(&src, "fuzz", null, &warnings, &image, &len, &err)) {
		rd.errs = null;
		if (!frec_region_decode_open(&rd, image, len, &err))
			frec_region_decode_report(&rd);
		frec_region_decode_free(&rd);
		free(image);
	}
	fclose(null);
	free(f);
	return 0;
}
