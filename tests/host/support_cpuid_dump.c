#include "tests/host/support_cpuid_dump.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/host/support_data.h"

static struct cpuid_section *new_section(struct cpuid_dump *d, uint32_t cpu)
{
    struct cpuid_section *s;
    d->sections = realloc(d->sections, (d->nsections + 1) * sizeof(*d->sections));
    s = &d->sections[d->nsections++];
    memset(s, 0, sizeof(*s));
    s->cpu = cpu;
    return s;
}

static bool parse_register_line(const char *line, struct cpuid_section *s)
{
    struct cpuid_record r;
    const char *sl;
    unsigned leaf, a, b, c, dd;
    memset(&r, 0, sizeof(r));
    if (sscanf(line, "CPUID %8x: %8x-%8x-%8x-%8x", &leaf, &a, &b, &c, &dd) != 5)
        return false;
    r.leaf = leaf;
    r.regs[0] = a;
    r.regs[1] = b;
    r.regs[2] = c;
    r.regs[3] = dd;
    sl = strstr(line, "[SL ");
    if (sl) {
        unsigned sub;
        if (sscanf(sl, "[SL %x]", &sub) != 1)
            return false;
        r.subleaf = sub;
        r.has_subleaf_marker = true;
    }
    s->recs = realloc(s->recs, (s->count + 1) * sizeof(*s->recs));
    s->recs[s->count++] = r;
    return true;
}

bool cpuid_dump_parse(const char *text, struct cpuid_dump *d)
{
    struct cpuid_section *cur = NULL;
    bool in_summary = false;
    const char *p = text;
    memset(d, 0, sizeof(*d));
    while (*p) {
        char line[512];
        size_t n = strcspn(p, "\n");
        unsigned cpu, apic, pkg, core, thr;
        if (n >= sizeof(line))
            n = sizeof(line) - 1;
        memcpy(line, p, n);
        line[n] = 0;
        p += strcspn(p, "\n");
        if (*p)
            p++;
        if (strncmp(line, "------[", 7) == 0) {
            const char *hash = strstr(line, "Logical CPU #");
            in_summary = strstr(line, "[ All CPUs ]") != NULL;
            cur = NULL;
            /* CPUID sections only: MSR sections also name a logical CPU */
            if (hash && (strstr(line, "CPUID Registers") || strncmp(line, "------[ Logical", 15) == 0))
                cur = new_section(d, (uint32_t)strtoul(hash + 13, NULL, 10));
            continue;
        }
        if (sscanf(line, "CPU#%u AffMask", &cpu) == 1) {
            in_summary = false;
            cur = new_section(d, cpu);
            continue;
        }
        if (in_summary &&
            sscanf(line, "CPU %u: APICID %u / Package %u / Core %u / Thread %u", &cpu, &apic, &pkg,
                   &core, &thr) == 5) {
            d->summary = realloc(d->summary, (d->nsummary + 1) * sizeof(*d->summary));
            d->summary[d->nsummary++] = (struct cpuid_summary_cpu){ cpu, apic, pkg, core, thr };
            continue;
        }
        if (!cur)
            continue;
        if (sscanf(line, "allcpu: Package %u / Core %u / Thread %u", &pkg, &core, &thr) == 3) {
            cur->has_allcpu = true;
            cur->package = pkg;
            cur->core = core;
            cur->thread = thr;
            continue;
        }
        if (strncmp(line, "CPUID ", 6) == 0 && !parse_register_line(line, cur)) {
            fprintf(stderr, "cpuid dump: cannot read line '%s'\n", line);
            cpuid_dump_free(d);
            return false;
        }
    }
    return d->nsections > 0;
}

bool cpuid_dump_load(const char *file, struct cpuid_dump *d)
{
    char rel[256];
    size_t len;
    uint8_t *text;
    bool ok;
    memset(d, 0, sizeof(*d));
    snprintf(rel, sizeof(rel), "cpuid/%s", file);
    text = shared_data_load(rel, &len);
    if (!text)
        return false;
    ok = cpuid_dump_parse((const char *)text, d);
    free(text);
    return ok;
}

void cpuid_dump_free(struct cpuid_dump *d)
{
    for (uint32_t i = 0; i < d->nsections; i++)
        free(d->sections[i].recs);
    free(d->sections);
    free(d->summary);
    memset(d, 0, sizeof(*d));
}

const struct cpuid_section *cpuid_dump_cpu(const struct cpuid_dump *d, uint32_t cpu)
{
    for (uint32_t i = 0; i < d->nsections; i++)
        if (d->sections[i].cpu == cpu)
            return &d->sections[i];
    return NULL;
}

/* Leaves whose ECX input selects a sub-leaf (Intel SDM vol. 2A CPUID; AMD APM vol. 3 E.3) */
static bool subleaf_indexed(uint32_t leaf)
{
    static const uint32_t leaves[] = { 0x4,        0x7,        0xb,        0xd,        0xf,
                                       0x10,       0x12,       0x14,       0x17,       0x18,
                                       0x1b,       0x1d,       0x1e,       0x1f,       0x20,
                                       0x23,       0x24,       0x8000001d, 0x80000020, 0x80000026 };
    for (size_t i = 0; i < sizeof(leaves) / sizeof(leaves[0]); i++)
        if (leaves[i] == leaf)
            return true;
    return false;
}

void cpuid_dump_fn(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
    const struct cpuid_section *s = ctx;
    const struct cpuid_record *unmarked = NULL;
    bool leaf_marked = false;
    memset(regs, 0, 4 * sizeof(regs[0]));
    for (uint32_t i = 0; i < s->count; i++) {
        const struct cpuid_record *r = &s->recs[i];
        if (r->leaf != leaf)
            continue;
        if (r->subleaf == subleaf) {
            memcpy(regs, r->regs, sizeof(r->regs));
            return;
        }
        leaf_marked |= r->has_subleaf_marker;
        if (!r->has_subleaf_marker)
            unmarked = r;
    }
    if (unmarked && !leaf_marked && !subleaf_indexed(leaf))
        memcpy(regs, unmarked->regs, sizeof(unmarked->regs));
}
