// SPDX-License-Identifier: GPL-2.0
/*
 * frec_previous.c - the black box region as this boot found it, before
 * this boot takes it: debugfs frec/previous/.
 *
 *   info   what was found: the boot that wrote the region (boot id,
 *          kernel release, how it ended), its rings, and the records
 *          recovered and rejected, by reason; or why no previous boot
 *          was found (not a region, another layout version, a region
 *          written at another physical address, a region an older boot
 *          left: its times, nothing of it shown)
 *   raw    the region's image as it was, byte for byte, which frec-decode
 *          reads (doc/blackbox.md)
 *
 * The image is copied whole into ordinary memory before anything is
 * written to the region, and read only through the shared reader
 * (kmod/lib/frec_region.c), which trusts none of it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bsearch.h>
#include <linux/debugfs.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "frec_previous.h"
#include "frec_region_image.h"

/* The longest payload counted; the reader refuses a longer one as bad. */
#define FREC_PREVIOUS_PAYLOAD_MAX	65536
#define FREC_PREVIOUS_INFO_MAX		4096

static struct dentry *frec_previous_dir;
static struct debugfs_blob_wrapper frec_previous_raw;
static struct debugfs_blob_wrapper frec_previous_info;

/*
 * The addresses of @v's valid text entries, sorted, for the site words of
 * sites without an id: a region of garbage has many records naming none,
 * and each is looked up in log time, not by a walk of the table.
 */
struct frec_previous_texts {
	u64 *addr;
	u32 nr;
};

static int frec_previous_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static void frec_previous_texts_get(const struct frec_region_view *v,
				    struct frec_previous_texts *t)
{
	struct frec_region_text_info text;
	u32 i, n = v->nr_entries[FREC_REGION_TEXTS];
	u64 where;

	t->nr = 0;
	t->addr = n ? kvmalloc_array(n, sizeof(*t->addr), GFP_KERNEL) : NULL;
	if (!t->addr)
		return;
	for (i = 0; i < n; i++)
		if (frec_region_text_get(v, i, &text, &where) == 1)
			t->addr[t->nr++] = text.addr;
	sort(t->addr, t->nr, sizeof(*t->addr), frec_previous_cmp_u64, NULL);
}

/* Does the site word of @rec name a valid site or text entry of @v? */
static bool frec_previous_site_ok(const struct frec_region_view *v,
				  const struct frec_previous_texts *t,
				  const struct frec_region_record *rec)
{
	struct frec_region_site_info site;
	u64 where;

	if (rec->site < v->nr_entries[FREC_REGION_SITES] &&
	    frec_region_site_get(v, rec->site, &site, &where) == 1)
		return true;
	return t->nr && bsearch(&rec->site, t->addr, t->nr, sizeof(*t->addr),
				frec_previous_cmp_u64);
}

/* Count one ring's records into *@ok (shown) and @rej (by reason). */
static void frec_previous_count(const struct frec_region_view *v,
				const struct frec_previous_texts *t,
				const struct frec_region_ring_info *ring,
				u64 *ok, u64 rej[FREC_REGION_REJ_NR], u8 *buf)
{
	struct frec_region_record rec;
	u64 slot;
	u32 cpu;
	int r;

	for (cpu = 0; cpu < ring->nr_cpus; cpu++) {
		for (slot = 0; slot < ring->nr_slots; slot += r > 0 ? r : 1) {
			r = frec_region_record_get(v, ring, cpu, slot, &rec, buf,
						   FREC_PREVIOUS_PAYLOAD_MAX);
			if (r < 0)
				rej[-1 - r]++;
			else if (r > 0 && frec_previous_site_ok(v, t, &rec))
				(*ok)++;
			else if (r > 0)
				rej[FREC_REGION_REJ_SITE]++;
			cond_resched();
		}
	}
}

/* Where and when the image was written, and what this boot calls older. */
struct frec_previous_when {
	u64 phys_addr;
	u64 boot_wall_ns;
	u64 older_ns;
};

