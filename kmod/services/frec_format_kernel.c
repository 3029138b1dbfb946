// SPDX-License-Identifier: GPL-2.0
/*
 * frec_format_kernel.c - formatting records in the kernel: frec_format.c
 * with lookups that are safe on any address.
 *
 * An event's format and %s arguments are addresses that may point into a
 * module that has gone.  frec_formats.c repoints the records it finds
 * before the memory goes, and tells readers holding older copies through
 * its generation (see its DOC comment): a reader formats a record inside
 * the RCU read-side section in which it checked that generation, so the
 * memory it reads cannot go meanwhile.  Strings are still read with a
 * nofault copy: a %s argument may point anywhere (a driver's bug), and a
 * dump must print "(efault)" for it, not oops.  Code addresses are named
 * with sprint_symbol(), as %pS does, unless frec saved their name when
 * their module went (frec_texts_saved_symbol()).
 *
 * Two flavours: the dump files (root only) print addresses as they are;
 * the console dump prints every address that is not a symbol as printk's
 * %p does (hashed, or as kptr_restrict and no_hash_pointers say), since
 * the console, dmesg and pstore are read by others.
 */
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "frec_format_kernel.h"
#include "frec_printk_args.h"
#include "frec_sites.h"
#include "frec_texts.h"

static int frec_format_kernel_env_string(void *ctx, char *buf, size_t size, u64 addr)
{
	return frec_format_kernel_string(buf, size, addr);
}

static int frec_format_kernel_symbol(void *ctx, char *buf, size_t size, u64 addr, char ext)
{
	struct frec_format_kernel *fk = ctx;
	const char *saved = frec_texts_saved_symbol(addr);
	int len;

	if (saved) {
		strscpy(buf, saved, size);
		return strlen(saved);
	}
	len = frec_format_kernel_symbol_name(fk->sym, addr, ext);
	if (len < 0)
		return len;
	strscpy(buf, fk->sym, size);
	/* The whole symbol's length, as snprintf() would return it. */
	return len;
}

/* The console's addresses: what printk's %p (or %pK) prints for them. */
static int frec_format_kernel_pointer(void *ctx, char *buf, size_t size, u64 addr, char ext)
{
	if (ext == 'K')
		return scnprintf(buf, size, "%pK", (void *)(unsigned long)addr);
	return scnprintf(buf, size, "%p", (void *)(unsigned long)addr);
}

/**
 * frec_format_kernel_init() - set up the lookups
 * @fk: the scratch space.
 * @console: for the console dump: addresses print as printk's %p prints
 *	them; else (the root-only dump files) as they are.
 *
 * Context: Any context.
 */
void frec_format_kernel_init(struct frec_format_kernel *fk, bool console)
{
	fk->env.symbol = frec_format_kernel_symbol;
	fk->env.string = frec_format_kernel_env_string;
	fk->env.pointer = console ? frec_format_kernel_pointer : NULL;
	fk->env.ctx = fk;
}

/*
 * The message of a record whose format cannot be read, into @buf: as
 * FREC_FORMAT_UNREADABLE in frec_format.h says, the site word printed as
 * the environment prints addresses (hashed on the console).
 */
static unsigned int frec_format_kernel_unreadable(struct frec_format_kernel *fk, char *buf,
						  size_t size, u64 site)
{
	char addr[24];

	if (fk->env.pointer)
		fk->env.pointer(fk, addr, sizeof(addr), site, 'p');
	else
		snprintf(addr, sizeof(addr), "0x%llx", site);
	return scnprintf(buf, size, FREC_FORMAT_UNREADABLE, addr);
}

/**
 * frec_format_kernel_text() - a record ring's record as text
 * @fk: scratch space, from frec_format_kernel_init().
 * @rec: the record.
 * @len: the text's length goes here.
 *
 * The payload of a text record; a frec_printk() record of arguments
 * formatted with its site's format into @fk->text, cut where the call's
 * text would have been (frec_printk_args.c).
 *
 * Context: Any context, as frec_format_kernel_line().
 * Return: the text (not NUL-terminated), valid until @fk is used again.
 */
const char *frec_format_kernel_text(struct frec_format_kernel *fk,
				    const struct frec_reader_record *rec, unsigned int *len)
{
	unsigned int size = min_t(unsigned int, FREC_PRINTK_MAX, rec->ring->max_record_len) + 1;
	u64 args[FREC_PRINTK_ARGS_MAX];
	int n = -1;

	if (!rec->ent.printk_args) {
		*len = rec->ent.len;
		return rec->payload;
	}
	if (frec_site_format(fk->fmt, sizeof(fk->fmt), rec->ent.site) >= 0)
		n = frec_printk_args_unpack(args, fk->fmt, rec->payload, rec->ent.len);
	if (n >= 0)
		*len = frec_format_message(fk->text, size, fk->fmt, args, n, &fk->env, NULL);
	else
		*len = frec_format_kernel_unreadable(fk, fk->text, sizeof(fk->text),
						     rec->ent.site);
	return fk->text;
}

/**
 * frec_format_kernel_line() - a record's line of text, into @fk->line
 * @fk: the scratch space.
 * @rec: the record.
 *
 * Context: Any context, inside the RCU read-side section (or preemption-off
 * stretch) in which @rec was copied out of its ring, or in which
 * frec_reader_next() returned it.
 * Return: the line's length, newline included.
 */
size_t frec_format_kernel_line(struct frec_format_kernel *fk,
			       const struct frec_reader_record *rec)
{
	u64 args[FREC_EVENT_MAX_ARGS];
	struct frec_format_record fr = {
		.seq = rec->ent.seq,
		.ts = rec->ent.ts,
		.cpu = rec->cpu,
		.ring = rec->ring->name,
		.caller = rec->ent.caller,
		.context = rec->ent.context,
		.context_known = true,
	};
	int i;

	if (rec->ring->kind == FREC_RING_EVENTS) {
		for (i = 0; i < FREC_EVENT_MAX_ARGS; i++)
			args[i] = rec->ent.args[i];
		if (frec_site_format(fk->fmt, sizeof(fk->fmt), rec->ent.site) >= 0) {
			fr.fmt = fk->fmt;
			fr.args = args;
			fr.nr_args = FREC_EVENT_MAX_ARGS;
		} else {
			fr.text = fk->fmt;
			fr.text_len = frec_format_kernel_unreadable(fk, fk->fmt, sizeof(fk->fmt),
								    rec->ent.site);
		}
	} else {
		fr.text = frec_format_kernel_text(fk, rec, &fr.text_len);
	}
	return frec_format_line(fk->line, sizeof(fk->line), &fr, &fk->env);
}
