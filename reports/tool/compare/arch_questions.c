/*
 * The questions both architectures answer, and how each answers them
 * (arch_questions.h). The filters select the points of the path Linux takes:
 * x86's concurrent order with its own flush switch (INVLPG up to the
 * ceiling, a CR3 write above; not the INVPCID variant, not the placement or
 * x2APIC-cluster points beside the grid), aarch64's broadcast TLBI.
 */
#include "reports/tool/compare/arch_questions.h"

#include <string.h>

/* what Linux's arm64 code does for the shootdown question: one text for both sides below */
#define ARM_SHOOTDOWN_LINUX                                                                      \
    "tlb_flush -> __flush_tlb_range: broadcast TLBI VALE1IS per page (RVALE1IS ranges with "  \
    "FEAT_TLBIRANGE), then __tlbi_sync_s1ish, no IPI; flush_tlb_mm (TLBI ASIDE1IS) from "      \
    "MAX_DVM_OPS (512 pages) without range TLBI"

/* aarch64's shootdown side in reports from before broadcast_linux: plain VAE1IS per page */
static const struct aq_side arm_shootdown_before = {
    .arch = "aarch64", .experiment = "tlbi_broadcast_vs_ipi",
    .filter = { { "method", "broadcast" } },
    .map = { { .canon = "targets", .key = "targets" }, { .canon = "pages", .key = "pages" } },
    .how = "TLBI VAE1IS",
    .mechanism = "TLBI VAE1IS per page, DSB ISH, ISB: the hardware reaches every CPU, no IPI "
                 "(a report from before broadcast_linux, Linux's own sequence)",
    .details = { "tlbi_el" },
    .linux_does = ARM_SHOOTDOWN_LINUX,
};

