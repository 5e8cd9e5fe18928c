/*
 * tlbscope-sim --arch aarch64: the aarch64 app's real experiments
 * (core/exp/arm64/, compiled for the host) on the strict aarch64 model
 * (tlbi_model.h), host threads playing the CPUs (host_arch.h), the CPU one
 * of profiles.h's. What efi/arm64/main.c does after a boot, with the model
 * for the machine: the configuration through the same parser
 * (a64_config_apply), the topology of --cpus CPUs (MPIDRs in the profile's cluster
 * shape, profiles.c, listed in a modelled MADT whose --bsp'th entry is the BSP; slots and
 * bring-up as the app's, core/run/bringup_arm64.c, PSCI CPU_ON by MPIDR), the experiments (a64_run_experiments), and the
 * report from the aarch64 writer (core/report/report_arm64.c), labelled simulated
 * (run.sim) with every experiment marked emulated: its timings are the
 * host's clock, never a counter of the modelled CPU.
 *
 *   build/tlbscope-sim-a64 --cpu neoverse-n1 --cpus 4 [--bsp K] [--seed N] [--out DIR] [key=value ...]
 *
 * (build/tlbscope-sim --arch aarch64 ... runs this). Exit status as
 * tlbscope-sim's: 0 SUCCESS or SKIP, 1 ERROR or FAILURE, 2 no report.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "asm/paging.h"
#include "asm/psci.h"
#include "asm/smp.h"
#include "asm/timer.h"
#include "core/exp/arm64/a64_config.h"
#include "core/exp/arm64/experiments.h"
#include "core/run/run_arm64.h"
#include "core/lib/mem.h"
#include "core/run/bringup_arm64.h"
#include "core/lib/strbuf.h"
#include "core/report/report_arm64.h"
#include "sim/arm64/host_arch.h"
#include "sim/arm64/profiles.h"

#define DEFAULT_PROFILE "neoverse-n1"
#define DEFAULT_CPUS 4
#define DEFAULT_OUT "build/sim"
#define MODEL_NAME "tlbscope strict aarch64 TLB model"
/* raised when the model's behaviour changes (sim/arm64/tlbi_model.h) */
#define MODEL_VERSION 1
#define MAX_RUNS 4 /* --runs: enough to show what a run leaves the next */

static struct arm64_run run;
static struct a64_simulation simulation;
static unsigned sim_el = 1; /* --el: the EL the app runs at (QEMU's virtualization=on: 2) */

static void *host_alloc(size_t n) { return malloc(n); }
static void host_free(void *p) { free(p); }
/* the experiments' progress lines (core/run/exp_loop.h), as x86's model runs print them */
static void print_line(const char *text) { fputs(text, stdout); }
static const struct mem_ops host_mem = { host_alloc, host_free };

