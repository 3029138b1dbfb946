// SPDX-License-Identifier: GPL-2.0
/*
 * frec_format_env.c - formatting records in the kernel: frec_format.c
 * with lookups that are safe on any address.
 *
 * An event's format and %s arguments are addresses that may point into a
 * module that has gone (frec_formats.c repoints the records it finds, but
 * a reader may have copied an old address first).  So every string is
 * read with strncpy_from_kernel_nofault(), under rcu_read_lock(), which
 * frec_formats.c's synchronize_rcu() waits for before a module's memory
 * goes.  Callers are named with sprint_symbol(), as %pS does.
 */
#include <linux/kallsyms.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "frec_format_env.h"

/**
 * frec_format_kernel_string() - copy a string from any kernel address
 * @buf: where to copy it.
 * @size: its size; at most @size - 1 bytes and a NUL are written.
 * @addr: the address.
 *
 * strncpy_from_kernel_nofault() is not exported to modules, so this copies
 * with copy_from_kernel_nofault(), a page at most at a time: bytes past
 * the NUL but on the same page are as readable as the string.
 *
 * Context: Any context.
 * Return: the length copied, or -EFAULT if @addr cannot be read.
 */
int frec_format_kernel_string(char *buf, size_t size, u64 addr)
{
	const char *src = (const char *)(unsigned long)addr;
	size_t len = 0, chunk;
	char *nul;

	while (len < size - 1) {
		chunk = min(size - 1 - len, PAGE_SIZE - offset_in_page(src + len));
		if (copy_from_kernel_nofault(buf + len, src + len, chunk)) {
			if (!len)
				break;
			/* The string ran into an unreadable page: cut it there. */
			buf[len] = '\0';
			return len;
		}
		nul = memchr(buf + len, '\0', chunk);
		if (nul)
			return nul - buf;
		len += chunk;
	}
	if (!len) {
		buf[0] = '\0';
		return -EFAULT;
	}
	buf[len] = '\0';
	return len;
}

static int frec_format_kernel_env_string(void *ctx, char *buf, size_t size, u64 addr)
{
	return frec_format_kernel_string(buf, size, addr);
}

/*
 * %pS and %ps; %pB as %pS (sprint_backtrace() is not exported, and a
 * stored caller is an instruction inside its function anyway).
 */
static int frec_format_kernel_symbol(void *ctx, char *buf, size_t size, u64 addr, char ext)
{
	struct frec_format_kernel *fk = ctx;

	if (ext == 's')
		sprint_symbol_no_offset(fk->sym, addr);
	else
		sprint_symbol(fk->sym, addr);
	/* Nothing there: sprint_symbol() printed the address, as %pS does. */
	if (str_has_prefix(fk->sym, "0x"))
		return -ENOENT;
	strscpy(buf, fk->sym, size);
	/* The whole symbol's length, as snprintf() would return it. */
	return strlen(fk->sym);
}

/**
 * frec_format_kernel_init() - set up the lookups
 * @fk: the scratch space.
 *
 * Context: Any context.
 */
void frec_format_kernel_init(struct frec_format_kernel *fk)
{
	fk->env.symbol = frec_format_kernel_symbol;
	fk->env.string = frec_format_kernel_env_string;
	fk->env.ctx = fk;
}

/**
 * frec_format_kernel_line() - a record's line of text, into @fk->line
 * @fk: the scratch space.
 * @rec: the record.
 *
 * Context: Any context that may take rcu_read_lock().
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
	};
	size_t len;
	int i;

	rcu_read_lock();
	if (rec->ring->kind == FREC_RING_EVENTS) {
		for (i = 0; i < FREC_EVENT_MAX_ARGS; i++)
			args[i] = rec->ent.args[i];
		if (frec_format_kernel_string(fk->fmt, sizeof(fk->fmt), rec->ent.fmt) >= 0) {
			fr.fmt = fk->fmt;
			fr.args = args;
			fr.nr_args = FREC_EVENT_MAX_ARGS;
		} else {
			/* As FREC_FORMAT_UNREADABLE in frec_format.h says. */
			fr.text = fk->fmt;
			fr.text_len = scnprintf(fk->fmt, sizeof(fk->fmt),
						FREC_FORMAT_UNREADABLE, (u64)rec->ent.fmt);
		}
	} else {
		fr.text = rec->payload;
		fr.text_len = rec->ent.len;
	}
	len = frec_format_line(fk->line, sizeof(fk->line), &fr, &fk->env);
	rcu_read_unlock();
	return len;
}
