// Discovery of the DAG Δ(T) (driven by dagger_cli.engine.dag.build_dag).
//
// Breadth-first from the whole table, in batches of nodes. A subtable is a set of rows,
// identified by two 64-bit sums of random per-row keys: a child's identity is known after
// one pass over its parent's rows (the keys accumulated per attribute value) without
// writing its rows; the second key's low bits are 1, so its sum also counts the rows.
// Only a new child has its rows written. A node keeps the attributes that may still be
// non-constant (its discoverer's non-constant ones minus the split attribute).
//
// A batch runs three phases: (A, parallel) each node's leaf and its children's key sums
// (scan_node); (B, serial, in node order) the children looked up in the hash table, the
// new ones numbered and given room, bundles and edges written; (C, parallel) the new
// children's rows written (fill_rows). Node numbers and row order never depend on the
// threads. The kernel is resumable: BUDGET_SPENT between batches, MUST_GROW (the sizes in
// `needs`) before anything of a node is written in phase B, which then resumes there.
//
// The hash table of subtables: open addressing, linear probing, 16-byte slots in one u64
// array: ht[2p] is the key2 sum (never 0: its low bits count the rows), ht[2p + 1] the high
// half of the key1 sum over the node number; 0 marks an empty slot. Phase B prefetches the
// slots of a node a few places ahead so that their cache misses overlap.
//
// The codes `rc` are uint8 or int32 and the candidate attribute pool int16 or int32 (the
// driver picks the smallest): the kernel is a template over both.
#include "bounds.hpp"
#include "py.hpp"

namespace dagger {
namespace {

namespace nb = nanobind;

// Indices into the counters array (dagger_cli.engine.kernels.discovery.C_*).
enum {
    C_NODES, C_CUR, C_ROWS, C_ATTRS, C_BUNDLES, C_EDGES, C_TERMINAL,
    C_PHASE, C_BHI, C_BPOS, C_PEND, N_COUNTERS
};
// Indices into the needs array returned with MUST_GROW (N_*).
enum { N_NODES, N_ROWS, N_ATTRS, N_BUNDLES, N_EDGES, N_HASH, N_QBUF, N_VBUF, N_PEND, N_NEEDS };

// Row x attribute visits of one batch (about).
constexpr i64 BATCH_WORK = 1'000'000;
// Nodes ahead whose hash slots phase B prefetches.
constexpr i64 LOOKAHEAD = 4;

constexpr u64 LOW32 = 0xFFFFFFFFull;
constexpr u64 HIGH32 = 0xFFFFFFFF00000000ull;

inline u64 ht_slot(u64 h1, u64 mask) { return (h1 >> 32) & mask; }

void ht_insert(Span<u64> ht, u64 h1, u64 h2, u64 node) {
    const u64 mask = static_cast<u64>(ht.size() / 2 - 1);
    u64 p = ht_slot(h1, mask);
    while (ht[2 * p] != 0) p = (p + 1) & mask;
    ht[2 * p] = h2;
    ht[2 * p + 1] = (h1 & HIGH32) | node;
}

// The table, read only: row-major codes (row r's attribute a at rc[r * m + a]), values per
// attribute, decisions and their number, the two row keys, the mask of key2's row-count
// bits, each row's distinct attribute row.
template <class RC>
struct Table {
    Span<const RC> rc;
    Span<const i64> nvals;
    Span<const i32> dec;
    i64 n_dec;
    Span<const u64> key1, key2;
    u64 cmask;
    Span<const i32> rclass;
};

// One entry per node (bundle_start: one more).
struct Nodes {
    Span<i64> start;
    Span<i32> size;
    Span<i64> attr_start;
    Span<i32> attr_len;
    Span<i32> mis, major;
    Span<i8> split;
    Span<i32> level;
    Span<i64> bundle_start;
};

// The pools the nodes point into: rows, candidate attributes, bundles and edges (CSR).
template <class AP>
struct Pools {
    Span<i32> row_pool;
    Span<AP> attr_pool;
    Span<i32> bundle_attr;
    Span<i64> bundle_edge_start;
    Span<i32> edge_child;
};

// One batch's buffers: per node (b_*), per candidate attribute (q_*), per child (v_*), per
// new child whose rows phase C writes (p_*).
struct Batch {
    Span<i32> b_k;
    Span<i64> b_qoff, b_voff;
    Span<i32> q_attr, q_nv, v_val;
    Span<u64> v_h1, v_h2;
    Span<i64> p_node;
    Span<i32> p_attr, p_val;
    Span<i64> p_child, p_grp;
};

// The rest of a call: the hash table, the counters and needs, the limits.
struct Control {
    Span<u64> ht;
    Span<i64> counters, needs;
    i64 budget, max_nodes, max_level;
    const i64 *limits;  // 8 values (bounds.hpp, expands)
};

// One piece's scratch of phase A: key sums per (candidate attribute, value), decision
// counts, each candidate's offset into the sums and its attribute.
struct Scratch {
    // A size past what a vector can hold is a failed allocation too (not a length_error).
    static std::size_t checked(i64 n) {
        if (n < 0 || static_cast<u64>(n) > std::vector<u64>().max_size()) throw std::bad_alloc();
        return static_cast<std::size_t>(n);
    }
    std::vector<u64> hh, off, cand;
    std::vector<i64> dcount;
    Scratch(i64 total, i64 n_dec, i64 m)
        : hh(checked(2 * total), 0),
          off(static_cast<std::size_t>(std::max<i64>(m, 1)), 0),
          cand(static_cast<std::size_t>(std::max<i64>(m, 1)), 0),
          dcount(static_cast<std::size_t>(std::max<i64>(n_dec, 1)), 0) {}
};

template <class RC, class AP>
struct Discovery {
    const Table<RC> &T;
    const Nodes &N;
    const Pools<AP> &P;
    const Batch &B;
    const Control &K;
    i64 m = 0;

