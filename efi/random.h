/*
 * Unpredictable bytes for both apps (the report name's tag when reports of
 * many machines meet on one collector; x86's random redaction key): the
 * firmware's EFI_RNG_PROTOCOL and the CPU's own generator when there are
 * such, always mixed with timing jitter of the CPU's counter around short
 * firmware stalls, hashed with SHA-256.
 */
#ifndef TLBSCOPE_EFI_RANDOM_H
#define TLBSCOPE_EFI_RANDOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * `len` (at most 32) bytes. Returns false when neither generator answered
 * (the bytes then rest on the timing jitter alone).
 */
bool efi_random(uint8_t *out, size_t len);

/* Each app's: eight bytes of the CPU's generator (x86 RDRAND, aarch64 RNDR), false without one. */
bool arch_random64(uint64_t *v);
/* Each app's: the CPU's fastest counter (x86 the TSC, aarch64 CNTVCT_EL0), for the jitter. */
uint64_t arch_cycles(void);

#endif
