// SPDX-License-Identifier: GPL-2.0
/*
 * frec_texts.c - the texts frec keeps for records after the memory they
 * pointed to is gone: copies of formats and %s strings, and the names
 * code addresses had (saved symbols), one copy of each distinct text.
 *
 * frec_formats.c fills it as a module goes, repointing records' words at
 * the copies; frec_sites.c keeps a given-back site's format and caller
 * here.  A saved symbol lives in frec's heap, where no code is, so a
 * record word pointing at one can never be taken for code:
 * frec_texts_saved_symbol() tells the formatter it is text.
 *
 * Readers that copied a record out before its words were repointed hold
 * the old addresses.  frec_texts_gen tells them:
 *
 *   module notifier                        reader (dump, formats)
 *   ---------------                        ----------------------
 *   cmpxchg() words to the copies          rcu_read_lock()
 *   frec_texts_repointed():                load gen, acquire     (B)
 *     gen + 1, release        (A)          gen changed: copy the record
 *     synchronize_rcu()                    out of the ring again
 *   (the module's memory is freed          format it
 *    after the notifier returns)           rcu_read_unlock()
 *
 * (A) is frec_texts_repointed:A, (B) frec_texts_gen_read:A.  A reader
 * whose section began before the grace period may use an old address:
 * the memory is still there until the section ends.  A reader whose
 * section began after it sees the new gen (RCU guarantees it), and with
 * it, by (A)/(B), the repointed words.  So a reader must check gen at the
 * start of every RCU section in which it formats copies it made in an
 * earlier one (frec_reader_next() does).  arm64: (A) is an STLR after the
 * fully ordered cmpxchg()es that repointed the words, (B) an LDAR before
 * the copy's loads; what RCU guarantees holds on every architecture.
 * frec_texts_save:A / frec_texts_saved_symbol:A: rcu_assign_pointer()
 * (STLR) inside xa_alloc() against xa_load()'s rcu_dereference(), an
 * address dependency, which arm64 keeps.
 *
 * The copies live until frec unloads.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/kallsyms.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>

#include "frec_caller_word.h"
#include "frec_kernel_text.h"
#include "frec_texts.h"

/**
 * struct frec_saved - a text frec keeps for records
 * @by_text: entry in frec_saved_texts, to share equal texts.
 * @by_addr: entry in frec_saved_symbols (saved symbols only).
 * @symbol: the text names a code address; records point at @text in
 *	place of that address, or, for a caller, name it by @number.
 * @number: a saved symbol's number in frec_saved_numbers.
 * @text: the text, NUL-terminated.
 */
struct frec_saved {
	struct hlist_node by_text;
	struct hlist_node by_addr;
	bool symbol;
	u32 number;
	char text[];
};

/* Every saved text, by the hash of its text; under frec_saved_lock. */
static DEFINE_HASHTABLE(frec_saved_texts, 10);
/*
 * Saved symbols, by their text's address.  RCU: looked up by formatting
 * in any context; entries are added under frec_saved_lock and freed only
 * when frec unloads.
 */
static DEFINE_HASHTABLE(frec_saved_symbols, 10);
/*
 * Saved symbols by number: a caller word has 32 bits for its caller, so a
 * caller repointed at a saved name holds its number, not its address
 * (uapi/frec_raw.h, "The caller word").  Loaded in any context (RCU).
 */
static DEFINE_XARRAY_ALLOC(frec_saved_numbers);
/* Serializes adding saved texts (module notifiers run one at a time). */
static DEFINE_MUTEX(frec_saved_lock);

/* Bumped after records were repointed; see the DOC comment above. */
static unsigned long frec_texts_gen;

/*
 * A reader that sees a new generation sees the repointed words it counts:
 * the acquire pairs with frec_texts_repointed:A.
 */

/**
 * frec_texts_gen_read() - the generation of record words
 *
 * Context: Inside the RCU read-side section that formats the records.
 * Return: the generation.
 */