    bool grows(i64 i) const {
        return expands(N.level[i], N.size[i], K.max_level, K.limits);
    }

    // Phase A for node i (slot t of the batch): its leaf (most common decision, smallest
    // on a tie; misclassified rows), whether some attribute splits it (its rows are not all
    // equal: rclass numbers the distinct attribute rows) and, if impure and `expand`, the
    // key sums of every child of every non-constant candidate attribute, in attribute then
    // value order. Touches only node i's entries and slot t's buffer ranges.
    void scan_node(i64 i, i64 t, bool expand, Scratch &S) const {
        const i64 s = N.start[i];
        const i64 n = N.size[i];
        const i32 *rows = P.row_pool.p + s;
        // The counts of the decisions (all zero between nodes). With fewer rows than
        // decisions (many-class tables) the rows are read instead of every decision: the
        // same choice, the most common decision and the smallest of them on a tie.
        i64 *dcount = S.dcount.data();
        for (i64 j = 0; j < n; ++j) ++dcount[T.dec[rows[j]]];
        i64 best = 0;
        i64 mis;
        if (n < T.n_dec) {
            if (n > 0) best = T.dec[rows[0]];
            for (i64 j = 0; j < n; ++j) {
                const i64 d = T.dec[rows[j]];
                if (dcount[d] > dcount[best] || (dcount[d] == dcount[best] && d < best)) best = d;
            }
            mis = n - dcount[best];
            for (i64 j = 0; j < n; ++j) dcount[T.dec[rows[j]]] = 0;
        } else {
            for (i64 d = 0; d < T.n_dec; ++d)
                if (dcount[d] > dcount[best]) best = d;
            mis = n - dcount[best];
            std::fill(dcount, dcount + T.n_dec, 0);
        }
        N.major[i] = static_cast<i32>(best);
        N.mis[i] = static_cast<i32>(mis);
        int split = 0;
        if (mis > 0) {
            const i32 c0 = T.rclass[rows[0]];
            for (i64 j = 0; j < n; ++j) {
                if (T.rclass[rows[j]] != c0) {
                    split = 1;
                    break;
                }
            }
        }
        N.split[i] = static_cast<i8>(split);
        i64 k = 0;
        if (split && expand) {
            // One pass over the rows accumulates, for every candidate attribute and value,
            // both key sums (key2's low bits count the rows). A row's keys are loaded once
            // and the attributes' accumulators are independent.
            const i64 a0 = N.attr_start[i];
            const i64 nc = N.attr_len[i];
            u64 *off = S.off.data();
            u64 *cand = S.cand.data();
            u64 *hh = S.hh.data();
            i64 tot = 0;
            for (i64 q = 0; q < nc; ++q) {
                const i64 a = P.attr_pool[a0 + q];
                cand[q] = static_cast<u64>(a);
                off[q] = static_cast<u64>(tot);
                tot += T.nvals[a];
            }
            const u64 um = static_cast<u64>(m);
            for (i64 j = 0; j < n; ++j) {
                const i64 r = rows[j];
                const u64 k1 = T.key1[r];
                const u64 k2 = T.key2[r];
                const RC *row = T.rc.p + static_cast<u64>(r) * um;
                for (i64 q = 0; q < nc; ++q) {
                    const u64 x = (off[q] + static_cast<u64>(row[cand[q]])) << 1;
                    hh[x] += k1;
                    hh[x + 1] += k2;
                }
            }
            const i64 qo = B.b_qoff[t];
            i64 vo = B.b_voff[t];
            for (i64 q = 0; q < nc; ++q) {
                const i64 a = static_cast<i64>(cand[q]);
                const i64 o = static_cast<i64>(off[q]);
                i64 present = 0;
                for (i64 x = o; x < o + T.nvals[a]; ++x)
                    if (hh[2 * x + 1] & T.cmask) ++present;
                if (present > 1) {
                    B.q_attr[qo + k] = static_cast<i32>(a);
                    B.q_nv[qo + k] = static_cast<i32>(present);
                    ++k;
                    for (i64 x = o; x < o + T.nvals[a]; ++x) {
                        if (hh[2 * x + 1] & T.cmask) {
                            B.v_val[vo] = static_cast<i32>(x - o);
                            B.v_h1[vo] = hh[2 * x];
                            B.v_h2[vo] = hh[2 * x + 1];
                            ++vo;
                        }
                    }
                }
            }
            std::fill(hh, hh + 2 * tot, u64{0});
        }
        B.b_k[t] = static_cast<i32>(k);
    }

