#ifndef CMODELKIT_LOCK_H
#define CMODELKIT_LOCK_H

// A lock for the identity map's shards: one word, taken with one compare-and-swap when free
// (a pthread mutex costs a call and a larger structure; NSLock a class and a dynamic call on
// top). A shard is held for a few dozen nanoseconds, so a thread that finds it taken spins
// briefly, then yields its core (`modelkit_lock_wait`, in CModelKitRuntime.c). Not recursive.
// The word lives in memory the caller allocates, zeroed (unlocked), one cache line per lock.

#include <stdatomic.h>

#pragma clang assume_nonnull begin

/// Waits until `lock` looks free (spinning, then yielding). Call `modelkit_lock_acquire`.
extern void modelkit_lock_wait(void *lock);

/// Takes `lock` (a zeroed, `int`-aligned word), waiting while another thread holds it.
static inline void modelkit_lock_acquire(void *lock) {
    _Atomic(int) *state = (_Atomic(int) *)lock;
    int expected = 0;
    while (!atomic_compare_exchange_weak_explicit(state, &expected, 1, memory_order_acquire, memory_order_relaxed)) {
        modelkit_lock_wait(lock);
        expected = 0;
    }
}

/// Gives `lock` back.
static inline void modelkit_lock_release(void *lock) {
    atomic_store_explicit((_Atomic(int) *)lock, 0, memory_order_release);
}

#pragma clang assume_nonnull end

#endif