const struct aq_question aq_questions[] = {
    {
        .id = "ipi_roundtrip",
        .title = "one IPI initiator -> target and its acknowledgement back",
        .all_pairs = 1,
        .sides = {
            { .arch = "x86_64", .experiment = "ipi_roundtrip",
              .how = "APIC IPI",
              .mechanism = "an IPI through the local APIC, acknowledged by the target's handler",
              .details = { "apic_mode", "target_wait" },
              .linux_does = "smp_call_function_single: an IPI through the local APIC (x2APIC: "
                            "a WRMSR to the ICR), the target's interrupt handler runs the "
                            "function and releases the caller" },
            { .arch = "aarch64", .experiment = "ipi_roundtrip",
              .how = "GIC SGI",
              .mechanism = "an SGI through the GIC, acknowledged by the target",
              .details = { "ipi", "target_wait" },
              .linux_does = "smp_call_function_single: an SGI through the GIC (GICv3: "
                            "ICC_SGI1R_EL1), taken as an IRQ exception on the target, whose "
                            "handler runs the function and releases the caller" },
        },
    },
    {
        .id = "shootdown",
        .title = "one TLB shootdown as Linux performs it, by pages and other CPUs",
        .align = { "targets", "pages" },
        .sides = {
            { .arch = "x86_64", .experiment = "shootdown_seq_vs_conc",
              .filter = { { "mode", "conc" }, { "flush", "invlpg|cr3_reload" },
                          { "placement", "-" }, { "ipi_mode", "-" } },
              .map = { { .canon = "targets", .key = "targets" },
                       { .canon = "pages", .key = "pages" } },
              .shown = "flush",
              .how = "IPIs",
              .mechanism = "flush IPIs to every target at once, the local flush, then every "
                           "ack (concurrent order)",
              .details = { "apic_mode", "flush_ceiling" },
              .linux_does = "native_flush_tlb_multi: the IPIs to every CPU of the mm at once, "
                            "then the local flush (concurrent since 5.13); INVLPG per page up to "
                            "tlb_single_page_flush_ceiling, a full flush (CR3 write) above",
              .instead_experiment = "invlpgb_range",
              .instead = "Linux 6.15+ broadcasts INVLPGB and one TLBSYNC instead, no IPI, for "
                         "a process on 4 CPUs or more: invlpgb_range measured it here" },
            { .arch = "aarch64", .experiment = "tlbi_broadcast_vs_ipi",
              .filter = { { "method", "broadcast_linux" } },
              .map = { { .canon = "targets", .key = "targets" },
                       { .canon = "pages", .key = "pages" } },
              .how = "Linux's TLBIs",
              .mechanism = "Linux's unmap sequence on this CPU: DSB ISHST, TLBI VALE1IS per page "
                           "(TTL hint where FEAT_TTL; RVALE1IS ranges where FEAT_TLBIRANGE), DSB "
                           "ISH, the repeat-TLBI dummy where Linux applies it, ISB: no IPI",
              .details = { "tlbi_el", "linux_tlbi" },
              .linux_does = ARM_SHOOTDOWN_LINUX,
              .before = &arm_shootdown_before },
        },
    },
    {
        .id = "flush_ceiling",
        .title = "page by page or one full flush, by pages (each flush's own latency; the "
                 "refill is in each side's p*)",
        .align = { "flush", "pages" },
        .nearest = { "targets" },
        .sides = {
            { .arch = "x86_64", .experiment = "flush_ceiling",
              .filter = { { "kind", "shootdown" }, { "working_set_form", "contiguous" },
                          { "working_set", "512" } },
              .map = { { .canon = "flush", .key = "mode",
                         .from = { "invlpg", "full_cr3" }, .to = { "per_page", "full" } },
                       { .canon = "pages", .key = "pages" },
                       { .canon = "targets", .key = "targets" } },
              .shown = "mode",
              .mechanism = "INVLPG per page or one CR3 write, here and by IPI on the targets, "
                           "then the refill of a 512-page working set",
              .details = { "flush_ceiling" },
              .linux_does = "flush_tlb_mm_range: INVLPG per page up to "
                            "tlb_single_page_flush_ceiling (33 pages by default), a full flush above" },
            { .arch = "aarch64", .experiment = "flush_ceiling",
              .filter = { { "mode", "per_page|range|full_asid|full_all" } },
              .map = { { .canon = "flush", .key = "mode",
                         .from = { "per_page", "range", "full_asid", "full_all" },
                         .to = { "per_page", "per_page", "full", "full" } },
                       { .canon = "pages", .key = "pages" },
                       { .canon = "targets", .key = "targets" } },
              .how = "TLBI",
              .shown = "mode",
              .mechanism = "TLBI VAE1IS per page (RVAE1IS ranges with FEAT_TLBIRANGE) or one "
                           "TLBI ASIDE1IS (VMALLE1IS-class at EL2), DSB ISH, ISB",
              .details = { "tlbi_el" },
              .linux_does = "__flush_tlb_range: TLBI per page up to MAX_DVM_OPS (512 pages; "
                            "2^21 with range TLBI), TLBI ASIDE1IS above" },
        },
    },
    {
        .id = "contention",
        .title = "m initiators shooting down at once, each to every other CPU",
        .align = { "initiators" },
        .nearest = { "pages" },
        .sides = {
            { .arch = "x86_64", .experiment = "shootdown_contention",
              .filter = { { "mode", "all" }, { "method", "ipi" }, { "measure", "latency" },
                          { "placement", "-" } },
              .map = { { .canon = "initiators", .key = "initiators" },
                       { .canon = "pages", .key = "pages" } },
              .how = "IPIs",
              .mechanism = "each initiator's flush IPIs to every other CPU of one mm, and "
                           "its wait for their acks",
              .details = { "apic_mode", "target_wait" },
              .linux_does = "each CPU's flush_tlb_mm_range sends its own IPIs (threads of one "
                            "process); a target takes them one after another" },
            { .arch = "aarch64", .experiment = "tlbi_concurrent",
              .map = { { .canon = "initiators", .key = "initiators" },
                       { .canon = "pages", .key = "pages" } },
              .how = "TLBI VAE1IS",
              .mechanism = "each initiator's TLBI VAE1IS per page and DSB ISH, all at once",
              .details = { "tlbi_el" },
              .linux_does = "each CPU's flush_tlb_range broadcasts its own TLBIs, no IPI; they "
                            "meet in the interconnect's DVM messages" },
        },
    },
    {
        .id = "pti_double_invalidation",
        .title = "a shootdown under page-table isolation: the kernel's invalidation alone, or the "
                 "user address space's too, by pages",
        .align = { "invalidation", "pages" },
        .sides = {
            { .arch = "x86_64", .experiment = "pti_double_invalidation",
              .filter = { { "kind", "shootdown_conc" } },
              .map = { { .canon = "invalidation", .key = "variant",
                         .from = { "no_pti", "invlpg_invpcid", "invlpg_deferred" },
                         .to = { "kernel", "kernel_user", "kernel_user_deferred" } },
                       { .canon = "pages", .key = "pages" } },
              .how = "IPIs",
              .shown = "variant",
              .mechanism = "flush IPIs to every CPU, INVLPG per page in the kernel PCID and, "
                           "under PTI, INVPCID in the user PCID (or the user PCID's flush "
                           "deferred), then the initiator's return to user",
              .details = { "kernel_pcid", "user_pcid" },
              .linux_does = "flush_tlb_one_user under PTI: INVLPG, then INVPCID of the user "
                            "PCID where the CPU has it, else invalidate_user_asid() defers the "
                            "user PCID's flush to the next return to user (SWITCH_TO_USER_CR3)" },
            { .arch = "aarch64", .experiment = "pti_double_invalidation",
              .map = { { .canon = "invalidation", .key = "variant",
                         .from = { "no_kpti", "kpti" }, .to = { "kernel", "kernel_user" } },
                       { .canon = "pages", .key = "pages" } },
              .how = "TLBI VAE1IS",
              .shown = "variant",
              .mechanism = "TLBI VAE1IS per page in the kernel ASID and, under KPTI, again in the "
                           "user ASID (ASID | 1), DSB ISH, ISB: no IPI",
              .details = { "tlbi_el" },
              .linux_does = "__flush_tlb_range_op: __tlbi(vale1is) and __tlbi_user(vale1is) per "
                            "page where KPTI is on (arm64_kernel_unmapped_at_el0: no FEAT_E0PD, "
                            "cpu.features.e0pd), only the first where E0PD makes KPTI unnecessary" },
        },
    },
};

const size_t aq_nquestions = sizeof(aq_questions) / sizeof(aq_questions[0]);

const struct aq_side *aq_side_of(const struct aq_question *q, const char *arch)
{
    size_t i;
    for (i = 0; arch && i < AQ_MAX_ARCHES; i++)
        if (q->sides[i].arch && strcmp(q->sides[i].arch, arch) == 0)
            return &q->sides[i];
    return NULL;
}

const struct aq_question *aq_answered_by(const char *id, size_t *from)
{
    size_t i;
    for (; id && *from < aq_nquestions; (*from)++)
        for (i = 0; i < AQ_MAX_ARCHES; i++)
            if (aq_questions[*from].sides[i].experiment &&
                strcmp(aq_questions[*from].sides[i].experiment, id) == 0)
                return &aq_questions[(*from)++];
    return NULL;
}