unsigned long frec_texts_gen_read(void)
{
	return smp_load_acquire(&frec_texts_gen); /* LMM(frec_texts_gen_read:A) */
}

/**
 * frec_texts_saved_symbol() - the saved name of a repointed code address
 * @addr: a caller or symbol argument as a record holds it.
 *
 * Context: Any context, NMI included, under RCU (a read-side section or
 * preemption off).
 * Return: the text a module's code address was named by when the module
 * went, if @addr is such a text or the key of one
 * (frec_texts_saved_caller()); NULL if @addr is an address to look up.
 */
const char *frec_texts_saved_symbol(u64 addr)
{
	s64 number = frec_caller_saved_number(addr);
	struct frec_saved *saved;

	if (number >= 0) {
		/*
		 * Pairs with frec_texts_save:A: the xarray's own
		 * rcu_dereference() of the entry xa_alloc() published.
		 */
		saved = xa_load(&frec_saved_numbers, number); /* LMM(frec_texts_saved_symbol:A) */
		return saved ? saved->text : NULL;
	}
	hash_for_each_possible_rcu(frec_saved_symbols, saved, by_addr, addr)
		if ((unsigned long)saved->text == addr)
			return saved->text;
	return NULL;
}

/**
 * frec_texts_repointed() - records' words were repointed at saved texts:
 *	start a new generation, after the words it counts, and wait until no
 *	reader holds an address from before (see the DOC comment above)
 *
 * Context: Process context; sleeps.  The module notifier, while the
 * memory the words pointed to is still there.
 */
void frec_texts_repointed(void)
{
	/*
	 * The repointed words before the generation that counts them.
	 * Pairs with frec_texts_gen_read:A.
	 */
	smp_store_release(&frec_texts_gen, frec_texts_gen + 1); /* LMM(frec_texts_repointed:A) */
	/* Readers that took an old address are done with it. */
	synchronize_rcu();
}

/* The saved copy of @len bytes at @s, shared by equal texts; NULL if no memory. */
static const char *frec_texts_save(const char *s, size_t len, bool symbol)
{
	u32 key = jhash(s, len, symbol);
	struct frec_saved *saved;

	lockdep_assert_held(&frec_saved_lock);
	hash_for_each_possible(frec_saved_texts, saved, by_text, key)
		if (saved->symbol == symbol && !strncmp(saved->text, s, len) &&
		    !saved->text[len])
			return saved->text;
	saved = kmalloc(struct_size(saved, text, len + 1), GFP_KERNEL);
	if (!saved)
		return NULL;
	memcpy(saved->text, s, len);
	saved->text[len] = '\0';
	saved->symbol = symbol;
	/*
	 * The text is whole before its number can be loaded: xa_alloc()
	 * publishes the entry with rcu_assign_pointer().  Pairs with
	 * frec_texts_saved_symbol:A.
	 */
	if (symbol &&
	    xa_alloc(&frec_saved_numbers, &saved->number, saved, /* LMM(frec_texts_save:A) */
		     xa_limit_31b, GFP_KERNEL)) {
		kfree(saved);
		return NULL;
	}
	hash_add(frec_saved_texts, &saved->by_text, key);
	if (symbol)
		hash_add_rcu(frec_saved_symbols, &saved->by_addr, (unsigned long)saved->text);
	return saved->text;
}

/**
 * frec_texts_keep_string() - a kept copy of the string at an address
 * @buf: where the string is read first: @max + 1 bytes.
 * @addr: the string's address; read with a nofault copy.
 * @max: the most bytes kept; a longer string is cut there (logged).
 * @who: the module it belongs to, for the log.
 *
 * Context: Process context; sleeps.
 * Return: the copy, shared with equal texts; NULL if @addr cannot be read
 * or there is no memory.
 */
