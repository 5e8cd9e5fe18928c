/* The POSIX `cksum` CRC, so a report recovered from a serial log can be
 * checked with the standard cksum(1) tool on the host. */
#ifndef TLBSCOPE_CORE_CRC_H
#define TLBSCOPE_CORE_CRC_H

#include <stddef.h>
#include <stdint.h>

uint32_t posix_cksum(const void *data, size_t len);

#endif
