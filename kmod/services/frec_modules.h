/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_modules.h - what frec does as other modules come and go
 * (frec_modules.c).
 */
#ifndef _FREC_MODULES_H
#define _FREC_MODULES_H

#include <linux/types.h>

struct module;

int frec_modules_init(void);
void frec_modules_exit(void);

/* Called by frec_modules.c: a client module comes (before its init) or goes. */
void frec_static_rings_coming(struct module *mod);
void frec_static_rings_going(struct module *mod);
void frec_sites_coming(struct module *mod);
void frec_sites_going(struct module *mod, bool give_back);
void frec_sites_init_going(struct module *mod);

#endif /* _FREC_MODULES_H */
