/*
 * What the strict aarch64 model's files share inside (tlbi_model.h has the
 * rules), each calling only those below it: tlbi_model.c the instructions,
 * tlbi_model_effect.c when a TLBI takes effect on each CPU, tlbi_model_tlb.c
 * the TLBs (fills, drops, the randomness), tlbi_model_walk.c the walk through
 * level 2 (walk caches, blocks). Every function here runs with m->lock held.
 */
#ifndef TLBSCOPE_SIM_ARM64_TLBI_MODEL_INT_H
#define TLBSCOPE_SIM_ARM64_TLBI_MODEL_INT_H

#include "sim/arm64/tlbi_model.h"

/* ---- tlbi_model_tlb.c ---- */
uint64_t a64m_rng_next(uint64_t *s);
bool a64m_chance(struct a64m_cpu *c, uint32_t per_65536);
void a64m_note_recent(struct a64m_cpu *c, uint32_t page);
/* the slot of page's entry usable under c's ASID (of two, the older), or -1 */
int a64m_usable(const struct a64m_cpu *c, uint32_t page);
/* a walk of page on c that fills its TLB where it holds no usable entry; the leaf it found */
uint64_t a64m_walk(struct a64_model *m, struct a64m_cpu *c, uint32_t page);
/* drop on c what p matches (its pages, ASID and levels), the walk cache's entries included */
void a64m_apply(struct a64_model *m, struct a64m_cpu *c, const struct a64m_pend *p);
/* p complete on c (its issuer's DSB): the entries it dropped there are gone for break-before-make too */
void a64m_confirm(struct a64_model *m, struct a64m_cpu *c, const struct a64m_pend *p);

/* ---- tlbi_model_walk.c ---- */
/* the slot in table[] of entry e of level-3 table t, or -1: the model has no such descriptor */
int64_t a64m_l3_slot(const struct a64_model *m, uint64_t t, uint32_t e);
/* the leaf descriptor a walk of page finds (through c's walk cache, which it fills), 0: none */
uint64_t a64m_walk_leaf(struct a64_model *m, struct a64m_cpu *c, uint32_t page);
/* the walk-cache entries p drops on c (by VA: the blocks of its pages; else all) */
void a64m_drop_walks(struct a64_model *m, struct a64m_cpu *c, const struct a64m_pend *p);
/* what a by-VA operand's TTL [47:44] names (A64M_LEVEL_*), 0: entries the model never holds */
unsigned a64m_ttl_levels(unsigned ttl);
/* a range operand's TTL [38:37] (the level alone), likewise */
unsigned a64m_range_ttl_levels(unsigned ttl);
/* a page whose translation a store to table[slot] changes (to walk before it), false: none */
bool a64m_slot_page(const struct a64_model *m, uint32_t slot, uint64_t rnd, uint32_t *page);

/* ---- tlbi_model_errors.c ---- */
/* a model error on CPU c (the first A64M_MAX_VIOLATIONS kept) */
void a64m_violation(struct a64_model *m, uint32_t c, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- tlbi_model_s2.c (tlbi_model.h: stage 2 at EL2) ---- */
/* TLBI IPAS2E1IS or VMALLE1IS at EL2 by CPU c */
void a64m_s2_tlbi(struct a64_model *m, uint32_t c, enum tlbi_op op, uint64_t operand);
/* CPU c's DSB ISH (or OSH): its stage-2 TLBIs complete */
void a64m_s2_dsb(struct a64_model *m, uint32_t c);
/* CPU c's ISB: a stage-2 sequence must be whole by then */
void a64m_s2_isb(struct a64_model *m, uint32_t c);

/* ---- tlbi_model_effect.c ---- */
/* the step p takes effect on a CPU it reaches: drawn from the issuer's randomness */
uint64_t a64m_draw_due(struct a64_model *m, struct a64m_cpu *issuer);
/* one more model step (every primitive of any CPU is one) */
static inline void a64m_step(struct a64_model *m) { m->step++; }
/* the invalidations due by this step take effect on the CPUs they are due on */
void a64m_run_due(struct a64_model *m);
/* p takes effect on CPU `on` now (it is listed there, not yet done) */
void a64m_take_effect(struct a64_model *m, uint32_t on, struct a64m_pend *p);
/* an invalidation due at `due` was queued on CPU `on` */
void a64m_effect_queued(struct a64_model *m, uint32_t on, uint64_t due);
/* on's pend[] was compacted (invalidations completed): what is due there, again */
void a64m_effects_rescan(struct a64_model *m, uint32_t on);

#endif
