// What every kernel of the compiled core shares: the status codes the resumable kernels
// return, the "infinite" constants, array views, the thread pool's parallel loop and the
// small CPU helpers (prefetch, popcount).
//
// A kernel reads and writes numpy arrays through `Span`s (a pointer and a length, no
// ownership); the Python driver owns every array it passes, grows them when a kernel
// returns MUST_GROW and calls again. A kernel's own scratch is std::vector.
//
// Threads: `parallel_for` runs independent pieces of work on the calling thread's share of
// threads (`threads()`, set per Python thread by `set_threads`, as numba's was). A piece
// whose allocation fails (std::bad_alloc) is marked unfinished, the others go on, and the
// kernel reports OUT_OF_MEMORY: a failed allocation is never an answer. Which thread runs
// a piece never changes what it computes, so no answer depends on the threads.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <new>
#include <system_error>
#include <thread>
#include <vector>

namespace dagger {

using i8 = std::int8_t;
using i16 = std::int16_t;
using i32 = std::int32_t;
using i64 = std::int64_t;
using u8 = std::uint8_t;
using u64 = std::uint64_t;

// What the resumable kernels return (named by dagger_cli.engine.dag.Status in Python).
enum Status : int {
    DONE = 0,
    BUDGET_SPENT = 1,
    MUST_GROW = 2,
    TOO_MANY_NODES = 3,
    FRONT_TOO_LONG = 4,
    OUT_OF_MEMORY = 5,
};

inline constexpr i64 INF = std::numeric_limits<i64>::max();
// The remaining depth of an uncapped subproblem ("infinite").
inline constexpr i64 NO_CAP = i64{1} << 30;
// Independent pieces a parallel phase is cut into (interleaved, for balance).
inline constexpr int PIECES = 16;
// The combine code of a cost whose children's values are maximised (depth), else summed.
inline constexpr i64 MAXK = 1;

#ifdef DAGGER_CHECKED
// A checked build's (DAGGER_CHECKED, `make sanitize`) index outside a view: say so and abort.
[[noreturn]] inline void out_of_bounds(i64 i, i64 n) {
    std::fprintf(stderr, "dagger core: index %lld outside [0, %lld)\n", (long long)i,
                 (long long)n);
    std::abort();
}
#endif

// A view of a contiguous array: a pointer and a length; no ownership, no bounds checks (but
// in a checked build, DAGGER_CHECKED).
template <class T>
struct Span {
    T *p = nullptr;
    i64 n = 0;
#ifdef DAGGER_CHECKED
    T &operator[](i64 i) const {
        if (i < 0 || i >= n) out_of_bounds(i, n);
        return p[i];
    }
#else
    T &operator[](i64 i) const { return p[i]; }
#endif
    i64 size() const { return n; }
    T *begin() const { return p; }
    T *end() const { return p + n; }
};

// A row-major matrix view (rows x cols).
template <class T>
struct Mat {
    T *p = nullptr;
    i64 rows = 0, cols = 0;
#ifdef DAGGER_CHECKED
    T &operator()(i64 i, i64 j) const {
        if (i < 0 || i >= rows) out_of_bounds(i, rows);
        if (j < 0 || j >= cols) out_of_bounds(j, cols);
        return p[i * cols + j];
    }
#else
    T &operator()(i64 i, i64 j) const { return p[i * cols + j]; }
#endif
    T *row(i64 i) const { return p + i * cols; }
};

// Two children's costs combined (k: MAXK or sum).
inline i64 comb(i64 k, i64 a, i64 b) { return k == MAXK ? std::max(a, b) : a + b; }

inline int popcount(u64 v) { return std::popcount(v); }

// Ask the CPU to start loading *p into the cache (no effect on results): lets independent
// random accesses overlap.
inline void prefetch(const void *p) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p, 0, 3);
#else
    (void)p;
#endif
}

// The number of threads the calling (Python) thread's kernels use; see set_threads.
int threads();
// Set it for the calling thread (at least 1); returns the previous value.
int set_threads(int n);
// The threads this machine has (std::thread::hardware_concurrency, at least 1).
int hardware_threads();

// Run f(piece) for every piece in [0, pieces) on up to `threads()` threads (the calling
// thread is one of them); pieces are taken in order from a shared counter. Returns false
// when some piece threw std::bad_alloc (that piece did not finish; the others did).
template <class F>
bool parallel_for(i64 pieces, F &&f) {
    const int workers = static_cast<int>(std::min<i64>(threads(), pieces));
    std::atomic<i64> next{0};
    std::atomic<bool> failed{false};
    auto work = [&]() {
        for (i64 k = next.fetch_add(1); k < pieces; k = next.fetch_add(1)) {
            try {
                f(k);
            } catch (const std::bad_alloc &) {
                failed.store(true);
            }
        }
    };
    if (workers <= 1) {
        work();
        return !failed.load();
    }
    std::vector<std::thread> pool;
    pool.reserve(static_cast<std::size_t>(workers - 1));
    try {
        for (int t = 1; t < workers; ++t) pool.emplace_back(work);
    } catch (const std::system_error &) {
        // no more threads: the ones made (and this one) do every piece
    }
    work();
    for (auto &th : pool) th.join();
    return !failed.load();
}

// Run f(k, state) for every k in [0, n) on up to `threads()` workers: each worker makes its
// state once (`make()`, e.g. its scratch arrays) and takes the k one at a time from a shared
// counter, so items of very different costs keep every worker busy to the end. Returns
// false as parallel_for does (a worker whose state or item failed to allocate stops; the
// others take the items left, and the caller finds the item that did not finish).
template <class Make, class F>
bool parallel_each(i64 n, Make &&make, F &&f) {
    std::atomic<i64> next{0};
    return parallel_for(std::min<i64>(n, threads()), [&](i64) {
        auto state = make();
        for (i64 k = next.fetch_add(1); k < n; k = next.fetch_add(1)) f(k, state);
    });
}

}  // namespace dagger
