/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_levels.h - the names of the record levels (frec_levels.c).
 */
#ifndef _FREC_LEVELS_H
#define _FREC_LEVELS_H

const char *frec_level_name(unsigned int level);
unsigned int frec_level_parse(const char *s);

#endif /* _FREC_LEVELS_H */
