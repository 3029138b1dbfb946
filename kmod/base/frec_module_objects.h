/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_module_objects.h - a client module's static frec objects
 * (frec_module_objects.c).
 */
#ifndef _FREC_MODULE_OBJECTS_H
#define _FREC_MODULE_OBJECTS_H

#include <linux/types.h>

struct module;

void frec_module_objects(struct module *mod, const char *prefix, size_t size,
			 void (*fn)(struct module *mod, void *obj));

#endif /* _FREC_MODULE_OBJECTS_H */
