/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_formats.h - formats and %s strings that outlive their module.
 */
#ifndef _FREC_FORMATS_H
#define _FREC_FORMATS_H

unsigned int frec_format_string_args(const char *fmt);
int frec_formats_init(void);
void frec_formats_exit(void);

#endif /* _FREC_FORMATS_H */
