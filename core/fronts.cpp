// The fronts kernel: every subproblem's Pareto front over the DAG Δ(T), smallest
// subtables first (driven by dagger_cli.engine.dag.compute_fronts).
//
// A child subtable is a strict subset of its parent, so increasing size is a topological
// order, and the subproblems of nodes of one size are independent: a batch of them (a
// chunk) is computed in parallel pieces, each into its own output slots, then appended to
// the point pool in entry order (front_store.hpp's store: the same bytes for any thread
// count). A subproblem's front is node_front's: the Pareto filter of its leaf and its
// bundles' fronts, a bundle's the Pareto-filtered combination of its children's, one
// child at a time. A piece first gathers its children's fronts into local arrays, with
// prefetches ahead of the loads so that the cache misses of many children overlap.
//
// Under a depth cap a subproblem is (node, remaining depth r), its children's (c, r - 1)
// (child_sub); subproblems the depth-two layer already solved (`ready`) are skipped.
// Memory: every array of a piece is sized against its allowance of bytes before it is
// made (OUT_OF_MEMORY with the bytes wanted otherwise); resumable (BUDGET_SPENT after a
// chunk once the budget is spent, MUST_GROW when the pool is full).
#include "front_bind.hpp"

namespace dagger {
namespace fronts {
namespace {

// The order of subproblems: entry k is node node[k] at remaining depth r[k] (NO_CAP
// uncapped). Capped, node i's subproblems are sub_start[i] + r, and those marked in
// `ready` already have their fronts.
struct Order {
    Span<const i64> node, r, sub_start;
    Span<const u8> ready;
    bool capped;
};

struct Kernel {
    Order ord;
    DagView dag;
    Params params;
    i64 m;       // the table's attributes (a front's length bound: 2n + m + 2)
    i64 allow;   // bytes each piece may allocate
    Pool pool;
    i64 budget;  // units of work (edges, points) between two returns
};

// A chunk's pieces run on the calling thread alone below this many edges: a thread
// started for less work costs more than it saves, and waits for the scheduler on a busy
// machine. (The same pieces either way: only which thread runs them changes.)
inline constexpr i64 PARALLEL_EDGES = 16384;

// f(piece) for every piece, on parallel_for's threads or (not `parallel`) in order on the
// calling thread; false when some piece threw std::bad_alloc (it did not finish).
template <class F>
bool run_pieces(i64 pieces, bool parallel, F &&f) {
    if (parallel) return parallel_for(pieces, f);
    bool ok = true;
    for (i64 pc = 0; pc < pieces; ++pc) {
        try {
            f(pc);
        } catch (const std::bad_alloc &) {
            ok = false;
        }
    }
    return ok;
}

// The subproblem of child node c under a subproblem of remaining depth r: (c, r - 1), or
// c's top one when it has fewer (its subtree cannot be deeper); uncapped, c itself.
inline i64 child_sub(i64 c, i64 r, const i64 *sub_start, bool capped) {
    if (!capped) return c;
    const i64 s0 = sub_start[c];
    return s0 + std::min(r - 1, sub_start[c + 1] - s0 - 1);
}

// A chunk: entries c0 .. c0 + nk - 1 of the order, entry t's bundles cb0[t] .. cb1[t] - 1,
// its front into out[t * bound:], its length into len[t].
struct Chunk {
    i64 c0, nk, bound;
    const i64 *cb0, *cb1;
    BatchOut *out;
    i64 *len;
    i64 *wants;  // per piece: the bytes it wanted when it refused
};

// Mark a piece's entries NO_ROOM: its arrays would need `need` bytes.
void refuse(i64 pc, i64 pieces, const Chunk &ch, i64 need) {
    for (i64 t = pc; t < ch.nk; t += pieces) ch.len[t] = NO_ROOM;
    ch.wants[pc] = need;
}

// The fronts of the chunk's entries t = pc, pc + pieces, ... (independent of the other
// pieces).
void front_piece(const Kernel &K, i64 pc, i64 pieces, const Chunk &ch) {
    const Order &o = K.ord;
    const DagView &d = K.dag;
    const i64 *bes = d.bundle_edge_start.p;
    const i32 *edge_child = d.edge_child.p;
    const i64 *fref = K.pool.fref.p;
    const i64 *fxy = K.pool.fxy.p;
    const i64 nk = ch.nk;
    i64 tot_e = 0;
    for (i64 t = pc; t < nk; t += pieces) tot_e += bes[ch.cb1[t]] - bes[ch.cb0[t]];
    // Sized before they are made: the edges' arrays, the scratch, then the children's points.
    i64 need = 8 * (3 * tot_e + nk + 2 * (ch.bound + 2)) + SCRATCH_BYTES * 64;
    if (need > K.allow) return refuse(pc, pieces, ch, need);
    Buf<i64> gs(tot_e), gl(tot_e), gp(tot_e), eb(nk);
    if (o.capped) {
        for (i64 t = pc; t < nk; t += pieces)
            for (i64 e = bes[ch.cb0[t]]; e < bes[ch.cb1[t]]; ++e)
                prefetch(o.sub_start.p + edge_child[e]);
    }
    i64 w = 0;
    for (i64 t = pc; t < nk; t += pieces) {
        const i64 r = o.r[ch.c0 + t];
        for (i64 e = bes[ch.cb0[t]]; e < bes[ch.cb1[t]]; ++e) {
            const i64 sc = child_sub(edge_child[e], r, o.sub_start.p, o.capped);
            gs[w] = sc;
            prefetch(fref + 2 * sc);
            ++w;
        }
    }
    w = 0;
    for (i64 t = pc; t < nk; t += pieces) {
        eb[t] = w;
        for (i64 e = bes[ch.cb0[t]]; e < bes[ch.cb1[t]]; ++e) {
            const i64 sc = gs[w];
            const i64 s = fref[2 * sc];
            gs[w] = s;
            gl[w] = fref[2 * sc + 1];
            prefetch(fxy + 2 * s);
            ++w;
        }
    }
    i64 tot_p = 0;
    for (i64 g = 0; g < tot_e; ++g) {
        gp[g] = tot_p;
        tot_p += gl[g];
    }
    if (need + 16 * tot_p > K.allow) return refuse(pc, pieces, ch, need + 16 * tot_p);
    need += 16 * tot_p;
    Buf<i64> px(tot_p), py(tot_p);
    for (i64 g = 0; g < tot_e; ++g) {
        const i64 s = gs[g], off = gp[g];
        for (i64 q = 0; q < gl[g]; ++q) {
            px[off + q] = fxy[2 * (s + q)];
            py[off + q] = fxy[2 * (s + q) + 1];
        }
    }
    i64 cap = 64;
    std::unique_ptr<Scratch> scr = std::make_unique<Scratch>(cap);
    ParetoBuf pb(ch.bound + 2);
    const ChildFronts kids{gp.data(), gl.data(), px.data(), py.data()};
    for (i64 t = pc; t < nk; t += pieces) {
        const i64 i = o.node[ch.c0 + t];
        if (o.capped && o.ready[o.sub_start[i] + o.r[ch.c0 + t]]) {
            ch.len[t] = 0;
            continue;
        }
        i64 cnt;
        while (true) {
            const bool two = d.leaf_xy.size() && (!K.params.leaves_at_cap || o.r[ch.c0 + t] == 0);
            const i64 *leaves = two ? d.leaf_xy.p + 4 * i : nullptr;
            cnt = node_front(d.node_weight[i], d.node_mis[i], d.node_split[i], d.node_level[i],
                             ch.cb0[t], ch.cb1[t], bes, eb[t], K.params, kids, *scr, pb, leaves);
            if (cnt >= 0) break;
            cap = std::max(-cnt, 2 * cap);
            if (need + SCRATCH_BYTES * (cap - 64) > K.allow) break;
            scr.reset();
            scr = std::make_unique<Scratch>(cap);
        }
        if (cnt < 0) return refuse(pc, pieces, ch, need + SCRATCH_BYTES * (cap - 64));
        if (cnt > ch.bound) {
            ch.len[t] = -1;
            continue;
        }
        const i64 off = t * ch.bound;
        for (i64 k = 0; k < cnt; ++k) {
            ch.out->x[off + k] = scr->ox[k];
            ch.out->y[off + k] = scr->oy[k];
            ch.out->c[off + k] = scr->oc[k];
        }
        ch.len[t] = cnt;
    }
}

// The fronts of the order's entries counters[0]: (see the file's account). Returns DONE,
// BUDGET_SPENT, MUST_GROW (the pool must grow to needs[0] points), FRONT_TOO_LONG (a
// front longer than its bound: a bug) or OUT_OF_MEMORY (a piece's arrays would take more
// than `allow` bytes, needs[0] of them, or failed to allocate: needs[0] = 0).
//
// A front's points have distinct x and distinct y, and one of the two costs takes at most
// 2n + m + 1 values on n rows (depth <= m, nodes < 2n, leaves and misclassifications
// <= n), which bounds a slot.
int run(const Kernel &K) {
    const Order &o = K.ord;
    const DagView &d = K.dag;
    const i64 *bes = d.bundle_edge_start.p;
    const i64 N = o.node.size();
    i64 work = 0;
    Buf<i64> cb0(CHUNK_NODES), cb1(CHUNK_NODES), len(CHUNK_NODES), sub(CHUNK_NODES),
        off(CHUNK_NODES);
    KeptBatchOut kept;
    BatchOut &out = kept.out;
    out.reserve(1024);
    Buf<i64> wants(PIECES, 0);
    Span<i64> counters = K.pool.counters;
    while (counters[0] < N) {
        if (work >= K.budget) return kept(BUDGET_SPENT);
        const i64 c0 = counters[0];
        const i64 n0 = d.node_size[o.node[c0]];
        const i64 bound = 2 * n0 + K.m + 2;
        i64 c1 = c0 + 1;
        while (c1 < N && c1 - c0 < CHUNK_NODES && d.node_size[o.node[c1]] == n0 &&
               (c1 - c0 + 1) * bound <= CHUNK_ENTRIES)
            ++c1;
        const i64 nk = c1 - c0;
        out.reserve(nk * bound);
        i64 edges = 0;
        for (i64 t = 0; t < nk; ++t) {
            const i64 i = o.node[c0 + t];
            cb0[t] = d.node_bundle_start[i];
            cb1[t] = o.r[c0 + t] > 0 ? d.node_bundle_start[i + 1] : cb0[t];
            if (o.capped && o.ready[o.sub_start[i] + o.r[c0 + t]]) cb1[t] = cb0[t];
            edges += bes[cb1[t]] - bes[cb0[t]];
        }
        work += edges;
        // An entry no piece wrote (a piece whose allocation failed) must not pass for a front.
        std::fill(len.data(), len.data() + nk, NOT_WRITTEN);
        const i64 pieces = std::max<i64>(std::min<i64>(nk / 16, PIECES), 1);
        const Chunk ch{c0, nk, bound, cb0.data(), cb1.data(), &out, len.data(), wants.data()};
        run_pieces(pieces, edges >= PARALLEL_EDGES,
                   [&](i64 pc) { front_piece(K, pc, pieces, ch); });
        for (i64 t = 0; t < nk; ++t) {
            if (len[t] == NOT_WRITTEN || len[t] == NO_ROOM) {
                K.pool.needs[0] =
                    len[t] == NO_ROOM ? *std::max_element(wants.data(), wants.data() + PIECES) : 0;
                return kept(OUT_OF_MEMORY);
            }
        }
        for (i64 t = 0; t < nk; ++t) {
            const i64 i = o.node[c0 + t];
            const i64 s = o.capped ? o.sub_start[i] + o.r[c0 + t] : i;
            sub[t] = o.capped && o.ready[s] ? -1 : s;
            off[t] = t * bound;
        }
        i64 total;
        const int status = store(nk, sub.data(), off.data(), len.data(), out, K.pool, total);
        if (status != DONE) return kept(status);
        work += nk + total;
        counters[0] = c1;
    }
    return kept(DONE);
}

}  // namespace
}  // namespace fronts

namespace py {

void bind_fronts(nb::module_ &m) {
    m.def(
        "fronts_run",
        [](nb::handle order, nb::handle dag, nb::handle params, nb::handle pool, i64 n_attributes,
           i64 allow, i64 budget) {
            fronts::Kernel k{
                fronts::Order{field<const i64>(order, "node"), field<const i64>(order, "r"),
                              field<const i64>(order, "sub_start"),
                              field<const u8>(order, "ready"),
                              nb::cast<bool>(order.attr("capped"))},
                dag_view(dag),
                fronts::Params::of(span<const i64>(params, "params")),
                n_attributes,
                allow,
                pool_view(pool),
                budget,
            };
            nb::gil_scoped_release free;
            try {
                return fronts::run(k);
            } catch (const std::bad_alloc &) {
                return static_cast<int>(OUT_OF_MEMORY);
            }
        },
        nb::arg("order"), nb::arg("dag"), nb::arg("params"), nb::arg("pool"),
        nb::arg("n_attributes"), nb::arg("allow"), nb::arg("budget"),
        "Every subproblem's front of the order from counters[0] on (resumable: DONE, "
        "BUDGET_SPENT, MUST_GROW, FRONT_TOO_LONG, OUT_OF_MEMORY). The arguments are the "
        "named tuples of dagger_cli.engine.kernels.fronts.");

    m.def(
        "fronts_splittable",
        [](nb::handle node_level, nb::handle node_size, nb::handle limits) {
            auto lvl = span<const i32>(node_level, "node_level");
            auto size = span<const i32>(node_size, "node_size");
            auto lim = span<const i64>(limits, "limits");
            if (lim.size() < 8) throw nb::value_error("limits: 8 values expected");
            std::vector<u8> out(static_cast<std::size_t>(lvl.size()));
            for (i64 i = 0; i < lvl.size(); ++i)
                out[i] = expands(lvl[i], size[i], NO_CAP, lim.p) ? 1 : 0;
            return to_numpy<u8>(std::move(out));
        },
        nb::arg("node_level"), nb::arg("node_size"), nb::arg("limits"),
        "Per node (uint8 0/1), whether a tree within the bounds `limits` can split it.");
}

}  // namespace py
}  // namespace dagger
