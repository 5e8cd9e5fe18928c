#include "core/lib/bytes.h"

uint8_t byte_sum8(const void *data, size_t len)
{
    const uint8_t *p = data;
    uint8_t sum = 0;
    while (len--)
        sum = (uint8_t)(sum + *p++);
    return sum;
}

void copy_printable(char *dst, size_t cap, const uint8_t *src, size_t n)
{
    size_t start = 0, end = n, i, out = 0;
    if (!cap)
        return;
    while (start < end && (src[start] == ' ' || src[start] < 0x20 || src[start] > 0x7e))
        start++;
    while (end > start && (src[end - 1] == ' ' || src[end - 1] < 0x20 || src[end - 1] > 0x7e))
        end--;
    for (i = start; i < end && out + 1 < cap; i++)
        dst[out++] = (src[i] >= 0x20 && src[i] <= 0x7e) ? (char)src[i] : ' ';
    dst[out] = 0;
}
