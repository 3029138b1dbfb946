// SPDX-License-Identifier: GPL-2.0
/*
 * vmcore.c - a kdump (/proc/vmcore, makedumpfile's ELF output, or its
 * compressed kdump format, kdump.c) made into a black box region image
 * that region.c reads.
 *
 * frec loaded with vmcore_region= keeps a directory (uapi/frec_vmcore.h)
 * naming by physical address the pages of a region image of its sites
 * and texts, and every ring's per-CPU slots.  An ELF vmcore's PT_LOAD
 * segments say which file bytes hold which physical addresses, a
 * compressed one's bitmap and page descriptors which pages (kdump.c); the
 * directory is found by its magic at the start of a page, the valid copy
 * with the highest generation taken, and its pages joined: the tables as
 * they are, the rings' slots as a new parts section, one ring entry each.
 * Physical memory a vmcore leaves out (makedumpfile drops zero pages, and
 * free, cache and user pages, none of which frec's are) reads as zeros,
 * counted.  Nothing in the file is trusted: every count is bounded by the
 * bytes that hold it, and a refusal names the file offset.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "frec_decode.h"
#include "frec_vmcore_dir.h"

#define PAGE	4096ULL
/* The magic is looked for this many pages a read. */
#define SCAN_PAGES	256
#define PHDR_BYTES	56
#define PT_LOAD	1
/*
 * Memory a vmcore may describe per byte of its file: a compressed kdump's
 * bitmaps give a page a bit, and an ELF's PT_LOADs are bounded the same.
 */
#define DESCRIBED_PER_BYTE	(8 * PAGE)

struct load {
	u64 off, paddr, filesz, memsz;
};

/* The physical memory of an ELF vmcore (loads) or a compressed one (kd). */
struct vmcore {
	const struct frec_vmcore_src *src;
	struct load *loads;
	u32 nr_loads;
	struct frec_kdump *kd;
	/*
	 * The physical memory the file describes, which bounds the tables
	 * and rings the directory may claim together (join()): a
	 * compressed kdump's frames, a bit each in its bitmaps; an ELF's
	 * PT_LOADs' highest end, but no more than DESCRIBED_PER_BYTE a byte
	 * of the file, as a compressed kdump's bitmaps would: a PT_LOAD's
	 * 8 bytes of memsz claim up to 2^64, and rings claimed there would
	 * be allocated whole, read as zeros, for a file of a few pages.
	 * Not the PT_LOADs' file bytes: makedumpfile -E leaves zero pages
	 * out, a ring's unused slots among them.
	 */
	u64 mem_bytes;
	u64 absent;		/* bytes read as zeros: in no PT_LOAD's file bytes */
};

static int read_at(const struct vmcore *vc, u64 off, void *buf, u64 len,
		   struct frec_err *err)
{
	if (off > vc->src->size || len > vc->src->size - off)
		return frec_errf(err, off, "%llu bytes run past the file's end (%llu bytes)",
				 (unsigned long long)len,
				 (unsigned long long)vc->src->size);
	if (vc->src->read(vc->src->ctx, off, buf, len))
		return frec_errf(err, off, "cannot read %llu bytes: %s",
				 (unsigned long long)len, strerror(errno));
	return 0;
}