/*
 * Is the valid image @v another boot's than the previous one?  Fill @s
 * (of @size) with why and return its length, or return 0: it is the
 * previous boot's.  Its image stays in raw either way.
 */
static size_t frec_previous_not_previous(char *s, size_t size,
					 const struct frec_region_view *v,
					 const struct frec_previous_when *w)
{
	const struct frec_region_header *h = v->hdr;
	u64 alive = v->state.alive_wall_ns;
	size_t n;

	if (le64_to_cpu(h->phys_addr) != w->phys_addr)
		return scnprintf(s, size,
				 "previous boot: none found: the region was written at another physical address (moved)\n"
				 "raw holds its image\n");
	/*
	 * No valid state copy: no last sign of life to judge by; a clock
	 * behind the region's (no RTC) cannot tell either.
	 */
	if (!v->state_ok || alive >= w->boot_wall_ns ||
	    w->boot_wall_ns - alive <= w->older_ns)
		return 0;
	n = scnprintf(s, size,
		      "previous boot: none found: the region is an older boot's, last alive %llu s before this boot started (more than %llu s)\n",
		      (w->boot_wall_ns - alive) / NSEC_PER_SEC, w->older_ns / NSEC_PER_SEC);
	n += scnprintf(s + n, size - n, "older boot: %16phN\n", h->boot_id);
	n += scnprintf(s + n, size - n, "older boot release: %.*s\n",
		       (int)strnlen(h->release, sizeof(h->release)), h->release);
	n += scnprintf(s + n, size - n, "older boot wall ns: %llu\n",
		       le64_to_cpu(h->boot_wall_ns));
	n += scnprintf(s + n, size - n, "older boot alive wall ns: %llu\n", alive);
	n += scnprintf(s + n, size - n, "this boot wall ns: %llu\n", w->boot_wall_ns);
	n += scnprintf(s + n, size - n,
		       "raw holds its image, for forensics: frec-decode reads it\n");
	return n;
}

/* Fill @s (of @size) with info's text for the image @v opened as @verdict. */
static size_t frec_previous_describe(char *s, size_t size,
				     struct frec_region_view *v, int verdict,
				     const char *msg, u64 where,
				     const struct frec_previous_when *w)
{
	u64 ok = 0, rej[FREC_REGION_REJ_NR] = { 0 }, total_rej = 0, at;
	struct frec_region_ring_info ring;
	struct frec_previous_texts texts;
	const struct frec_region_header *h = v->hdr;
	size_t n = 0;
	u32 i, rings = 0, bad_rings = 0;
	u8 *buf;
	int r;

	if (verdict != FREC_REGION_VALID)
		return scnprintf(s, size, "previous boot: none found: %s (at byte %llu)\n",
				 msg, where);
	n = frec_previous_not_previous(s, size, v, w);
	if (n)
		return n;
	n += scnprintf(s + n, size - n, "previous boot: %16phN\n", h->boot_id);
	n += scnprintf(s + n, size - n, "release: %.*s\n",
		       (int)strnlen(h->release, sizeof(h->release)), h->release);
	n += scnprintf(s + n, size - n, "boot wall ns: %llu\n",
		       le64_to_cpu(h->boot_wall_ns));
	if (v->truncated)
		n += scnprintf(s + n, size - n,
			       "region cut short: %llu of its %llu bytes read (region= smaller than it was)\n",
			       v->len, le64_to_cpu(h->region_bytes));
	if (v->state_ok)
		n += scnprintf(s + n, size - n, "end: %s\nalive wall ns: %llu\n",
			       frec_region_end_name(v->state.end),
			       v->state.alive_wall_ns);
	else
		n += scnprintf(s + n, size - n, "end: unknown (no valid state copy)\n");
	buf = kvmalloc(FREC_PREVIOUS_PAYLOAD_MAX, GFP_KERNEL);
	if (!buf)
		return n + scnprintf(s + n, size - n, "records: not counted (no memory)\n");
	frec_previous_texts_get(v, &texts);
	for (i = 0; i < v->nr_entries[FREC_REGION_RINGS]; i++) {
		r = frec_region_ring_get(v, i, &ring, &at);
		if (r < 0)
			bad_rings++;
		if (r != 1)
			continue;
		rings++;
		n += scnprintf(s + n, size - n, "ring: %s, %u cpus, %llu slots each\n",
			       ring.name, ring.nr_cpus, ring.nr_slots);
		frec_previous_count(v, &texts, &ring, &ok, rej, buf);
	}
	kvfree(texts.addr);
	kvfree(buf);
	for (i = 0; i < FREC_REGION_REJ_NR; i++)
		total_rej += rej[i];
	n += scnprintf(s + n, size - n, "rings: %u, rejected %u\n", rings, bad_rings);
	n += scnprintf(s + n, size - n, "records recovered: %llu\nrecords rejected: %llu",
		       ok, total_rej);
	for (i = 0; i < FREC_REGION_REJ_NR; i++)
		if (rej[i])
			n += scnprintf(s + n, size - n, ", %s %llu",
				       frec_region_reject_name(i), rej[i]);
	n += scnprintf(s + n, size - n, "\n");
	return n;
}