    // Phase C for group g of new children (same parent and attribute): one pass over the
    // parent's rows writes each row into the new child of its value, if any.
    void fill_rows(i64 g, i64 *fillpos) const {
        const i64 g0 = B.p_grp[g], g1 = B.p_grp[g + 1];
        const i64 i = B.p_node[g0];
        const i64 a = B.p_attr[g0];
        for (i64 p = g0; p < g1; ++p) fillpos[B.p_val[p]] = N.start[B.p_child[p]];
        const i64 s = N.start[i];
        const i64 n = N.size[i];
        for (i64 j = 0; j < n; ++j) {
            const i32 r = P.row_pool[s + j];
            const i64 v = static_cast<i64>(T.rc[static_cast<i64>(r) * m + a]);
            const i64 f = fillpos[v];
            if (f >= 0) {
                P.row_pool[f] = r;
                fillpos[v] = f + 1;
            }
        }
        for (i64 p = g0; p < g1; ++p) fillpos[B.p_val[p]] = -1;
    }

    int run() {
        Span<i64> counters = K.counters, needs = K.needs;
        Span<u64> ht = K.ht;
        m = T.nvals.size();
        i64 maxv = 1, total = 0;
        for (i64 a = 0; a < m; ++a) {
            total += T.nvals[a];
            maxv = std::max(maxv, T.nvals[a]);
        }
        const u64 mask = static_cast<u64>(ht.size() / 2 - 1);
        i64 work = 0;
        while (true) {
            if (counters[C_PHASE] == 0) {
                // Choose the batch: nodes from C_CUR, bounded by the buffers and the work.
                const i64 lo = counters[C_CUR];
                if (lo >= counters[C_NODES]) return DONE;
                if (work >= K.budget) return BUDGET_SPENT;
                i64 hi = lo, qt = 0, vt = 0, wk = 0;
                while (hi < counters[C_NODES] && hi - lo < B.b_k.size()) {
                    const i64 nc = grows(hi) ? N.attr_len[hi] : 0;
                    i64 vs = 0;
                    const i64 a0 = N.attr_start[hi];
                    for (i64 q = 0; q < nc; ++q) vs += T.nvals[P.attr_pool[a0 + q]];
                    if (qt + nc > B.q_attr.size() || vt + vs > B.v_val.size()) {
                        if (hi == lo) {
                            needs[N_QBUF] = nc;
                            needs[N_VBUF] = vs;
                            return MUST_GROW;
                        }
                        break;
                    }
                    B.b_qoff[hi - lo] = qt;
                    B.b_voff[hi - lo] = vt;
                    qt += nc;
                    vt += vs;
                    wk += static_cast<i64>(N.size[hi]) * (nc + 1);
                    ++hi;
                    if (wk >= BATCH_WORK) break;
                }
                const i64 bn = hi - lo;
                // Each worker takes the batch's nodes one at a time (their sizes differ
                // widely: fixed shares left one thread alone at the batch's end). A node no
                // worker scanned (its scratch failed to allocate) must not pass for a
                // scanned one.
                std::fill(B.b_k.p, B.b_k.p + bn, -1);
                parallel_each(
                    bn, [&] { return Scratch(total, T.n_dec, m); },
                    [&](i64 ta, Scratch &S) { scan_node(lo + ta, ta, grows(lo + ta), S); });
                for (i64 ta = 0; ta < bn; ++ta)
                    if (B.b_k[ta] < 0) return OUT_OF_MEMORY;
                work += wk;
                counters[C_BHI] = hi;
                counters[C_BPOS] = lo;
                counters[C_PEND] = 0;
                counters[C_PHASE] = 1;
            }
            const i64 lo = counters[C_CUR];
            const i64 hi = counters[C_BHI];
            while (counters[C_BPOS] < hi) {
                const i64 i = counters[C_BPOS];
                const i64 t = i - lo;
                const i64 k = B.b_k[t];
                i64 nb = counters[C_BUNDLES];
                N.bundle_start[i] = nb;
                if (k == 0) {
                    counters[C_TERMINAL] += 1;
                    N.bundle_start[i + 1] = nb;
                    counters[C_BPOS] = i + 1;
                    continue;
                }
                const i64 n = N.size[i];
                const i64 qo = B.b_qoff[t];
                i64 new_max = 0;
                for (i64 q = 0; q < k; ++q) new_max += B.q_nv[qo + q];
                // Worst-case room for this node, checked before anything is written.
                const i64 need_nodes = counters[C_NODES] + new_max;
                bool grow = false;
                if (need_nodes > N.size.size()) {
                    needs[N_NODES] = need_nodes;
                    grow = true;
                }
                if (counters[C_ROWS] + n * k > P.row_pool.size()) {
                    needs[N_ROWS] = counters[C_ROWS] + n * k;
                    grow = true;
                }
                if (counters[C_ATTRS] + new_max * k > P.attr_pool.size()) {
                    needs[N_ATTRS] = counters[C_ATTRS] + new_max * k;
                    grow = true;
                }
                if (nb + k > P.bundle_attr.size()) {
                    needs[N_BUNDLES] = nb + k;
                    grow = true;
                }
                if (counters[C_EDGES] + new_max > P.edge_child.size()) {
                    needs[N_EDGES] = counters[C_EDGES] + new_max;
                    grow = true;
                }
                if (2 * need_nodes > ht.size() / 2) {
                    needs[N_HASH] = 2 * need_nodes;
                    grow = true;
                }
                if (counters[C_PEND] + new_max > B.p_node.size()) {
                    needs[N_PEND] = counters[C_PEND] + new_max;
                    grow = true;
                }
                if (grow) return MUST_GROW;
                i64 ne = counters[C_EDGES];
                i64 vo = B.b_voff[t];
                i64 pend = counters[C_PEND];
                // Start loading the hash slots of the children of a node a few places ahead.
                const i64 ta = t + LOOKAHEAD;
                if (ta < hi - lo) {
                    const i64 q0 = B.b_qoff[ta];
                    i64 e1 = B.b_voff[ta];
                    for (i64 q = 0; q < B.b_k[ta]; ++q) e1 += B.q_nv[q0 + q];
                    for (i64 e = B.b_voff[ta]; e < e1; ++e)
                        prefetch(ht.p + 2 * ht_slot(B.v_h1[e], mask));
                }
                for (i64 q = 0; q < k; ++q) {
                    const i32 a = B.q_attr[qo + q];
                    P.bundle_attr[nb] = a;
                    P.bundle_edge_start[nb] = ne;
                    for (i64 e = vo; e < vo + B.q_nv[qo + q]; ++e) {
                        const u64 h1 = B.v_h1[e];
                        const u64 h2 = B.v_h2[e];
                        const u64 tag = h1 & HIGH32;
                        u64 p = ht_slot(h1, mask);
                        i64 found = -1;
                        while (ht[2 * p] != 0) {
                            if (ht[2 * p] == h2 && (ht[2 * p + 1] & HIGH32) == tag) {
                                found = static_cast<i64>(ht[2 * p + 1] & LOW32);
                                break;
                            }
                            p = (p + 1) & mask;
                        }
                        if (found < 0) {
                            found = counters[C_NODES];
                            if (found >= K.max_nodes) return TOO_MANY_NODES;
                            counters[C_NODES] = found + 1;
                            N.level[found] = N.level[i] + 1;
                            ht[2 * p] = h2;
                            ht[2 * p + 1] = tag | static_cast<u64>(found);
                            const i64 size = static_cast<i64>(h2 & T.cmask);
                            N.start[found] = counters[C_ROWS];
                            N.size[found] = static_cast<i32>(size);
                            counters[C_ROWS] += size;
                            // Candidate attributes of the child: this node's non-constant
                            // ones but a.
                            N.attr_start[found] = counters[C_ATTRS];
                            N.attr_len[found] = static_cast<i32>(k - 1);
                            i64 w = counters[C_ATTRS];
                            for (i64 q2 = 0; q2 < k; ++q2) {
                                if (q2 != q) P.attr_pool[w++] = static_cast<AP>(B.q_attr[qo + q2]);
                            }
                            counters[C_ATTRS] = w;
                            B.p_node[pend] = i;
                            B.p_attr[pend] = a;
                            B.p_val[pend] = B.v_val[e];
                            B.p_child[pend] = found;
                            ++pend;
                        }
                        P.edge_child[ne] = static_cast<i32>(found);
                        ++ne;
                    }
                    vo += B.q_nv[qo + q];
                    ++nb;
                    P.bundle_edge_start[nb] = ne;
                }
                counters[C_PEND] = pend;
                counters[C_BUNDLES] = nb;
                counters[C_EDGES] = ne;
                N.bundle_start[i + 1] = nb;
                counters[C_BPOS] = i + 1;
            }
            // Phase C: rows of the batch's new children, one pass per (parent, attribute).
            const i64 pend = counters[C_PEND];
            i64 ng = 0;
            for (i64 p = 0; p < pend; ++p) {
                if (p == 0 || B.p_node[p] != B.p_node[p - 1] || B.p_attr[p] != B.p_attr[p - 1]) {
                    B.p_grp[ng++] = p;
                    work += N.size[B.p_node[p]];
                }
            }
            B.p_grp[ng] = pend;
            const bool filled = parallel_each(
                ng, [&] { return std::vector<i64>(static_cast<std::size_t>(maxv), -1); },
                [&](i64 gc, std::vector<i64> &fillpos) { fill_rows(gc, fillpos.data()); });
            if (!filled) return OUT_OF_MEMORY;
            counters[C_PEND] = 0;
            counters[C_CUR] = hi;
            counters[C_PHASE] = 0;
        }
    }
};

template <class RC, class AP>
int discover_with(nb::handle table, const Nodes &nodes, nb::handle dag, const Batch &batch,
                  const Control &control) {
    using py::field;
    Table<RC> t{
        field<const RC>(table, "rc"),
        field<const i64>(table, "nvals"),
        field<const i32>(table, "dec"),
        nb::cast<i64>(table.attr("n_dec")),
        field<const u64>(table, "key1"),
        field<const u64>(table, "key2"),
        nb::cast<u64>(nb::int_(table.attr("cmask"))),
        field<const i32>(table, "rclass"),
    };
    Pools<AP> pools{
        field<i32>(dag, "row_pool"),
        field<AP>(dag, "attr_pool"),
        field<i32>(dag, "bundle_attr"),
        field<i64>(dag, "bundle_edge_start"),
        field<i32>(dag, "edge_child"),
    };
    nb::gil_scoped_release free;
    return Discovery<RC, AP>{t, nodes, pools, batch, control}.run();
}

template <class RC>
int discover_rc(nb::handle table, const Nodes &nodes, nb::handle dag, const Batch &batch,
                const Control &control) {
    nb::handle ap = dag.attr("attr_pool");
    if (py::is<i16>(ap)) return discover_with<RC, i16>(table, nodes, dag, batch, control);
    if (py::is<i32>(ap)) return discover_with<RC, i32>(table, nodes, dag, batch, control);
    throw nb::type_error("attr_pool: expected int16 or int32");
}

}  // namespace

namespace py {

void bind_discovery(nb::module_ &m) {
    m.def(
        "discovery_discover",
        [](nb::handle table, nb::handle nodes, nb::handle dag, nb::handle batch, nb::handle ht,
           nb::handle counters, nb::handle needs, i64 budget, i64 max_nodes, i64 max_level,
           nb::handle limits) {
            Nodes nd{
                field<i64>(nodes, "node_start"),
                field<i32>(nodes, "node_size"),
                field<i64>(nodes, "node_attr_start"),
                field<i32>(nodes, "node_attr_len"),
                field<i32>(nodes, "node_mis"),
                field<i32>(nodes, "node_major"),
                field<i8>(nodes, "node_split"),
                field<i32>(nodes, "node_level"),
                field<i64>(nodes, "node_bundle_start"),
            };
            Batch bt{
                field<i32>(batch, "b_k"),     field<i64>(batch, "b_qoff"),
                field<i64>(batch, "b_voff"),  field<i32>(batch, "q_attr"),
                field<i32>(batch, "q_nv"),    field<i32>(batch, "v_val"),
                field<u64>(batch, "v_h1"),    field<u64>(batch, "v_h2"),
                field<i64>(batch, "p_node"),  field<i32>(batch, "p_attr"),
                field<i32>(batch, "p_val"),   field<i64>(batch, "p_child"),
                field<i64>(batch, "p_grp"),
            };
            auto lim = span<const i64>(limits, "limits");
            if (lim.size() != 8) throw nb::value_error("limits: expected 8 values");
            auto h = span<u64>(ht, "ht");
            auto c = span<i64>(counters, "counters");
            auto nd_ = span<i64>(needs, "needs");
            if (c.size() < N_COUNTERS || nd_.size() < N_NEEDS)
                throw nb::value_error("counters or needs: too short");
            if (h.size() < 2 || (h.size() & (h.size() - 1)) != 0)
                throw nb::value_error("ht: expected a power of two of 2 or more entries");
            Control ctl{h, c, nd_, budget, max_nodes, max_level, lim.p};
            nb::handle rc = table.attr("rc");
            if (is<u8>(rc)) return discover_rc<u8>(table, nd, dag, bt, ctl);
            if (is<i32>(rc)) return discover_rc<i32>(table, nd, dag, bt, ctl);
            throw nb::type_error("rc: expected uint8 or int32");
        },
        nb::arg("table"), nb::arg("nodes"), nb::arg("dag"), nb::arg("batch"), nb::arg("ht"),
        nb::arg("counters"), nb::arg("needs"), nb::arg("budget"), nb::arg("max_nodes"),
        nb::arg("max_level"), nb::arg("limits"),
        "Discover the DAG breadth-first from node counters[C_CUR] on, in batches (resumable: "
        "DONE, BUDGET_SPENT, MUST_GROW with the sizes in needs, TOO_MANY_NODES, "
        "OUT_OF_MEMORY). The arguments are the named tuples of "
        "dagger_cli.engine.kernels.discovery.");

    m.def(
        "discovery_ht_insert",
        [](nb::handle ht, nb::handle h1, nb::handle h2, i64 node) {
            auto h = span<u64>(ht, "ht");
            const u64 a = nb::cast<u64>(nb::int_(h1)), b = nb::cast<u64>(nb::int_(h2));
            i64 used = 0;
            for (i64 p = 0; p < h.size() / 2; ++p) used += h[2 * p] != 0;
            if (used >= h.size() / 2) throw nb::value_error("ht is full");
            ht_insert(h, a, b, static_cast<u64>(node));
        },
        nb::arg("ht"), nb::arg("h1"), nb::arg("h2"), nb::arg("node"),
        "Insert the subtable of key sums (h1, h2) as node `node` into the hash table ht.");

    m.def(
        "discovery_rehash",
        [](nb::handle ht, i64 new_slots) {
            auto h = span<const u64>(ht, "ht");
            if (new_slots < 1 || (new_slots & (new_slots - 1)) != 0 || 2 * new_slots < h.size())
                throw nb::value_error("new_slots: a power of two, at least the table's slots");
            std::vector<u64> out(static_cast<std::size_t>(2 * new_slots), 0);
            {
                nb::gil_scoped_release free;
                Span<u64> o{out.data(), static_cast<i64>(out.size())};
                for (i64 p = 0; p < h.size() / 2; ++p) {
                    if (h[2 * p] != 0) {
                        const u64 w = h[2 * p + 1];
                        ht_insert(o, w & HIGH32, h[2 * p], w & LOW32);
                    }
                }
            }
            return to_numpy<u64>(std::move(out));
        },
        nb::arg("ht"), nb::arg("new_slots"),
        "A bigger hash table (new_slots, a power of two) with the same entries.");
}

}  // namespace py
}  // namespace dagger
