// SPDX-License-Identifier: GPL-2.0
/*
 * frec_module_objects.c - find a client module's static frec objects (its
 * call sites, its FREC_DEFINE_RING() rings) as it comes.
 *
 * They are found by symbol name: the kernel offers no way to find a
 * custom ELF section of another module, but at MODULE_STATE_COMING the
 * module's full symbol table (mod->kallsyms, before init trims it to the
 * core symbols) is in place, relocated.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/string.h>

#include "frec_module_objects.h"
#include "frec_symbol.h"

/**
 * frec_module_objects() - call @fn on each object of @mod named @prefix...
 * @mod: a module at MODULE_STATE_COMING.
 * @prefix: the start of the objects' names in C: a function's static
 *	"__frec_site" is found as GCC names it ("__frec_site.7") and as
 *	clang does ("my_func.__frec_site"), see frec_symbol_has_prefix().
 * @size: their size: a symbol of another size is not one of them.
 * @fn: called with @mod and each object's address, in @mod's data.
 *
 * Context: Process context, in the module notifier at MODULE_STATE_COMING.
 */
void frec_module_objects(struct module *mod, const char *prefix, size_t size,
			 void (*fn)(struct module *mod, void *obj))
{
	struct mod_kallsyms *ks;
	const Elf_Sym *sym;
	const char *name;
	unsigned long addr;
	unsigned int i;

	/* Only the loader changes it, after init; we run before. */
	ks = rcu_dereference_protected(mod->kallsyms, true);
	for (i = 0; i < ks->num_symtab; i++) {
		sym = &ks->symtab[i];
		name = ks->strtab + sym->st_name;
		if (!frec_symbol_has_prefix(name, prefix) ||
		    ELF_ST_TYPE(sym->st_info) != STT_OBJECT || sym->st_size != size)
			continue;
		addr = kallsyms_symbol_value(sym);
		if (!within_module_core(addr, mod)) {
			pr_err("%s: %s is not in the module's data\n", mod->name, name);
			continue;
		}
		fn(mod, (void *)addr);
	}
}
