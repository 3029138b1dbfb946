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
 * checksum made valid with the module's own frec_vmcore_dir_csum().  So
 * what vmcore.c must not trust is what it reads: extents pointing
 * anywhere, of any length, rings claiming any number of CPUs and slots,
 * tables of any size.  An image it joins is decoded as frec-decode
 * decodes one (frec_region_decode_open()).  A crash, a sanitizer report,
 * a leak, a hang or an allocation larger than the vmcore could need
 * (-malloc_limit_mb) is what is looked for.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t how = take32(&data, &size), rings, exts, bytes, cut;
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
	if (bytes >= sizeof(*dir) && bytes <= mem_bytes)
		dir->csum = htole32(frec_vmcore_dir_csum(dir, bytes));
	/* Maybe cut short anywhere in the memory. */
	cut = how & 8 ? (how >> 25) * PAGE / 2 : 0;
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
