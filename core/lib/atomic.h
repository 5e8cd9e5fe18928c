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
 */
#ifdef TLBSCOPE_HOST
extern _Thread_local unsigned char sim_stores_pending;
#define note_store() ((void)(sim_stores_pending = 1))
#define drain_stores() ((void)(sim_stores_pending = 0))
#else
#define note_store() ((void)0)
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
