// SPDX-License-Identifier: GPL-2.0
/*
 * frec_test_lib.c - test only: a module that records nothing itself but
 * owns a string and a function that another module (frec_test_user.ko)
 * records with, so that a test can unload the owner after the recorder
 * and check that the records still print the same text.
 */
#include <linux/module.h>

#include "frec_test_lib.h"

/* A %s literal of this module that another module's records point to. */
const char *const frec_test_lib_name = "a literal of frec_test_lib";
EXPORT_SYMBOL_GPL(frec_test_lib_name);

/**
 * frec_test_lib_fn() - a function of this module another one prints with %ps
 *
 * Context: Any context.
 * Return: 0.
 */
noinline int frec_test_lib_fn(void)
{
	return 0;
}
EXPORT_SYMBOL_GPL(frec_test_lib_fn);

MODULE_DESCRIPTION("frec test: owns what another module's records point to");
MODULE_LICENSE("GPL");
