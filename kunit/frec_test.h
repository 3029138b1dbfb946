/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_test.h - what frec's KUnit suites share.
 */
#ifndef _FREC_TEST_H
#define _FREC_TEST_H

#include <linux/rcupdate.h>

#include "frec_rings.h"

/* The ring's store; tests do not resize or clear the rings they read. */
static inline struct frec_ring_store *frec_test_store(struct frec_ring *ring)
{
	return rcu_dereference_raw(ring->store);
}

#endif /* _FREC_TEST_H */