static void usage(FILE *out)
{
    unsigned i;
    fprintf(out,
            "usage: tlbscope-sim --arch aarch64 [--cpu NAME] [--cpus N] [--bsp K] [--el N] [--seed N] [--out DIR] [key=value ...]\n"
            "Runs the aarch64 app's experiments on the strict aarch64 model: host threads as CPUs, each\n"
            "with a TLB only a completed TLBI empties (TLBI operands decoded bit by bit, DSB/ISB, speculative\n"
            "walks), the GIC's SGIs, the CPU's ID registers from the profile. Reports are marked simulated:\n"
            "the timings are the host's, the point is the correctness of every path.\n"
            "\n"
            "  --cpu NAME    CPU profile (%s); --cpu list shows them\n"
            "  --cpus N      CPUs, 1 to %u (%u)\n"
            "  --bsp K       the BSP is the modelled MADT's K-th CPU, 1 to N (1): a server may list it late\n"
            "  --seed N      the model's random choices (default: from the clock, printed)\n"
            "  --out DIR     where the JSON and text reports go (%s)\n"
            "  --gic-secure-sgis MASK  the SGIs the modelled secure firmware keeps, bit i SGI i (0xff00,\n"
            "                TF-A's): the app's writes to them are ignored, as from the non-secure world\n"
            "  --gic-rss SIDES  which sides have the range selector SGIs to Aff0 > 15 need: both (GICD_TYPER.RSS\n"
            "                and ICC_CTLR_EL1.RSS, the default), gicd, icc or none\n"
            "  --aff0-cores N  MPIDRs with MT 0, the core in Aff0, N cores a cluster (1 to 64; Neoverse\n"
            "                servers number up to 128 cores so): the profile's shape otherwise\n"
            "  --runs N      run the app N times (1 to 4) on one machine, as a UEFI shell script may: each\n"
            "                run finds the CPUs as the one before handed them back (PSCI CPU_OFF)\n"
            "  --psci SPEC   the model's PSCI: VERSION[,-cpu_on][,-cpu_off][,-affinity_info] (1.1)\n"
            "  --el N        the EL the app runs at, 1 or 2 (1; 2: non-VHE EL2, as under QEMU's\n"
            "                virtualization=on: the EL2 TLBI forms and tlbi_broadcast_vs_ipi's stage2_kvm)\n"
            "  --counter-hz HZ  the modelled CNTFRQ_EL0, 1000 to 1000000000 (1 GHz: ticks are host ns);\n"
            "                real servers' 25-100 MHz round the host clock to 10-40 ns ticks\n"
            "  key=value     the app's configuration keys (samples, run_budget_s, experiments, ...)\n"
            "Profiles:\n",
            DEFAULT_PROFILE, A64M_MAX_CPUS, DEFAULT_CPUS, DEFAULT_OUT);
    for (i = 0; i < a64_profile_count; i++)
        fprintf(out, "  %-12s %s\n", a64_profiles[i].name, a64_profiles[i].what);
}

static int bad(const char *fmt, const char *arg)
{
    fprintf(stderr, "tlbscope-sim --arch aarch64: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(tlbscope-sim --arch aarch64 --help for usage)\n");
    return 2;
}

static bool parse_u64(const char *s, uint64_t *out)
{
    char *end;
    if (!s || !*s || *s == '-')
        return false;
    *out = strtoull(s, &end, 0);
    return *end == 0;
}

/* what identify() of efi/arm64/main.c finds, for the modelled machine */
static void describe_machine(const struct a64_profile *p)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    run.rtc_plausible = true;
    strftime(run.start_time, sizeof(run.start_time), "%Y-%m-%dT%H:%M:%S", &tm);
    strftime(run.id, sizeof(run.id), "%Y%m%d-%H%M%S", &tm);
    a64_profile_identify(p, &run.cpu);
    /* the x86 app's name pattern (efi/arm64/main.c identify) */
    fmt_into(run.id + str_len(run.id), sizeof(run.id) - str_len(run.id), "-aarch64-i%02xp%03x-0001",
             run.cpu.implementer, run.cpu.part);
    run.counter_hz = tick_freq();
    str_copy(run.uefi_vendor, sizeof(run.uefi_vendor), "tlbscope-sim");
    str_copy(run.uefi_revision, sizeof(run.uefi_revision), "0.0");
    run.madt = true;
    run.el = sim_el;
    run.psci_hvc = sim_el == 1; /* at EL2 the firmware's PSCI is reached by SMC */
    run.cntvoff_cleared = sim_el == 2; /* as efi/arm64/main.c at EL2: the model's CNTVOFF_EL2 was 0 */
}

/* what bring_up() of efi/arm64/main.c records, after the model's CPUs checked in */
static void record_bring_up(const int64_t *rc)
{
    unsigned i;
    run.region_ok = true;
    run.test_pages = REGION_PAGES;
    a64_gic_record(&run, 3, 0, gic_cpu_init(&percpu[0])); /* the BSP's, after gic_init */
    /* each row's own slot: the BSP may sit anywhere in the MADT (core/run/bringup_arm64.c) */
    for (i = 0; i < run.ntopo && rc; i++) {
        struct a64_topo_cpu *t = &run.topo[i];
        unsigned c = (unsigned)t->percpu;
        if (t->percpu <= 0 || c >= ncpus || percpu_usable(c))
            continue;
        t->state = A64_CPU_ABSENT;
        if (rc[c] != PSCI_SUCCESS)
            fmt_into(t->note, sizeof(t->note), "PSCI CPU_ON returned %s (%lld)", psci_strerror(rc[c]), (long long)rc[c]);
        else
            str_copy(t->note, sizeof(t->note), "the model's CPU thread did not check in within 1 s");
        run.partial = true;
    }
    a64_gic_check_secondaries(&run);
}

