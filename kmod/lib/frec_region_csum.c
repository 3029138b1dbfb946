// SPDX-License-Identifier: GPL-2.0
/*
 * frec_region_csum.c - the checksum of the black box's entries.
 *
 * CRC-32C (Castagnoli), one copy for the module and the decoder.  It
 * detects every burst of up to 32 flipped bits and every odd number of
 * them, where a sum of words misses a swap or a zeroed pair.  A table of
 * 16 words, not 1 KiB, and no crypto API: the module checksums from any
 * context (a site registering in NMI, the panic path), and what it
 * checksums is small and written rarely (ring creation, site
 * registration, a state update), never on a record's path.
 */
#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "frec_user.h"
#endif

#include "frec_region_image.h"

/* The remainders of the 16 four-bit values (reflected, poly 0x82f63b78). */
static const u32 frec_crc32c_nibble[16] = {
	0x00000000, 0x105ec76f, 0x20bd8ede, 0x30e349b1,
	0x417b1dbc, 0x5125dad3, 0x61c69362, 0x7198540d,
	0x82f63b78, 0x92a8fc17, 0xa24bb5a6, 0xb21572c9,
	0xc38d26c4, 0xd3d3e1ab, 0xe330a81a, 0xf36e6f75,
};

/**
 * frec_region_csum_add() - go on with a checksum over more bytes
 * @crc: FREC_REGION_CSUM_START, or what a previous call returned.
 * @p: the bytes.
 * @len: how many.
 *
 * Context: Any context.
 * Return: the running checksum; frec_region_csum_end() finishes it.
 */
u32 frec_region_csum_add(u32 crc, const void *p, size_t len)
{
	const u8 *b = p;

	while (len--) {
		crc ^= *b++;
		crc = (crc >> 4) ^ frec_crc32c_nibble[crc & 15];
		crc = (crc >> 4) ^ frec_crc32c_nibble[crc & 15];
	}
	return crc;
}

/**
 * frec_region_csum() - the checksum of one run of bytes
 * @p: the bytes.
 * @len: how many.
 *
 * Context: Any context.
 * Return: their CRC-32C (0xe3069283 for "123456789").
 */
u32 frec_region_csum(const void *p, size_t len)
{
	return frec_region_csum_end(frec_region_csum_add(FREC_REGION_CSUM_START,
							 p, len));
}
