/*
 * The PSCI functions the app calls, and the check before the first CPU_ON: plain C over
 * psci_call (asm/psci.h), so tlbscope-sim --arch aarch64 runs this same code against its
 * modelled PSCI (sim/arm64/host_psci.c).
 */
#include "asm/psci.h"
#include "core/lib/strbuf.h"
#include "core/mutant.h"

/* PSCI's return values are signed 32-bit (PSCI 1.1, "Return error codes"); for an SMC32
 * function SMCCC leaves x0's upper half unknown, so only w0 is read */
static int64_t call(uint32_t fn, uint64_t a1, uint64_t a2, uint64_t a3)
{
    return (int64_t)(int32_t)(uint32_t)psci_call(fn, a1, a2, a3);
}

const char *psci_strerror(int64_t rc)
{
    switch (rc) {
    case 0: return "SUCCESS";
    case -1: return "NOT_SUPPORTED";
    case -2: return "INVALID_PARAMETERS";
    case -3: return "DENIED";
    case -4: return "ALREADY_ON";
    case -5: return "ON_PENDING";
    case -6: return "INTERNAL_FAILURE";
    default: return "unknown";
    }
}

int64_t psci_version(void)
{
    return call(PSCI_VERSION, 0, 0, 0);
}

int64_t psci_features(uint32_t fn)
{
    return call(PSCI_FEATURES, fn, 0, 0);
}

/* CPU_ON (PSCI 1.1, "CPU_ON"): target_cpu is the MPIDR affinity, entry_point a
 * physical address, context_id arrives in the target's x0. */
int64_t psci_cpu_on(uint64_t mpidr, uint64_t entry_pa, uint64_t context_id)
{
    return call(PSCI_CPU_ON_64, mpidr, entry_pa, context_id);
}

int64_t psci_cpu_off(void)
{
    return call(PSCI_CPU_OFF, 0, 0, 0);
}

/* lowest_affinity_level 0: the one CPU, not its cluster */
int64_t psci_affinity_info(uint64_t mpidr)
{
    return call(PSCI_AFFINITY_INFO_64, mpidr, 0, 0);
}

bool psci_smp_check(bool fadt_compliant, struct psci_caps *caps, char *why, unsigned why_len)
{
    const char *missing;
    *caps = (struct psci_caps){ 0 };
    why[0] = 0;
    if (!fadt_compliant) {
        /* without the flag no PSCI call is safe: the conduit itself is unknown */
        fmt_into(why, why_len, "the FADT does not say PSCI compliant (ARM_BOOT_ARCH bit 0)");
        return false;
    }
    caps->version = psci_version();
    if (MUTANT(psci_features_unchecked)) {
        caps->cpu_on = caps->cpu_off = caps->affinity_info = true;
        return true;
    }
    if (caps->version < PSCI_VER(0, 2)) {
        fmt_into(why, why_len, "PSCI_VERSION returned %lld (%s): 0.2 or later is needed for fixed function IDs",
                 (long long)caps->version, caps->version < 0 ? psci_strerror(caps->version) : "0.1");
        return false;
    }
    if (caps->version < PSCI_VER(1, 0)) {
        /* 0.2 has no PSCI_FEATURES, and makes these three mandatory */
        caps->cpu_on = caps->cpu_off = caps->affinity_info = true;
        return true;
    }
    caps->cpu_on = psci_features(PSCI_CPU_ON_64) >= 0;
    caps->cpu_off = psci_features(PSCI_CPU_OFF) >= 0;
    caps->affinity_info = psci_features(PSCI_AFFINITY_INFO_64) >= 0;
    missing = !caps->cpu_on ? "CPU_ON" : !caps->cpu_off ? "CPU_OFF" : !caps->affinity_info ? "AFFINITY_INFO" : 0;
    if (missing) {
        fmt_into(why, why_len, "PSCI %lld.%lld: PSCI_FEATURES says %s is not implemented",
                 (long long)(caps->version >> 16), (long long)(caps->version & 0xffff), missing);
        return false;
    }
    return true;
}
