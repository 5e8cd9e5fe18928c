#include "efi/mp.h"
#include "efi/mp_protocol.h"

#include "asm/cpu.h"
#include "asm/topology.h"
#include "core/firmware/acpi.h"
#include "core/lib/mem.h"
#include "core/machine/takeover.h"
#include "core/lib/strbuf.h"

static EFI_GUID mp_guid = TLBSCOPE_MP_SERVICES_GUID;
static struct mp_services *mp;
static EFI_EVENT aps_done;
static bool aps_started;

static void refine_topology(struct run *r);
static bool bsp_only(struct run *r, const char *why, EFI_STATUS st);

static uint32_t bsp_apic_id(const struct run *r)
{
    return r->cpu.has_x2apic_id_leaf ? r->cpu.x2apic_id : r->cpu.initial_apic_id8;
}

/*
 * The CPU table for the tool's own INIT-SIPI bring-up (efi/ap_boot.c): the
 * MADT's enabled processors. False when the MADT lists no AP.
 */
static bool own_table(struct run *r, const char *why)
{
    const struct acpi_info *a = &r->fw.acpi;
    struct cpu_table t;
    if (!a->madt || cpu_table_from_madt(&t, a->madt, a->madt_length, bsp_apic_id(r), CPU_MAX,
                                        &r->warnings) < 2) {
        if (a->madt)
            mem_free(t.cpus);
        return false;
    }
    mem_free(r->topo.cpus);
    r->topo = t;
    r->topo.cpus[0].bring_up = BRING_UP_BSP;
    r->mp_available = false;
    r->mp_note[0] = 0;
    r->init_sipi.used = true;
    str_copy(r->init_sipi.reason, sizeof(r->init_sipi.reason), why);
    refine_topology(r);
    return true;
}

/* MP services cannot start the APs: the own bring-up under mp=auto, else the BSP alone. */
static bool fallback(struct run *r, const char *why, EFI_STATUS st)
{
    char reason[160];
    fmt_into(reason, sizeof(reason), "%s (%s)", why, efi_status_name(st));
    if (r->cfg.mp_mode == MP_AUTO && own_table(r, reason))
        return true;
    return bsp_only(r, why, st);
}

static bool bsp_only(struct run *r, const char *why, EFI_STATUS st)
{
    struct cpu_info *c = mem_zalloc(sizeof(*c));
    if (!c)
        return false;
    c->index = 0;
    c->apic_id = bsp_apic_id(r);
    c->bsp = true;
    c->bring_up = BRING_UP_BSP;
    c->numa_node = -1;
    c->state = CPU_OK;
    r->topo.cpus = c;
    r->topo.count = 1;
    r->mp_available = false;
    refine_topology(r);
    fmt_into(r->mp_note, sizeof(r->mp_note), "%s (%s): running on the BSP alone", why,
             efi_status_name(st));
    if (r->fw.acpi.madt_cpus_enabled > 1)
        msg_add(&r->warnings, "mp", "the ACPI MADT lists %u enabled CPUs; only the BSP is measured%s",
                r->fw.acpi.madt_cpus_enabled,
                r->cfg.mp_mode == MP_FIRMWARE ? " (mp=firmware: no INIT-SIPI of the tool's own)" : "");
    return true;
}

/*
 * Package/core/thread: the firmware's location (GetProcessorInfo) is kept
 * when CPUID enumerates nothing; otherwise each APIC ID is split with the
 * field widths of CPUID 1Fh/0Bh (or AMD 8000_0008h/8000_001Eh), which is
 * what the operating system would do. NUMA nodes come from the SRAT.
 */
static void refine_topology(struct run *r)
{
    struct topo_shifts shifts;
    uint32_t i;
    topology_decode(cpuid_live, NULL, &r->cpu, &shifts);
    r->topology_source = topo_source_name(shifts.source);
    r->l3_source = shifts.source != TOPO_SRC_NONE ? shifts.l3_source : "none";
    for (i = 0; i < r->topo.count; i++) {
        struct cpu_info *c = &r->topo.cpus[i];
        if (shifts.source != TOPO_SRC_NONE) {
            struct topo_ids ids;
            topology_split_ids(&shifts, c->apic_id, &ids);
            c->package = ids.package;
            c->core = ids.core;
            c->thread = ids.thread;
            c->topology_from_cpuid = true;
            /* the L3 from the BSP's cache leaf, as the OS computes cpu_llc_id */
            c->l3 = ids.l3;
            c->l3_known = shifts.has_l3;
        }
        c->numa_node = acpi_numa_node_of(r->fw.numa, c->apic_id);
    }
}

