/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_record.h - the record path's part other files need (frec_record.c).
 */
#ifndef _FREC_RECORD_H
#define _FREC_RECORD_H

struct frec_ring;

void frec_ring_update_gate(struct frec_ring *ring);
void frec_ring_retire(struct frec_ring *ring);
void frec_record_abandon_this_cpu(void);

#endif /* _FREC_RECORD_H */
