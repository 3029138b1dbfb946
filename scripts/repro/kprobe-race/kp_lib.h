/* SPDX-License-Identifier: GPL-2.0 */
/* kp_lib.h - what kp_lib.ko exports to the other reproducer modules. */
#ifndef _KP_LIB_H
#define _KP_LIB_H

int kp_lib_fn(unsigned long v);

#endif