/* psci_setup() of efi/arm64/main.c on the model's PSCI: the same check before any CPU_ON
 * (the model's FADT says PSCI compliant); false: the BSP runs alone */
static bool check_psci(void)
{
    unsigned i;
    int64_t v;
    run.psci_checked = true;
    run.psci_smp = psci_smp_check(true, &run.psci, run.psci_refusal, sizeof(run.psci_refusal));
    v = run.psci.version;
    fmt_into(run.psci_version, sizeof(run.psci_version), "%lld.%lld", (long long)(v >> 16), (long long)(v & 0xffff));
    if (run.psci_smp)
        return true;
    msg_add(&run.errors, "psci", "%s: CPU_ON not called, only the BSP runs", run.psci_refusal);
    for (i = 1; i < run.ntopo; i++) { /* row 0 the BSP's */
        run.topo[i].percpu = -1;
        run.topo[i].bring_up = NULL;
        run.topo[i].state = A64_CPU_ABSENT;
        fmt_into(run.topo[i].note, sizeof(run.topo[i].note), "not started: %s", run.psci_refusal);
    }
    run.partial = true;
    return false;
}

/* the model's own account: its counts on the driver's output (what the protocols executed), and any
 * operation it refused as a run error (a protocol's error, never the machine's) */
static void record_model(uint32_t first_violation)
{
    struct a64_model *m = a64s_model();
    struct a64m_counts c;
    uint32_t i;
    a64m_sum_counts(m, &c);
    printf("tlbscope-sim: model: %llu reads (%llu walks, %llu speculative), %llu descriptor stores; TLBI "
           "%llu IS, %llu local, %llu range, %llu all, %llu OS, %llu ASID; DSB %llu ISH, %llu ISHST, %llu NSH, "
           "%llu OSH; stage 2: %llu IPAS2E1IS, %llu VMALLE1IS at EL2; %llu repeat-TLBI dummies; %llu TLBIs took effect on a CPU before their DSB; "
           "%u refused, %u PSCI calls refused\n",
           (unsigned long long)c.reads, (unsigned long long)c.walks, (unsigned long long)c.spec_walks,
           (unsigned long long)c.pte_stores, (unsigned long long)c.tlbi_is, (unsigned long long)c.tlbi_local,
           (unsigned long long)c.tlbi_range, (unsigned long long)c.tlbi_all, (unsigned long long)c.tlbi_os,
           (unsigned long long)c.tlbi_asid, (unsigned long long)c.dsb_ish, (unsigned long long)c.dsb_ishst,
           (unsigned long long)c.dsb_nsh, (unsigned long long)c.dsb_osh, (unsigned long long)c.tlbi_ipas2,
           (unsigned long long)c.tlbi_vmall_vmid, (unsigned long long)c.tlbi_dummy,
           (unsigned long long)c.early, m->violations - first_violation, a64s_psci_errors());
    for (i = first_violation; i < m->violations && i < A64M_MAX_VIOLATIONS; i++)
        msg_add(&run.errors, "simulation", "the model refused an operation: %s", m->violation[i]);
    for (i = 0; i < m->ncpus; i++) /* the hand-back leaves EL2 as found: the firmware's stage 2 (0) */
        if (m->cpu[i].s2.vttbr || m->cpu[i].s2.vtcr)
            msg_add(&run.errors, "simulation", "CPU %u ends with VTTBR_EL2 0x%llx, not the firmware's", i,
                    (unsigned long long)m->cpu[i].s2.vttbr);
    {
        const char *first;
        unsigned n = a64s_gic_refusals(&first);
        if (n)
            msg_add(&run.errors, "simulation", "the model's GIC refused %u SGIs: %s", n, first);
    }
    for (i = 0; i < a64s_psci_errors() && i < A64S_PSCI_MAX_ERRORS; i++)
        msg_add(&run.errors, "simulation", "the model refused an operation: %s", a64s_psci_error(i));
}

