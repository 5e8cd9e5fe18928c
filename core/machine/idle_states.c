#include "core/machine/idle_states.h"
#include "core/machine/ipi.h"
#include "core/mutant.h"

/*
 * From Linux intel_idle (drivers/idle/intel_idle.c, v6.x): per model, the
 * hint, name, exit latency and target residency of every state. Only
 * family 6. The residency counter is the core one of the state's name
 * (MSR 0x3FC C3, 0x3FD C6, 0x3FE C7: SDM vol. 4, MSR_CORE_Cx_RESIDENCY);
 * C1 and C1E have none there. C7s, C8 and deeper are core C7 plus package
 * work: counted by 0x3FE.
 */
struct idle_row {
    uint32_t hint;
    const char *name;
    uint16_t exit_us, residency_us;
    uint8_t core_cstate;
};

static const struct idle_row skx[] = {
    { 0x00, "C1", 2, 2, 0 }, { 0x01, "C1E", 10, 20, 0 }, { 0x20, "C6", 133, 600, 6 },
};
static const struct idle_row icx[] = {
    { 0x00, "C1", 1, 1, 0 }, { 0x01, "C1E", 4, 4, 0 }, { 0x20, "C6", 170, 600, 6 },
};
static const struct idle_row spr[] = {
    { 0x00, "C1", 1, 1, 0 }, { 0x01, "C1E", 2, 4, 0 }, { 0x20, "C6", 290, 800, 6 },
};
static const struct idle_row bdw[] = {
    { 0x00, "C1", 2, 2, 0 },     { 0x01, "C1E", 10, 20, 0 },   { 0x10, "C3", 40, 100, 3 },
    { 0x20, "C6", 133, 400, 6 }, { 0x32, "C7s", 166, 500, 7 }, { 0x40, "C8", 300, 900, 7 },
    { 0x50, "C9", 600, 1800, 7 }, { 0x60, "C10", 2600, 7700, 7 },
};
static const struct idle_row hsw[] = {
    { 0x00, "C1", 2, 2, 0 },     { 0x01, "C1E", 10, 20, 0 },   { 0x10, "C3", 33, 100, 3 },
    { 0x20, "C6", 133, 400, 6 }, { 0x32, "C7s", 166, 500, 7 }, { 0x40, "C8", 300, 900, 7 },
    { 0x50, "C9", 600, 1800, 7 }, { 0x60, "C10", 2600, 7700, 7 },
};
static const struct idle_row adl[] = {
    { 0x00, "C1", 1, 1, 0 },     { 0x01, "C1E", 2, 4, 0 },    { 0x20, "C6", 220, 600, 6 },
    { 0x40, "C8", 280, 800, 7 }, { 0x60, "C10", 680, 2000, 7 },
};

#define ROWS(t) t, (uint32_t)(sizeof(t) / sizeof(t[0]))
static const struct {
    uint32_t model;
    const struct idle_row *rows;
    uint32_t nrows;
} models[] = {
    { 0x55, ROWS(skx) }, /* Skylake-SP, Cascade Lake, Cooper Lake */
    { 0x6a, ROWS(icx) }, { 0x6c, ROWS(icx) }, /* Ice Lake-SP, -D */
    { 0x8f, ROWS(spr) }, /* Sapphire Rapids */
    { 0x3d, ROWS(bdw) }, { 0x47, ROWS(bdw) }, { 0x4f, ROWS(bdw) }, { 0x56, ROWS(bdw) },
    { 0x3c, ROWS(hsw) }, { 0x3f, ROWS(hsw) }, { 0x45, ROWS(hsw) }, { 0x46, ROWS(hsw) },
    { 0x97, ROWS(adl) }, { 0x9a, ROWS(adl) }, /* Alder Lake */
};

bool idle_state_lookup(const struct cpu_features *f, uint32_t hint, struct idle_state_info *out)
{
    uint32_t i, j;
    if (f->vendor_id != VENDOR_INTEL || f->family != 6)
        return false;
    for (i = 0; i < sizeof(models) / sizeof(models[0]); i++) {
        if (models[i].model != f->model)
            continue;
        for (j = 0; j < models[i].nrows; j++) {
            const struct idle_row *r = &models[i].rows[j];
            if (r->hint != hint)
                continue;
            out->name = r->name;
            out->exit_latency_us = r->exit_us;
            out->target_residency_us = r->residency_us;
            out->core_cstate = r->core_cstate;
            return true;
        }
        return false;
    }
    return false;
}

/* Never below IPI_SETTLE_US: what every halted target gets (core/machine/ipi.h). */
void idle_settle_mwait(const struct cpu_features *f, uint32_t hint, struct idle_settle *out)
{
    struct idle_state_info s;
    out->us = IPI_SETTLE_US;
    out->source = "default";
    if (MUTANT(settle_fixed) || !idle_state_lookup(f, hint, &s))
        return;
    out->source = "linux_intel_idle";
    if (s.target_residency_us > out->us)
        out->us = s.target_residency_us;
}

void idle_settle_ioport(uint32_t p_lvl2_lat, struct idle_settle *out)
{
    /* ACPI 6.5 Table 5.9: a P_LVL2_LAT above 100 means the system has no C2 */
    if (p_lvl2_lat && p_lvl2_lat <= 100 && 2 * p_lvl2_lat > IPI_SETTLE_US) {
        out->us = 2 * p_lvl2_lat;
        out->source = "acpi_fadt_p_lvl2_lat";
        return;
    }
    out->us = IPI_SETTLE_US;
    out->source = p_lvl2_lat && p_lvl2_lat <= 100 ? "acpi_fadt_p_lvl2_lat" : "default";
}
