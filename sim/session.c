#include "sim/session.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "arch/x86/cpu.h"
#include "arch/x86/invlpgb.h"
#include "arch/x86/paging.h"
#include "arch/x86/probe.h"
#include "arch/x86/tlb.h"
#include "arch/x86/trap.h"
#include "core/emulate.h"
#include "core/hw_policy.h"
#include "core/ipi.h"
#include "core/method.h"
#include "core/report.h"
#include "core/runner.h"
#include "core/shootdown.h"
#include "core/testmem.h"
#include "core/timing.h"
#include "sim/aps.h"
#include "sim/hostmem.h"

struct sim_session {
    struct run *run;
    struct sim_machine mach;
    struct smp smp;
    struct pt_ctx pt;
    struct testmem tm;
    bool aps_running;
};

/* ---- the platform's part: clock, console ---- */

static void host_clock(struct firmware_info *fw)
{
    time_t now = time(NULL);
    struct tm t;
    localtime_r(&now, &t);
    fw->start_time.year = (uint16_t)(t.tm_year + 1900);
    fw->start_time.month = (uint8_t)(t.tm_mon + 1);
    fw->start_time.day = (uint8_t)t.tm_mday;
    fw->start_time.hour = (uint8_t)t.tm_hour;
    fw->start_time.minute = (uint8_t)t.tm_min;
    fw->start_time.second = (uint8_t)t.tm_sec;
    fw->start_time.valid = true;
    fw->rtc_plausible = rtc_looks_plausible(&fw->start_time);
}

/* The runner measures in the tool's state; on the model that is the paging state of the BSP. */
static void enter_tool(void *ctx)
{
    struct sim_session *s = ctx;
    sim_enter_env(&s->mach.env);
}

static void leave_tool(void *ctx)
{
    struct sim_session *s = ctx;
    sim_leave_env(&s->mach.env);
}

static void print_hook(void *ctx, const char *text)
{
    (void)ctx;
    fputs(text, stdout);
    fflush(stdout);
}

/* ---- the run ---- */

/* The profile's CPUID, with the INVLPGB maximum count changed when asked. */
struct cpuid_view {
    const struct sim_profile *profile;
    uint32_t invlpgb_max_pages;
    bool no_invpcid;
};

static void view_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
    const struct cpuid_view *v = ctx;
    sim_profile_cpuid((void *)v->profile, leaf, subleaf, regs);
    if (leaf == 0x80000008 && v->invlpgb_max_pages)
        regs[3] = (regs[3] & 0xffff0000u) | ((v->invlpgb_max_pages - 1) & 0xffffu);
    if (leaf == 7 && subleaf == 0 && v->no_invpcid)
        regs[1] &= ~(1u << 10);
}

static void describe(struct run *r, const struct sim_options *o)
{
    uint32_t bit;
    struct simulation_info *si = &r->sim;
    si->simulated = true;
    si->model = TLBM_MODEL_NAME;
    si->model_version = TLBM_MODEL_VERSION;
    si->profile = o->profile->name;
    si->profile_cpu = o->profile->what;
    si->seed = o->seed;
    si->tlb_sets = o->model.sets;
    si->tlb_ways = o->model.ways;
    for (bit = 1; bit <= TLBM_ERRATA_ALL && si->errata_count < SIM_MAX_ERRATA; bit <<= 1)
        if (o->model.errata & bit)
            si->errata[si->errata_count++] = tlbm_erratum_name(bit);
    str_copy(r->fw.vendor, sizeof(r->fw.vendor), "tlbscope-sim (modelled machine, no firmware)");
    r->fw.secure_boot = SB_UNKNOWN;
    host_clock(&r->fw);
}