void mp_enumerate(struct run *r)
{
    UINTN total = 0, enabled = 0, i;
    (void)enabled;
    EFI_STATUS st;
    uint32_t next = 1;
    bool bsp_found = false;
    struct cpu_info *cpus;

    if (r->cfg.mp_mode == MP_OWN) {
        mp = NULL;
        if (!own_table(r, "mp=own: the tool starts every AP itself"))
            bsp_only(r, "mp=own, but the ACPI MADT lists no AP to start", EFI_NOT_FOUND);
        return;
    }
    st = LibLocateProtocol(&mp_guid, (void **)&mp);
    if (config_injects(&r->cfg, INJECT_NO_MP)) {
        mp = NULL;
        fallback(r, "EFI_MP_SERVICES_PROTOCOL not found (injected: inject=no_mp)", EFI_NOT_FOUND);
        return;
    }
    if (EFI_ERROR(st) || !mp) {
        mp = NULL;
        fallback(r, "EFI_MP_SERVICES_PROTOCOL not found", st);
        return;
    }
    st = mp->GetNumberOfProcessors(mp, &total, &enabled);
    if (EFI_ERROR(st) || total == 0) {
        mp = NULL;
        fallback(r, "MP services GetNumberOfProcessors failed", st);
        return;
    }
    if (total > CPU_MAX) {
        msg_add(&r->warnings, "mp", "firmware reports %llu CPUs; only the first %u are used",
                (unsigned long long)total, CPU_MAX);
        total = CPU_MAX;
    }
    cpus = mem_zalloc(total * sizeof(*cpus));
    if (!cpus) {
        mp = NULL;
        fallback(r, "out of memory for the CPU table", EFI_OUT_OF_RESOURCES);
        return;
    }
    for (i = 0; i < total; i++) {
        struct mp_processor_info info;
        struct cpu_info *c;
        mem_zero(&info, sizeof(info));
        st = mp->GetProcessorInfo(mp, i, &info);
        if (EFI_ERROR(st)) {
            msg_add(&r->errors, "mp", "GetProcessorInfo(%llu) failed: %s",
                    (unsigned long long)i, efi_status_name(st));
            continue;
        }
        /* the BSP is index 0 whatever the firmware's numbering */
        if (info.StatusFlag & MP_PROCESSOR_AS_BSP) {
            c = &cpus[0];
            bsp_found = true;
        }
        else if (next < total)
            c = &cpus[next++];
        else
            continue;
        c->index = (uint32_t)(c - cpus);
        c->apic_id = (uint32_t)info.ProcessorId;
        c->package = info.Location.Package;
        c->core = info.Location.Core;
        c->thread = info.Location.Thread;
        c->numa_node = -1;
        c->bsp = (info.StatusFlag & MP_PROCESSOR_AS_BSP) != 0;
        c->bring_up = c->bsp ? BRING_UP_BSP : BRING_UP_NONE;
        if (!(info.StatusFlag & MP_PROCESSOR_ENABLED)) {
            c->state = CPU_DISABLED;
            fmt_into(c->note, sizeof(c->note), "disabled by firmware");
        } else if (!(info.StatusFlag & MP_PROCESSOR_HEALTHY)) {
            c->state = CPU_DISABLED;
            fmt_into(c->note, sizeof(c->note), "firmware reports it unhealthy (BIST failed)");
        } else {
            c->state = CPU_OK;
        }
    }
    if (!bsp_found) {
        mem_free(cpus);
        mp = NULL;
        fallback(r, "MP services did not report a BSP", EFI_DEVICE_ERROR);
        return;
    }
    if (next < total)
        msg_add(&r->warnings, "mp", "%llu of %llu CPUs could not be described",
                (unsigned long long)(total - next), (unsigned long long)total);
    r->topo.cpus = cpus;
    r->topo.count = next; /* entries that GetProcessorInfo described */
    r->mp_available = true;
    refine_topology(r);
}

/* Called by the firmware on each AP: Microsoft ABI, whatever EFIAPI means here. */
static VOID MSABI ap_procedure(VOID *argument)
{
    takeover_ap_main((struct takeover *)argument);
}

bool mp_start_aps(struct run *r, struct takeover *t)
{
    EFI_STATUS st;
    aps_started = false;
    if (!mp)
        return false;
    if (t->expected_aps == 0) {
        fmt_into(r->mp_note, sizeof(r->mp_note), "only one CPU: nothing to take over");
        return false;
    }
    st = uefi_call_wrapper(BS->CreateEvent, 5, 0, 0, NULL, NULL, &aps_done);
    if (EFI_ERROR(st)) {
        fmt_into(r->mp_note, sizeof(r->mp_note),
                 "CreateEvent for StartupAllAPs failed (%s): running on the BSP alone",
                 efi_status_name(st));
        return false;
    }
    if (config_injects(&r->cfg, INJECT_MP_FAIL))
        st = EFI_DEVICE_ERROR; /* inject=mp_fail: as if the firmware refused */
    else
        st = mp->StartupAllAPs(mp, ap_procedure, FALSE, aps_done, 0, t, NULL);
    if (EFI_ERROR(st)) {
        fmt_into(r->mp_note, sizeof(r->mp_note), "StartupAllAPs failed (%s%s)%s",
                 efi_status_name(st),
                 config_injects(&r->cfg, INJECT_MP_FAIL) ? ", injected by inject=mp_fail" : "",
                 r->cfg.mp_mode == MP_AUTO ? "" : ": running on the BSP alone");
        uefi_call_wrapper(BS->CloseEvent, 1, aps_done);
        return false;
    }
    aps_started = true;
    return true;
}

bool mp_wait_aps_returned(uint64_t timeout_ms)
{
    uint64_t waited_ms = 0;
    if (!aps_started)
        return true;
    /* the firmware notices finished APs from a periodic timer: poll at 1 ms */
    for (;;) {
        if (uefi_call_wrapper(BS->CheckEvent, 1, aps_done) == EFI_SUCCESS) {
            uefi_call_wrapper(BS->CloseEvent, 1, aps_done);
            aps_started = false;
            return true;
        }
        if (waited_ms >= timeout_ms)
            return false;
        uefi_call_wrapper(BS->Stall, 1, 1000);
        waited_ms++;
    }
}
