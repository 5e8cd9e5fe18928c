/* The SMCCC vendor hypervisor UID, where asking cannot trap: see asm/psci.h. */
#include "asm/psci.h"

bool smccc_hyp_uid(unsigned el, uint32_t uid[4], bool *asked)
{
    uint64_t out[4];
    int64_t version;
    unsigned i;
    *asked = false;
    if (el != 1 || !psci_uses_hvc() || psci_features(SMCCC_VERSION_FN) < 0)
        return false;
    version = psci_call(SMCCC_VERSION_FN, 0, 0, 0);
    if (version < 0x10001) /* 1.1: major [30:16], minor [15:0] */
        return false;
    *asked = true;
    smccc_call4(SMCCC_VENDOR_HYP_UID, out);
    if ((int32_t)out[0] == PSCI_NOT_SUPPORTED) /* SMCCC: w0 = -1 for an unknown function */
        return false;
    for (i = 0; i < 4; i++)
        uid[i] = (uint32_t)out[i];
    return true;
}
