/*
 * tlbscope-sim: the whole tool on a modelled machine.
 *
 *   build/tlbscope-sim --cpu epyc-7763 --cpus 8 [--seed N] [--out DIR] [key=value ...]
 *   build/tlbscope-sim --arch aarch64 --cpu neoverse-n1 --cpus 4 [...]
 *
 * --arch aarch64 runs the aarch64 app on the aarch64 model instead: its own
 * binary beside this one (build/tlbscope-sim-a64, sim/arm64/app.c), whose
 * objects are built against arch/arm64's interface and never linked with x86's.
 *
 * Writes the same JSON and text report a boot would (into build/sim/ by
 * default), marked simulated, and exits like scripts/qemu-run.sh: 0 SUCCESS
 * or SKIP, 1 ERROR or FAILURE, 2 no report (bad usage, I/O error).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/run/config.h"
#include "core/lib/strbuf.h"
#include "sim/hostmem.h"
#include "sim/session.h"

#define DEFAULT_PROFILE "epyc-7763"
#define DEFAULT_CPUS 4
#define DEFAULT_OUT "build/sim"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: tlbscope-sim [--arch x86_64] [--cpu NAME] [--cpus N] [--seed N] [--out DIR]\n"
            "                    [--tlb SETSxWAYS] [--erratum NAME]... [--spec N]\n"
            "                    [--spec-pte N] [--no-spec-after] [--splinter N]\n"
            "                    [--invlpgb-delay N] [--invlpgb-max N] [--no-invpcid]\n"
            "                    [--microcode REV] [--la57] [--iommu] [--shape PxLxCxT]\n"
            "                    [--numa N]\n"
            "                    [key=value ...]\n"
            "Runs tlbscope on a modelled machine: host threads as CPUs, each with a strict TLB\n"
            "model (only architectural invalidations remove entries; speculative fills; INVLPGB\n"
            "lands late unless TLBSYNC waits for it). Reports are marked simulated: the timings\n"
            "are the host's, the point is the correctness of every path.\n"
            "\n"
            "  --arch aarch64     the aarch64 app on the strict aarch64 model instead\n"
            "                     (tlbscope-sim --arch aarch64 --help)\n"
            "  --cpu NAME         CPU profile (CPUID of a real server); --cpu list shows them (%s)\n"
            "  --cpus N           CPUs, 1 to %u (%u)\n"
            "  --seed N           the model's random choices (default: from the clock, printed)\n"
            "  --out DIR          where the JSON and text reports go (%s)\n"
            "  --tlb SETSxWAYS    TLB geometry per CPU instead of the profile's second-level\n"
            "                     TLB from CPUID (256x8 where CPUID reports none)\n"
            "  --erratum NAME     turn an erratum on: invlpg_ignores_global, invlpgb_ignores_count,\n"
            "                     tlbsync_early (negative tests: the verifier must catch them)\n"
            "  --spec N           speculative fills per 65536 model events, before and after\n"
            "                     each instruction (1024)\n"
            "  --no-spec-after    speculate only before an instruction acts, not after\n"
            "                     (for comparisons)\n"
            "  --spec-pte N       per 65536 PTE stores, a walk of the address first (16384)\n"
            "  --splinter N       per 65536 fills of a 2 MiB page, a 4 KiB entry (16384)\n"
            "  --invlpgb-delay N  model events before a pending INVLPGB lands, at most (20000)\n"
            "  --invlpgb-max N    pages per INVLPGB (CPUID 8000_0008 EDX[15:0] + 1), 1 to 65536,\n"
            "                     instead of the profile's; the report records the change\n"
            "  --no-invpcid       clear CPUID.(07H,0):EBX[10]: PCID without INVPCID, as many VMs\n"
            "                     show it; the report records the change\n"
            "  --microcode REV    the CPUs' microcode revision (MSR 0x8B), e.g. 0x2e, instead of\n"
            "                     the one the profile's dump recorded; errata the real CPU has\n"
            "                     before a revision (i9-12900k: INVLPG/global, before 0x2e)\n"
            "                     follow it\n"
            "  --la57             the firmware hands over with CR4.LA57 (5-level paging); only\n"
            "                     for a profile with LA57 (epyc-9654, xeon-6330, qemu-tcg)\n"
            "  --iommu            the firmware reports interrupt remapping (Intel DMAR with\n"
            "                     INTR_REMAP, AMD IVRS): in x2APIC mode Linux then sends IPIs\n"
            "                     in x2apic_cluster mode, and so do the shootdowns\n"
            "  --shape PxLxCxT    packages x L3s per package x cores per L3 x SMT threads\n"
            "                     (their product is --cpus), one NUMA node per package; the\n"
            "                     default: 1 or 2 packages of the profile's SMT, no L3, no SRAT\n"
            "  --numa N           NUMA nodes for --shape (divides the packages; 0: no SRAT);\n"
            "                     a multiple of the packages splits each into sub-NUMA nodes\n"
            "                     of whole cores, as Intel SNC2/4 and AMD NPS2/4 do\n"
            "  key=value          any tlbscope configuration key; --help-keys lists them\n"
            "Exit status: 0 SUCCESS or SKIP, 1 ERROR or FAILURE, 2 no report.\n",
            DEFAULT_PROFILE, TLBM_MAX_CPUS, DEFAULT_CPUS, DEFAULT_OUT);
}

static void list_profiles(FILE *out)
{
    unsigned i;
    for (i = 0; i < sim_profile_count; i++)
        fprintf(out, "  %-12s %s\n", sim_profiles[i].name, sim_profiles[i].what);
}

/* --arch aarch64: the aarch64 driver, with the same arguments; --arch x86_64: this one.
 * Returns only when there is nothing to hand over (or it failed: *rc set). */
