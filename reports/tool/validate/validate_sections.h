/* The validator's sections, one per top-level member (internal to validate*.c). */
#ifndef TLBSCOPE_REPORT_VALIDATE_SECTIONS_H
#define TLBSCOPE_REPORT_VALIDATE_SECTIONS_H

#include <stdbool.h>

#include "reports/tool/validate/vcheck.h"

/* Facts one section learns that the top-level cross-checks need. */
struct vfacts {
    int worst_status;       /* index in vocab_results, -1 when no experiment */
    long long worst_at;     /* the experiment that set it */
    long long partial_at;   /* an experiment with partial == true, or -1 */
    long long troubled_cpu; /* a CPU hung/faulted/slow/absent, or -1 */
    bool has_errors;        /* run.errors is not empty */
    int run_status;         /* index in vocab_run_status, -1 when unreadable */
};

void validate_run(struct vctx *c, const json_t *root, struct vfacts *f);
/* run.config_source and run.network (validate_network.c); `run` is the run object. */
void validate_network(struct vctx *c, const json_t *run);
void validate_firmware(struct vctx *c, const json_t *root);
void validate_cpu(struct vctx *c, const json_t *root);
void validate_topology(struct vctx *c, const json_t *root, struct vfacts *f);
/* topology's l3, classes and pair_classes against its CPU entries (validate_classes.c) */
void validate_topology_classes(struct vctx *c, const json_t *topo, const json_t *cpus);
/* A point's class_mix (issue 32; absent before it): classes other than self, adding up to
 * its targets (params.targets, else params.cpus - 1). `p` is the point object. */
void validate_class_mix(struct vctx *c, const json_t *p);
/* method.linux_ipi_mode (issue 21; absent before it) */
void validate_linux_ipi_mode(struct vctx *c, const json_t *method);
void validate_method(struct vctx *c, const json_t *root);
void validate_experiments(struct vctx *c, const json_t *root, struct vfacts *f);
/* One metric of a point: statistics, p50_ci95, samples (validate_metric.c). */
void validate_metric(struct vctx *c, const json_t *metric);
/* method.bootstrap (schema 3, x86): how the metrics' p50_ci95 were drawn */
void validate_bootstrap(struct vctx *c, const json_t *method);
/* experiments[].plan; `status` is the experiment's, as an index in vocab_results */
void validate_plan(struct vctx *c, const json_t *e, int status);
void validate_simulation(struct vctx *c, const json_t *root);
/* shootdown_seq_vs_conc: each summary conc_over_seq_* against its two result points. */
void validate_seq_conc_ratios(struct vctx *c, const json_t *e);
/* "recommendations" (schema version 2): labels, and evidence that points at existing results. */
void validate_recommendations(struct vctx *c, const json_t *root);
/* experiments[i].conditions (validate_conditions.c); `status` indexes vocab_results. */
void validate_conditions(struct vctx *c, const json_t *e, int status);
/* aarch64 reports (validate_arm64.c, contract A of issue 27) */
extern const char *const vocab_architectures[];
extern const char *const vocab_arm64_experiments[];
void validate_arm64_firmware(struct vctx *c, const json_t *root);
void validate_arm64_cpu(struct vctx *c, const json_t *root);
void validate_arm64_topology(struct vctx *c, const json_t *root, struct vfacts *f);
void validate_arm64_method(struct vctx *c, const json_t *root);
/* method.psci_functions and method.handback, both optional (validate_handback.c) */
void validate_arm64_handback(struct vctx *c, const json_t *method, const json_t *root);
void validate_arm64_experiment(struct vctx *c, const json_t *e, int status);
/* validate_arm64_gic.c: method's sgis and gic_security; tlbi_broadcast_vs_ipi's lower_bound */
void validate_arm64_gic(struct vctx *c, const json_t *method, long long gic);
void validate_arm64_lower_bound(struct vctx *c, const json_t *e);
/* validate_arm64_reps.c: reps_per_sample and mean_per_op on the points that repeat a flush */
void validate_arm64_reps(struct vctx *c, const json_t *e);
/* validate_arm64_stage2.c: method.stage2, beside tlbi_broadcast_vs_ipi's stage2_kvm points (EL2) */
void validate_arm64_stage2(struct vctx *c, const json_t *m, const json_t *root, long long el);
/* The "redaction" record, and that identifying fields hold tokens exactly when it lists them. */
void validate_redaction(struct vctx *c, const json_t *root);
/* The optional "verdict" (validate_verdict.c): recomputed from the report, compared. */
void validate_verdict(struct vctx *c, const json_t *root);

#endif