/* The PT_LOAD segments of an ELF64 little-endian vmcore. */
static int parse_elf(struct vmcore *vc, struct frec_err *err)
{
	u8 eh[64], ph[PHDR_BYTES];
	u64 phoff, i;
	u32 phnum;
	struct load *l;

	if (vc->src->size < sizeof(eh) || read_at(vc, 0, eh, sizeof(eh), err) ||
	    memcmp(eh, "\177ELF", 4))
		return frec_errf(err, 0, "not an ELF vmcore nor a compressed kdump (no ELF magic, no \"KDUMP   \" signature)");
	if (eh[4] != 2 || eh[5] != 1)
		return frec_errf(err, 4, "ELF class %u, data %u: want 64-bit little-endian",
				 eh[4], eh[5]);
	phoff = frec_get_le64(eh + 32);
	phnum = eh[56] | eh[57] << 8;
	if ((eh[54] | eh[55] << 8) != PHDR_BYTES)
		return frec_errf(err, 54, "program headers of %u bytes, want %u",
				 eh[54] | eh[55] << 8, PHDR_BYTES);
	if (phnum == 0xffff)
		return frec_errf(err, 56, "65535 or more program headers: not read");
	if (phoff > vc->src->size || (u64)phnum * PHDR_BYTES > vc->src->size - phoff)
		return frec_errf(err, 32, "%u program headers at offset %llu run past the file's end",
				 phnum, (unsigned long long)phoff);
	vc->loads = calloc(phnum ? phnum : 1, sizeof(*vc->loads));
	if (!vc->loads)
		return frec_errf(err, phoff, "out of memory");
	for (i = 0; i < phnum; i++) {
		u64 at = phoff + i * PHDR_BYTES;

		if (read_at(vc, at, ph, sizeof(ph), err))
			return -1;
		if (frec_get_le32(ph) != PT_LOAD)
			continue;
		l = &vc->loads[vc->nr_loads];
		l->off = frec_get_le64(ph + 8);
		l->paddr = frec_get_le64(ph + 24);
		l->filesz = frec_get_le64(ph + 32);
		l->memsz = frec_get_le64(ph + 40);
		if (l->off > vc->src->size || l->filesz > vc->src->size - l->off)
			return frec_errf(err, at, "PT_LOAD's %llu bytes at file offset %llu run past the file's end (%llu bytes): cut short?",
					 (unsigned long long)l->filesz,
					 (unsigned long long)l->off,
					 (unsigned long long)vc->src->size);
		if (l->filesz > l->memsz || l->paddr + l->memsz < l->paddr)
			return frec_errf(err, at, "PT_LOAD of %llu file bytes, %llu in memory at physical 0x%llx: bad sizes",
					 (unsigned long long)l->filesz,
					 (unsigned long long)l->memsz,
					 (unsigned long long)l->paddr);
		if (l->paddr + l->memsz > vc->mem_bytes)
			vc->mem_bytes = l->paddr + l->memsz;
		vc->nr_loads++;
	}
	if (!vc->nr_loads)
		return frec_errf(err, phoff, "no PT_LOAD segment");
	if (vc->src->size < UINT64_MAX / DESCRIBED_PER_BYTE &&
	    vc->mem_bytes > vc->src->size * DESCRIBED_PER_BYTE)
		vc->mem_bytes = vc->src->size * DESCRIBED_PER_BYTE;
	return 0;
}

/*
 * Up to @len bytes of physical memory at @pa, to the end of its page or
 * of the file bytes that hold it, into @buf: how many, set in *@n.
 * Return: 1, 0 if the vmcore leaves them out (@buf not written), -1 on
 * failure.
 */
static int read_piece(struct vmcore *vc, u64 pa, u8 *buf, u64 len, u64 *n,
		      struct frec_err *err)
{
	const struct load *l;
	const u8 *p;
	u64 at;
	u32 i;

	*n = PAGE - pa % PAGE < len ? PAGE - pa % PAGE : len;
	if (vc->kd) {
		p = frec_kdump_page(vc->kd, pa / PAGE, &at, err);
		if (p)
			memcpy(buf, p + pa % PAGE, *n);
		return p ? 1 : err->msg[0] ? -1 : 0;
	}
	for (i = 0; i < vc->nr_loads; i++) {
		l = &vc->loads[i];
		if (pa >= l->paddr && pa - l->paddr < l->filesz)
			break;
	}
	if (i == vc->nr_loads)
		return 0;
	if (*n > l->filesz - (pa - l->paddr))
		*n = l->filesz - (pa - l->paddr);
	return read_at(vc, l->off + (pa - l->paddr), buf, *n, err) ? -1 : 1;
}

/* The vmcore's physical memory, by its first bytes: which format. */
static int open_memory(struct vmcore *vc, struct frec_err *err)
{
	u8 sig[12];

	if (vc->src->size >= sizeof(sig) && !read_at(vc, 0, sig, sizeof(sig), err)) {
		if (!memcmp(sig, "makedumpfile", 12))
			return frec_errf(err, 0, "makedumpfile's flattened format (-F): make it a file with makedumpfile -R first");
		if (!memcmp(sig, "KDUMP   ", 8)) {
			if (frec_kdump_open(vc->src, &vc->kd, err))
				return -1;
			vc->mem_bytes = frec_kdump_frames(vc->kd) * PAGE;
			return 0;
		}
	}
	return parse_elf(vc, err);
}

/* @len bytes of physical memory at @pa into @buf; zeros where absent. */
static int read_phys(struct vmcore *vc, u64 pa, u8 *buf, u64 len, struct frec_err *err)
{
	u64 n;
	int ret;

	while (len) {
		ret = read_piece(vc, pa, buf, len, &n, err);
		if (ret < 0)
			return -1;
		if (!ret) {
			memset(buf, 0, n);
			vc->absent += n;
		}
		buf += n;
		pa += n;
		len -= n;
	}
	return 0;
}

