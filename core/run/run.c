#include "core/run/run.h"
#include "core/mutant.h"
#include "core/lib/mem.h"
#include "core/lib/strbuf.h"
#include "core/run/verdict.h"

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

enum exit_mode run_exit_mode(const struct run *r)
{
    if (r->init_sipi.requested == 0 || MUTANT(init_sipi_back_to_shell))
        return r->cfg.exit_mode;
    return r->cfg.exit_mode == EXIT_SHUTDOWN ? EXIT_SHUTDOWN : EXIT_RESET;
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
        if (cpu_state_drops_out(r->topo.cpus[i].state)) {
            res = result_worst(res, RESULT_ERROR);
            partial = true;
        }
    }
    r->result = res;
    r->partial = partial;
}

/* The verdict of a concluded run (run_conclude): the same counts the host tool reads back. */
void run_verdict(const struct run *r, struct verdict *v)
{
    uint32_t i;
    verdict_init(v);
    for (i = 0; i < r->experiment_count; i++) {
        const struct experiment_record *e = &r->experiments[i];
        if (e->ran) {
            verdict_count(v, e->status, e->results.count > 0, e->id);
            v->emulated |= e->emulated;
        }
    }
    v->simulated = r->sim.simulated;
    v->emulated |= r->cfg.emulator != EMULATOR_NONE;
    for (i = 0; i < r->topo.count; i++)
        if (cpu_state_drops_out(r->topo.cpus[i].state))
            v->cpus_dropped++;
    /* as many as run.errors has entries: the dropped ones are one entry saying so */
    v->run_errors = r->errors.count + (r->errors.dropped ? 1 : 0);
    verdict_conclude(v, r->result);
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