/**
 * frec_previous_keep() - keep what the region holds, for frec/previous/
 * @region: the region, mapped; only read here.
 * @bytes: its size.
 * @phys_addr: its physical address (a region written at another was moved).
 * @root: frec's debugfs directory.
 * @boot_wall_ns: CLOCK_REALTIME of this boot's start.
 * @older_ns: a region last alive longer than this before @boot_wall_ns is
 *	an older boot's than the previous one: reported, not shown.
 *
 * Copies the image first and reads only the copy: the caller lays the
 * region out for this boot as soon as this returns.
 *
 * Context: Process context, module load.
 * Return: 0, or -ENOMEM (then the caller may go on without it).
 */
int frec_previous_keep(const void *region, u64 bytes, u64 phys_addr,
		       struct dentry *root, u64 boot_wall_ns, u64 older_ns)
{
	const struct frec_previous_when when = {
		.phys_addr = phys_addr,
		.boot_wall_ns = boot_wall_ns,
		.older_ns = older_ns,
	};
	char msg[FREC_REGION_MSG_MAX] = "";
	struct frec_region_view *v;
	void *image;
	char *info;
	u64 where = 0;
	int verdict;

	image = vmalloc(bytes);
	info = kzalloc(FREC_PREVIOUS_INFO_MAX, GFP_KERNEL);
	v = kzalloc(sizeof(*v), GFP_KERNEL);
	if (!image || !info || !v) {
		vfree(image);
		kfree(info);
		kfree(v);
		pr_err("region: no memory to keep the previous boot's %llu bytes\n", bytes);
		return -ENOMEM;
	}
	memcpy(image, region, bytes);
	verdict = frec_region_open(v, image, bytes, msg, sizeof(msg), &where);
	frec_previous_info.data = info;
	frec_previous_info.size = frec_previous_describe(info, FREC_PREVIOUS_INFO_MAX, v,
							 verdict, msg, where, &when);
	kfree(v);
	frec_previous_raw.data = image;
	frec_previous_raw.size = bytes;
	pr_info("region: %.*s", (int)strcspn(info, "\n") + 1, info);
	frec_previous_dir = debugfs_create_dir("previous", root);
	debugfs_create_blob("info", 0400, frec_previous_dir, &frec_previous_info);
	debugfs_create_blob("raw", 0400, frec_previous_dir, &frec_previous_raw);
	return 0;
}

/**
 * frec_previous_exit() - remove frec/previous/ and free what it showed
 *
 * Context: Process context, module unload.
 */
void frec_previous_exit(void)
{
	debugfs_remove_recursive(frec_previous_dir);
	frec_previous_dir = NULL;
	vfree(frec_previous_raw.data);
	kfree(frec_previous_info.data);
	frec_previous_raw.data = NULL;
	frec_previous_info.data = NULL;
}