/*
 * Check the directory copy whose magic is at file offset @at, physical
 * @pa; keep it in *@best if valid and newer.  A bad copy is a warning.
 */
static int try_dir(struct vmcore *vc, u64 at, u64 pa, u8 **best, u64 *best_at,
		   struct frec_err *err, FILE *errs, const char *name,
		   unsigned long long *warnings)
{
	struct frec_vmcore_dir d;
	u32 bytes, nr_rings, nr_ext;
	u8 *buf;

	if (read_phys(vc, pa, (u8 *)&d, sizeof(d), err))
		return -1;
	bytes = le32toh(d.dir_bytes);
	nr_rings = le32toh(d.nr_rings);
	nr_ext = le32toh(d.nr_extents);
	if (le32toh(d.version) != FREC_VMCORE_VERSION) {
		frec_warnf(errs, name, warnings, "offset %llu: a kdump directory of version %u, this reader knows %u: skipped",
			   (unsigned long long)at, le32toh(d.version), FREC_VMCORE_VERSION);
		return 0;
	}
	if (bytes > FREC_VMCORE_DIR_BYTES || nr_rings > FREC_VMCORE_DIR_BYTES ||
	    nr_ext > FREC_VMCORE_DIR_BYTES ||
	    bytes != sizeof(d) + nr_rings * sizeof(struct frec_vmcore_ring) +
		     nr_ext * sizeof(struct frec_vmcore_extent) ||
	    le32toh(d.tables_extents) > nr_ext) {
		frec_warnf(errs, name, warnings, "offset %llu: a kdump directory of %u bytes, %u rings, %u extents: bad counts, skipped",
			   (unsigned long long)at, bytes, nr_rings, nr_ext);
		return 0;
	}
	buf = malloc(bytes);
	if (!buf)
		return frec_errf(err, at, "out of memory");
	if (read_phys(vc, pa, buf, bytes, err)) {
		free(buf);
		return -1;
	}
	if (frec_vmcore_dir_csum((void *)buf, bytes) != le32toh(((struct frec_vmcore_dir *)buf)->csum)) {
		frec_warnf(errs, name, warnings, "offset %llu: a kdump directory with a bad checksum (rewritten when the kernel stopped?): skipped",
			   (unsigned long long)at);
		free(buf);
		return 0;
	}
	if (*best && le64toh(((struct frec_vmcore_dir *)*best)->gen) >= le64toh(d.gen)) {
		free(buf);
		return 0;
	}
	free(*best);
	*best = buf;
	*best_at = at;
	return 0;
}

/* A directory copy if the page at @pa, file offset @at, starts with one. */
static int check_page(struct vmcore *vc, const u8 *page, u64 at, u64 pa, u8 **best,
		      u64 *best_at, struct frec_err *err, FILE *errs, const char *name,
		      unsigned long long *warnings)
{
	if (memcmp(page, FREC_VMCORE_MAGIC, FREC_VMCORE_MAGIC_LEN))
		return 0;
	return try_dir(vc, at, pa, best, best_at, err, errs, name, warnings);
}

/* Every page a compressed kdump holds, decompressed, for the magic. */
static int find_dir_kdump(struct vmcore *vc, u8 **best, u64 *best_at, struct frec_err *err,
			  FILE *errs, const char *name, unsigned long long *warnings)
{
	u64 pfn, end = frec_kdump_frames(vc->kd), at;
	const u8 *p;

	for (pfn = frec_kdump_next(vc->kd, 0); pfn < end; pfn = frec_kdump_next(vc->kd, pfn + 1)) {
		p = frec_kdump_page(vc->kd, pfn, &at, err);
		if (!p)
			return -1;
		if (check_page(vc, p, at, pfn * PAGE, best, best_at, err, errs, name,
			       warnings))
			return -1;
	}
	return 0;
}

/* Every page-aligned physical address the file holds, for the magic. */
static int find_dir(struct vmcore *vc, u8 **best, u64 *best_at, struct frec_err *err,
		    FILE *errs, const char *name, unsigned long long *warnings)
{
	u8 *chunk;
	const struct load *l;
	u64 pa, end, n, i;
	u32 j;

	if (vc->kd)
		return find_dir_kdump(vc, best, best_at, err, errs, name, warnings);
	chunk = malloc(SCAN_PAGES * PAGE);
	if (!chunk)
		return frec_errf(err, 0, "out of memory");
	for (j = 0; j < vc->nr_loads; j++) {
		l = &vc->loads[j];
		end = l->paddr + l->filesz;
		for (pa = (l->paddr + PAGE - 1) / PAGE * PAGE; pa < end && end - pa >= 16; pa += n) {
			n = end - pa < SCAN_PAGES * PAGE ? end - pa : SCAN_PAGES * PAGE;
			if (read_at(vc, l->off + (pa - l->paddr), chunk, n, err))
				goto fail;
			for (i = 0; i + FREC_VMCORE_MAGIC_LEN <= n; i += PAGE)
				if (check_page(vc, chunk + i, l->off + (pa - l->paddr) + i,
					       pa + i, best, best_at, err, errs, name, warnings))
					goto fail;
		}
	}
	free(chunk);
	return 0;
fail:
	free(chunk);
	return -1;
}

