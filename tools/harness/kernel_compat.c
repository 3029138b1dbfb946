// SPDX-License-Identifier: GPL-2.0
/* kernel_compat.c - per-thread state behind kernel_compat.h. */
#include "kernel_compat.h"

_Thread_local int compat_cpu;
bool compat_nmi_unsafe;
_Thread_local bool compat_in_nmi;
