#include "core/report/topo_report.h"
#include "core/run/method.h"
#include "core/machine/linux_apic.h"
#include "core/lib/mem.h"
#include "core/lib/strbuf.h"

void topo_report_cpu_l3(struct json_writer *w, const struct cpu_info *c)
{
    jw_key(w, "l3");
    if (c->l3_known)
        jw_u64(w, c->l3);
    else
        jw_null(w);
}

void topo_report_classes(struct json_writer *w, const struct run *r)
{
    const struct cpu_table *t = &r->topo;
    uint64_t per_class[TOPO_CLASS_COUNT] = { 0 };
    uint32_t i, j;
    enum topo_class c;
    char *row;
    jw_kv_str(w, "l3_source", r->l3_source ? r->l3_source : "none");
    for (i = 0; i < t->count; i++)
        for (j = 0; j < t->count; j++)
            per_class[cpu_topo_class(&t->cpus[i], &t->cpus[j])]++;
    /* ordered pairs of distinct CPUs of the table (any state), per class, nearest first */
    jw_key(w, "classes");
    jw_object_begin_inline(w);
    for (c = TOPO_FIRST_CLASS; c < TOPO_CLASS_COUNT; c++)
        jw_kv_u64(w, topo_class_name(c), per_class[c]);
    jw_object_end(w);
    jw_key(w, "pair_class_codes");
    jw_object_begin_inline(w);
    for (c = TOPO_SELF; c < TOPO_CLASS_COUNT; c++) {
        char code[2] = { topo_class_code(c), 0 };
        jw_kv_str(w, code, topo_class_name(c));
    }
    jw_object_end(w);
    /* pair_classes[i][j]: the class of CPU j seen from CPU i */
    jw_key(w, "pair_classes");
    row = t->count <= TOPO_PAIR_CLASSES_MAX ? mem_alloc(t->count + 1) : NULL;
    if (!row) {
        jw_null(w);
        return;
    }
    jw_array_begin(w);
    for (i = 0; i < t->count; i++) {
        for (j = 0; j < t->count; j++)
            row[j] = topo_class_code(cpu_topo_class(&t->cpus[i], &t->cpus[j]));
        jw_strn(w, row, t->count);
    }
    jw_array_end(w);
    mem_free(row);
}

void topo_report_linux_ipi_mode(struct json_writer *w, const struct run *r)
{
    char reason[200];
    const char *mode = method_linux_ipi_mode(r, reason, sizeof(reason));
    jw_key(w, "linux_ipi_mode");
    jw_object_begin_inline(w);
    jw_kv_str(w, "mode", mode);
    jw_kv_str(w, "reason", reason);
    /* cluster points exist only in x2APIC mode; physical ones always */
    jw_kv_bool(w, "measured", !str_eq(mode, "x2apic_cluster") ||
                                  str_eq(r->method.apic_mode, "x2apic"));
    jw_object_end(w);
}