/*
 * The bytes of extents @first to @first + @nr - 1 of @dir, which must be
 * @bytes in all, at @out.
 */
static int read_extents(struct vmcore *vc, const u8 *dir, u64 at, u32 first, u32 nr,
			u64 bytes, u8 *out, struct frec_err *err)
{
	const struct frec_vmcore_dir *d = (const void *)dir;
	const struct frec_vmcore_extent *e = (const void *)(dir + sizeof(*d) +
		le32toh(d->nr_rings) * sizeof(struct frec_vmcore_ring));
	u64 sum = 0, pa, n;
	u32 i;

	for (i = first; i < first + nr; i++) {
		pa = le64toh(e[i].phys);
		n = le64toh(e[i].bytes);
		if (n > bytes - sum)
			return frec_errf(err, at, "extent %u: %llu bytes, past the %llu its ring or tables hold",
					 i, (unsigned long long)n, (unsigned long long)bytes);
		if (pa == FREC_VMCORE_NO_PHYS)
			memset(out + sum, 0, n);
		else if (read_phys(vc, pa, out + sum, n, err))
			return -1;
		sum += n;
	}
	if (sum != bytes)
		return frec_errf(err, at, "extents %u to %u hold %llu bytes, not %llu",
				 first, first + nr, (unsigned long long)sum,
				 (unsigned long long)bytes);
	return 0;
}

