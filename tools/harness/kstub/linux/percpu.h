/* SPDX-License-Identifier: GPL-2.0 */
/* Empty: test_vmcore_kernel.c defines what frec_vmcore_kernel.c uses. */
