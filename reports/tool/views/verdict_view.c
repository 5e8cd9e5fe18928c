#include "reports/tool/views/verdict_view.h"

#include <string.h>

#include "reports/tool/model/jget.h"
#include "reports/tool/model/vocab.h"

static bool word_index(const char *s, const char *const words[], int *out)
{
    int i;
    for (i = 0; s && words[i]; i++) {
        if (strcmp(s, words[i]) == 0) {
            *out = i;
            return true;
        }
    }
    return false;
}

bool verdict_of_report(const json_t *root, struct verdict *v)
{
    const json_t *exps = json_object_get(root, "experiments");
    const json_t *topo = json_object_get(root, "topology");
    const json_t *run = json_object_get(root, "run");
    const json_t *e, *cpu;
    const char *emulator, *platform;
    size_t i;
    int result, status, state;
    verdict_init(v);
    if (!word_index(json_string_value(json_object_get(root, "result")), vocab_results, &result))
        return false;
    json_array_foreach(exps, i, e) {
        const json_t *points = json_object_get(e, "results");
        if (!word_index(json_string_value(json_object_get(e, "status")), vocab_results, &status))
            continue;
        verdict_count(v, (enum result)status, json_array_size(points) > 0,
                      json_string_value(json_object_get(e, "id")));
        v->emulated |= json_is_true(json_object_get(e, "emulated"));
    }
    /* the labels run_verdict() gives: tlbscope-sim's model, an emulator (run.config.emulator) */
    emulator = json_string_value(json_object_get(json_object_get(run, "config"), "emulator"));
    v->simulated = json_is_true(json_object_get(root, "simulated"));
    v->emulated |= emulator && strcmp(emulator, "none") != 0;
    /* aarch64's cpu.platform: a virtual machine on real CPUs */
    platform = jget_string(jget_object(jget_object(root, "cpu"), "platform"), "kind");
    v->virtualised = platform && strcmp(platform, "virtualised") == 0;
    /* the states run_conclude() counts as dropped out (core/machine/cpu_table.h) */
    json_array_foreach(json_object_get(topo, "cpus"), i, cpu) {
        if (word_index(json_string_value(json_object_get(cpu, "state")), vocab_cpu_states,
                       &state) &&
            (state == 1 || state == 2 || state == 3 || state == 4))
            v->cpus_dropped++;
    }
    v->run_errors = (uint32_t)json_array_size(json_object_get(run, "errors"));
    verdict_conclude(v, (enum result)result);
    return true;
}

void verdict_view_show(const json_t *root, FILE *out)
{
    struct verdict v;
    char line[256];
    const char *run_status = json_string_value(json_object_get(json_object_get(root, "run"), "status"));
    const char *result = json_string_value(json_object_get(root, "result"));
    fprintf(out, "\nRun %s, result %s\n", run_status ? run_status : "(status unknown)",
            result ? result : "(none)");
    if (!verdict_of_report(root, &v)) {
        fputs("No verdict: the report has no valid result\n", out);
        return;
    }
    verdict_line(&v, 80, line, sizeof(line));
    fprintf(out, "%s\n", line);
}
