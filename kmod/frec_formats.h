/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_formats.h - text that records point to, kept after its module goes.
 */
#ifndef _FREC_FORMATS_H
#define _FREC_FORMATS_H

#include <linux/types.h>

struct module;

unsigned long frec_formats_gen_read(void);
const char *frec_formats_saved_symbol(u64 addr);
const char *frec_formats_keep_text(const char *s, const char *who);
const char *frec_formats_keep_caller(unsigned long addr);
bool frec_formats_module_going(struct module *mod, bool init_only);
int frec_formats_init(void);
void frec_formats_exit(void);

#endif /* _FREC_FORMATS_H */