/* The directory @dir (at file offset @at) joined into one region image. */
static int join(struct vmcore *vc, const u8 *dir, u64 at, unsigned char **image,
		size_t *image_len, struct frec_err *err, FILE *errs, const char *name,
		unsigned long long *warnings)
{
	const struct frec_vmcore_dir *d = (const void *)dir;
	const struct frec_vmcore_ring *r = (const void *)(dir + sizeof(*d));
	u32 nr_rings = le32toh(d->nr_rings), nr_ext = le32toh(d->nr_extents);
	u64 tables = le64toh(d->tables_bytes), parts = 0, ring_bytes, rings_off, off;
	struct frec_region_header *hdr;
	struct frec_region_ring *e;
	u32 i, nr_entries, k = 0;
	u8 *img;

	if (tables < FREC_REGION_MIN_BYTES || tables % FREC_REGION_BLOCK || tables > vc->mem_bytes)
		return frec_errf(err, at, "tables of %llu bytes: want a multiple of %u from %u to the %llu bytes of memory the vmcore describes",
				 (unsigned long long)tables, FREC_REGION_BLOCK,
				 FREC_REGION_MIN_BYTES, (unsigned long long)vc->mem_bytes);
	for (i = 0; i < nr_rings; i++) {
		u64 cpus = le32toh(r[i].nr_cpus), slots = le64toh(r[i].nr_slots);

		/*
		 * Divided, not multiplied: the product of a ring's counts,
		 * or the sum of the rings, would wrap.  Together with the
		 * tables they fit in the memory the vmcore describes.
		 */
		if (le32toh(r[i].first_extent) > nr_ext ||
		    le32toh(r[i].nr_extents) > nr_ext - le32toh(r[i].first_extent) ||
		    !cpus || !slots || slots > (vc->mem_bytes - tables) / FREC_SLOT_BYTES / cpus)
			return frec_errf(err, at, "ring %u: %llu CPUs of %llu slots in extents %u+%u: more than the vmcore holds",
					 i, (unsigned long long)cpus, (unsigned long long)slots,
					 le32toh(r[i].first_extent), le32toh(r[i].nr_extents));
		parts += cpus * slots * FREC_SLOT_BYTES;
		if (parts > vc->mem_bytes - tables || parts < cpus * slots * FREC_SLOT_BYTES ||
		    parts > UINT64_MAX - FREC_REGION_BLOCK)
			return frec_errf(err, at, "ring %u: the rings up to it and %llu bytes of tables hold more than the %llu bytes of memory the vmcore describes",
					 i, (unsigned long long)tables,
					 (unsigned long long)vc->mem_bytes);
	}
	parts = (parts + FREC_REGION_BLOCK - 1) / FREC_REGION_BLOCK * FREC_REGION_BLOCK;
	if (!parts)
		parts = FREC_REGION_BLOCK;
	/* The image's size, tables + parts, must not wrap. */
	if (parts > SIZE_MAX - tables)
		return frec_errf(err, at, "tables of %llu bytes and rings of %llu: too large an image",
				 (unsigned long long)tables, (unsigned long long)parts);
	img = calloc(1, tables + parts);
	if (!img)
		return frec_errf(err, at, "out of memory for a %llu-byte image",
				 (unsigned long long)(tables + parts));
	if (read_extents(vc, dir, at, 0, le32toh(d->tables_extents), tables, img, err))
		goto fail;
	hdr = (void *)img;
	rings_off = le64toh(hdr->sect[FREC_REGION_RINGS].offset);
	nr_entries = le32toh(hdr->sect[FREC_REGION_RINGS].nr_entries);
	if (memcmp(hdr->magic, FREC_REGION_MAGIC, FREC_REGION_MAGIC_LEN) ||
	    le32toh(hdr->sect[FREC_REGION_RINGS].entry_bytes) != sizeof(*e) ||
	    rings_off > tables || nr_entries > (tables - rings_off) / sizeof(*e)) {
		frec_errf(err, at, "its tables hold no region header with a rings section");
		goto fail;
	}
	off = 0;
	for (i = 0; i < nr_rings; i++) {
		ring_bytes = (u64)le32toh(r[i].nr_cpus) * le64toh(r[i].nr_slots) * FREC_SLOT_BYTES;
		if (k == nr_entries) {
			frec_warnf(errs, name, warnings, "offset %llu: ring %.32s: the tables have %u ring entries: left out",
				   (unsigned long long)at, r[i].name, nr_entries);
			continue;
		}
		if (read_extents(vc, dir, at, le32toh(r[i].first_extent),
				 le32toh(r[i].nr_extents), ring_bytes, img + tables + off, err))
			goto fail;
		e = (void *)(img + rings_off + (u64)k * sizeof(*e));
		memset(e, 0, sizeof(*e));
		e->id = htole32(k);
		e->kind = r[i].kind;
		e->order = r[i].order;
		e->nr_cpus = r[i].nr_cpus;
		e->max_record_len = r[i].max_record_len;
		e->nr_slots = r[i].nr_slots;
		e->parts_offset = htole64(tables + off);
		memcpy(e->name, r[i].name, sizeof(e->name));
		frec_region_ring_seal(e, NULL);
		off += ring_bytes;
		k++;
	}
	hdr->region_bytes = htole64(tables + parts);
	hdr->sect[FREC_REGION_PARTS].offset = htole64(tables);
	hdr->sect[FREC_REGION_PARTS].bytes = htole64(parts);
	frec_region_header_seal(hdr);
	*image = img;
	*image_len = tables + parts;
	return 0;
fail:
	free(img);
	return -1;
}

/**
 * frec_vmcore_image() - the region image of frec's rings in a vmcore
 * @src: the vmcore, read through @src->read.
 * @name: its name for warnings.
 * @errs: where warnings go.
 * @warnings: counts them.
 * @image: set to the image, malloc'd.
 * @len: set to its size.
 * @err: set on failure, with the file offset.
 *
 * Return: 0, or -1 with @err set.
 */
int frec_vmcore_image(const struct frec_vmcore_src *src, const char *name, FILE *errs,
		      unsigned long long *warnings, unsigned char **image, size_t *len,
		      struct frec_err *err)
{
	struct vmcore vc = { .src = src };
	u8 *dir = NULL;
	u64 at = 0;
	int ret = -1;

	if (open_memory(&vc, err) || find_dir(&vc, &dir, &at, err, errs, name, warnings))
		goto out;
	if (!dir) {
		frec_errf(err, src->size, "no valid frec kdump directory in the %llu bytes of memory the vmcore describes: not a boot of frec with vmcore_region=",
			  (unsigned long long)vc.mem_bytes);
		goto out;
	}
	vc.absent = 0;
	ret = join(&vc, dir, at, image, len, err, errs, name, warnings);
	if (!ret && vc.absent)
		fprintf(errs, "frec-decode: %s: %llu bytes of frec's memory are not in the vmcore: read as zeros\n",
			name, (unsigned long long)vc.absent);
out:
	free(dir);
	free(vc.loads);
	frec_kdump_close(vc.kd);
	return ret;
}
