#include "core/run/hw_policy.h"
#include "asm/probe.h"
#include "core/lib/strbuf.h"

#define XAPIC_MAX_ID 254u /* 8-bit destination; 0xff is the broadcast ID */

static const char *mode_name(enum apic_mode m) { return m == APIC_MODE_X2APIC ? "x2apic" : "xapic"; }

void hw_choose_apic_mode(enum apic_request req, bool cpu_x2apic, bool fw_x2apic,
                         uint32_t max_apic_id, struct apic_choice *out)
{
    enum apic_mode fw = fw_x2apic ? APIC_MODE_X2APIC : APIC_MODE_XAPIC;
    out->request_refused = false;
    switch (req) {
    case APIC_REQ_X2APIC:
        if (cpu_x2apic) {
            out->mode = APIC_MODE_X2APIC;
            fmt_into(out->why, sizeof(out->why), "apic=x2apic (firmware: %s)", mode_name(fw));
        } else {
            out->mode = fw;
            out->request_refused = true;
            fmt_into(out->why, sizeof(out->why),
                     "apic=x2apic, but CPUID.01H:ECX[21] (x2APIC) is 0: staying in %s mode",
                     mode_name(fw));
        }
        return;
    case APIC_REQ_XAPIC:
        if (max_apic_id > XAPIC_MAX_ID) {
            out->mode = fw;
            out->request_refused = true;
            fmt_into(out->why, sizeof(out->why),
                     "apic=xapic, but APIC ID %u does not fit xAPIC's 8 bits: staying in %s mode",
                     max_apic_id, mode_name(fw));
        } else {
            out->mode = APIC_MODE_XAPIC;
            fmt_into(out->why, sizeof(out->why), "apic=xapic (firmware: %s)", mode_name(fw));
        }
        return;
    default:
        if (cpu_x2apic) {
            out->mode = APIC_MODE_X2APIC;
            fmt_into(out->why, sizeof(out->why),
                     "apic=auto: CPUID.01H:ECX[21] = 1, x2APIC as Linux runs it (firmware: %s)",
                     mode_name(fw));
        } else {
            out->mode = fw;
            fmt_into(out->why, sizeof(out->why),
                     "apic=auto: %s, the firmware's mode (CPUID.01H:ECX[21] = 0)", mode_name(fw));
        }
        return;
    }
}

void hw_apic_for_emulator(enum emulator emu, enum apic_request req, bool fw_x2apic,
                          struct apic_choice *c)
{
    if (emu != EMULATOR_BOCHS || fw_x2apic || c->mode != APIC_MODE_X2APIC)
        return;
    c->mode = APIC_MODE_XAPIC;
    c->request_refused = req == APIC_REQ_X2APIC;
    fmt_into(c->why, sizeof(c->why),
             "apic=%s, emulator=bochs: xapic, the firmware's mode (Bochs ignores APIC base "
             "writes while disabled: the x2APIC hand-back would hang)",
             req == APIC_REQ_X2APIC ? "x2apic" : "auto");
}

bool hw_icr_fence_needed(enum cpu_vendor vendor, enum apic_mode mode)
{
    return mode == APIC_MODE_X2APIC && vendor != VENDOR_AMD && vendor != VENDOR_HYGON;
}

bool hw_invpcid_usable(bool cpuid_invpcid, uint32_t probe)
{
    return cpuid_invpcid && probe == PROBE_OK;
}

enum invpcid_source hw_invpcid_source(bool cpuid_invpcid, uint32_t probe, bool emulate_requested)
{
    if (hw_invpcid_usable(cpuid_invpcid, probe))
        return INVPCID_HARDWARE;
    return emulate_requested ? INVPCID_EMULATED : INVPCID_NONE;
}
