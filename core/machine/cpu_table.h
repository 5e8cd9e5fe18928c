/*
 * The CPU table: one entry per logical CPU, indexed by a dense index.
 *
 * Index 0 is the bootstrap processor; the others follow the firmware's
 * processor numbering. APIC IDs are stored as uint32_t values here and never
 * used to index arrays (they are sparse and exceed 255 on large machines).
 */
#ifndef TLBSCOPE_CORE_CPU_TABLE_H
#define TLBSCOPE_CORE_CPU_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct msg_list;

#define CPU_MAX 4096 /* far above the 768-thread 2-socket servers of 2026 */

enum cpu_state {
    CPU_OK = 0,    /* checked in, answered every request */
    CPU_ABSENT,    /* enabled by firmware but never checked in */
    CPU_HUNG,      /* stopped answering; excluded from later work */
    CPU_FAULTED,   /* took an unexpected exception; excluded */
    CPU_SLOW,      /* missed a deadline, answered later; excluded */
    CPU_DISABLED,  /* firmware reports it disabled */
    CPU_EXCLUDED,  /* left out by cpus= */
};

/* How a CPU came to run the tool (topology.cpus[].bring_up). */
enum cpu_bring_up {
    BRING_UP_NONE = 0,    /* never started (absent, disabled, excluded, BSP-only run) */
    BRING_UP_BSP,         /* the bootstrap processor: the firmware ran the tool on it */
    BRING_UP_MP_SERVICES, /* EFI_MP_SERVICES_PROTOCOL StartupAllAPs */
    BRING_UP_INIT_SIPI,   /* the tool's own INIT-SIPI-SIPI (efi/ap_boot.c) */
};

/*
 * Where one CPU sits as seen from another, nearest first (issue 21). Inside
 * a package: the same core (SMT sibling), the same L3 (CPUID 4 /
 * 8000001Dh sharing), another L3 (or another core where no L3 is
 * enumerated). Across packages: the same NUMA node (SRAT), another node,
 * or cross_package where the SRAT does not place both. A package split
 * into several nodes (Intel SNC2/4, AMD NPS2/4: the SRAT gives more
 * proximity domains than there are packages) has a class of its own
 * between the two: another node of the same package. It is taken before
 * same_l3, because under SNC CPUID still reports one L3 for the whole
 * package (Linux then drops its multi-core scheduling level for the same
 * reason), while the cores sit in different quadrants of the mesh.
 */
enum topo_class {
    TOPO_SELF = 0,
    TOPO_SMT_SIBLING,
    TOPO_SAME_L3,
    TOPO_SAME_PACKAGE,   /* same package, another L3 (or L3 not enumerated) */
    TOPO_SAME_PACKAGE_OTHER_NODE, /* same package, another NUMA node (SNC, NPS2/4) */
    TOPO_SAME_NODE,      /* another package, same NUMA node */
    TOPO_CROSS_NODE,     /* another package, another NUMA node */
    TOPO_CROSS_PACKAGE,  /* another package, NUMA node of either unknown */
    TOPO_CLASS_COUNT
};
#define TOPO_FIRST_CLASS TOPO_SMT_SIBLING

/* General registers at the fault, in this order (then RSP, RFLAGS). */
#define CPU_FAULT_REGS 18
extern const char *const cpu_fault_reg_names[CPU_FAULT_REGS];

struct cpu_fault {
    bool valid;
    uint32_t vector;
    uint64_t error_code;
    uint64_t rip;
    uint64_t cr2;
    uint32_t last_command;
    uint64_t regs[CPU_FAULT_REGS];
};

struct cpu_info {
    uint32_t index;
    uint32_t apic_id;
    uint32_t package, core, thread;
    int32_t numa_node; /* -1 when the firmware has no SRAT entry for it */
    uint32_t l3;       /* equal for CPUs sharing an L3 (valid when l3_known) */
    bool l3_known;
    bool bsp;
    bool topology_from_cpuid; /* refined from CPUID 0xB/0x1F/0x8000001E */
    uint32_t microcode;
    bool microcode_valid;
    enum cpu_state state;
    enum cpu_bring_up bring_up;
    char note[120]; /* what is known when state != CPU_OK */
    uint32_t late_answers;  /* answered past a deadline, within the grace (core/machine/smp.h) */
    uint64_t late_max_ms;   /* the most any of them was late */
    struct cpu_fault fault;
};

struct cpu_table {
    uint32_t count;           /* CPUs the firmware reports (enabled or not) */
    struct cpu_info *cpus;    /* count entries */
};

const char *cpu_state_name(enum cpu_state s);
/* "bsp", "mp_services", "init_sipi"; NULL for BRING_UP_NONE. */
const char *cpu_bring_up_name(enum cpu_bring_up b);
/*
 * The CPU table of the tool's own bring-up, from the MADT: the BSP
 * (`bsp_apic_id`) first, then every enabled Processor Local APIC / x2APIC
 * entry in table order, each APIC ID once. Disabled and online-capable
 * entries are left out: they describe sockets that are empty or not yet
 * hot-added (Linux does not start them at boot either). `cap` bounds the
 * table; returns the number of entries (0 when `cpus` could not be
 * allocated), with problems in `msgs`.
 */
uint32_t cpu_table_from_madt(struct cpu_table *t, const void *madt, size_t len,
                             uint32_t bsp_apic_id, uint32_t cap, struct msg_list *msgs);
const char *topo_class_name(enum topo_class c);
/* The one-letter code of a class in the report's pair_classes ("-slponxc"). */
char topo_class_code(enum topo_class c);
enum topo_class cpu_topo_class(const struct cpu_info *a, const struct cpu_info *b);
bool cpu_usable(const struct cpu_info *c);
/* Hung, faulted, slow or absent: a CPU the run lost, which makes it ERROR and partial. */
bool cpu_state_drops_out(enum cpu_state s);
uint32_t cpu_table_count_state(const struct cpu_table *t, enum cpu_state s);
/* Marks a CPU out of the run with a note; the first bad state sticks. */
void cpu_mark(struct cpu_info *c, enum cpu_state s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