/* The machine-wide test injections of efi/mp.c, as the model's firmware would show them. */
static bool mp_services(struct run *r)
{
    if (config_injects(&r->cfg, INJECT_NO_MP)) {
        fmt_into(r->mp_note, sizeof(r->mp_note),
                 "EFI_MP_SERVICES_PROTOCOL not found (injected: inject=no_mp): running on the BSP "
                 "alone");
        return false;
    }
    if (config_injects(&r->cfg, INJECT_MP_FAIL)) {
        fmt_into(r->mp_note, sizeof(r->mp_note),
                 "StartupAllAPs failed (injected by inject=mp_fail): running on the BSP alone");
        return false;
    }
    if (r->topo.count == 1) {
        fmt_into(r->mp_note, sizeof(r->mp_note), "only one CPU: nothing to take over");
        return false;
    }
    return true;
}

static bool build_machine(struct sim_session *s, const struct sim_options *o)
{
    struct run *r = s->run;
    struct tlbm_config cfg = o->model;
    uint32_t smt = o->profile->smt ? o->profile->smt : 1, packages;
    cfg.seed = o->seed;
    sim_profile_features(&r->cpu, &cfg.feat);
    packages = o->cpus >= 8 && o->cpus % (2 * smt) == 0 ? 2 : 1;
    if (!sim_machine_init(&s->mach, o->cpus, &cfg, smt, o->cpus / smt / packages)) {
        fprintf(stderr, "tlbscope-sim: cannot set up a machine of %u CPUs\n", o->cpus);
        return false;
    }
    r->topo = s->mach.topo;
    r->topology_source = "simulated";
    if (!pt_init(&s->pt, 4, false, host_alloc_table, NULL) ||
        !testmem_init(&s->tm, &s->pt, host_alloc_frames, NULL)) {
        fprintf(stderr, "tlbscope-sim: out of memory for the page tables\n");
        return false;
    }
    if (r->cfg.global_pages)
        testmem_set_global(&s->tm, true);
    /* hardware may walk any present test page at any time: let the model do it too */
    tlbm_add_spec_range(&s->mach.model, TEST_VA_BASE, TEST_PAGES, PAGE_4K);
    if (s->tm.has_2m)
        tlbm_add_spec_range(&s->mach.model, TEST_2M_VA_BASE, TEST_2M_PAGES, PAGE_2M);
    method_choose_pcids(r);
    s->mach.env.cr3_root = (uint64_t)(uintptr_t)s->pt.root;
    s->mach.env.pcide = r->method.pcid_enabled;
    s->mach.env.kernel_pcid = r->method.kernel_pcid;
    r->method.cr3_root = s->mach.env.cr3_root;
    r->method.paging_levels = s->pt.levels;
    r->method.test_pages = TEST_PAGES;
    r->method.page_flush = "invlpg";
    r->firmware_x2apic = r->cpu.x2apic;
    r->method.firmware_apic_mode = r->firmware_x2apic ? "x2apic" : "xapic";
    /* the machine's decisions (core/hw_policy.c), recorded; the model has no APIC to switch */
    {
        static struct apic_choice c;
        uint32_t i, max_id = 0;
        for (i = 0; i < r->topo.count; i++)
            max_id = r->topo.cpus[i].apic_id > max_id ? r->topo.cpus[i].apic_id : max_id;
        hw_choose_apic_mode(r->cfg.apic, r->cpu.x2apic, r->firmware_x2apic, max_id, &c);
        if (c.request_refused)
            msg_add(&r->warnings, "apic", "%s", c.why);
        r->method.apic_mode = c.mode == APIC_MODE_X2APIC ? "x2apic" : "xapic";
        r->method.apic_mode_reason = c.why;
        r->method.icr_fence = hw_icr_fence_needed(r->cpu.vendor_id, c.mode) ? "mfence;lfence" : "none";
    }
    return true;
}