const char *frec_texts_keep_string(char *buf, u64 addr, size_t max, const char *who)
{
	int len = frec_format_kernel_string(buf, max + 1, addr);
	const char *copy;
	char next;

	if (len < 0)
		return NULL;
	if (len == max &&
	    !copy_from_kernel_nofault(&next, (const char *)(unsigned long)addr + len, 1) && next)
		pr_info("%s: a string of more than %zu bytes kept as its first %zu\n",
			who, max, max);
	mutex_lock(&frec_saved_lock);
	copy = frec_texts_save(buf, len, false);
	mutex_unlock(&frec_saved_lock);
	return copy;
}

/**
 * frec_texts_keep_symbol() - the kept name of a code address
 * @sym: where the name is made first: KSYM_SYMBOL_LEN bytes.
 * @addr: the code address.
 * @ext: the conversion it prints as: 'S', 's' or 'B'
 *	(frec_format_kernel_symbol_name()).
 *
 * A record's word repointed at the result prints as @addr printed now:
 * frec_texts_saved_symbol() finds it.
 *
 * Context: Process context; sleeps.
 * Return: the saved name, or NULL if @addr names nothing or there is no
 * memory.
 */
const char *frec_texts_keep_symbol(char *sym, u64 addr, char ext)
{
	const char *copy;
	int len;

	len = frec_format_kernel_symbol_name(sym, addr, ext);
	if (len < 0)
		return NULL;
	mutex_lock(&frec_saved_lock);
	copy = frec_texts_save(sym, len, true);
	mutex_unlock(&frec_saved_lock);
	return copy;
}

/**
 * frec_texts_saved_caller() - the caller a record names a saved symbol by
 * @saved: a text frec_texts_keep_symbol() returned.
 *
 * Context: Any context.
 * Return: FREC_CALLER_SAVED_KEY | its number, which frec_caller_of() gives
 * back for the caller word frec_caller_word_saved() makes of the number,
 * and frec_texts_saved_symbol() turns into @saved.
 */
u64 frec_texts_saved_caller(const char *saved)
{
	return FREC_CALLER_SAVED_KEY | container_of(saved, struct frec_saved, text[0])->number;
}

/**
 * frec_texts_keep() - a copy of a string that frec keeps
 * @s: the string; read with a nofault copy, at most FREC_SAVED_STRING_MAX
 *	bytes of it kept.
 * @who: the module it belongs to, for the log.
 *
 * The copy is shared with equal texts records point to, and lives until
 * frec unloads.
 *
 * Context: Process context.
 * Return: the copy, or NULL if @s cannot be read or there is no memory.
 */
const char *frec_texts_keep(const char *s, const char *who)
{
	char *buf = kmalloc(FREC_SAVED_STRING_MAX + 1, GFP_KERNEL);
	const char *copy = NULL;

	if (buf)
		copy = frec_texts_keep_string(buf, (unsigned long)s, FREC_SAVED_STRING_MAX, who);
	kfree(buf);
	return copy;
}

/**
 * frec_texts_keep_caller() - the name of a caller address, kept as text
 * @addr: a caller address in code about to go.
 *
 * A record's caller word, repointed at the result, prints as @addr
 * printed now (see frec_texts_saved_symbol()).
 *
 * Context: Process context.
 * Return: the saved name, or NULL if @addr names nothing or there is no
 * memory.
 */
const char *frec_texts_keep_caller(unsigned long addr)
{
	char *sym = kmalloc(KSYM_SYMBOL_LEN, GFP_KERNEL);
	const char *copy = NULL;

	if (sym)
		copy = frec_texts_keep_symbol(sym, addr, 'S');
	kfree(sym);
	return copy;
}

/**
 * frec_texts_exit() - free every saved text
 *
 * Context: Process context, when frec unloads, after its rings and
 * readers are gone.
 */
void frec_texts_exit(void)
{
	struct frec_saved *saved;
	struct hlist_node *next;
	int bkt;

	xa_destroy(&frec_saved_numbers);
	hash_for_each_safe(frec_saved_texts, bkt, next, saved, by_text)
		kfree(saved);
}
