/*
 * The few atomics the protocols use, as GCC builtins with explicit memory
 * orders (so ThreadSanitizer in the host tests sees exactly what the
 * hardware build does). On x86 (TSO) acquire/release compile to plain moves;
 * the orders still matter to the compiler.
 */
#ifndef TLBSCOPE_CORE_ATOMIC_H
#define TLBSCOPE_CORE_ATOMIC_H

#include <stdint.h>

/*
 * On the modelled machine (sim/lapic.h) a CPU's stores may still sit in its
 * store buffer when it writes an x2APIC ICR, which does not wait for them:
 * the stores below are noted as pending for the calling thread's CPU, and a
 * locked instruction or a full barrier drains them, as on x86. The machine
 * build compiles none of this.
 *
 * The host build also gives each modelled CPU a real store buffer
 * (sim/storebuf.h): a shared store stays invisible to the other CPUs for a
 * while, so a load may pass it as on x86-TSO; a load of a pending store's
 * bytes by another CPU reads their old value. Not under ThreadSanitizer (see
 * there).
 */
#ifdef TLBSCOPE_HOST
extern _Thread_local unsigned char sim_stores_pending;
#define note_store() ((void)(sim_stores_pending = 1))
#else
#define note_store() ((void)0)
#endif

#if defined(TLBSCOPE_HOST) && !defined(__SANITIZE_THREAD__)
extern _Thread_local uint32_t sim_sb_self; /* the CPU the thread plays; UINT32_MAX: none */
extern uint64_t sim_sb_live;               /* bit c: CPU c may have pending stores */
void sim_sb_store(volatile void *p, const void *v, uint32_t size);
void sim_sb_filter(const volatile void *p, void *v, uint32_t size);
void sim_sb_drain(void);
void sim_sb_rmw_begin(const volatile void *p, uint32_t size);
void sim_sb_rmw_end(void);
#define drain_stores() ((void)(sim_stores_pending = 0), sim_sb_drain())
#define sb_load_(p, mo)                                                                            \
    __extension__({                                                                                \
        __auto_type sb_v_ = __atomic_load_n((p), (mo));                                            \
        if (__atomic_load_n(&sim_sb_live, __ATOMIC_RELAXED))                                       \
            sim_sb_filter((p), &sb_v_, sizeof(sb_v_));                                             \
        sb_v_;                                                                                     \
    })
#define sb_store_(p, v, mo)                                                                        \
    __extension__({                                                                                \
        __typeof__(__atomic_load_n((p), __ATOMIC_RELAXED)) sb_s_ = (v);                            \
        if (sim_sb_self != UINT32_MAX)                                                             \
            sim_sb_store((p), &sb_s_, sizeof(sb_s_));                                              \
        else                                                                                       \
            __atomic_store_n((p), sb_s_, (mo));                                                    \
        note_store();                                                                              \
    })
#define sb_rmw_(p, op)                                                                             \
    __extension__({                                                                                \
        sim_stores_pending = 0;                                                                    \
        sim_sb_rmw_begin((p), sizeof(*(p)));                                                       \
        __auto_type sb_r_ = (op);                                                                  \
        sim_sb_rmw_end();                                                                          \
        sb_r_;                                                                                     \
    })
#define load_acquire(p) sb_load_((p), __ATOMIC_ACQUIRE)
#define load_relaxed(p) sb_load_((p), __ATOMIC_RELAXED)
#define store_release(p, v) sb_store_((p), (v), __ATOMIC_RELEASE)
#define store_relaxed(p, v) sb_store_((p), (v), __ATOMIC_RELAXED)
#define fetch_add(p, v) sb_rmw_((p), __atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST))
#define add_fetch(p, v) sb_rmw_((p), __atomic_add_fetch((p), (v), __ATOMIC_SEQ_CST))
#define cas(p, expected, desired)                                                                  \
    sb_rmw_((p), __atomic_compare_exchange_n((p), (expected), (desired), 0, __ATOMIC_SEQ_CST,      \
                                             __ATOMIC_SEQ_CST))
#else
#ifdef TLBSCOPE_HOST
#define drain_stores() ((void)(sim_stores_pending = 0))
#else
#define drain_stores() ((void)0)
#endif
#define load_acquire(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define load_relaxed(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define store_release(p, v) (__atomic_store_n((p), (v), __ATOMIC_RELEASE), note_store())
#define store_relaxed(p, v) (__atomic_store_n((p), (v), __ATOMIC_RELAXED), note_store())
#define fetch_add(p, v) (drain_stores(), __atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST))
#define add_fetch(p, v) (drain_stores(), __atomic_add_fetch((p), (v), __ATOMIC_SEQ_CST))
#define cas(p, expected, desired)                                                                  \
    (drain_stores(), __atomic_compare_exchange_n((p), (expected), (desired), 0, __ATOMIC_SEQ_CST,  \
                                                 __ATOMIC_SEQ_CST))
#endif
/* A full barrier: orders an earlier store before a later load (MFENCE on x86). */
#if defined(__SANITIZE_THREAD__)
/* ThreadSanitizer does not model fences: a seq_cst RMW on one shared word
 * (a locked instruction, itself a full barrier on x86) gives it the edge. */
extern uint64_t tsan_fence_word;
#define full_barrier()                                                                             \
    (drain_stores(), (void)__atomic_fetch_add(&tsan_fence_word, 0, __ATOMIC_SEQ_CST))
#else
#define full_barrier() (drain_stores(), __atomic_thread_fence(__ATOMIC_SEQ_CST))
#endif

#endif
