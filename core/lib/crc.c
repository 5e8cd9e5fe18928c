#include "core/lib/crc.h"

/* CRC-32 polynomial 0x04C11DB7, MSB first, length appended, inverted (POSIX cksum). */
static uint32_t crc_update(uint32_t crc, uint8_t byte)
{
    int bit;
    crc ^= (uint32_t)byte << 24;
    for (bit = 0; bit < 8; bit++)
        crc = (crc & 0x80000000u) ? (crc << 1) ^ 0x04c11db7u : crc << 1;
    return crc;
}

uint32_t posix_cksum(const void *data, size_t len)
{
    const uint8_t *p = data;
    uint32_t crc = 0;
    size_t i, n;
    for (i = 0; i < len; i++)
        crc = crc_update(crc, p[i]);
    for (n = len; n; n >>= 8)
        crc = crc_update(crc, (uint8_t)(n & 0xff));
    return ~crc;
}
