// The state kernels of counting optimal trees (driven by dagger_cli.engine.counting).
//
// Over the DAG's nodes in increasing size (a topological order, children first):
// longest: the longest path below every node (no tree there is deeper); least: one sum
// cost's least value over every node's trees. With a depth bound and a sum cost S, whose
// (depth, S) front per node the fronts kernel made (f(v, d): the least S over v's trees
// of depth <= d), a state is (node, depth bound d), d stored as a bit of a 64-bit mask per
// node (bit ANY: any depth, d at or above the node's longest path). mark: top-down, the
// states the requested root states reach through tight bundles (minimisers of S // q);
// link: bottom-up, the marked states numbered (node order, then bit order) with, for
// each, its leaf flag and its tight bundles' child states (CSR). Python multiplies and
// adds the exact counts along those links.
//
// `node_size` is a node's n of the split costs (its rows, or their weight) and `node_mis`
// its leaf's misclassifications (or least price). Under exact_only a node is a leaf only
// where its leaf costs nothing or no attribute splits it (as the fronts kernel has it). A leaf with a choice of two decisions
// (false positives or negatives) has its two values of S in `leaf_s` (two per node; empty
// otherwise): the leaf state then counts each choice that reaches the least S.
#include "py.hpp"

namespace dagger {
namespace {

namespace nb = nanobind;

// No tree (a depth bound below the least depth under exact_only).
constexpr i64 NONE = i64{1} << 62;
// The state bit of "any depth"; the depth bound it stands for.
constexpr int ANY = 62;
constexpr i64 UNBOUNDED = i64{1} << 40;

// Python's floor division of int64 (numba's //).
inline i64 floordiv(i64 a, i64 b) {
    i64 q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

// What the state kernels read of a DAG (dagger_cli.engine.counting.StateGraph).
struct Graph {
    Span<const i64> order;  // nodes by size, ascending
    Span<const i32> node_size, node_mis;
    Span<const i8> node_split;  // 1: some attribute splits the node (Dag.node_split)
    Span<const i64> node_bundle_start, bundle_edge_start;
    Span<const i32> edge_child;
    Span<const i64> leaf_s;  // two leaf values of S per node, or empty
};

// A sum cost S's (depth, S) fronts and what the states need of them
// (dagger_cli.engine.counting.DepthFronts): fref (start, length per node), fxy (depth, S
// per point), the longest path below each node, S's parameters, the divisor q.
struct Fronts {
    Span<const i64> fref, fxy, longest;
    Span<const i64> p;
    i64 q;
};

// The least S over node v's trees of depth <= d; NONE if none.
inline i64 f_at(const Fronts &F, i64 v, i64 d) {
    const i64 s = F.fref[2 * v], k = F.fref[2 * v + 1];
    i64 best = NONE;
    for (i64 j = 0; j < k; ++j) {
        if (F.fxy[2 * (s + j)] <= d)
            best = F.fxy[2 * (s + j) + 1];
        else
            break;
    }
    return best;
}

// Whether node v may be a leaf: under exact_only only where its leaf costs nothing or no
// attribute splits it (the fronts kernel's rule).
inline bool leaf_allowed(const Graph &G, i64 v, bool exact) {
    return !exact || G.node_mis[v] == 0 || G.node_split[v] == 0;
}

inline int bit_of(const Fronts &F, i64 c, i64 d) { return d >= F.longest[c] ? ANY : static_cast<int>(d); }
inline i64 depth_of(int bit) { return bit == ANY ? UNBOUNDED : bit; }
inline i64 popcount_below(i64 m, int bit) {
    return popcount(static_cast<u64>(m) & ((u64{1} << bit) - 1));
}

// Whether bundle b of a node of n rows is a minimiser of S // q among its trees of
// depth <= d (target: the node's least S // q at d).
inline bool tight(const Graph &G, const Fronts &F, i64 d, i64 n, i64 b, i64 target) {
    i64 s = F.p[3] + F.p[4] * n;
    for (i64 e = G.bundle_edge_start[b]; e < G.bundle_edge_start[b + 1]; ++e) {
        const i64 f = f_at(F, G.edge_child[e], d - 1);
        if (f >= NONE) return false;
        s += f;
    }
    return floordiv(s, F.q) == target;
}

std::vector<i64> longest(const Graph &G) {
    std::vector<i64> out(static_cast<std::size_t>(G.order.size()), 0);
    for (i64 t = 0; t < G.order.size(); ++t) {
        const i64 v = G.order[t];
        i64 best = -1;
        for (i64 b = G.node_bundle_start[v]; b < G.node_bundle_start[v + 1]; ++b)
            for (i64 e = G.bundle_edge_start[b]; e < G.bundle_edge_start[b + 1]; ++e)
                best = std::max(best, out[G.edge_child[e]]);
        out[v] = best + 1;
    }
    return out;
}

// The least value of one cost (p: Cost.params()) over every node's trees.
std::vector<i64> least(const Graph &G, Span<const i64> p, bool exact) {
    std::vector<i64> out(static_cast<std::size_t>(G.order.size()), 0);
    for (i64 t = 0; t < G.order.size(); ++t) {
        const i64 v = G.order[t];
        const i64 b0 = G.node_bundle_start[v], b1 = G.node_bundle_start[v + 1];
        i64 best = NONE;
        if (leaf_allowed(G, v, exact))
            best = G.leaf_s.size() ? std::min(G.leaf_s[2 * v], G.leaf_s[2 * v + 1])
                                   : p[1] + p[2] * G.node_mis[v];
        for (i64 b = b0; b < b1; ++b) {
            i64 acc = 0;
            for (i64 e = G.bundle_edge_start[b]; e < G.bundle_edge_start[b + 1]; ++e) {
                const i64 c = out[G.edge_child[e]];
                if (c >= NONE) {
                    acc = NONE;
                    break;
                }
                acc = p[0] == MAXK ? std::max(acc, c) : acc + c;
            }
            if (acc < NONE) best = std::min(best, acc + p[3] + p[4] * G.node_size[v]);
        }
        out[v] = best;
    }
    return out;
}

// Top-down (largest subtables first): the states that the states already in `mask` reach
// through tight bundles.
void mark(const Graph &G, const Fronts &F, Span<i64> mask) {
    for (i64 t = G.order.size() - 1; t >= 0; --t) {
        const i64 v = G.order[t];
        const i64 mk = mask[v];
        if (mk == 0) continue;
        const i64 n = G.node_size[v];
        for (int bit = 0; bit <= ANY; ++bit) {
            if (((mk >> bit) & 1) == 0) continue;
            const i64 d = depth_of(bit);
            if (d == 0) continue;
            const i64 target = floordiv(f_at(F, v, d), F.q);
            for (i64 b = G.node_bundle_start[v]; b < G.node_bundle_start[v + 1]; ++b) {
                if (!tight(G, F, d, n, b, target)) continue;
                for (i64 e = G.bundle_edge_start[b]; e < G.bundle_edge_start[b + 1]; ++e) {
                    const i64 c = G.edge_child[e];
                    mask[c] |= i64{1} << bit_of(F, c, d - 1);
                }
            }
        }
    }
}

struct Links {
    int status = DONE;
    std::vector<i64> base;
    std::vector<i8> st_leaf;
    std::vector<i64> st_tb, tb_e, cs;
};

// Number the marked states bottom-up (base[v]: the id of node v's first state) and write,
// for each, its leaf flag and its tight bundles' child states (CSR). OUT_OF_MEMORY (and
// nothing more) as soon as these arrays take more than max_bytes.
Links link(const Graph &G, const Fronts &F, bool exact, Span<const i64> mask, i64 max_bytes) {
    Links L;
    const i64 nodes = G.order.size();
    L.base.assign(static_cast<std::size_t>(nodes), 0);
    auto bytes = [&]() {
        return static_cast<i64>(8 * L.base.capacity() + L.st_leaf.capacity() +
                                8 * (L.st_tb.capacity() + L.tb_e.capacity() + L.cs.capacity()));
    };
    i64 sid = 0;
    for (i64 t = 0; t < nodes; ++t) {
        const i64 v = G.order[t];
        const i64 mk = mask[v];
        if (mk == 0) continue;
        L.base[v] = sid;
        const i64 n = G.node_size[v];
        const i64 b0 = G.node_bundle_start[v], b1 = G.node_bundle_start[v + 1];
        const bool leaf_ok = leaf_allowed(G, v, exact);
        const bool two = G.leaf_s.size() != 0;
        const i64 leaf = two ? G.leaf_s[2 * v] : F.p[1] + F.p[2] * G.node_mis[v];
        const i64 leaf2 = two ? G.leaf_s[2 * v + 1] : NONE;
        for (int bit = 0; bit <= ANY; ++bit) {
            if (((mk >> bit) & 1) == 0) continue;
            const i64 d = depth_of(bit);
            const i64 target = floordiv(f_at(F, v, d), F.q);
            i8 leaves = 0;
            if (leaf_ok) {
                leaves += floordiv(leaf, F.q) == target ? 1 : 0;
                if (two) leaves += floordiv(leaf2, F.q) == target ? 1 : 0;
            }
            L.st_leaf.push_back(leaves);
            L.st_tb.push_back(static_cast<i64>(L.tb_e.size()));
            if (d >= 1) {
                for (i64 b = b0; b < b1; ++b) {
                    if (!tight(G, F, d, n, b, target)) continue;
                    L.tb_e.push_back(static_cast<i64>(L.cs.size()));
                    for (i64 e = G.bundle_edge_start[b]; e < G.bundle_edge_start[b + 1]; ++e) {
                        const i64 c = G.edge_child[e];
                        L.cs.push_back(L.base[c] + popcount_below(mask[c], bit_of(F, c, d - 1)));
                    }
                }
            }
            ++sid;
        }
        if (bytes() > max_bytes) {
            L.status = OUT_OF_MEMORY;
            return L;
        }
    }
    L.st_tb.push_back(static_cast<i64>(L.tb_e.size()));
    L.tb_e.push_back(static_cast<i64>(L.cs.size()));
    return L;
}

Graph graph_of(nb::handle g) {
    using py::field;
    Graph G{
        field<const i64>(g, "order"),
        field<const i32>(g, "node_size"),
        field<const i32>(g, "node_mis"),
        field<const i8>(g, "node_split"),
        field<const i64>(g, "node_bundle_start"),
        field<const i64>(g, "bundle_edge_start"),
        field<const i32>(g, "edge_child"),
        field<const i64>(g, "leaf_s"),
    };
    const i64 n = G.order.size();
    if (G.node_size.size() != n || G.node_mis.size() != n || G.node_split.size() != n ||
        G.node_bundle_start.size() != n + 1)
        throw nb::value_error("graph: one entry per node (node_bundle_start: one more)");
    if (G.leaf_s.size() != 0 && G.leaf_s.size() != 2 * n)
        throw nb::value_error("graph: leaf_s has two values per node, or none");
    return G;
}

Fronts fronts_of(nb::handle f, i64 nodes) {
    using py::field;
    Fronts F{
        field<const i64>(f, "fref"),
        field<const i64>(f, "fxy"),
        field<const i64>(f, "longest"),
        field<const i64>(f, "params"),
        nb::cast<i64>(nb::int_(f.attr("q"))),
    };
    if (F.fref.size() != 2 * nodes || F.longest.size() != nodes || F.p.size() < 5)
        throw nb::value_error("fronts: one front and one longest path per node, 5 params");
    if (F.q <= 0) throw nb::value_error("q: a positive divisor");
    return F;
}

}  // namespace

namespace py {

void bind_counting(nb::module_ &m) {
    m.def(
        "counting_longest",
        [](nb::handle graph) {
            Graph G = graph_of(graph);
            std::vector<i64> out;
            {
                nb::gil_scoped_release free;
                out = longest(G);
            }
            return to_numpy<i64>(std::move(out));
        },
        nb::arg("graph"), "The longest path (edges) below every node.");

    m.def(
        "counting_least",
        [](nb::handle graph, nb::handle params, bool exact) {
            Graph G = graph_of(graph);
            auto p = span<const i64>(params, "params");
            if (p.size() < 5) throw nb::value_error("params: a cost's 5 parameters");
            std::vector<i64> out;
            {
                nb::gil_scoped_release free;
                out = least(G, p, exact);
            }
            return to_numpy<i64>(std::move(out));
        },
        nb::arg("graph"), nb::arg("params"), nb::arg("exact"),
        "The least value of one cost over every node's trees (NONE: no tree).");

    m.def(
        "counting_mark",
        [](nb::handle graph, nb::handle fronts, nb::handle mask) {
            Graph G = graph_of(graph);
            Fronts F = fronts_of(fronts, G.order.size());
            auto mk = span<i64>(mask, "mask");
            if (mk.size() != G.order.size()) throw nb::value_error("mask: one per node");
            nb::gil_scoped_release free;
            mark(G, F, mk);
        },
        nb::arg("graph"), nb::arg("fronts"), nb::arg("mask"),
        "Top-down: add to mask the states its states reach through tight bundles.");

    m.def(
        "counting_link",
        [](nb::handle graph, nb::handle fronts, bool exact, nb::handle mask, i64 max_bytes) {
            Graph G = graph_of(graph);
            Fronts F = fronts_of(fronts, G.order.size());
            auto mk = span<const i64>(mask, "mask");
            if (mk.size() != G.order.size()) throw nb::value_error("mask: one per node");
            Links L;
            {
                nb::gil_scoped_release free;
                L = link(G, F, exact, mk, max_bytes);
            }
            if (L.status != DONE) return nb::make_tuple(L.status, nb::none(), nb::none(), nb::none(), nb::none(), nb::none());
            return nb::make_tuple(L.status, to_numpy<i64>(std::move(L.base)),
                                  to_numpy<i8>(std::move(L.st_leaf)),
                                  to_numpy<i64>(std::move(L.st_tb)),
                                  to_numpy<i64>(std::move(L.tb_e)),
                                  to_numpy<i64>(std::move(L.cs)));
        },
        nb::arg("graph"), nb::arg("fronts"), nb::arg("exact"), nb::arg("mask"),
        nb::arg("max_bytes"),
        "Number the marked states bottom-up: (status, base, leaf flags, state -> first tight "
        "bundle, tight bundle -> first edge, edge -> child state); status OUT_OF_MEMORY (and "
        "None for the arrays) when they would take more than max_bytes.");
}

}  // namespace py
}  // namespace dagger
