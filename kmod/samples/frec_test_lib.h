/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_test_lib.h - what frec_test_lib.ko exports to frec_test_user.ko.
 */
#ifndef _FREC_TEST_LIB_H
#define _FREC_TEST_LIB_H

extern const char *const frec_test_lib_name;
int frec_test_lib_fn(void);

#endif /* _FREC_TEST_LIB_H */
