#include "core/machine/cpu_table.h"
#include "core/lib/mem.h"
#include "core/mutant.h"
#include "core/lib/strbuf.h"

const char *const cpu_fault_reg_names[CPU_FAULT_REGS] = {
    "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "r8", "r9",
    "r10", "r11", "r12", "r13", "r14", "r15", "rsp", "rflags", "cs",
};

const char *cpu_state_name(enum cpu_state s)
{
    static const char *const names[] = { "ok", "absent", "hung", "faulted",
                                         "slow", "disabled", "excluded" };
    return (unsigned)s < ARRAY_SIZE(names) ? names[s] : "unknown";
}

bool cpu_state_drops_out(enum cpu_state s)
{
    return s == CPU_HUNG || s == CPU_FAULTED || s == CPU_SLOW || s == CPU_ABSENT;
}

const char *cpu_bring_up_name(enum cpu_bring_up b)
{
    static const char *const names[] = { NULL, "bsp", "mp_services", "init_sipi" };
    return (unsigned)b < ARRAY_SIZE(names) ? names[b] : NULL;
}

const char *topo_class_name(enum topo_class c)
{
    static const char *const names[] = { "self",          "smt_sibling", "same_l3",
                                         "same_package",  "same_package_other_node",
                                         "same_node",     "cross_node",  "cross_package" };
    return (unsigned)c < ARRAY_SIZE(names) ? names[c] : "unknown";
}

char topo_class_code(enum topo_class c)
{
    static const char codes[] = "-slponxc";
    return (unsigned)c < TOPO_CLASS_COUNT ? codes[c] : '?';
}

enum topo_class cpu_topo_class(const struct cpu_info *a, const struct cpu_info *b)
{
    if (a->index == b->index)
        return TOPO_SELF;
    if (a->package != b->package) {
        if (a->numa_node < 0 || b->numa_node < 0)
            return TOPO_CROSS_PACKAGE;
        if (MUTANT(node_class_ignored))
            return TOPO_CROSS_NODE;
        return a->numa_node == b->numa_node ? TOPO_SAME_NODE : TOPO_CROSS_NODE;
    }
    if (a->core == b->core)
        return TOPO_SMT_SIBLING;
    if (a->numa_node >= 0 && b->numa_node >= 0 && a->numa_node != b->numa_node &&
        !MUTANT(snc_class_folded))
        return TOPO_SAME_PACKAGE_OTHER_NODE;
    if (a->l3_known && b->l3_known && a->l3 == b->l3 && !MUTANT(l3_class_ignored))
        return TOPO_SAME_L3;
    return TOPO_SAME_PACKAGE;
}

bool cpu_usable(const struct cpu_info *c) { return c->state == CPU_OK; }

uint32_t cpu_table_count_state(const struct cpu_table *t, enum cpu_state s)
{
    uint32_t i, n = 0;
    for (i = 0; i < t->count; i++)
        n += t->cpus[i].state == s;
    return n;
}

void cpu_mark(struct cpu_info *c, enum cpu_state s, const char *fmt, ...)
{
    struct strbuf sb;
    va_list ap;
    if (c->state != CPU_OK)
        return;
    c->state = s;
    sb_init_fixed(&sb, c->note, sizeof(c->note));
    va_start(ap, fmt);
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
}