static bool arch_dispatch(int argc, char **argv, int *rc)
{
    char self[4096], path[4200];
    ssize_t n;
    int i;
    for (i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--arch") != 0)
            continue;
        if (strcmp(argv[i + 1], "x86_64") == 0)
            return false;
        if (strcmp(argv[i + 1], "aarch64") != 0) {
            fprintf(stderr, "tlbscope-sim: --arch wants x86_64 or aarch64, not '%s'\n", argv[i + 1]);
            *rc = 2;
            return true;
        }
        n = readlink("/proc/self/exe", self, sizeof(self) - 1);
        if (n <= 0) {
            fprintf(stderr, "tlbscope-sim: cannot find my own binary for --arch aarch64\n");
            *rc = 2;
            return true;
        }
        self[n] = 0;
        if (strrchr(self, '/'))
            *strrchr(self, '/') = 0;
        snprintf(path, sizeof(path), "%s/tlbscope-sim-a64", self);
        fflush(stdout);
        execv(path, argv);
        fprintf(stderr, "tlbscope-sim: --arch aarch64: cannot run %s (make sim builds it)\n", path);
        *rc = 2;
        return true;
    }
    return false;
}

static bool parse_u64(const char *s, uint64_t *out)
{
    char *end;
    if (!s || !*s || *s == '-')
        return false;
    *out = strtoull(s, &end, 0);
    return *end == 0;
}

static int bad(const char *fmt, const char *arg)
{
    fprintf(stderr, "tlbscope-sim: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(tlbscope-sim --help for usage)\n");
    return 2;
}