/* --psci: "1.1", "0.2,-cpu_on": PSCI_VERSION's value and the functions PSCI_FEATURES denies
 * (bit 0 CPU_ON, 1 CPU_OFF, 2 AFFINITY_INFO) */
static bool parse_psci(const char *spec, int64_t *version, unsigned *missing)
{
    static const char *const fns[] = { ",-cpu_on", ",-cpu_off", ",-affinity_info" };
    unsigned major, minor, i;
    int used = 0;
    if (sscanf(spec, "%u.%u%n", &major, &minor, &used) != 2 || major > 0x7fff || minor > 0xffff)
        return false;
    *version = PSCI_VER((int64_t)major, (int64_t)minor);
    *missing = 0;
    for (spec += used; *spec;) {
        for (i = 0; i < 3; i++)
            if (strncmp(spec, fns[i], strlen(fns[i])) == 0)
                break;
        if (i == 3)
            return false;
        *missing |= 1u << i;
        spec += strlen(fns[i]);
    }
    return true;
}

static bool write_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wx"); /* never overwrite a report */
    bool ok = f && fwrite(data, 1, len, f) == len;
    if (f && fclose(f) != 0)
        ok = false;
    return ok;
}

/* the one place the aarch64 writer is called: JSON and text (labelled simulated by it), into dir */
static int write_report(const char *dir)
{
    struct strbuf json, text;
    char path[512], base[128];
    unsigned attempt;
    int rc = 0;
    if (!sb_init_dynamic(&json, 256 * 1024) || !sb_init_dynamic(&text, 64 * 1024))
        return 2;
    if (!a64_report_json(&run, &json)) {
        fprintf(stderr, "tlbscope-sim --arch aarch64: the JSON report could not be written\n");
        return 2;
    }
    a64_report_text(&run, &text); /* its header says SIMULATED, with the model, profile and seed */
    fwrite(text.data, 1, text.len, stdout);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "tlbscope-sim --arch aarch64: cannot create %s: %s\n", dir, strerror(errno));
        return 2;
    }
    for (attempt = 0; attempt < 100; attempt++) {
        if (attempt == 0)
            snprintf(base, sizeof(base), "%s", run.id);
        else
            snprintf(base, sizeof(base), "%s-%u", run.id, attempt);
        snprintf(path, sizeof(path), "%s/%s.json", dir, base);
        if (access(path, F_OK) != 0)
            break;
    }
    if (!write_file(path, json.data, json.len)) {
        fprintf(stderr, "tlbscope-sim --arch aarch64: writing %s failed\n", path);
        rc = 2;
    } else {
        printf("Report saved: %s\n", path);
    }
    snprintf(path, sizeof(path), "%s/%s.txt", dir, base);
    if (rc == 0 && !write_file(path, text.data, text.len))
        rc = 2;
    {
        /* the console's last word, as the app's and x86's model runs print it (sim/session.c) */
        char line[256];
        struct strbuf verdict;
        sb_init_fixed(&verdict, line, sizeof(line));
        a64_report_verdict(&run, &verdict);
        printf("RESULT: %s\n", line);
    }
    return rc;
}

