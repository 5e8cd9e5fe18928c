/*
 * Host test support: recorded CPUID dumps (InstLatx64 / AIDA64 format, see
 * ../shared/data/cpuid/README.md) served through a cpuid_fn, so
 * arch/x86/cpuid.c and arch/x86/topology.c run on real servers' values.
 *
 * The parser understands the three section header styles
 *   ------[ CPUID Registers / Logical CPU #N ]------
 *   ------[ Logical CPU #N ]------
 *   CPU#NNN AffMask: 0x...
 * register lines "CPUID LLLLLLLL: EAX-EBX-ECX-EDX [SL ss] [notes]" (a line
 * without "[SL ..]" is sub-leaf 0; trailing spaces allowed), the per-section
 * "allcpu: Package p / Core c / Thread t" line, and the "All CPUs" summary
 * "CPU n: APICID a / Package p / Core c / Thread t".
 */
#ifndef TLBSCOPE_TESTS_SUPPORT_CPUID_DUMP_H
#define TLBSCOPE_TESTS_SUPPORT_CPUID_DUMP_H

#include <stdbool.h>
#include <stdint.h>

#include "tests/host/support_data.h"

struct cpuid_record {
    uint32_t leaf, subleaf;
    bool has_subleaf_marker;
    uint32_t regs[4]; /* EAX, EBX, ECX, EDX */
};

struct cpuid_section {
    uint32_t cpu; /* logical CPU number in the dump */
    uint32_t count;
    struct cpuid_record *recs;
    bool has_allcpu; /* the section's own "allcpu:" line */
    uint32_t package, core, thread;
};

struct cpuid_summary_cpu {
    uint32_t cpu, apic_id, package, core, thread;
};

struct cpuid_dump {
    uint32_t nsections;
    struct cpuid_section *sections;
    uint32_t nsummary; /* "All CPUs" lines (0 when the dump has none) */
    struct cpuid_summary_cpu *summary;
};

/* Parses dump text (NUL-terminated). Returns false on a line it cannot read. */
bool cpuid_dump_parse(const char *text, struct cpuid_dump *d);
/* Loads ../shared/data/cpuid/<file> and parses it; false when missing or unreadable. */
bool cpuid_dump_load(const char *file, struct cpuid_dump *d);
void cpuid_dump_free(struct cpuid_dump *d);

/* The section of logical CPU `cpu`, or NULL when the dump does not hold it. */
const struct cpuid_section *cpuid_dump_cpu(const struct cpuid_dump *d, uint32_t cpu);

/*
 * A cpuid_fn (arch/x86/include/asm/cpuid.h) serving a section: ctx is a
 * `const struct cpuid_section *`. Absent leaves and sub-leaves read as
 * zeros; a leaf recorded without sub-leaf markers answers every sub-leaf
 * (as hardware ignores ECX for such leaves) unless it is a leaf that the
 * SDM/APM define as sub-leaf indexed.
 */
void cpuid_dump_fn(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);

/* In a cmocka test: load cpuid/<file> into *d, or SHARED_DATA_MISSING (tests/host/support_data.h). */
#define LOAD_DUMP(d, file)                                                                     \
    do {                                                                                       \
        if (!cpuid_dump_load((file), (d)))                                                     \
            SHARED_DATA_MISSING("cpuid/%s", (file));                                           \
    } while (0)

#endif
