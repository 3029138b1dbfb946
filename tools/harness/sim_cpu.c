// SPDX-License-Identifier: GPL-2.0
/* sim_cpu.c - per-thread state behind sim_cpu.h and frec_user.h. */
#include "sim_cpu.h"

_Thread_local int sim_cpu;
bool frec_user_nmi_unsafe;
enum frec_user_clock_kind frec_user_clock;
u64 frec_user_clock_frozen;
_Thread_local bool frec_user_in_nmi;
