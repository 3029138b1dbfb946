/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * frec binary formats shared by the kernel module and userspace tools.
 *
 * Everything here is read by tools/ on another machine than the one that
 * recorded it: fixed-width types only, no pointers, explicit padding.
 */
#ifndef _UAPI_FREC_RAW_H
#define _UAPI_FREC_RAW_H

/*
 * Version of the binary layout of the raw dump.  Bumped on any change a
 * decoder must know about; a decoder rejects versions it does not know.
 */
#define FREC_RAW_VERSION	1

#endif /* _UAPI_FREC_RAW_H */
