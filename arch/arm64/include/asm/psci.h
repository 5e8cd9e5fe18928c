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
#define PSCI_CPU_ON_64 0xC4000003u
#define PSCI_SYSTEM_OFF 0x84000008u
#define PSCI_SYSTEM_RESET 0x84000009u

/* Return codes, PSCI 1.1 "Return error codes" */
#define PSCI_SUCCESS 0

void psci_init(bool use_hvc);
bool psci_uses_hvc(void);
int64_t psci_call(uint32_t fn, uint64_t a1, uint64_t a2, uint64_t a3);
const char *psci_strerror(int64_t rc);
int64_t psci_cpu_on(uint64_t mpidr, uint64_t entry_pa, uint64_t context_id);
__attribute__((noreturn)) void psci_system_off(void);
__attribute__((noreturn)) void psci_system_reset(void);

#endif