int a64sim_main(int argc, char **argv);
int a64sim_main(int argc, char **argv)
{
    const char *profile_name = DEFAULT_PROFILE, *out_dir = DEFAULT_OUT;
    const struct a64_profile *p;
    struct a64_profile shaped;
    struct a64m_config cfg;
    static struct a64_madt_cpu madt[A64M_MAX_CPUS];
    uint64_t seed = 0, n, slot_mpidr[A64M_MAX_CPUS], machine[A64M_MAX_CPUS], bsp_mpidr;
    unsigned cpus = DEFAULT_CPUS, bsp = 1, slots, beyond, i, runs = 1, r, psci_missing = 0, aff0_cores = 0;
    int64_t psci_version = PSCI_VER(1, 1);
    static char args[sizeof(run.args)];
    bool seeded = false;
    size_t used = 0;
    int a, rc;

    mem_set_ops(&host_mem);
    for (a = 1; a < argc; a++) {
        const char *s = argv[a], *v = a + 1 < argc ? argv[a + 1] : NULL;
        if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(s, "--arch") == 0 && v) {
            if (strcmp(v, "aarch64") != 0)
                return bad("this is the aarch64 model: --arch %s", v);
            a++;
        } else if (strcmp(s, "--cpu") == 0 && v) {
            profile_name = v;
            a++;
        } else if (strcmp(s, "--cpus") == 0 && v) {
            if (!parse_u64(v, &n) || n < 1 || n > A64M_MAX_CPUS)
                return bad("--cpus wants 1 to 64 (the model's CPUs), not '%s'", v);
            cpus = (unsigned)n;
            a++;
        } else if (strcmp(s, "--bsp") == 0 && v) {
            if (!parse_u64(v, &n) || n < 1 || n > A64M_MAX_CPUS)
                return bad("--bsp wants the BSP's place in the modelled MADT, from 1, not '%s'", v);
            bsp = (unsigned)n;
            a++;
        } else if (strcmp(s, "--seed") == 0 && v) {
            if (!parse_u64(v, &seed))
                return bad("--seed wants a number, not '%s'", v);
            seeded = true;
            a++;
        } else if (strcmp(s, "--gic-secure-sgis") == 0 && v) {
            if (!parse_u64(v, &n) || n > 0xffff)
                return bad("--gic-secure-sgis wants a mask of SGIs 0-15 (0x0 to 0xffff), not '%s'", v);
            a64s_gic_secure_sgis((uint32_t)n);
            a++;
        } else if (strcmp(s, "--gic-rss") == 0 && v) {
            bool both = strcmp(v, "both") == 0, gicd = strcmp(v, "gicd") == 0, icc = strcmp(v, "icc") == 0;
            if (!both && !gicd && !icc && strcmp(v, "none") != 0)
                return bad("--gic-rss wants both, gicd, icc or none, not '%s'", v);
            a64s_gic_rss(both || gicd, both || icc);
            a++;
        } else if (strcmp(s, "--aff0-cores") == 0 && v) {
            if (!parse_u64(v, &n) || n < 1 || n > A64M_MAX_CPUS)
                return bad("--aff0-cores wants 1 to 64 cores a cluster, not '%s'", v);
            aff0_cores = (unsigned)n;
            a++;
        } else if (strcmp(s, "--runs") == 0 && v) {
            if (!parse_u64(v, &n) || n < 1 || n > MAX_RUNS)
                return bad("--runs wants 1 to 4, not '%s'", v);
            runs = (unsigned)n;
            a++;
        } else if (strcmp(s, "--psci") == 0 && v) {
            if (!parse_psci(v, &psci_version, &psci_missing))
                return bad("--psci wants VERSION[,-cpu_on][,-cpu_off][,-affinity_info] (1.1, 1.0, 0.2, 0.1), not '%s'", v);
            a++;
        } else if (strcmp(s, "--counter-hz") == 0 && v) {
            if (!parse_u64(v, &n) || n < 1000 || n > 1000000000ull)
                return bad("--counter-hz wants 1000 to 1000000000, not '%s'", v);
            a64s_set_counter_hz(n);
            a++;
        } else if (strcmp(s, "--el") == 0 && v) {
            if (strcmp(v, "1") != 0 && strcmp(v, "2") != 0)
                return bad("--el wants 1 or 2, not '%s'", v);
            sim_el = (unsigned)(v[0] - '0');
            a++;
        } else if (strcmp(s, "--out") == 0 && v) {
            out_dir = v;
            a++;
        } else if (s[0] != '-' && strchr(s, '=')) {
            size_t len = strlen(s);
            if (used + len + 2 > sizeof(run.args))
                return bad("too many key=value arguments (at '%s')", s);
            if (used)
                run.args[used++] = ' ';
            memcpy(run.args + used, s, len + 1);
            used += len;
        } else {
            return bad("unknown argument or missing value: '%s'", s);
        }
    }
    p = a64_profile_find(profile_name);
    if (!p) {
        bool listing = strcmp(profile_name, "list") == 0;
        if (!listing)
            fprintf(stderr, "tlbscope-sim --arch aarch64: unknown CPU profile '%s'; the profiles are:\n", profile_name);
        for (i = 0; i < a64_profile_count; i++)
            fprintf(listing ? stdout : stderr, "  %-12s %s\n", a64_profiles[i].name, a64_profiles[i].what);
        return listing ? 0 : 2;
    }
    if (aff0_cores) { /* the profile's registers, another MPIDR shape */
        shaped = *p;
        shaped.mt = false;
        shaped.cores_per_cluster = aff0_cores;
        p = &shaped;
    }
    if (bsp > cpus)
        return bad("--bsp names a place past --cpus: %s", "the BSP must be one of the CPUs");
    if (!seeded)
        seed = ((uint64_t)time(NULL) ^ (uint64_t)getpid() * 2654435761u) % 1000000000u;
    printf("tlbscope-sim: aarch64 model, profile %s, %u CPUs, the BSP the MADT's %u. (MPIDR 0x%llx), seed %llu\n",
           p->name, cpus, bsp, (unsigned long long)a64_profile_mpidr(p, bsp - 1), (unsigned long long)seed);

    simulation = (struct a64_simulation){ MODEL_NAME, MODEL_VERSION, p->name, p->what, seed, p->source };
    str_copy(args, sizeof(args), run.args);
    a64m_config_defaults(&cfg);
    cfg.seed = seed;
    /* the modelled MADT: the profile's MPIDRs in order, every GICC enabled, the BSP the
     * --bsp'th; the app's slots from it (efi/arm64/main.c topology_setup), the model's CPUs
     * in that slot order (its PSCI starts them by MPIDR) */
    for (i = 0; i < cpus; i++)
        madt[i] = (struct a64_madt_cpu){ a64_profile_mpidr(p, i), i, GICC_ENABLED };
    bsp_mpidr = madt[bsp - 1].mpidr & MPIDR_AFF_MASK;
    for (i = 0; i < cpus; i++)
        machine[i] = madt[i].mpidr;
    slots = a64_slots_needed(madt, cpus, bsp_mpidr, A64M_MAX_CPUS, &beyond);
    slots = a64_topology_build(&run, madt, cpus, bsp_mpidr, slots, slot_mpidr, NULL);
    if (!a64s_machine_start(&cfg, slots, slot_mpidr)) {
        fprintf(stderr, "tlbscope-sim --arch aarch64: the model could not be set up\n");
        return 2;
    }
    a64m_set_el(a64s_model(), sim_el);
    a64s_psci_configure(psci_version, !(psci_missing & 1), !(psci_missing & 2), !(psci_missing & 4));
    a64s_psci_machine(machine, cpus);
    /* --runs N: the app run N times on one machine, as a UEFI shell script runs it twice;
     * each run must find every CPU as the one before handed it back */
    for (r = 0, rc = 0; r < runs && rc != 2; r++) {
        uint32_t first_violation = a64s_model()->violations;
        int64_t psci_rc[MAX_CPUS];
        int one;
        memset(&run, 0, sizeof(run));
        str_copy(run.args, sizeof(run.args), args);
        run.sim = &simulation;
        run.print = print_line;
        run.start_ticks = ticks();
        a64_config_apply(&run, NULL, 0);
        describe_machine(p);
        a64_topology_build(&run, madt, cpus, bsp_mpidr, slots, slot_mpidr, NULL);
        if (check_psci())
            a64s_boot_secondaries(psci_rc);
        record_bring_up(run.psci_smp ? psci_rc : NULL);
        a64_run_experiments(&run);
        a64_topology_settle(&run);
        a64_hand_back_cpus(&run);
        /* every experiment ran on the model: the report says simulated (run.sim: its `simulated`,
         * `simulation` and the verdict's [SIMULATED]), as x86's model runs do; not emulated, which
         * names an emulated instruction path on a machine */
        record_model(first_violation);
        a64s_psci_clear_errors();
        run.duration_ms = ticks_to_ms(ticks() - run.start_ticks);
        one = write_report(out_dir);
        if (one == 0) {
            enum result res = a64_run_result(&run);
            one = res == RESULT_SUCCESS || res == RESULT_SKIP ? 0 : 1;
        }
        rc = rc > one ? rc : one;
    }
    a64s_machine_stop();
    a64s_machine_free();
    return rc;
}

int main(int argc, char **argv)
{
    return a64sim_main(argc, argv);
}
