/*
 * Pooling of per-pair samples into per-class figures (ipi_roundtrip's
 * summary): every sampled pair contributes the same number of samples, so a
 * class's percentiles weigh every pair alike, whatever the order the pairs
 * were measured in and however many pairs a class has.
 */
#ifndef TLBSCOPE_CORE_RUN_CLASS_POOL_H
#define TLBSCOPE_CORE_RUN_CLASS_POOL_H

#include <stdint.h>

/*
 * The share of each pair: `samples`, or less so that the class with the
 * most pairs (pairs_in_class[0..nclasses)) fits `cap` samples; at least 1.
 */
uint32_t class_pool_share(const uint32_t *pairs_in_class, uint32_t nclasses, uint32_t samples,
                          uint32_t cap);
/*
 * Appends `share` of the `samples` values of src, evenly spaced (index
 * j * samples / share), to dst, which has `room` left; returns how many
 * were appended (share, when the pool was sized pairs x share).
 */
uint32_t class_pool_take(const uint64_t *src, uint32_t samples, uint32_t share, uint64_t *dst,
                         uint32_t room);

#endif
