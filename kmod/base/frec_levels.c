// SPDX-License-Identifier: GPL-2.0
/*
 * frec_levels.c - the names of the record levels (enum frec_level), as
 * frec/control, frec/sites and rings/<name>/level show and take them.
 */
#include <linux/string.h>

#include <frec.h>

#include "frec_levels.h"

static const char * const frec_level_names[] = {
	[FREC_LEVEL_ERR] = "err",
	[FREC_LEVEL_WARN] = "warn",
	[FREC_LEVEL_INFO] = "info",
	[FREC_LEVEL_DEBUG] = "debug",
	[FREC_LEVEL_TRACE] = "trace",
};

/**
 * frec_level_name() - the name of a level
 * @level: enum frec_level.
 *
 * Context: Any context.
 * Return: "err", "warn", "info", "debug" or "trace"; "?" for another value.
 */
const char *frec_level_name(unsigned int level)
{
	if (level < FREC_LEVEL_ERR || level > FREC_LEVEL_MAX)
		return "?";
	return frec_level_names[level];
}

/**
 * frec_level_parse() - a level from its name or number
 * @s: "err" ... "trace", or "1" ... "5".
 *
 * Context: Any context.
 * Return: the enum frec_level, or 0 if @s is neither.
 */
unsigned int frec_level_parse(const char *s)
{
	unsigned int level;

	/* Not match_string(): it stops at the NULL of the unused index 0. */
	for (level = FREC_LEVEL_ERR; level <= FREC_LEVEL_MAX; level++)
		if (!strcmp(s, frec_level_names[level]))
			return level;
	if (s[0] >= '1' && s[0] <= '0' + FREC_LEVEL_MAX && !s[1])
		return s[0] - '0';
	return 0;
}
