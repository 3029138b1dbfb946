// SPDX-License-Identifier: GPL-2.0
/*
 * frec_memmap.c - did this boot's kernel set a range aside with
 * memmap=SIZE$ADDR?  Only then is a region= range RAM nobody else uses: a
 * range that is neither System RAM nor busy can still be firmware's
 * ("Reserved" in /proc/iomem, as memmap='s own ranges are) or no memory
 * at all (doc/blackbox.md).
 *
 * The kernel's copy of its command line (boot_command_line,
 * saved_command_line) is not exported to modules on 6.1 or 6.12, nor is
 * the e820 table memmap= changed, so the line is read from /proc/cmdline,
 * whole, and its words are split as the kernel splits them before it
 * parses memmap= (kernel/params.c, parse_args(), with the exported
 * next_arg()): quotes group words, and "--" ends the kernel's parameters
 * (what follows is init's).  memmap= itself is read as
 * arch/x86/kernel/e820.c, parse_memmap_opt(), reads it:
 *
 *   memmap=SIZE$ADDR[,SIZE$ADDR...]  reserved: what frec takes
 *   memmap=exactmap                  empties the map: what an earlier
 *                                    memmap= set aside no longer counts
 *   memmap=SIZE#ADDR, SIZE!ADDR, SIZE%ADDR-FROM+TO
 *                                    ACPI, legacy persistent memory, a
 *                                    type changed: e820 gives an overlap
 *                                    the higher type, and a changed type
 *                                    is not frec's to judge, so a range
 *                                    any of these touches is refused
 *   memmap=SIZE@ADDR, memmap=SIZE    RAM, which loses an overlap with a
 *                                    reserved range; RAM above SIZE
 *                                    removed: neither changes a $ range
 *
 * One SIZE$ADDR item must cover the whole range; two adjacent ones do not
 * add up (a known limit).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "frec_memmap.h"

/*
 * The most of /proc/cmdline read: COMMAND_LINE_SIZE is 2048 on x86, but
 * a bootconfig's parameters are added to /proc/cmdline (up to 32 KiB of
 * bootconfig).  A longer line is refused, never read in part: a memmap=
 * past the cut would be missed, or a word cut in two misread.
 */
#define FREC_MEMMAP_CMDLINE_MAX	SZ_256K

/* What the memmap= items read so far make of the range. */
struct frec_memmap_verdict {
	bool reserved;	/* a SIZE$ADDR item covers it whole */
	bool other;	/* a #, ! or % item touches it */
};

/*
 * Whether [@start, @start + @len) and [@addr, @addr + @size) overlap;
 * @size is not 0 and the second range does not wrap, the first may.
 */
static bool frec_memmap_overlaps(u64 start, u64 len, u64 addr, u64 size)
{
	return start <= addr ? addr - start < len : start - addr < size;
}

/*
 * One item of a memmap= list, as parse_memmap_one() takes it: the range
 * is added to the map before the rest of the item is checked, so an item
 * with trailing characters still counts.
 */
static void frec_memmap_item(char *p, u64 addr, u64 size, struct frec_memmap_verdict *v)
{
	char *end;
	u64 msize, mstart;
	char how;

	if (!strncmp(p, "exactmap", 8)) {
		v->reserved = false;
		v->other = false;
		return;
	}
	msize = memparse(p, &end);
	if (end == p)
		return;
	how = *end;
	if (how != '$' && how != '#' && how != '!' && how != '%')
		return;
	mstart = memparse(end + 1, &end);
	/*
	 * A $ range whose end wraps past 2^64 is kept by e820 with its
	 * wrapped end, and a later remove (memmap=SIZE%ADDR) of any part of
	 * it drops it whole: the kernel may then reserve none of it.
	 */
	if (how == '$' && msize > U64_MAX - mstart)
		return;
	if (how != '$') {
		if (frec_memmap_overlaps(mstart, msize, addr, size))
			v->other = true;
		return;
	}
	if (mstart <= addr && addr - mstart <= msize &&
	    size <= msize - (addr - mstart))
		v->reserved = true;
}

/*
 * Whether the kernel's parameters in @cmdline set [@addr, @addr + @size)
 * aside with memmap=SIZE$ADDR (the file's comment).  @cmdline is
 * modified.
 */
static bool frec_memmap_covers(char *cmdline, u64 addr, u64 size)
{
	struct frec_memmap_verdict v = { };
	char *param, *val, *item;

	cmdline = skip_spaces(cmdline);
	while (*cmdline) {
		cmdline = next_arg(cmdline, &param, &val);
		if (!val && !strcmp(param, "--"))
			break;
		if (!val || strcmp(param, "memmap"))
			continue;
		while ((item = strsep(&val, ",")))
			frec_memmap_item(item, addr, size, &v);
	}
	return v.reserved && !v.other;
}

/*
 * /proc/cmdline, whole and NUL-terminated, in a buffer to kvfree(); NULL
 * with *@err set (-ENOMEM, -E2BIG for a line over
 * FREC_MEMMAP_CMDLINE_MAX, or the open's or read's error).
 */
static char *frec_memmap_cmdline(ssize_t *err)
{
	size_t max = PAGE_SIZE;
	struct file *f;
	char *line;
	loff_t pos;
	ssize_t n;

	f = filp_open("/proc/cmdline", O_RDONLY, 0);
	if (IS_ERR(f)) {
		*err = PTR_ERR(f);
		return NULL;
	}
	/* A buffer the line does not fill is the whole line. */
	for (;;) {
		line = kvzalloc(max + 1, GFP_KERNEL);
		if (!line) {
			*err = -ENOMEM;
			break;
		}
		pos = 0;
		do {
			n = kernel_read(f, line + pos, max - pos, &pos);
		} while (n > 0 && pos < max);
		if (n < 0) {
			*err = n;
		} else if (pos < max) {
			filp_close(f, NULL);
			return line;
		} else if (max >= FREC_MEMMAP_CMDLINE_MAX) {
			*err = -E2BIG;
		} else {
			kvfree(line);
			max *= 2;
			continue;
		}
		kvfree(line);
		line = NULL;
		break;
	}
	filp_close(f, NULL);
	return NULL;
}

/**
 * frec_memmap_set_aside() - did this boot's command line set a range aside
 *	with memmap=SIZE$ADDR?
 * @what: the region= value, for the log.
 * @addr: the range's first byte.
 * @size: its length.
 *
 * Context: Process context (reads /proc/cmdline).
 * Return: 0; -EINVAL, logged with @what and the range, if it was not set
 * aside or the command line could not be read whole; -ENOMEM.
 */
int frec_memmap_set_aside(const char *what, u64 addr, u64 size)
{
	ssize_t err = 0;
	char *line;
	bool covers;

	line = frec_memmap_cmdline(&err);
	if (!line) {
		if (err == -ENOMEM)
			return -ENOMEM;
		pr_err("region=%.64s: cannot read /proc/cmdline whole (%zd) to check that memmap= set the range aside\n",
		       what, err);
		return -EINVAL;
	}
	covers = frec_memmap_covers(line, addr, size);
	kvfree(line);
	if (covers)
		return 0;
	pr_err("region=%.64s: no memmap=SIZE$ADDR on this boot's command line sets [mem %#010llx-%#010llx] aside: refused (firmware's reserved ranges are not frec's)\n",
	       what, addr, addr + size - 1);
	return -EINVAL;
}
