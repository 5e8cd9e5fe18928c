/* FADT: where the ACPI PM timer is and how wide it counts (ACPI 6.5, 5.2.9 Table 5.9). */
#include "core/firmware/acpi_internal.h"
#include "core/lib/bytes.h"
#include "core/lib/mem.h"

#define FADT_PM_TMR_BLK 76     /* u32 I/O port of the PM timer block */
#define FADT_PM_TMR_LEN 91     /* u8, 4 when the PM timer is supported, else 0 */
#define FADT_P_LVL2_LAT 96    /* u16 worst-case C2 latency (us), > 100: no C2 */
#define FADT_P_LVL3_LAT 98    /* u16 worst-case C3 latency (us), > 1000: no C3 */
#define FADT_FLAGS 112         /* u32 fixed feature flags (Table 5.10) */
#define FADT_V1_LEN 116        /* ACPI 1.0 ends after Flags */
#define FADT_X_PM_TMR_BLK 208  /* Generic Address Structure (5.2.3.2), 12 bytes */
#define GAS_LEN 12

#define FLAG_TMR_VAL_EXT (1u << 8)   /* the timer counts 32 bits, not 24 */
#define FLAG_HW_REDUCED (1u << 20)   /* HW_REDUCED_ACPI: no fixed hardware, no PM timer */

#define GAS_SPACE_SYSTEM_IO 1        /* Address Space ID, Table 5.2 */

bool acpi_fadt_parse(const void *fadt, size_t len, struct acpi_fadt_info *out,
                     struct msg_list *msgs)
{
    const uint8_t *t = fadt;
    uint32_t tlen, legacy_port;
    mem_zero(out, sizeof(*out));
    /* The ACPI 1.0 FADT (116 bytes) already holds every field used before X_PM_TMR_BLK. */
    if (!acpi_header_ok(fadt, len, "FACP", FADT_V1_LEN, msgs))
        return false;
    tlen = acpi_table_length(fadt);
    out->revision = t[8];
    out->flags = le32_at(t + FADT_FLAGS);
    /* the only C-state latencies published outside AML (_CST, _LPI need an interpreter) */
    out->p_lvl2_lat = le16_at(t + FADT_P_LVL2_LAT);
    out->p_lvl3_lat = le16_at(t + FADT_P_LVL3_LAT);
    out->hw_reduced = (out->flags & FLAG_HW_REDUCED) != 0;
    if (out->hw_reduced)
        return true; /* 5.2.9: the PM timer fields are ignored on HW-reduced platforms */
    out->pm_timer_32bit = (out->flags & FLAG_TMR_VAL_EXT) != 0;
    legacy_port = le32_at(t + FADT_PM_TMR_BLK);

    /* X_PM_TMR_BLK supersedes PM_TMR_BLK when its address is non-zero (5.2.9 Table 5.9). */
    if (tlen >= FADT_X_PM_TMR_BLK + GAS_LEN) {
        const uint8_t *gas = t + FADT_X_PM_TMR_BLK;
        uint64_t addr = le64_at(gas + 4);
        if (addr && gas[0] == GAS_SPACE_SYSTEM_IO && addr <= 0xffff) {
            out->pm_timer_port = (uint32_t)addr;
            out->pm_timer_from_x = true;
            return true;
        }
        if (addr && gas[0] != GAS_SPACE_SYSTEM_IO && !legacy_port)
            acpi_msg(msgs, "FACP: the PM timer is in address space %u, not I/O; not used",
                     gas[0]);
    }
    if (legacy_port > 0xffff) {
        acpi_msg(msgs, "FACP: PM_TMR_BLK 0x%x is not an I/O port; not used", legacy_port);
        return true;
    }
    if (legacy_port && t[FADT_PM_TMR_LEN] != 4)
        acpi_msg(msgs, "FACP: PM_TMR_LEN is %u, expected 4; the timer is used anyway",
                 t[FADT_PM_TMR_LEN]);
    out->pm_timer_port = legacy_port;
    return true;
}
