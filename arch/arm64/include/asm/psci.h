/*
 * PSCI (Arm DEN 0022, "Power State Coordination Interface", 1.1) calls
 * through SMCCC (Arm DEN 0028): HVC when the firmware's PSCI lives at EL2
 * (QEMU emulates it for an EL1 guest), SMC when we run at EL2 ourselves
 * (`virtualization=on`: the PSCI provider is then "EL3"). The ACPI FADT
 * ARM_BOOT_ARCH flags say which (bit 1, PSCI_USE_HVC).
 */
#ifndef TLBSCOPE_ARM64_PSCI_H
#define TLBSCOPE_ARM64_PSCI_H

#include <stdbool.h>
#include <stdint.h>

/* Function IDs, PSCI 1.1 "Function prototypes" (SMC32 0x84..., SMC64 0xC4...) */
#define PSCI_VERSION 0x84000000u
#define PSCI_CPU_OFF 0x84000002u
#define PSCI_CPU_ON_64 0xC4000003u
#define PSCI_AFFINITY_INFO_64 0xC4000004u
#define PSCI_SYSTEM_OFF 0x84000008u
#define PSCI_SYSTEM_RESET 0x84000009u
#define PSCI_FEATURES 0x8400000Au /* PSCI 1.0 and later */

/* Return codes, PSCI 1.1 "Return error codes" */
#define PSCI_SUCCESS 0
#define PSCI_NOT_SUPPORTED (-1)
#define PSCI_DENIED (-3)
#define PSCI_ALREADY_ON (-4)
/* AFFINITY_INFO's answers (PSCI 1.1, "AFFINITY_INFO") */
#define PSCI_AFF_ON 0
#define PSCI_AFF_OFF 1
#define PSCI_AFF_ON_PENDING 2

/* PSCI_VERSION's value: major [30:16], minor [15:0] */
#define PSCI_VER(major, minor) (((major) << 16) | (minor))

/* The conduit (psci.c: HVC or SMC; the host model's own in sim/arm64/host_psci.c) */
void psci_init(bool use_hvc);
bool psci_uses_hvc(void);
/* x0 as the callee left it; every PSCI return value is a signed 32-bit one (psci_fn.c) */
int64_t psci_call(uint32_t fn, uint64_t a1, uint64_t a2, uint64_t a3);

/*
 * SMCCC (DEN 0028) beyond PSCI: SMCCC_VERSION (1.1 and later; PSCI_FEATURES says whether it
 * exists: 1.0 has no way to ask) and the vendor-specific hypervisor service's UID, four words
 * in x0..x3 (NOT_SUPPORTED in x0 from a hypervisor that has none).
 */
#define SMCCC_VERSION_FN 0x80000000u
#define SMCCC_VENDOR_HYP_UID 0x8600ff01u
/* a call whose result is x0..x3 */
void smccc_call4(uint32_t fn, uint64_t out[4]);
/*
 * The vendor hypervisor's UID, asked only where it cannot trap: over HVC (PSCI's conduit) at
 * EL1 with SMCCC 1.1 or later (QEMU's TCG, whose PSCI knows no SMCCC_VERSION, would take any
 * other function ID through HVC as an undefined instruction). *asked says whether it was
 * asked; true with uid[] filled when a UID came back (arch/arm64/smccc.c).
 */
bool smccc_hyp_uid(unsigned el, uint32_t uid[4], bool *asked);

/* The functions, plain C over psci_call (arch/arm64/psci_fn.c: the app and the model share them) */
const char *psci_strerror(int64_t rc);
int64_t psci_version(void);
/* PSCI_FEATURES (1.0 and later): >= 0 when fn is implemented, NOT_SUPPORTED when not */
int64_t psci_features(uint32_t fn);
int64_t psci_cpu_on(uint64_t mpidr, uint64_t entry_pa, uint64_t context_id);
/* the calling CPU off; returns only on failure (DENIED: a Trusted OS lives on it) */
int64_t psci_cpu_off(void);
/* PSCI_AFF_ON, _OFF, _ON_PENDING of the CPU at mpidr (affinity level 0), or an error */
int64_t psci_affinity_info(uint64_t mpidr);

/*
 * Whether the firmware's PSCI can start the other CPUs and take them back: the FADT says
 * PSCI compliant, PSCI_VERSION is 0.2 or later (0.1 has no fixed function IDs: its
 * calls would be guesses), and CPU_ON, CPU_OFF and AFFINITY_INFO are there (PSCI_FEATURES
 * from 1.0 on; 0.2 makes all three mandatory). Called before any CPU_ON, and no function
 * PSCI_FEATURES denies is ever called. true, or false with why in why[].
 */
struct psci_caps {
    int64_t version;         /* PSCI_VERSION's answer */
    bool cpu_on, cpu_off, affinity_info;
};
bool psci_smp_check(bool fadt_compliant, struct psci_caps *caps, char *why, unsigned why_len);
__attribute__((noreturn)) void psci_system_off(void);
__attribute__((noreturn)) void psci_system_reset(void);

#endif