/* The probes of efi/session.c, executed on the model: a fault would be a violation. */
static void probe_instructions(struct sim_session *s)
{
    struct run *r = s->run;
    uint32_t before = s->mach.model.violations;
    uint32_t invpcid_ok = PROBE_OK, invlpgb_ok = PROBE_OK;
    if (r->cpu.invpcid) {
        invpcid(INVPCID_ALL_NON_GLOBAL, 0, 0);
        invpcid_ok = s->mach.model.violations == before ? PROBE_OK : PROBE_FAULTED(13);
    }
    if (r->cpu.invlpgb) {
        struct invlpgb_op op = invlpgb_encode_range(testmem_va(0), 1, false, 0, false);
        before = s->mach.model.violations;
        invlpgb_raw(op.rax, op.ecx, op.edx);
        tlbsync();
        invlpgb_ok = s->mach.model.violations == before ? PROBE_OK : PROBE_FAULTED(6);
    }
    method_apply_probes(r, invpcid_ok, invlpgb_ok, PROBE_OK);
}

static uint32_t start_aps(struct sim_session *s, uint64_t window_ms)
{
    struct run *r = s->run;
    uint32_t i, expected = 0;
    for (i = 1; i < s->smp.count; i++) {
        struct percpu *pc = s->smp.cpu[i];
        if (!pc)
            continue;
        expected++;
        if (pc->inject_kind == INJECT_ABSENT)
            continue; /* inject=absent: the AP never checks in */
        if (!sim_start_ap(&s->mach, &s->smp, i))
            msg_add(&r->errors, "sim", "could not start a thread for CPU %u", i);
    }
    return smp_wait_checkins(&s->smp, expected, tsc_now() + ms_to_ticks(window_ms), window_ms);
}

static void report_violations(struct run *r, const struct tlb_model *m)
{
    uint32_t i;
    for (i = 0; i < m->violations && i < TLBM_MAX_VIOLATIONS; i++)
        msg_add(&r->errors, "model", "%s (a fault on the machine)", m->violation[i]);
    if (m->violations > TLBM_MAX_VIOLATIONS)
        msg_add(&r->errors, "model", "%u further architectural violations", 
                m->violations - TLBM_MAX_VIOLATIONS);
}

static bool measure(struct sim_session *s, const struct sim_options *o)
{
    struct run *r = s->run;
    struct runner_hooks hooks = { enter_tool, leave_tool, print_hook, s };
    struct runner runner;
    uint64_t t_to = method_answer_timeout_ms(r), window_ms = 2000 + 10ull * r->topo.count;
    uint32_t i, arrived, missing;

    if (!build_machine(s, o))
        return false;
    config_check_cpus(&r->cfg, r->topo.count, &r->warnings);
    if (!smp_init(&s->smp, &r->topo, &r->cfg, ms_to_ticks(t_to))) {
        fprintf(stderr, "tlbscope-sim: out of memory for the per-CPU blocks\n");
        return false;
    }
    s->smp.halt_waits = r->cfg.target_wait == TARGET_WAIT_HALT ||
                        (r->cfg.target_wait == TARGET_WAIT_AUTO && r->cpu.hypervisor);
    r->method.target_wait = s->smp.halt_waits ? "hlt" : "spin";
    /* a vCPU can be descheduled past any deadline: answers within a grace count (core/smp.h) */
    s->smp.late_grace_ticks = r->cpu.hypervisor ? SMP_LATE_GRACE * s->smp.timeout_ticks : 0;
    s->smp.run_deadline = tsc_now() + ms_to_ticks((uint64_t)r->cfg.budget_s * 1000 * 16 + 60000);
    ipi_install_handlers();
    shootdown_install_handlers();
    emulate_install(&s->smp, r->cfg.emulate);
    trap_set_exception_hook(smp_record_fault);
    sim_bind(&s->mach, 0, &s->smp.cpu[0]->arch);

    r->mp_available = mp_services(r);
    if (r->mp_available) {
        arrived = start_aps(s, window_ms);
        s->aps_running = true;
        printf("CPUs: %u of %u APs checked in (modelled, APIC %s)\n", arrived, r->topo.count - 1,
               r->method.apic_mode);
    } else {
        if (r->topo.count > 1)
            printf("WARNING: %s\n", r->mp_note);
        for (i = 1; i < r->topo.count; i++)
            cpu_mark(&r->topo.cpus[i], CPU_ABSENT, "not started: %s", r->mp_note);
    }

    enter_tool(s);
    probe_instructions(s);
    leave_tool(s);

    runner_init(&runner, r, &s->smp, &hooks);
    runner.mem = &s->tm;
    runner_run_all(&runner);

    if (s->aps_running) {
        enter_tool(s);
        missing = smp_release_aps(&s->smp, tsc_now() + ms_to_ticks(t_to * 2 + 1000));
        leave_tool(s);
        if (missing)
            msg_add(&r->errors, "release", "%u APs did not return to the firmware", missing);
        else
            printf("CPUs: released\n");
    }
    sim_join_all(&s->mach);
    report_violations(r, &s->mach.model);
    return true;
}

