/*
 * What the three parts of the TLB model share (sim/tlb_model.c: the arrays,
 * caches and walk; sim/tlb_model_events.c: events and INVLPGB's arrival;
 * sim/tlb_model_invalidate.c: the invalidating instructions). Internal to
 * them: everything else uses sim/tlb_model.h.
 */
#ifndef TLBSCOPE_SIM_TLB_MODEL_PARTS_H
#define TLBSCOPE_SIM_TLB_MODEL_PARTS_H

#include <stdbool.h>
#include <stdint.h>

#include "asm/paging.h"
#include "sim/tlb_model.h"

static const uint64_t page_bytes[] = { PAGE_4K, PAGE_2M, PAGE_1G };
static const unsigned page_shift[] = { 12, 21, 30 };

typedef bool (*entry_filter)(const struct tlbm_entry *e, const void *arg);
typedef bool (*psc_filter)(const struct tlbm_psc_entry *p, const void *arg);

struct psc_arg {
    uint32_t pcid;
    bool any_pcid;
    bool by_address;
    uint64_t va, stride, count; /* the addresses va + i * stride, i < count */
};

uint64_t tm_random_below(uint64_t *state, uint64_t n);
void tm_log_event(struct tlb_model *m, struct tlbm_cpu *c, uint32_t kind, uint64_t a,
                  uint64_t b, uint64_t cc);
uint64_t tm_span_base(const struct tlbm_entry *e);
struct tlbm_entry *tm_lookup(struct tlb_model *m, struct tlbm_cpu *c, uint64_t va);
void tm_insert(struct tlb_model *m, struct tlbm_cpu *c, const struct tlbm_entry *n);
void tm_note_recent(struct tlbm_cpu *c, uint64_t va);
uint32_t tm_drop_matching(struct tlb_model *m, struct tlbm_cpu *c, entry_filter match,
                          const void *arg);
void tm_psc_drop(struct tlbm_cpu *c, psc_filter match, const void *arg);
bool tm_list_hits(uint64_t base, uint64_t size, uint64_t va, uint64_t stride, uint64_t count);
bool tm_psc_drop_all_without_tce(struct tlb_model *m, struct tlbm_cpu *c);
bool tm_walk(struct tlb_model *m, struct tlbm_cpu *c, uint64_t va, struct tlbm_entry *out);
uint32_t tm_current_pcid(const struct tlbm_cpu *c);
bool tm_covers(const struct tlbm_entry *e, uint64_t va);
void tm_psc_drop_address(struct tlbm_cpu *c, uint32_t pcid, uint64_t va);
void tm_psc_drop_pcid(struct tlbm_cpu *c, uint32_t pcid);
bool tm_psc_hits(const struct tlbm_psc_entry *p, const void *arg);
void tm_apply_invlpgb(struct tlb_model *m, struct tlbm_cpu *c, const struct tlbm_pending *p);
void tm_land_pending(struct tlb_model *m, struct tlbm_cpu *c, uint32_t issuer, bool all_of_issuer);
bool tm_canonical_for(const struct tlbm_cpu *c, uint64_t va);
void tm_speculate(struct tlb_model *m, struct tlbm_cpu *c);
void tm_event(struct tlb_model *m, struct tlbm_cpu *c);
void tm_begin(struct tlb_model *m, struct tlbm_cpu *c, uint32_t kind, uint64_t a, uint64_t b,
              uint64_t cc);
void tm_end(struct tlb_model *m, struct tlbm_cpu *c);

#endif
