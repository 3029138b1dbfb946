/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_texts.h - the texts frec keeps for records after the memory they
 * pointed to is gone (frec_texts.c).
 */
#ifndef _FREC_TEXTS_H
#define _FREC_TEXTS_H

#include <linux/types.h>

/* Longest %s string kept; longer ones are cut (and logged). */
#define FREC_SAVED_STRING_MAX	4095

unsigned long frec_texts_gen_read(void);
void frec_texts_repointed(void);
const char *frec_texts_saved_symbol(u64 addr);
const char *frec_texts_keep_string(char *buf, u64 addr, size_t max, const char *who);
const char *frec_texts_keep_symbol(char *sym, u64 addr, char ext);
const char *frec_texts_keep(const char *s, const char *who);
const char *frec_texts_keep_caller(unsigned long addr);
u64 frec_texts_saved_caller(const char *saved);
void frec_texts_exit(void);

#endif /* _FREC_TEXTS_H */