/* ---- the report files ---- */

static uint32_t next_counter(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    uint32_t n = 0;
    if (!d)
        return 1;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len > 5 && strcmp(e->d_name + len - 5, ".json") == 0)
            n++;
    }
    closedir(d);
    return n + 1;
}

static bool make_dirs(const char *path)
{
    char buf[1024];
    size_t i, len = strlen(path);
    if (len == 0 || len >= sizeof(buf))
        return false;
    memcpy(buf, path, len + 1);
    for (i = 1; i <= len; i++) {
        if (buf[i] == '/' || buf[i] == 0) {
            char c = buf[i];
            buf[i] = 0;
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return false;
            buf[i] = c;
        }
    }
    return true;
}

static bool write_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wx"); /* never overwrite a report */
    bool ok;
    if (!f)
        return false;
    ok = fwrite(data, 1, len, f) == len;
    ok &= fclose(f) == 0;
    return ok;
}

static bool save(const struct run *r, const char *dir, const struct strbuf *json,
                 const struct strbuf *text, char *json_path, size_t cap)
{
    char base[96], candidate[128], text_path[1200];
    struct stat st;
    unsigned attempt;
    run_report_basename(r, base, sizeof(base));
    for (attempt = 0; attempt < 100; attempt++) {
        if (attempt == 0)
            snprintf(candidate, sizeof(candidate), "%s", base);
        else
            snprintf(candidate, sizeof(candidate), "%s-%u", base, attempt);
        snprintf(json_path, cap, "%s/%s.json", dir, candidate);
        snprintf(text_path, sizeof(text_path), "%s/%s.txt", dir, candidate);
        if (stat(json_path, &st) != 0 && stat(text_path, &st) != 0)
            break;
    }
    if (!write_file(json_path, json->data, json->len)) {
        fprintf(stderr, "tlbscope-sim: cannot write %s: %s\n", json_path, strerror(errno));
        return false;
    }
    if (!write_file(text_path, text->data, text->len)) {
        fprintf(stderr, "tlbscope-sim: cannot write %s: %s\n", text_path, strerror(errno));
        return false;
    }
    printf("Report saved: %s\n              %s\n", json_path, text_path);
    return true;
}

