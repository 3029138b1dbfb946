/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_symbol.h - which symbol names are frec's static objects in a
 * client module (kmod/base/frec_module_objects.c walks a module's symbol
 * table with it).  Shared with tools/ so that the harness checks the
 * names each compiler gives.
 */
#ifndef _FREC_SYMBOL_H
#define _FREC_SYMBOL_H

#ifdef __KERNEL__
#include <linux/string.h>
#include <linux/types.h>
#else
#include "frec_user.h"
#endif

/**
 * frec_symbol_has_prefix() - is @sym the symbol of a static named @prefix...?
 * @sym: a symbol name from a module's symbol table.
 * @prefix: the start of the object's name in C.
 *
 * A static at file scope is its own name with either compiler.  A static
 * inside a function (every call site's) is not: GCC names it NAME.N,
 * clang FUNCTION.NAME, or FUNCTION.NAME.N for the second of a name in one
 * function.
 *
 * Context: Any context.
 * Return: true if @sym, or the part after its first '.', starts with
 * @prefix.
 */
static inline bool frec_symbol_has_prefix(const char *sym, const char *prefix)
{
	const char *dot = strchr(sym, '.');
	size_t len = strlen(prefix);

	return !strncmp(sym, prefix, len) || (dot && !strncmp(dot + 1, prefix, len));
}

#endif /* _FREC_SYMBOL_H */
