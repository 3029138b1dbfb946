/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_order.h - which order a read of the rings is in (frec_order.c).
 */
#ifndef _FREC_ORDER_H
#define _FREC_ORDER_H

#include <linux/types.h>

bool frec_clock_synchronized(void);
u32 frec_raw_order_flags(bool by_seq);
u32 frec_clock_tick_ns(void);

#endif /* _FREC_ORDER_H */
