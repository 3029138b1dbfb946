/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_static_rings.h - rings defined with FREC_DEFINE_RING().
 */
#ifndef _FREC_STATIC_RINGS_H
#define _FREC_STATIC_RINGS_H

void frec_static_rings_exit(void);

#endif /* _FREC_STATIC_RINGS_H */
