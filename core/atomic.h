/*
 * The few atomics the protocols use, as GCC builtins with explicit memory
 * orders (so ThreadSanitizer in the host tests sees exactly what the
 * hardware build does). On x86 (TSO) acquire/release compile to plain moves;
 * the orders still matter to the compiler.
 */
#ifndef TLBSCOPE_CORE_ATOMIC_H
#define TLBSCOPE_CORE_ATOMIC_H

#include <stdint.h>

#define load_acquire(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define load_relaxed(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define store_release(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define store_relaxed(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define fetch_add(p, v) __atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST)
#define add_fetch(p, v) __atomic_add_fetch((p), (v), __ATOMIC_SEQ_CST)
#define cas(p, expected, desired)                                                                  \
    __atomic_compare_exchange_n((p), (expected), (desired), 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)
/* A full barrier: orders an earlier store before a later load (MFENCE on x86). */
#if defined(__SANITIZE_THREAD__)
/* ThreadSanitizer does not model fences: a seq_cst RMW on one shared word
 * (a locked instruction, itself a full barrier on x86) gives it the edge. */
extern uint64_t tsan_fence_word;
#define full_barrier() ((void)__atomic_fetch_add(&tsan_fence_word, 0, __ATOMIC_SEQ_CST))
#else
#define full_barrier() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif

#endif
