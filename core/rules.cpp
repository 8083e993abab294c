// Kernels of the decision-rule fronts (driven by dagger_cli.rules).
//
// A rule for row r that reaches the DAG node v (a subtable holding r) costs
// (length, coverage, misclassifications) = (level of v, rows of v, rows of v whose decision
// is not r's). pair_fronts turns those candidates, node by node, into every row's Pareto
// front of two of the three costs in one pass over the candidate nodes' rows.
#include "py.hpp"

namespace dagger {
namespace {

// counters of pair_fronts: the next group, the points emitted so far, the room the
// emitted points need (after MUST_GROW), the row visits done.
enum { C_GROUP = 0, C_EMIT = 1, C_NEED = 2, C_WORK = 3 };
// The unordered cost pairs, by the cost the candidates are grouped on.
enum { LENGTH_COVERAGE = 0, LENGTH_MIS = 1, COVERAGE_MIS = 2 };

// Lexicographic (k1, k2, node) < (b1, b2, bnode): the tie rule among equal points.
inline bool better(i64 k1, i64 k2, i64 v, i64 b1, i64 b2, i64 bv) {
    if (k1 != b1) return k1 < b1;
    if (k2 != b2) return k2 < b2;
    return v < bv;
}

struct Nodes {
    Span<const i64> start;
    Span<const i32> size, level, mis;
    Span<const i32> row_pool;
    Span<const i32> dec;
};

// What one pair_fronts call reads and writes.
struct PairFronts {
    Span<const i64> order, gstart;
    int mode;
    Nodes nodes;
    Span<const i64> cidx;
    Mat<const i32> counts;
    i64 max_mis;
    Span<i64> cur, g_k1, g_k2;
    Span<i64> g_node;
    Span<i32> g_mis;
    Span<i64> touched;
    Span<i32> e_row, e_node;
    Span<i32> e_mis;
    Span<i64> counters;
    i64 budget;
};

int pair_fronts(const PairFronts &a) {
    const i64 ng = a.gstart.size() - 1;
    i64 g = a.counters[C_GROUP];
    i64 n_emit = a.counters[C_EMIT];
    i64 work = 0;
    const Nodes &nd = a.nodes;
    while (g < ng) {
        i64 nt = 0;
        for (i64 k = a.gstart[g]; k < a.gstart[g + 1]; ++k) {
            const i64 v = a.order[k];
            const i64 s = nd.start[v];
            const i64 n = nd.size[v];
            const i64 lvl = nd.level[v];
            const bool pure = nd.mis[v] == 0;
            const i64 ci = a.cidx[v];
            work += n;
            for (i64 j = 0; j < n; ++j) {
                const i64 r = nd.row_pool[s + j];
                i64 mis = 0;
                if (!pure) {
                    mis = n - a.counts(ci, nd.dec[r]);
                    if (mis > a.max_mis) continue;
                }
                i64 k1, k2;
                if (a.mode == LENGTH_COVERAGE) {
                    k1 = -n;
                    k2 = mis;
                } else if (a.mode == LENGTH_MIS) {
                    k1 = mis;
                    k2 = -n;
                } else {
                    k1 = mis;
                    k2 = lvl;
                }
                if (a.g_node[r] < 0) {
                    a.touched[nt++] = r;
                } else if (!better(k1, k2, v, a.g_k1[r], a.g_k2[r], a.g_node[r])) {
                    continue;
                }
                a.g_k1[r] = k1;
                a.g_k2[r] = k2;
                a.g_node[r] = v;
                a.g_mis[r] = static_cast<i32>(mis);
            }
        }
        if (n_emit + nt > a.e_row.size()) {
            for (i64 t = 0; t < nt; ++t) a.g_node[a.touched[t]] = -1;
            a.counters[C_GROUP] = g;
            a.counters[C_EMIT] = n_emit;
            a.counters[C_NEED] = n_emit + nt;
            a.counters[C_WORK] += work;
            return MUST_GROW;
        }
        for (i64 t = 0; t < nt; ++t) {
            const i64 r = a.touched[t];
            if (a.g_k1[r] < a.cur[r]) {
                a.cur[r] = a.g_k1[r];
                a.e_row[n_emit] = static_cast<i32>(r);
                a.e_node[n_emit] = static_cast<i32>(a.g_node[r]);
                a.e_mis[n_emit] = a.g_mis[r];
                ++n_emit;
            }
            a.g_node[r] = -1;
        }
        ++g;
        if (work >= a.budget) break;
    }
    a.counters[C_GROUP] = g;
    a.counters[C_EMIT] = n_emit;
    a.counters[C_WORK] += work;
    return g >= ng ? DONE : BUDGET_SPENT;
}

}  // namespace

namespace py {

void bind_rules(nb::module_ &m) {
    m.def(
        "rules_class_counts",
        [](nb::handle nodes, nb::handle node_start, nb::handle node_size, nb::handle row_pool,
           nb::handle dec, i64 n_dec) {
            auto vs = span<const i64>(nodes, "nodes");
            auto st = span<const i64>(node_start, "node_start");
            auto sz = span<const i32>(node_size, "node_size");
            auto rp = span<const i32>(row_pool, "row_pool");
            auto d = span<const i32>(dec, "dec");
            std::vector<i32> out(static_cast<std::size_t>(vs.size() * n_dec), 0);
            bool ok;
            {
                nb::gil_scoped_release free;
                const i64 per = (vs.size() + PIECES - 1) / PIECES;
                ok = parallel_for(PIECES, [&](i64 pc) {
                    const i64 lo = pc * per, hi = std::min(vs.size(), lo + per);
                    for (i64 k = lo; k < hi; ++k) {
                        const i64 v = vs[k], s = st[v];
                        i32 *row = out.data() + k * n_dec;
                        for (i64 j = 0; j < sz[v]; ++j) ++row[d[rp[s + j]]];
                    }
                });
            }
            if (!ok) throw std::bad_alloc();
            return to_numpy<i32>(std::move(out), {static_cast<std::size_t>(vs.size()),
                                                  static_cast<std::size_t>(n_dec)});
        },
        "Rows per decision of each node of `nodes` (one row of the result per node).");

    m.def(
        "rules_discoverers",
        [](i64 n_nodes, nb::handle node_bundle_start, nb::handle bundle_attr,
           nb::handle bundle_edge_start, nb::handle edge_child) {
            auto nbs = span<const i64>(node_bundle_start, "node_bundle_start");
            auto ba = span<const i32>(bundle_attr, "bundle_attr");
            auto bes = span<const i64>(bundle_edge_start, "bundle_edge_start");
            auto ec = span<const i32>(edge_child, "edge_child");
            std::vector<i32> parent(static_cast<std::size_t>(n_nodes), -1);
            std::vector<i32> attr(static_cast<std::size_t>(n_nodes), -1);
            {
                nb::gil_scoped_release free;
                for (i64 p = 0; p < n_nodes; ++p) {
                    for (i64 b = nbs[p]; b < nbs[p + 1]; ++b) {
                        for (i64 e = bes[b]; e < bes[b + 1]; ++e) {
                            const i64 c = ec[e];
                            if (parent[c] < 0 && c != 0) {
                                parent[c] = static_cast<i32>(p);
                                attr[c] = ba[b];
                            }
                        }
                    }
                }
            }
            return nb::make_tuple(to_numpy<i32>(std::move(parent)), to_numpy<i32>(std::move(attr)));
        },
        "Per node, the first parent in node order and the attribute of that edge (-1 for "
        "the root): discovery is breadth-first, so that parent discovered it.");

    m.def(
        "rules_pair_fronts",
        [](nb::handle nodes, nb::handle cand, nb::handle state, nb::handle emitted,
           nb::handle counters, i64 budget) {
            PairFronts a{
                field<const i64>(cand, "order"),
                field<const i64>(cand, "gstart"),
                nb::cast<int>(cand.attr("mode")),
                Nodes{field<const i64>(nodes, "start"), field<const i32>(nodes, "size"),
                      field<const i32>(nodes, "level"), field<const i32>(nodes, "mis"),
                      field<const i32>(nodes, "row_pool"), field<const i32>(nodes, "dec")},
                field<const i64>(cand, "cidx"),
                mat<const i32>(cand.attr("counts"), "counts"),
                nb::cast<i64>(cand.attr("max_mis")),
                field<i64>(state, "cur"),
                field<i64>(state, "g_k1"),
                field<i64>(state, "g_k2"),
                field<i64>(state, "g_node"),
                field<i32>(state, "g_mis"),
                field<i64>(state, "touched"),
                field<i32>(emitted, "row"),
                field<i32>(emitted, "node"),
                field<i32>(emitted, "mis"),
                span<i64>(counters, "counters"),
                budget,
            };
            nb::gil_scoped_release free;
            return pair_fronts(a);
        },
        nb::arg("nodes"), nb::arg("candidates"), nb::arg("state"), nb::arg("emitted"),
        nb::arg("counters"), nb::arg("budget"),
        "Every row's Pareto front of one cost pair from the candidate nodes grouped by the "
        "first cost (resumable: DONE, BUDGET_SPENT or MUST_GROW). The arguments are the "
        "named tuples of dagger_cli.rules.kernels.");
}

}  // namespace py
}  // namespace dagger