int sim_session_run(const struct sim_options *o)
{
    static struct sim_session s;
    static char cpuid_override[160];
    struct cpuid_view view;
    struct run *r;
    struct strbuf json, text;
    char json_path[1100];
    bool saved;
    uint32_t i;

    host_init();
    memset(&s, 0, sizeof(s));
    r = mem_zalloc(sizeof(*r));
    if (!r) {
        fprintf(stderr, "tlbscope-sim: out of memory\n");
        return 2;
    }
    s.run = r;
    r->start_tsc = rdtsc_raw();
    config_defaults(&r->cfg);
    str_copy(r->args_text, sizeof(r->args_text), o->args);
    if (o->args[0])
        config_parse(&r->cfg, o->args, strlen(o->args), "command line", &r->warnings);
    config_finalize(&r->cfg);
    for (i = 0; i < r->warnings.count; i++)
        printf("WARNING: %s: %s\n", r->warnings.items[i].where, r->warnings.items[i].text);

    view.profile = o->profile;
    view.invlpgb_max_pages = o->invlpgb_max_pages;
    view.no_invpcid = o->no_invpcid;
    cpuid_decode(view_cpuid, &view, &r->cpu);
    describe(r, o);
    if (o->invlpgb_max_pages) {
        if (!r->cpu.invlpgb) {
            fprintf(stderr, "tlbscope-sim: --invlpgb-max: profile %s has no INVLPGB (CPUID "
                            "8000_0008 EBX[3] = 0)\n", o->profile->name);
            return 2;
        }
        fmt_into(cpuid_override, sizeof(cpuid_override),
                 "80000008.edx[15:0] = %u (--invlpgb-max %u)", o->invlpgb_max_pages - 1,
                 o->invlpgb_max_pages);
        r->sim.cpuid_override = cpuid_override;
    }
    if (o->no_invpcid) {
        size_t used = strlen(cpuid_override);
        fmt_into(cpuid_override + used, sizeof(cpuid_override) - used, "%s07.0.ebx[10] = 0 (--no-invpcid)",
                 used ? "; " : "");
        r->sim.cpuid_override = cpuid_override;
    }
    r->tsc_hz = sim_calibrate_tsc();
    r->tsc_source = TSC_SRC_HOST_CLOCK;
    timing_set_tsc_hz(r->tsc_hz);
    r->method.timer_overhead_ticks = timing_measure_overhead();
    printf("\ntlbscope %s (commit %s) on tlbscope-sim: the %s, SIMULATED\n", TLBSCOPE_VERSION,
           TLBSCOPE_COMMIT, TLBM_MODEL_NAME);
    printf("Model: profile %s (%s), %u CPUs, seed %llu, TLB %u sets x %u ways%s\n",
           o->profile->name, o->profile->what, o->cpus, (unsigned long long)o->seed,
           o->model.sets, o->model.ways, o->model.errata ? ", errata on" : "");
    printf("CPU: %s \"%s\" pcid=%s invpcid=%s invlpgb=%s", r->cpu.vendor, r->cpu.brand,
           r->cpu.pcid ? "yes" : "no", r->cpu.invpcid ? "yes" : "no", r->cpu.invlpgb ? "yes" : "no");
    if (r->cpu.invlpgb)
        printf(" (max %u pages)", r->cpu.invlpgb_max_pages);
    printf("\n");

    if (!make_dirs(o->out_dir)) {
        fprintf(stderr, "tlbscope-sim: cannot create the report directory %s: %s\n", o->out_dir,
                strerror(errno));
        return 2;
    }
    r->run_counter = next_counter(o->out_dir);
    run_report_basename(r, r->run_id, sizeof(r->run_id));

    if (!measure(&s, o))
        return 2;

    r->duration_ms = ticks_to_ms(tsc_now() - r->start_tsc);
    run_conclude(r);
    sb_init_dynamic(&json, 64 * 1024);
    sb_init_dynamic(&text, 16 * 1024);
    if (!report_write_json(r, &json)) {
        fprintf(stderr, "tlbscope-sim: the JSON report is incomplete (out of memory)\n");
        return 2;
    }
    report_write_text(r, &text);
    fputs("\n", stdout);
    fwrite(text.data, 1, text.len, stdout);
    saved = save(r, o->out_dir, &json, &text, json_path, sizeof(json_path));
    printf("RESULT: %s\n", result_name(r->result));
    fflush(stdout);
    sb_release(&json);
    sb_release(&text);
    if (!saved)
        return 2;
    return r->result == RESULT_SUCCESS || r->result == RESULT_SKIP ? 0 : 1;
}