int main(int argc, char **argv)
{
    static struct sim_options o;
    const char *profile = DEFAULT_PROFILE;
    bool seeded = false;
    size_t used = 0;
    int i, rc = 0;

    if (arch_dispatch(argc, argv, &rc))
        return rc;
    memset(&o, 0, sizeof(o));
    tlbm_config_defaults(&o.model);
    o.cpus = DEFAULT_CPUS;
    o.out_dir = DEFAULT_OUT;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t n;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--help-keys") == 0) {
            struct strbuf sb;
            host_init();
            sb_init_dynamic(&sb, 4096);
            config_write_help(&sb);
            fwrite(sb.data, 1, sb.len, stdout);
            return 0;
        } else if (strcmp(a, "--arch") == 0 && v) {
            i++; /* x86_64: this model (arch_dispatch) */
        } else if (strcmp(a, "--cpu") == 0 && v) {
            profile = v;
            i++;
        } else if (strcmp(a, "--cpus") == 0 && v) {
            if (!parse_u64(v, &n) || n < 1 || n > TLBM_MAX_CPUS)
                return bad("--cpus wants 1 to 64, not '%s'", v);
            o.cpus = (uint32_t)n;
            i++;
        } else if (strcmp(a, "--seed") == 0 && v) {
            if (!parse_u64(v, &o.seed))
                return bad("--seed wants a number, not '%s'", v);
            seeded = true;
            i++;
        } else if (strcmp(a, "--out") == 0 && v) {
            o.out_dir = v;
            i++;
        } else if (strcmp(a, "--tlb") == 0 && v) {
            unsigned sets, ways;
            char tail;
            if (sscanf(v, "%ux%u%c", &sets, &ways, &tail) != 2 || sets == 0 || ways == 0 ||
                sets > 65536 || ways > 64)
                return bad("--tlb wants SETSxWAYS, sets 1 to 65536, ways 1 to 64, not '%s'", v);
            o.model.sets = sets;
            o.model.ways = ways;
            o.tlb_given = true;
            i++;
        } else if (strcmp(a, "--erratum") == 0 && v) {
            uint32_t bit = tlbm_erratum_from_name(v);
            if (!bit)
                return bad("unknown erratum '%s': invlpg_ignores_global, invlpgb_ignores_count "
                           "or tlbsync_early", v);
            o.model.errata |= bit;
            i++;
        } else if (strcmp(a, "--spec") == 0 && v) {
            if (!parse_u64(v, &n) || n > 65536)
                return bad("--spec wants 0 to 65536, not '%s'", v);
            o.model.spec_per_65536 = (uint32_t)n;
            i++;
        } else if (strcmp(a, "--spec-pte") == 0 && v) {
            if (!parse_u64(v, &n) || n > 65536)
                return bad("--spec-pte wants 0 to 65536, not '%s'", v);
            o.model.pte_spec_per_65536 = (uint32_t)n;
            i++;
        } else if (strcmp(a, "--no-spec-after") == 0) {
            o.model.spec_after = false;
        } else if (strcmp(a, "--splinter") == 0 && v) {
            if (!parse_u64(v, &n) || n > 65536)
                return bad("--splinter wants 0 to 65536, not '%s'", v);
            o.model.splinter_per_65536 = (uint32_t)n;
            i++;
        } else if (strcmp(a, "--invlpgb-delay") == 0 && v) {
            if (!parse_u64(v, &n) || n > 100000000)
                return bad("--invlpgb-delay wants 0 to 100000000, not '%s'", v);
            o.model.invlpgb_max_delay = (uint32_t)n;
            i++;
        } else if (strcmp(a, "--invlpgb-max") == 0 && v) {
            if (!parse_u64(v, &n) || n < 1 || n > 65536)
                return bad("--invlpgb-max wants 1 to 65536, not '%s'", v);
            o.invlpgb_max_pages = (uint32_t)n;
            i++;
        } else if (strcmp(a, "--no-invpcid") == 0) {
            o.no_invpcid = true;
        } else if (strcmp(a, "--microcode") == 0 && v) {
            if (!parse_u64(v, &n) || n > 0xffffffffu)
                return bad("--microcode wants a revision, 0 to 0xffffffff, not '%s'", v);
            o.microcode_set = true;
            o.microcode = (uint32_t)n;
            i++;
        } else if (strcmp(a, "--shape") == 0 && v) {
            if (!sim_shape_parse(v, &o.shape))
                return bad("--shape wants PxLxCxT, each 1 or more, e.g. 2x2x2x2, not '%s'", v);
            o.shape_given = true;
            i++;
        } else if (strcmp(a, "--numa") == 0 && v) {
            if (!parse_u64(v, &n) || n > 64)
                return bad("--numa wants 0 to 64 nodes, not '%s'", v);
            o.numa_nodes = (int32_t)n;
            o.numa_given = true;
            i++;
        } else if (strcmp(a, "--la57") == 0) {
            o.la57 = true;
        } else if (strcmp(a, "--iommu") == 0) {
            o.iommu = true;
        } else if (a[0] != '-' && strchr(a, '=')) {
            size_t len = strlen(a);
            if (used + len + 2 > sizeof(o.args))
                return bad("too many key=value arguments (at '%s')", a);
            if (used)
                o.args[used++] = ' ';
            memcpy(o.args + used, a, len + 1);
            used += len;
        } else if (a[0] == '-' && !v && strncmp(a, "--", 2) == 0) {
            return bad("%s needs a value", a);
        } else {
            return bad("unknown argument '%s'", a);
        }
    }
    o.profile = sim_profile_find(profile);
    if (!o.profile) {
        FILE *out = strcmp(profile, "list") == 0 || strcmp(profile, "help") == 0 ? stdout : stderr;
        if (out == stderr)
            fprintf(stderr, "tlbscope-sim: unknown CPU profile '%s'; the profiles are:\n", profile);
        list_profiles(out);
        return out == stdout ? 0 : 2;
    }
    if (!seeded)
        o.seed = ((uint64_t)time(NULL) ^ (uint64_t)getpid() * 2654435761u) % 1000000000u;
    return sim_session_run(&o);
}
