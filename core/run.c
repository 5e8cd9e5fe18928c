#include "core/run.h"
#include "core/mem.h"
#include "core/strbuf.h"

const char *tsc_source_name(enum tsc_source s)
{
    switch (s) {
    case TSC_SRC_CPUID_15H:
        return "cpuid_15h";
    case TSC_SRC_CPUID_16H:
        return "cpuid_16h";
    case TSC_SRC_PM_TIMER:
        return "calibrated_acpi_pm_timer";
    case TSC_SRC_FIRMWARE_STALL:
        return "calibrated_firmware_stall";
    case TSC_SRC_HOST_CLOCK:
        return "host_clock";
    default:
        return "unknown";
    }
}

void run_conclude(struct run *r)
{
    uint32_t i;
    enum result res = RESULT_SUCCESS;
    bool partial = false;
    for (i = 0; i < r->experiment_count; i++) {
        const struct experiment_record *e = &r->experiments[i];
        if (!e->ran)
            continue;
        res = result_worst(res, e->status);
        partial |= e->partial;
    }
    if (r->errors.count || r->errors.dropped)
        res = result_worst(res, RESULT_ERROR);
    for (i = 0; i < r->topo.count; i++) {
        enum cpu_state s = r->topo.cpus[i].state;
        if (s == CPU_HUNG || s == CPU_FAULTED || s == CPU_SLOW || s == CPU_ABSENT) {
            res = result_worst(res, RESULT_ERROR);
            partial = true;
        }
    }
    r->result = res;
    r->partial = partial;
}

void run_report_basename(const struct run *r, char *buf, size_t cap)
{
    const struct rtc_time *t = &r->fw.start_time;
    struct strbuf sb;
    sb_init_fixed(&sb, buf, cap);
    if (t->valid)
        sb_printf(&sb, "%04u%02u%02u-%02u%02u%02u", t->year, t->month, t->day, t->hour, t->minute,
                  t->second);
    else
        sb_puts(&sb, "nodate");
    sb_printf(&sb, "-%s-f%02xm%02x-%04u", cpu_vendor_short(r->cpu.vendor_id), r->cpu.family,
              r->cpu.model, r->run_counter % 10000);
    if (r->name_tag[0])
        sb_printf(&sb, "-%s", r->name_tag);
}
