/*
 * aarch64 barriers the TLB maintenance protocols need (Arm ARM, "Memory
 * barriers" and "Ordering and completion of TLB maintenance instructions").
 * On the target they are the instructions; in the host build (TLBSCOPE_HOST)
 * the strict model implements them (sim/arm64/), so that the protocols of
 * core/exp/arm64/ run unchanged on modelled CPUs and a missing barrier shows
 * up as stale reads.
 */
#ifndef TLBSCOPE_ARM64_BARRIER_H
#define TLBSCOPE_ARM64_BARRIER_H

#ifdef TLBSCOPE_HOST
/* DSB ISH: this CPU's broadcast TLBIs are complete on every CPU of the inner shareable domain */
void dsb_ish(void);
/* DSB ISHST: this CPU's earlier stores (PTE writes) are visible before its later TLBIs */
void dsb_ishst(void);
/* DSB NSH: this CPU's local TLBIs are complete */
void dsb_nsh(void);
/* DSB OSH: this CPU's outer-shareable TLBIs (and inner-shareable ones) are complete everywhere */
void dsb_osh(void);
/* ISB: later instructions of this CPU are fetched and translated after the above */
void isb(void);
#else
/* "memory" keeps the compiler from moving accesses across the barrier as well */
static inline void dsb_ish(void) { __asm__ volatile("dsb ish" ::: "memory"); }
static inline void dsb_ishst(void) { __asm__ volatile("dsb ishst" ::: "memory"); }
static inline void dsb_nsh(void) { __asm__ volatile("dsb nsh" ::: "memory"); }
static inline void dsb_osh(void) { __asm__ volatile("dsb osh" ::: "memory"); }
static inline void isb(void) { __asm__ volatile("isb" ::: "memory"); }
#endif

#endif
