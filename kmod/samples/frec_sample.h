/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frec_sample.h - what the sample and test modules share.
 */
#ifndef _FREC_SAMPLE_H
#define _FREC_SAMPLE_H

#include <linux/moduleparam.h>
#include <linux/types.h>

/*
 * FREC_SAMPLE_PARAM() - a read-only module parameter, its variable and its
 * description in one place.  Read-only (0444): the tests set the knobs at
 * insmod and read them, and the counters, back from
 * /sys/module/<module>/parameters; a knob changed after load would not be
 * looked at again.
 * @name: the variable and the parameter's name.
 * @type: uint, ulong or bool: the C type (linux/types.h names uint and
 *	ulong) and module_param()'s type at once, so the two cannot disagree.
 * @value: the value at load.
 * @desc: what modinfo shows.
 */
#define FREC_SAMPLE_PARAM(name, type, value, desc)	\
	static type name = value;			\
	module_param(name, type, 0444);			\
	MODULE_PARM_DESC(name, desc)

/*
 * FREC_SAMPLE_ACTION() - a write-only (0200) module parameter that runs
 * @fn on every write, whatever is written: how a test makes a loaded
 * sample record again (echo 1 > /sys/module/<module>/parameters/<name>).
 * @name: the parameter's name.
 * @fn: int @fn(const char *val, const struct kernel_param *kp); a
 *	negative errno it returns fails the write, 0 lets it take all it
 *	was given.
 * @desc: what modinfo shows.
 */
#define FREC_SAMPLE_ACTION(name, fn, desc)					\
	static const struct kernel_param_ops frec_sample_##name##_ops = {	\
		.set = fn,							\
	};									\
	module_param_cb(name, &frec_sample_##name##_ops, NULL, 0200);		\
	MODULE_PARM_DESC(name, desc)

#endif /* _FREC_SAMPLE_H */
