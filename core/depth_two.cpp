// The depth-two layer: the fronts of the last two levels of a depth cap from class counts
// (driven by dagger_cli.engine.dag.compute_fronts, before the fronts kernel).
//
// It solves the subproblems (node, remaining depth 1 or 2) of the nodes at level D - 2
// without building their subtables, with the same trees, points and ties as the fronts
// kernel over the DAG: the leaf first, then splits in attribute order, and inside a branch
// (r = 2) its leaf, then its splits in attribute order. A point's tag is the split
// attribute (column), -1 the leaf; tree extraction recomputes a branch from its rows
// (dagger_cli.trees._front_r1).
//
// r = 1: class counts per present value of every attribute (one pass along the rows).
// r = 2: each branch (attribute a = value v) needs its splits on every other attribute b,
// i.e. class counts per (value of a, value of b):
// - an attribute with at most `many` present values is small; pairs of small attributes
//   are counted from bitsets over the rows (AND and popcount, pairs_generic), each pair's
//   counts in one small array;
// - a pair with a large attribute (an identifier, a free text, a number read as nominal)
//   is counted branch by branch from the branch's rows (sparse_point);
// - 0/1 tables with two classes and costs whose split point depends only on the
//   children's total misclassifications take a specialised pair loop (d2_binary: two
//   popcounts per pair and word, the rest by subtraction, over the attributes whose
//   column differs from every earlier one and from its complement).
// Weighted rows (dagger_cli.weights): the counts are of the rows' classes of (decision,
// weight) instead of their decisions, and a leaf reads its weight, its least price and its
// rows (a minimum leaf size) from them (Leaves, leaf_terms); the counting is unchanged.
// Memory goes by the rows and the present values, never by a product of two attributes'
// numbers of values; every array of a piece is sized against the piece's allowance of
// bytes before it is made (OUT_OF_MEMORY with the bytes wanted otherwise). The
// subproblems are independent: batches are computed in parallel pieces and appended to
// the point pool in entry order (the same bytes for any thread count).
#include <atomic>
#include "front_bind.hpp"

namespace dagger {
namespace fronts {
namespace {

// What d2_front returns when a branch has more split points than its bound (cannot
// happen for the costs of dagger_cli.costs; reported as FRONT_TOO_LONG), and when its
// arrays would take more than its allowance of bytes (OUT_OF_MEMORY).
inline constexpr i64 D2_BUG = -(i64{1} << 62);
inline constexpr i64 D2_NO_MEMORY = -(i64{1} << 61);

// How a leaf reads the class counts of its rows (dagger_cli.engine.kernels.depth_two.D2Leaves).
// Plain (D = 0): the counts are rows per decision, the leaf misclassifies the rows not of
// its most common one. Weighted (dagger_cli.weights): the counts are rows per class of
// (decision, weight) and a row of class k weighs unit[k] and costs price[k * D + d] when
// the leaf decides d; the leaf's weight is its rows' weight, its misclassifications the
// least price over the D decisions, and `infeasible` when it holds fewer than min_leaf
// rows (a branch is never the whole table, which is always a leaf).
// `own`: the classes of counts are the decisions (rows of one weight per decision: a
// weight on every row, class weights), a wrong decision costs the row's weight: the
// leaf's price is its weight less its heaviest decision's. `of` (not null), more generally:
// no prices, a wrong decision costs the row's weight and class k is of decision of[k]; the
// leaf's price is then its weight less its heaviest decision's (at most MAX_OF decisions).
inline constexpr i64 MAX_OF = 64;
struct Leaves {
    i64 D = 0;
    const i64 *unit = nullptr, *price = nullptr;
    i64 min_leaf = 1, infeasible = 0;
    bool own = false;
    const i64 *of = nullptr;
};

// A leaf's weight (the n of the split costs) and misclassifications (its price).
struct LeafTerms {
    i64 w, mis;
};

// The plain leaf of class counts c[0 .. C - 1] (all zero: weight 0, an empty child).
inline LeafTerms plain_terms(const i64 *c, i64 C) {
    i64 tot = 0, big = 0;
    for (i64 d = 0; d < C; ++d) {
        tot += c[d];
        big = std::max(big, c[d]);
    }
    return {tot, tot - big};
}

// The weighted leaf of class counts c[0 .. C - 1] (L.D > 0; all zero: weight 0). The hot
// loops take it as a template argument: the plain ones stay as tight as they were.
inline LeafTerms weighted_terms(const Leaves &L, const i64 *c, i64 C) {
    i64 tot = 0, w = 0;
    if (L.own) {
        i64 big = 0;
        for (i64 d = 0; d < C; ++d) {
            tot += c[d];
            const i64 wd = c[d] * L.unit[d];
            w += wd;
            big = std::max(big, wd);
        }
        return {w, tot < L.min_leaf ? L.infeasible : w - big};
    }
    if (L.of != nullptr) {
        i64 by[MAX_OF];
        for (i64 d = 0; d < L.D; ++d) by[d] = 0;
        for (i64 k = 0; k < C; ++k) {
            tot += c[k];
            const i64 wk = c[k] * L.unit[k];
            w += wk;
            by[L.of[k]] += wk;
        }
        i64 big = 0;
        for (i64 d = 0; d < L.D; ++d) big = std::max(big, by[d]);
        return {w, tot < L.min_leaf ? L.infeasible : w - big};
    }
    for (i64 k = 0; k < C; ++k) {
        tot += c[k];
        w += c[k] * L.unit[k];
    }
    if (tot < L.min_leaf) return {w, L.infeasible};
    i64 best = INF;
    for (i64 d = 0; d < L.D; ++d) {
        i64 s = 0;
        for (i64 k = 0; k < C; ++k) s += c[k] * L.price[k * L.D + d];
        best = std::min(best, s);
    }
    return {w, best};
}

// The leaf of class counts c[0 .. C - 1], plain or weighted.
inline LeafTerms leaf_terms(const Leaves &L, const i64 *c, i64 C) {
    return L.D == 0 ? plain_terms(c, C) : weighted_terms(L, c, C);
}

// The table as the layer reads it (fields of dagger_cli.engine.kernels.discovery.TableArrays):
// row-major codes rc (row * m + a), values per attribute, every row's class of counts
// (its decision; weighted, its class of D2Leaves) and the number of classes, and how a
// leaf reads their counts.
template <class T>
struct TableView {
    const T *rc;
    const i64 *nvals;
    i64 m;
    const i32 *dec;
    i64 nt;
    i64 n_dec;
    Leaves lv;
    i64 code(i64 row, i64 a) const {
        return static_cast<i64>(rc[static_cast<u64>(row) * static_cast<u64>(m) +
                                   static_cast<u64>(a)]);
    }
};

// A piece's workspace for counts by value (present_counts, sparse_point, rows_by_value):
// per value, class counts and a total (zero between uses), a map (-1) and a list.
struct Workspace {
    Buf<i64> vtmp, vtot, vmap, touched;
    Workspace(i64 maxv, i64 C) : vtmp(maxv * C, 0), vtot(maxv, 0), vmap(maxv, -1), touched(maxv) {}
};

inline i64 workspace_bytes(i64 maxv, i64 C) { return 8 * (maxv * C + 3 * maxv); }

struct SplitPoint {
    i64 x, y, nz;  // the split's point, and its non-empty children
};

// The point of a split of a branch of weight nbr into leaves: child i's class counts are
// cnt[base + i * step:] (C of them), i < count, empty children skipped. WEIGHTED: the
// leaves are read by weighted_terms (a template, so that the plain loop is as it was).
template <bool WEIGHTED>
inline SplitPoint split_point(const Params &P, const Leaves &L, i64 nbr, const i64 *cnt,
                              i64 base, i64 step, i64 count, i64 C) {
    i64 acx = 0, acy = 0, nz = 0;
    for (i64 i = 0; i < count; ++i) {
        // (An empty child weighs 0, and only it: weights are positive.)
        const i64 *k = cnt + base + i * step;
        const LeafTerms lt = WEIGHTED ? weighted_terms(L, k, C) : plain_terms(k, C);
        if (lt.w == 0) continue;
        ++nz;
        acx = comb(P.x.combine, acx, P.x.leaf(lt.mis));
        acy = comb(P.y.combine, acy, P.y.leaf(lt.mis));
    }
    return {P.x.split(nbr) + acx, P.y.split(nbr) + acy, nz};
}

// Offer split point (x, y) to a branch's list of mutually non-dominated split points
// base .. base + length - 1; returns the new length (cap + 1 when the list is full: a bug
// the caller reports; a full list stays so). Which attribute made a point is not kept.
inline i64 offer(i64 *lx, i64 *ly, i64 base, i64 cap, i64 length, i64 x, i64 y) {
    if (length > cap) return length;
    for (i64 q = 0; q < length; ++q)
        if (lx[base + q] <= x && ly[base + q] <= y) return length;
    i64 w = 0;
    for (i64 q = 0; q < length; ++q) {
        if (!(x <= lx[base + q] && y <= ly[base + q])) {
            lx[base + w] = lx[base + q];
            ly[base + w] = ly[base + q];
            ++w;
        }
    }
    if (w >= cap) return cap + 1;
    lx[base + w] = x;
    ly[base + w] = y;
    return w + 1;
}

// The present values of attribute a (of nv) among the n rows, ascending, into pv[slot:]
// and their class counts into S[slot * C:]; returns how many. Work and memory by the
// rows, not by the values (the present values sorted unless scanning all nv is as cheap).
template <class T>
i64 present_counts(i64 a, i64 n, const i32 *rows, const TableView<T> &tb, i64 nv, i64 C,
                   Workspace &ws, i64 slot, i64 *pv, i64 *S) {
    i64 *vtmp = ws.vtmp.data(), *vtot = ws.vtot.data(), *touched = ws.touched.data();
    i64 nt = 0;
    for (i64 j = 0; j < n; ++j) {
        const i64 row = rows[j];
        const i64 v = tb.code(row, a);
        if (vtot[v] == 0) touched[nt++] = v;
        vtot[v] += 1;
        vtmp[v * C + tb.dec[row]] += 1;
    }
    if (nv <= 4 * nt) {
        i64 c = 0;
        for (i64 v = 0; v < nv; ++v)
            if (vtot[v] > 0) touched[c++] = v;
    } else {
        std::sort(touched, touched + nt);
    }
    for (i64 i = 0; i < nt; ++i) {
        const i64 v = touched[i];
        pv[slot + i] = v;
        for (i64 d = 0; d < C; ++d) {
            S[(slot + i) * C + d] = vtmp[v * C + d];
            vtmp[v * C + d] = 0;
        }
        vtot[v] = 0;
    }
    return nt;
}

// The point of the split of a branch of weight nbr (rows br[0 .. nr - 1]) on attribute b into
// leaves, from class counts gathered row by row (work by the branch's rows, whatever b's
// number of values).
template <class T>
SplitPoint sparse_point(const Params &P, i64 nbr, const i64 *br, i64 nr,
                        const TableView<T> &tb, i64 b, i64 C, Workspace &ws) {
    i64 *vtmp = ws.vtmp.data(), *vtot = ws.vtot.data(), *touched = ws.touched.data();
    i64 nt = 0;
    for (i64 k = 0; k < nr; ++k) {
        const i64 row = br[k];
        const i64 v = tb.code(row, b);
        if (vtot[v] == 0) touched[nt++] = v;
        vtot[v] += 1;
        vtmp[v * C + tb.dec[row]] += 1;
    }
    i64 acx = 0, acy = 0;
    for (i64 i = 0; i < nt; ++i) {
        const i64 v = touched[i];
        const i64 wrong = leaf_terms(tb.lv, vtmp + v * C, C).mis;
        for (i64 d = 0; d < C; ++d) vtmp[v * C + d] = 0;
        vtot[v] = 0;
        acx = comb(P.x.combine, acx, P.x.leaf(wrong));
        acy = comb(P.y.combine, acy, P.y.leaf(wrong));
    }
    return {P.x.split(nbr) + acx, P.y.split(nbr) + acy, nt};
}

// The n rows grouped by attribute a's present values (npv of them, ascending at
// pv[slot:]), in row order within a group: group i is order[boff[i] .. boff[i + 1] - 1]
// (a counting sort; vmap is -1 on entry and return).
template <class T>
void rows_by_value(i64 a, i64 n, const i32 *rows, const TableView<T> &tb, const i64 *pv,
                   i64 slot, i64 npv, i64 *vmap, i64 *order, i64 *boff) {
    for (i64 i = 0; i < npv; ++i) {
        vmap[pv[slot + i]] = i;
        boff[i + 1] = 0;
    }
    boff[0] = 0;
    for (i64 j = 0; j < n; ++j) boff[vmap[tb.code(rows[j], a)] + 1] += 1;
    for (i64 i = 0; i < npv; ++i) boff[i + 1] += boff[i];
    for (i64 j = 0; j < n; ++j) {
        const i64 i = vmap[tb.code(rows[j], a)];
        order[boff[i]] = rows[j];
        boff[i] += 1;
    }
    for (i64 i = npv; i > 0; --i) boff[i] = boff[i - 1];
    boff[0] = 0;
    for (i64 i = 0; i < npv; ++i) vmap[pv[slot + i]] = -1;
}

// What d2_front has computed of a subtable's present values and branches.
struct Branches {
    i64 n, K, J, C, W;
    const i64 *attrs;  // the non-constant attributes, ascending (K)
    const i64 *npres, *poff, *voff, *pv, *S;
    const i64 *jbase;  // attribute p's branches: jbase[p] .. jbase[p + 1] - 1 (value order)
    const i64 *nbr, *lfx, *lfy;  // per branch: weight (its rows unweighted), leaf point
    const Leaves *lv;
};

// The small attributes' branches' split points on each other: for each pair of small
// attributes a < b (positions sp[0 .. Ks - 1]), the class counts per (value of a, value
// of b) from popcounts of the branches' bitsets (all but the last value of each and the
// last class; the rest by subtraction), offered to the branches a = v (split on b) and
// b = w (split on a). Branch j's slots are those of its small-branch index sbase[p] + iv;
// the counts of one pair take at most maxs^2 * C cells.
template <bool WEIGHTED>
void pairs_generic(const Branches &B, i64 Ks, const i64 *sp, i64 maxs, const i64 *sbase,
                   const u64 *bits, const u64 *cls, const Params &P, i64 *lx, i64 *ly, i64 *ln,
                   i64 cap) {
    const i64 C = B.C, W = B.W;
    Buf<i64> cnt(std::max<i64>(maxs * maxs * C, 1), 0);
    for (i64 ip = 0; ip < Ks; ++ip) {
        const i64 p = sp[ip];
        const i64 a = B.attrs[p];
        const i64 npa = B.npres[a];
        for (i64 iq = ip + 1; iq < Ks; ++iq) {
            const i64 q = sp[iq];
            const i64 b = B.attrs[q];
            const i64 npb = B.npres[b];
            for (i64 iv = 0; iv < npa - 1; ++iv) {
                const u64 *ba = bits + (sbase[p] + iv) * W;
                for (i64 iw = 0; iw < npb - 1; ++iw) {
                    const u64 *bb = bits + (sbase[q] + iw) * W;
                    const i64 o = (iv * npb + iw) * C;
                    i64 rest = 0;
                    for (i64 w = 0; w < W; ++w) rest += popcount(ba[w] & bb[w]);
                    for (i64 d = 0; d < C - 1; ++d) {
                        const u64 *cd_bits = cls + d * W;
                        i64 cd = 0;
                        for (i64 w = 0; w < W; ++w) cd += popcount(ba[w] & bb[w] & cd_bits[w]);
                        cnt[o + d] = cd;
                        rest -= cd;
                    }
                    cnt[o + C - 1] = rest;
                }
            }
            for (i64 iv = 0; iv < npa - 1; ++iv) {
                const i64 sa = (B.poff[a] + iv) * C;
                const i64 o = (iv * npb + npb - 1) * C;
                for (i64 d = 0; d < C; ++d) {
                    i64 s = B.S[sa + d];
                    for (i64 iw = 0; iw < npb - 1; ++iw) s -= cnt[(iv * npb + iw) * C + d];
                    cnt[o + d] = s;
                }
            }
            for (i64 iw = 0; iw < npb; ++iw) {
                const i64 sb = (B.poff[b] + iw) * C;
                const i64 o = ((npa - 1) * npb + iw) * C;
                for (i64 d = 0; d < C; ++d) {
                    i64 s = B.S[sb + d];
                    for (i64 iv = 0; iv < npa - 1; ++iv) s -= cnt[(iv * npb + iw) * C + d];
                    cnt[o + d] = s;
                }
            }
            // Branch a = v split on b (children w: stride C), and branch b = w split on a
            // (children v: stride npb * C).
            for (i64 iv = 0; iv < npa; ++iv) {
                const i64 j = B.jbase[p] + iv, js = sbase[p] + iv;
                const SplitPoint sp_ =
                    split_point<WEIGHTED>(P, *B.lv, B.nbr[j], cnt.data(), iv * npb * C, C,
                                          npb, C);
                if (sp_.nz >= 2) ln[js] = offer(lx, ly, js * cap, cap, ln[js], sp_.x, sp_.y);
            }
            for (i64 iw = 0; iw < npb; ++iw) {
                const i64 j = B.jbase[q] + iw, js = sbase[q] + iw;
                const SplitPoint sp_ =
                    split_point<WEIGHTED>(P, *B.lv, B.nbr[j], cnt.data(), iw * C, npb * C,
                                          npa, C);
                if (sp_.nz >= 2) ln[js] = offer(lx, ly, js * cap, cap, ln[js], sp_.x, sp_.y);
            }
        }
    }
}

enum BranchStatus { BRANCHES_OK, BRANCHES_NO_MEMORY, BRANCHES_BUG };

// Every branch's front at remaining depth 1 (its leaf, then its Pareto split points, x
// ascending): branch j's is px, py[gp[j] .. gp[j] + gl[j] - 1]. BRANCHES_NO_MEMORY when
// its arrays would take more than `allow` bytes (`want` of them), BRANCHES_BUG when a
// branch had more split points than its bound.
template <class T>
BranchStatus branch_fronts(const Branches &B, const i32 *rows, const TableView<T> &tb,
                           const u64 *cls, const Params &P, Workspace &ws, i64 many, i64 *gp,
                           i64 *gl, ParetoBuf &pb, i64 allow, i64 &want, Buf<i64> &px,
                           Buf<i64> &py) {
    const i64 K = B.K, n = B.n, C = B.C, W = B.W;
    const i64 *attrs = B.attrs, *npres = B.npres, *poff = B.poff, *voff = B.voff, *pv = B.pv;
    i64 *vmap = ws.vmap.data();
    Buf<u8> small(K);
    Buf<i64> sbase(K + 1, -1);
    i64 Js = 0, KL = 0, maxs = 0, maxp = 0;
    for (i64 p = 0; p < K; ++p) {
        const i64 np_ = npres[attrs[p]];
        maxp = std::max(maxp, np_);
        small[p] = np_ <= many;
        if (small[p]) {
            sbase[p] = Js;
            Js += np_;
            maxs = std::max(maxs, np_);
        } else {
            ++KL;
        }
    }
    // A branch's split points: one per other attribute at most, and (every cost's split
    // point depends on its number of children and their total misclassifications only)
    // one per number of children: at most maxs - 1 from small attributes.
    const i64 cap = std::min(K, maxs + KL) + 1;
    const i64 J = B.J;
    // Bytes, all sized here: the slots and bitsets of the small branches, one pair's
    // counts, the branches' fronts (grown at most to twice what the branches' points
    // need: a small branch's slots, a large one's splits bounded by its rows), the rest.
    const i64 pts = J + Js * cap + n * KL + 16;
    const i64 tv = voff[tb.m];
    const i64 need = 8 * (5 * K + Js * (2 * cap + 1 + W) + maxs * maxs * C + 6 * pts +
                          4 * (K + cap + 3) + n + maxp + (tv <= n + 4096 ? tv : 0));
    if (need > allow) {
        want = need;
        return BRANCHES_NO_MEMORY;
    }
    Buf<i64> lx(std::max<i64>(Js * cap, 1)), ly(std::max<i64>(Js * cap, 1));
    Buf<i64> ln(std::max<i64>(Js, 1), 0);
    // The small attributes' bitsets: one per branch, set row by row.
    Buf<u64> bits(std::max<i64>(Js * W, 1), 0);
    Buf<i64> sp(K);
    i64 Ks = 0;
    for (i64 p = 0; p < K; ++p)
        if (small[p]) sp[Ks++] = p;
    if (tv <= n + 4096) {
        // Few values in all: a map from every value to its branch, one pass along the rows.
        Buf<i64> jof(std::max<i64>(tv, 1), -1);
        for (i64 ip = 0; ip < Ks; ++ip) {
            const i64 p = sp[ip], a = attrs[p];
            for (i64 iv = 0; iv < npres[a]; ++iv) jof[voff[a] + pv[poff[a] + iv]] = sbase[p] + iv;
        }
        Buf<u64> ua(Ks), uo(Ks);
        for (i64 ip = 0; ip < Ks; ++ip) {
            ua[ip] = static_cast<u64>(attrs[sp[ip]]);
            uo[ip] = static_cast<u64>(voff[attrs[sp[ip]]]);
        }
        const u64 um = static_cast<u64>(tb.m), uW = static_cast<u64>(W);
        for (i64 t = 0; t < n; ++t) {
            const u64 base = static_cast<u64>(rows[t]) * um;
            const u64 bit = u64{1} << (t & 63);
            const u64 wd = static_cast<u64>(t >> 6);
            for (i64 ip = 0; ip < Ks; ++ip) {
                const u64 v = static_cast<u64>(tb.rc[base + ua[ip]]);
                const u64 js = static_cast<u64>(jof[uo[ip] + v]);
                bits[js * uW + wd] |= bit;
            }
        }
    } else {
        for (i64 ip = 0; ip < Ks; ++ip) {
            const i64 p = sp[ip], a = attrs[p];
            for (i64 iv = 0; iv < npres[a]; ++iv) vmap[pv[poff[a] + iv]] = sbase[p] + iv;
            for (i64 t = 0; t < n; ++t) {
                const i64 js = vmap[tb.code(rows[t], a)];
                bits[js * W + (t >> 6)] |= u64{1} << (t & 63);
            }
            for (i64 iv = 0; iv < npres[a]; ++iv) vmap[pv[poff[a] + iv]] = -1;
        }
    }
    if (B.lv->D == 0)
        pairs_generic<false>(B, Ks, sp.data(), maxs, sbase.data(), bits.data(), cls, P,
                             lx.data(), ly.data(), ln.data(), cap);
    else
        pairs_generic<true>(B, Ks, sp.data(), maxs, sbase.data(), bits.data(), cls, P,
                            lx.data(), ly.data(), ln.data(), cap);
    // Room for every branch's front (leaf and split points): grown as needed.
    px = Buf<i64>(J + Js * cap + 16);
    py = Buf<i64>(px.size());
    auto grow = [&](i64 need_pts, i64 used) {
        if (need_pts <= px.size()) return;
        const i64 size = std::max(need_pts, 2 * px.size());
        Buf<i64> nx(size), ny(size);
        std::copy(px.data(), px.data() + used, nx.data());
        std::copy(py.data(), py.data() + used, ny.data());
        px = std::move(nx);
        py = std::move(ny);
    };
    const i64 nq = K + cap + 3;
    Buf<i64> qx(nq), qy(nq);
    i64 used = 0;
    if (KL > 0) {
        Buf<i64> tlx(K + 1), tly(K + 1);
        Buf<i64> order(n), boff(maxp + 1);
        for (i64 p = 0; p < K; ++p) {
            const i64 a = attrs[p];
            const i64 npa = npres[a];
            rows_by_value(a, n, rows, tb, pv, poff[a], npa, vmap, order.data(), boff.data());
            for (i64 iv = 0; iv < npa; ++iv) {
                const i64 j = B.jbase[p] + iv;
                const i64 *br = order.data() + boff[iv];
                const i64 nbr = boff[iv + 1] - boff[iv];
                if (small[p]) {
                    // Splits on the large attributes, into the branch's slots.
                    const i64 js = sbase[p] + iv;
                    for (i64 q = 0; q < K; ++q) {
                        if (small[q]) continue;
                        const SplitPoint s =
                            sparse_point(P, B.nbr[j], br, nbr, tb, attrs[q], C, ws);
                        if (s.nz >= 2)
                            ln[js] = offer(lx.data(), ly.data(), js * cap, cap, ln[js], s.x, s.y);
                    }
                    continue;
                }
                // A large attribute's branch: its splits on every other attribute, then its
                // front.
                i64 tl = 0;
                for (i64 q = 0; q < K; ++q) {
                    if (q == p) continue;
                    const SplitPoint s = sparse_point(P, B.nbr[j], br, nbr, tb, attrs[q], C, ws);
                    if (s.nz >= 2) tl = offer(tlx.data(), tly.data(), 0, K + 1, tl, s.x, s.y);
                }
                if (tl > K) return BRANCHES_BUG;
                qx[0] = B.lfx[j];
                qy[0] = B.lfy[j];
                for (i64 q = 0; q < tl; ++q) {
                    qx[q + 1] = tlx[q];
                    qy[q + 1] = tly[q];
                }
                grow(used + tl + 2, used);
                const i64 k = pareto_into<false, i32>(qx.data(), qy.data(), nullptr, tl + 1,
                                                      px.data() + used, py.data() + used,
                                                      nullptr, pb);
                gp[j] = used;
                gl[j] = k;
                used += k;
            }
        }
    }
    // The small attributes' branches: their leaf first, then their split points.
    for (i64 p = 0; p < K; ++p) {
        if (!small[p]) continue;
        for (i64 iv = 0; iv < npres[attrs[p]]; ++iv) {
            const i64 j = B.jbase[p] + iv, js = sbase[p] + iv;
            if (ln[js] > cap) return BRANCHES_BUG;
            qx[0] = B.lfx[j];
            qy[0] = B.lfy[j];
            for (i64 q = 0; q < ln[js]; ++q) {
                qx[q + 1] = lx[js * cap + q];
                qy[q + 1] = ly[js * cap + q];
            }
            grow(used + ln[js] + 2, used);
            const i64 k = pareto_into<false, i32>(qx.data(), qy.data(), nullptr, ln[js] + 1,
                                                  px.data() + used, py.data() + used, nullptr,
                                                  pb);
            gp[j] = used;
            gl[j] = k;
            used += k;
        }
    }
    return BRANCHES_OK;
}

// The attributes (indices < K, ascending) whose column over the subtable's n rows
// (word-major bitsets: word w of attribute p at bits[w * K + p]) differs from every
// earlier one and from its complement: each column is compared in a canonical form
// (complemented when its first row has a 1), found by a hash table. Returns how many,
// written to reps.
i64 distinct_columns(i64 K, i64 W, i64 n, const u64 *bits, i64 *reps) {
    const u64 ones = ~u64{0};
    u64 last = ones;
    const i64 rem = n - 64 * (W - 1);
    if (rem < 64) last = (u64{1} << rem) - 1;
    i64 slots = 4;
    while (slots < 2 * K) slots *= 2;
    const u64 mask = static_cast<u64>(slots - 1);
    Buf<i64> table(slots, -1);
    Buf<u64> flip(K);
    i64 nr = 0;
    for (i64 p = 0; p < K; ++p) {
        const u64 f = (bits[p] & 1) != 0 ? ones : 0;
        flip[p] = f;
        u64 h = 0x9E3779B97F4A7C15ull;
        for (i64 w = 0; w < W; ++w) {
            u64 x = bits[w * K + p] ^ f;
            if (w == W - 1) x &= last;
            h = (h ^ x) * 0xBF58476D1CE4E5B9ull;
            h ^= h >> 31;
        }
        u64 slot = h & mask;
        bool dup = false;
        while (table[static_cast<i64>(slot)] >= 0) {
            const i64 q = table[static_cast<i64>(slot)];
            bool same = true;
            for (i64 w = 0; w < W; ++w) {
                u64 x = (bits[w * K + p] ^ f) ^ (bits[w * K + q] ^ flip[q]);
                if (w == W - 1) x &= last;
                if (x != 0) {
                    same = false;
                    break;
                }
            }
            if (same) {
                dup = true;
                break;
            }
            slot = (slot + 1) & mask;
        }
        if (!dup) {
            table[static_cast<i64>(slot)] = p;
            reps[nr++] = p;
        }
    }
    return nr;
}

// The split points of the branches of a 0/1 table with two classes, for costs whose
// split points in a branch depend only on its children's total misclassifications M (sum
// costs, or max costs without a misclassification term). bits holds the rows with value
// 1, word-major (word w of attribute p at bits[w * K + p]). Per pair two popcounts (rows
// with a = 1 and b = 1, and those of class 0), the rest by subtraction; per branch only
// the least M is kept, its only Pareto split point (when neither cost counts
// misclassifications, M is taken as 0: every split is the same point). Branch j = 2p + v
// gets its point at lx, ly[j * cap], ln[j] = 1 (none: ln[j] = 0).
template <bool WEIGHTED>
void pairs_binary(i64 K, i64 n, i64 W, const u64 *bits, const u64 *cls_in, const i64 *nbr,
                  const Params &P, const Leaves &L, i64 *lx, i64 *ly, i64 *ln, i64 cap) {
    const Cost &X = P.x, &Y = P.y;
    const i64 big = i64{1} << 40;
    // Per attribute: the least M of a split of branch value 0 and value 1 (big: none).
    Buf<i64> best0(K, big), best1(K, big), na1(K, 0), ya1(K, 0);
    Buf<u64> zero;
    const u64 *cls = cls_in;
    if (X.leaf_mis == 0 && Y.leaf_mis == 0) {
        // M plays no part: count as if every row were of class 1, every leaf pure (which
        // cells exist still counts).
        zero = Buf<u64>(W, 0);
        cls = zero.data();
    }
    i64 ytot = 0;
    for (i64 w = 0; w < W; ++w) {
        ytot += popcount(cls[w]);
        const u64 *row = bits + w * K;
        for (i64 p = 0; p < K; ++p) {
            na1[p] += popcount(row[p]);
            ya1[p] += popcount(row[p] & cls[w]);
        }
    }
    Buf<i64> n11s(K, 0), y11s(K, 0);
    i64 *n11 = n11s.data(), *y11 = y11s.data();
    // A cell's leaf: c rows, y of them of class 0 (weighted: of class of counts 0). A
    // template, so that the plain pair loop stays as tight as it was.
    auto cell = [&](i64 c, i64 y) -> i64 {
        if constexpr (WEIGHTED) {
            const i64 k[2] = {y, c - y};
            return c == 0 ? 0 : weighted_terms(L, k, 2).mis;
        } else {
            return std::min(y, c - y);
        }
    };
    for (i64 p = 0; p < K; ++p) {
        for (i64 q = p + 1; q < K; ++q) {
            n11[q] = 0;
            y11[q] = 0;
        }
        for (i64 w = 0; w < W; ++w) {
            const u64 *row = bits + w * K;
            const u64 a = row[p];
            const u64 ac = a & cls[w];
            for (i64 q = p + 1; q < K; ++q) {
                const u64 bq = row[q];
                n11[q] += popcount(a & bq);
                y11[q] += popcount(ac & bq);
            }
        }
        // Branch p = 0 splits into cells 00, 01, p = 1 into 10, 11; branch q = 0 into 00,
        // 10, q = 1 into 01, 11. An empty cell makes the split impossible (the attribute
        // is constant in the branch): + big.
        const i64 nap = na1[p], yap = ya1[p];
        i64 a0 = big, a1 = big;
        i64 *b0 = best0.data(), *b1 = best1.data();
        const i64 *nq = na1.data(), *yq = ya1.data();
        for (i64 q = p + 1; q < K; ++q) {
            const i64 c11 = n11[q], d11 = y11[q];
            const i64 c10 = nap - c11, d10 = yap - d11;
            const i64 c01 = nq[q] - c11, d01 = yq[q] - d11;
            const i64 c00 = n - nap - nq[q] + c11, d00 = ytot - yap - yq[q] + d11;
            const i64 m11 = cell(c11, d11);
            const i64 m10 = cell(c10, d10);
            const i64 m01 = cell(c01, d01);
            const i64 m00 = cell(c00, d00);
            const i64 z11 = static_cast<i64>(c11 == 0) * big;
            const i64 z10 = static_cast<i64>(c10 == 0) * big;
            const i64 z01 = static_cast<i64>(c01 == 0) * big;
            const i64 z00 = static_cast<i64>(c00 == 0) * big;
            a0 = std::min(a0, m00 + m01 + z00 + z01);
            a1 = std::min(a1, m10 + m11 + z10 + z11);
            b0[q] = std::min(b0[q], m00 + m10 + z00 + z10);
            b1[q] = std::min(b1[q], m01 + m11 + z01 + z11);
        }
        best0[p] = std::min(best0[p], a0);
        best1[p] = std::min(best1[p], a1);
    }
    for (i64 p = 0; p < K; ++p) {
        for (i64 v = 0; v < 2; ++v) {
            const i64 mm = v ? best1[p] : best0[p];
            if (mm >= big) continue;
            const i64 j = 2 * p + v;
            // Two leaves with mm misclassifications between them.
            const i64 cxv = X.combine == MAXK ? X.leaf_const : 2 * X.leaf_const + X.leaf_mis * mm;
            const i64 cyv = Y.combine == MAXK ? Y.leaf_const : 2 * Y.leaf_const + Y.leaf_mis * mm;
            lx[j * cap] = X.split(nbr[j]) + cxv;
            ly[j * cap] = Y.split(nbr[j]) + cyv;
            ln[j] = 1;
        }
    }
}

// The node's front at remaining depth 2 on a 0/1 table (after pairs_binary): its leaf,
// then for each attribute p (in order) every combination of its two branches' points
// (leaf, and the best split if any), tagged with the attribute; the Pareto filter keeps
// the first of equal points, so ties go to the leaf, then to the first attribute, as in
// node_front (a combination with a dominated branch point is dominated itself, so the
// branches need no filter first). Returns the front's length, or -need when the scratch
// is too short.
i64 tail_binary(i64 K, const i64 *attrs, i64 wn, i64 mis, const Params &P, const i64 *lfx,
                const i64 *lfy, const i64 *lx, const i64 *ly, const i64 *ln, i64 cap,
                Scratch &s, ParetoBuf &pb) {
    const Cost &X = P.x, &Y = P.y;
    const i64 need = 1 + 4 * K;
    if (need + 1 > s.cap) return -(need + 1);
    i64 *cx = s.cx.data(), *cy = s.cy.data();
    i32 *cc = s.cc.data();
    cx[0] = X.leaf(mis);
    cy[0] = Y.leaf(mis);
    cc[0] = -1;
    i64 nc = 1;
    const i64 addx = X.split(wn), addy = Y.split(wn);
    for (i64 p = 0; p < K; ++p) {
        const i64 j0 = 2 * p, j1 = j0 + 1;
        for (i64 u = 0; u < 1 + ln[j0]; ++u) {
            const i64 ux = u == 0 ? lfx[j0] : lx[j0 * cap];
            const i64 uy = u == 0 ? lfy[j0] : ly[j0 * cap];
            for (i64 v = 0; v < 1 + ln[j1]; ++v) {
                const i64 vx = v == 0 ? lfx[j1] : lx[j1 * cap];
                const i64 vy = v == 0 ? lfy[j1] : ly[j1 * cap];
                cx[nc] = addx + comb(X.combine, ux, vx);
                cy[nc] = addy + comb(Y.combine, uy, vy);
                cc[nc] = static_cast<i32>(attrs[p]);
                ++nc;
            }
        }
    }
    return pareto_into<true, i32>(cx, cy, cc, nc, s.ox.data(), s.oy.data(), s.oc.data(), pb);
}

// Rows t0 .. t1 - 1 (at most 64) of a subtable of a 0/1 table as bit words: word[a] bit
// t - t0 is row t's code of attribute a, for every attribute. Eight rows at a time into
// one byte per attribute (contiguous byte lanes), then the eight bytes of each attribute
// put together. Scratch: `bytes` (8 * m) and `zero` (a row of m zero codes, for a last
// group of fewer rows).
template <class T>
inline void column_words(const i32 *rows, i64 t0, i64 t1, const TableView<T> &tb, u64 *word,
                         u8 *bytes, const T *zero) {
    const i64 m = tb.m;
    const u64 um = static_cast<u64>(m);
    for (i64 g = 0; g < 8; ++g) {
        const i64 g0 = t0 + 8 * g;
        const T *p[8];
        for (i64 k = 0; k < 8; ++k) {
            const i64 t = g0 + k;
            p[k] = t < t1 ? tb.rc + static_cast<u64>(rows[t]) * um : zero;
        }
        const T *__restrict q0 = p[0], *__restrict q1 = p[1], *__restrict q2 = p[2],
                            *__restrict q3 = p[3], *__restrict q4 = p[4], *__restrict q5 = p[5],
                            *__restrict q6 = p[6], *__restrict q7 = p[7];
        u8 *__restrict b = bytes + g * m;
        for (i64 a = 0; a < m; ++a) {
            u8 v = static_cast<u8>(q7[a]);
            v = static_cast<u8>(v + v + static_cast<u8>(q6[a]));
            v = static_cast<u8>(v + v + static_cast<u8>(q5[a]));
            v = static_cast<u8>(v + v + static_cast<u8>(q4[a]));
            v = static_cast<u8>(v + v + static_cast<u8>(q3[a]));
            v = static_cast<u8>(v + v + static_cast<u8>(q2[a]));
            v = static_cast<u8>(v + v + static_cast<u8>(q1[a]));
            b[a] = static_cast<u8>(v + v + static_cast<u8>(q0[a]));
        }
        if (g0 + 8 >= t1) {
            for (i64 h = g + 1; h < 8; ++h) std::fill(bytes + h * m, bytes + (h + 1) * m, u8{0});
            break;
        }
    }
    for (i64 a = 0; a < m; ++a) {
        u64 w = 0;
        for (i64 g = 0; g < 8; ++g) w |= static_cast<u64>(bytes[g * m + a]) << (8 * g);
        word[a] = w;
    }
}

// The depth-2 front of a subtable of a 0/1 table with two classes: the value-1 bitsets,
// built word by word along the rows (column_words) and stored word-major so that the
// pair loop runs over consecutive attributes; then pairs_binary and tail_binary
// over the attributes whose column is not equal or complementary to an earlier one's
// (they split the subtable the same way: only the first of each kind matters, ties going
// to the first attribute).
template <class T>
i64 d2_binary(const Branches &B, const i32 *rows, i64 wn, i64 mis, const TableView<T> &tb,
              const u64 *cls, const Params &P, Scratch &s, ParetoBuf &pb) {
    const i64 K = B.K, n = B.n, W = B.W;
    Buf<u64> bits(K * W), word(tb.m);
    Buf<u8> bytes(8 * tb.m);
    Buf<T> zero(tb.m, T{0});
    for (i64 wd = 0; wd < W; ++wd) {
        const i64 t0 = wd * 64, t1 = std::min(n, t0 + 64);
        column_words(rows, t0, t1, tb, word.data(), bytes.data(), zero.data());
        for (i64 p = 0; p < K; ++p) bits[wd * K + p] = word[B.attrs[p]];
    }
    Buf<i64> reps(K);
    const i64 k2 = distinct_columns(K, W, n, bits.data(), reps.data());
    Buf<u64> bits2(k2 * W);
    Buf<i64> attrs2(k2), nbr2(2 * k2), lfx2(2 * k2), lfy2(2 * k2);
    for (i64 i = 0; i < k2; ++i) {
        const i64 p = reps[i];
        for (i64 wd = 0; wd < W; ++wd) bits2[wd * k2 + i] = bits[wd * K + p];
        attrs2[i] = B.attrs[p];
        for (i64 v = 0; v < 2; ++v) {
            nbr2[2 * i + v] = B.nbr[2 * p + v];
            lfx2[2 * i + v] = B.lfx[2 * p + v];
            lfy2[2 * i + v] = B.lfy[2 * p + v];
        }
    }
    const i64 cap = 3;
    Buf<i64> lx(2 * k2 * cap), ly(2 * k2 * cap), ln(2 * k2, 0);
    if (B.lv->D == 0)
        pairs_binary<false>(k2, n, W, bits2.data(), cls, nbr2.data(), P, *B.lv, lx.data(),
                            ly.data(), ln.data(), cap);
    else
        pairs_binary<true>(k2, n, W, bits2.data(), cls, nbr2.data(), P, *B.lv, lx.data(),
                           ly.data(), ln.data(), cap);
    return tail_binary(k2, attrs2.data(), wn, mis, P, lfx2.data(), lfy2.data(), lx.data(),
                       ly.data(), ln.data(), cap, s, pb);
}

// The front of a subtable (rows, n of them, of weight wn, mis misclassified by its leaf,
// least depth lvl) at remaining depth r (1 or 2) into s.ox, s.oy, s.oc (tags: split
// attributes): returns its length, -need when the scratch is too short, D2_BUG, or
// D2_NO_MEMORY when its arrays would take more than `allow` bytes (`want`: every stage's
// bytes).
template <class T>
i64 d2_front(i64 n, i64 wn, i64 mis, const i32 *rows, i64 r, i64 lvl, const TableView<T> &tb,
             const Params &P, Scratch &s, ParetoBuf &pb, Workspace &ws, i64 many, i64 allow,
             i64 &want) {
    const i64 m = tb.m;
    const i64 C = std::max<i64>(tb.n_dec, 1);
    const i64 *nvals = tb.nvals;
    i64 maxv = 1;
    for (i64 a = 0; a < m; ++a) maxv = std::max(maxv, nvals[a]);
    // Class counts per present value, compact: attribute a's present values are slots
    // poff[a] .. poff[a] + npres[a] - 1 (ascending values pv), their counts S[slot * C + d].
    Buf<i64> poff(m + 1), voff(m + 1);
    i64 Pn = 0, tv = 0;
    for (i64 a = 0; a < m; ++a) {
        poff[a] = Pn;
        voff[a] = tv;
        Pn += std::min(n, nvals[a]);
        tv += nvals[a];
    }
    poff[m] = Pn;
    voff[m] = tv;
    // Bytes of what follows: per attribute 9 int64, per slot C + 6, and the counts by value
    // of a table with few values in all (at most n + 4096).
    i64 need = 8 * (9 * (m + 2) + std::max<i64>(Pn, 1) * (C + 6) +
                    (tv * C <= n + 4096 ? tv * C : 0));
    if (need > allow) {
        want = need;
        return D2_NO_MEMORY;
    }
    allow -= need;
    i64 spent = need;  // what `want` reports is every stage's bytes, this one's included
    Buf<i64> S(std::max<i64>(Pn, 1) * C), pv(std::max<i64>(Pn, 1)), npres(m, 0);
    const u64 um = static_cast<u64>(m);
    if (maxv == 2 && C == 2) {
        // 0/1 codes: sums along each row (contiguous byte lanes, a pass of 255 rows at
        // most between two flushes), the rest by subtraction.
        Buf<i64> ones(m, 0), ones0(m, 0);
        Buf<u8> acc(2 * m, u8{0});  // per class, the value-1 rows since the last flush
        i64 n0 = 0;
        auto flush = [&]() {
            for (i64 a = 0; a < m; ++a) {
                ones0[a] += acc[a];
                ones[a] += acc[m + a];
            }
            std::fill(acc.data(), acc.data() + 2 * m, u8{0});
        };
        for (i64 j0 = 0; j0 < n; j0 += 255) {
            const i64 j1 = std::min(n, j0 + 255);
            for (i64 j = j0; j < j1; ++j) {
                const i64 row = rows[j];
                const T *__restrict base = tb.rc + static_cast<u64>(row) * um;
                const bool zero_class = tb.dec[row] == 0;
                u8 *__restrict to = acc.data() + (zero_class ? 0 : m);
                n0 += zero_class;
                for (i64 a = 0; a < m; ++a)
                    to[a] = static_cast<u8>(to[a] + static_cast<u8>(base[a]));
            }
            flush();
        }
        for (i64 a = 0; a < m; ++a) {
            i64 c = 0;
            for (i64 v = 0; v < 2; ++v) {
                const i64 c0 = v ? ones0[a] : n0 - ones0[a];
                const i64 c1 = v ? ones[a] : (n - n0) - ones[a];
                if (c0 + c1 > 0) {
                    pv[poff[a] + c] = v;
                    S[(poff[a] + c) * 2] = c0;
                    S[(poff[a] + c) * 2 + 1] = c1;
                    ++c;
                }
            }
            npres[a] = c;
        }
    } else if (tv * C <= n + 4096) {
        // Few values in all: one pass along the rows (contiguous) into counts by value,
        // then the present values kept.
        Buf<i64> full(tv * C, 0);
        const i64 *vo = voff.data();
        const u64 uC = static_cast<u64>(C);
        for (i64 j = 0; j < n; ++j) {
            const i64 row = rows[j];
            const T *base = tb.rc + static_cast<u64>(row) * um;
            const u64 d = static_cast<u64>(tb.dec[row]);
            for (i64 a = 0; a < m; ++a)
                full[(static_cast<u64>(vo[a]) + static_cast<u64>(base[a])) * uC + d] += 1;
        }
        for (i64 a = 0; a < m; ++a) {
            i64 c = 0;
            for (i64 v = 0; v < nvals[a]; ++v) {
                const i64 o = (voff[a] + v) * C;
                i64 tot = 0;
                for (i64 d = 0; d < C; ++d) tot += full[o + d];
                if (tot > 0) {
                    pv[poff[a] + c] = v;
                    for (i64 d = 0; d < C; ++d) S[(poff[a] + c) * C + d] = full[o + d];
                    ++c;
                }
            }
            npres[a] = c;
        }
    } else {
        for (i64 a = 0; a < m; ++a)
            npres[a] =
                present_counts(a, n, rows, tb, nvals[a], C, ws, poff[a], pv.data(), S.data());
    }
    // Non-constant attributes (ascending).
    Buf<i64> attrs(m);
    i64 K = 0;
    for (i64 a = 0; a < m; ++a)
        if (npres[a] >= 2) attrs[K++] = a;
    // Branches: one per (non-constant attribute, present value), attribute then value order.
    Buf<i64> jbase(K + 1);
    i64 J = 0;
    for (i64 p = 0; p < K; ++p) {
        jbase[p] = J;
        J += npres[attrs[p]];
    }
    jbase[K] = J;
    const Cost &X = P.x, &Y = P.y;
    // 0/1 attributes, two classes, split points that depend on the children's total
    // misclassifications only: the specialised pair loop (d2_binary).
    const bool fastbin = maxv == 2 && C == 2 && (X.combine != MAXK || X.leaf_mis == 0) &&
                         (Y.combine != MAXK || Y.leaf_mis == 0);
    Buf<i64> nbr(J), lfx(J), lfy(J);
    for (i64 p = 0; p < K; ++p) {
        const i64 a = attrs[p];
        for (i64 iv = 0; iv < npres[a]; ++iv) {
            const LeafTerms lt = leaf_terms(tb.lv, S.data() + (poff[a] + iv) * C, C);
            const i64 j = jbase[p] + iv;
            nbr[j] = lt.w;
            lfx[j] = X.leaf(lt.mis);
            lfy[j] = Y.leaf(lt.mis);
        }
    }
    // Each branch's front at remaining depth r - 1, as the children's fronts of bundles.
    Buf<i64> gl(J, 1), gp(J);
    Buf<i64> bpx, bpy;
    const i64 *px = lfx.data(), *py = lfy.data();
    const Branches B{n, K, J, C, (n + 63) >> 6, attrs.data(), npres.data(), poff.data(),
                     voff.data(), pv.data(), S.data(), jbase.data(), nbr.data(), lfx.data(),
                     lfy.data(), &tb.lv};
    if (r <= 1) {
        for (i64 j = 0; j < J; ++j) gp[j] = j;
    } else {
        const i64 W = B.W;
        need = 8 * std::max<i64>(C - 1, 1) * W;
        // d2_binary and what it calls: two K x W bitsets, about 40 K-long arrays.
        if (fastbin) need += 8 * (2 * K * W + 40 * K + W + 64);
        if (need > allow) {
            want = spent + need;
            return D2_NO_MEMORY;
        }
        allow -= need;
        spent += need;
        Buf<u64> cls(std::max<i64>(C - 1, 1) * W, 0);
        for (i64 t = 0; t < n; ++t) {
            const i64 d = tb.dec[rows[t]];
            if (d < C - 1) cls[d * W + (t >> 6)] |= u64{1} << (t & 63);
        }
        if (fastbin) return d2_binary(B, rows, wn, mis, tb, cls.data(), P, s, pb);
        const BranchStatus st = branch_fronts(B, rows, tb, cls.data(), P, ws, many, gp.data(),
                                              gl.data(), pb, allow, want, bpx, bpy);
        if (st != BRANCHES_OK) {
            if (want > 0) {
                want += spent;
                return D2_NO_MEMORY;
            }
            return D2_BUG;
        }
        px = bpx.data();
        py = bpy.data();
    }
    const ChildFronts kids{gp.data(), gl.data(), px, py};
    const i64 cnt = node_front(wn, mis, 1, lvl, 0, K, jbase.data(), 0, P, kids, s, pb);
    for (i64 k = 0; k < std::max<i64>(cnt, 0); ++k)
        if (s.oc[k] >= 0) s.oc[k] = static_cast<i32>(attrs[s.oc[k]]);
    return cnt;
}

// The depth-two subproblems: entry k is node node[k] at remaining depth r[k] (1 or 2),
// subproblem sub[k].
struct Entries {
    Span<const i64> node, r, sub;
};

template <class T>
struct Kernel {
    Entries e;
    TableView<T> tb;
    DagView dag;
    Params params;
    i64 m;      // the table's attributes (a front's length bound: 2n + m + 2)
    i64 many;   // the most present values of a small attribute
    i64 allow;  // bytes each piece may allocate
    Pool pool;
    i64 budget;
};

// A batch: entries c0 .. c0 + nk - 1, entry t's front into out[off[t]:] (room slot[t],
// the largest big), its length into len[t], the bytes it wanted into wants[t].
struct Batch {
    i64 c0, nk, big;
    const i64 *slot, *off;
    BatchOut *out;
    i64 *len, *wants;
};

// The entries of a batch that one worker takes, one at a time from the shared counter
// `next` (len -1: a bug; NO_ROOM: it needs more than `allow` bytes, a worker's share of the
// memory ceiling). The costs of the entries differ by orders of magnitude (a branch's pairs
// of attributes go by its rows), so taking them one by one keeps the workers busy to the
// batch's end, where fixed shares of them (every 16th entry) left one worker alone with the
// heaviest share. Every array of the worker is sized before it is made, once for the batch.
template <class T>
void d2_worker(const Kernel<T> &K, std::atomic<i64> &next, const Batch &bt) {
    const TableView<T> &tb = K.tb;
    const DagView &d = K.dag;
    const i64 C = std::max<i64>(tb.n_dec, 1);
    i64 maxv = 1;
    for (i64 a = 0; a < tb.m; ++a) maxv = std::max(maxv, tb.nvals[a]);
    i64 cap = 64;
    const i64 fixed = workspace_bytes(maxv, C) + 16 * (bt.big + 2);
    if (fixed + SCRATCH_BYTES * cap > K.allow) {
        for (i64 t = next.fetch_add(1); t < bt.nk; t = next.fetch_add(1)) {
            bt.len[t] = NO_ROOM;
            bt.wants[t] = fixed + SCRATCH_BYTES * cap;
        }
        return;
    }
    Workspace ws(maxv, C);
    auto scr = std::make_unique<Scratch>(cap);
    ParetoBuf pb(bt.big + 2);
    for (i64 t = next.fetch_add(1); t < bt.nk; t = next.fetch_add(1)) {
        const i64 i = K.e.node[bt.c0 + t];
        const i32 *rows = d.row_pool.p + d.node_start[i];
        i64 cnt;
        while (true) {
            cnt = d2_front(d.node_size[i], d.node_weight[i], d.node_mis[i], rows,
                           K.e.r[bt.c0 + t], d.node_level[i], tb, K.params, *scr, pb, ws,
                           K.many, K.allow - fixed - SCRATCH_BYTES * cap, bt.wants[t]);
            if (cnt == D2_NO_MEMORY) {
                bt.wants[t] += fixed + SCRATCH_BYTES * cap;  // the piece's own arrays too
                break;
            }
            if (cnt >= 0 || cnt == D2_BUG) break;
            const i64 grown = std::max(-cnt, 2 * cap);
            if (fixed + SCRATCH_BYTES * grown > K.allow) {
                bt.wants[t] = fixed + SCRATCH_BYTES * grown;
                cnt = D2_NO_MEMORY;
                break;
            }
            cap = grown;
            scr.reset();
            scr = std::make_unique<Scratch>(cap);
        }
        if (cnt == D2_NO_MEMORY) {
            bt.len[t] = NO_ROOM;
            continue;
        }
        if (cnt < 0 || cnt > bt.slot[t]) {
            bt.len[t] = -1;
            continue;
        }
        cnt = trim(scr->ox.data(), scr->oy.data(), scr->oc.data(), cnt, d.node_weight[i],
                   d.node_level[i], K.params.raw);
        const i64 o = bt.off[t];
        for (i64 k = 0; k < cnt; ++k) {
            bt.out->x[o + k] = scr->ox[k];
            bt.out->y[o + k] = scr->oy[k];
            bt.out->c[o + k] = scr->oc[k];
        }
        bt.len[t] = cnt;
    }
}

// The fronts of the depth-two subproblems counters[0]: by d2_front, appended to the pool
// (counters[1] points used). Returns DONE, BUDGET_SPENT, MUST_GROW (needs[0] points),
// FRONT_TOO_LONG or OUT_OF_MEMORY (needs[0] the bytes an entry wanted; 0 when a piece
// failed to allocate).
template <class T>
int run(const Kernel<T> &K) {
    const DagView &d = K.dag;
    const i64 total_e = K.e.node.size();
    i64 work = 0;
    KeptBatchOut kept;
    BatchOut &out = kept.out;
    out.reserve(1024);
    Buf<i64> slot(CHUNK_NODES), off(CHUNK_NODES + 1), len(CHUNK_NODES), wants(CHUNK_NODES, 0);
    Span<i64> counters = K.pool.counters;
    while (counters[0] < total_e) {
        if (work >= K.budget) return kept(BUDGET_SPENT);
        const i64 c0 = counters[0];
        i64 c1 = c0, room = 0, bwork = 0;
        while (c1 < total_e && c1 - c0 < CHUNK_NODES) {
            const i64 n = d.node_size[K.e.node[c1]];
            const i64 b = 2 * n + K.m + 2;
            if (c1 > c0 && (room + b > CHUNK_ENTRIES || bwork >= K.budget)) break;
            slot[c1 - c0] = b;
            off[c1 - c0] = room;
            room += b;
            // A pair of attributes costs about a word of the rows' bitsets.
            bwork += n + (K.e.r[c1] >= 2 ? (K.m * K.m * ((n >> 6) + 1)) >> 3 : K.m);
            ++c1;
        }
        const i64 nk = c1 - c0;
        if (room > out.x.size()) {
            out.x = Buf<i64>(room);
            out.y = Buf<i64>(room);
            out.c = Buf<i32>(room);
        }
        std::fill(len.data(), len.data() + nk, NOT_WRITTEN);
        const i64 workers = std::min<i64>(nk, threads());
        const i64 big = *std::max_element(slot.data(), slot.data() + nk);
        const Batch bt{c0, nk, big, slot.data(), off.data(), &out, len.data(), wants.data()};
        std::atomic<i64> next{0};
        parallel_for(workers, [&](i64) { d2_worker(K, next, bt); });
        for (i64 t = 0; t < nk; ++t) {
            if (len[t] == NO_ROOM || len[t] == NOT_WRITTEN) {
                K.pool.needs[0] = len[t] == NO_ROOM ? wants[t] : 0;
                return kept(OUT_OF_MEMORY);
            }
        }
        i64 total;
        const int status =
            store(nk, K.e.sub.p + c0, off.data(), len.data(), out, K.pool, total);
        if (status != DONE) return kept(status);
        work += bwork + total;
        counters[0] = c1;
    }
    return kept(DONE);
}

template <class T>
int run_on(py::nb::handle entries, py::nb::handle table, py::nb::handle leaves,
           py::nb::handle dag, py::nb::handle params, py::nb::handle pool, i64 m, i64 many,
           i64 allow, i64 budget) {
    auto rc = py::field<const T>(table, "rc");
    auto nvals = py::field<const i64>(table, "nvals");
    auto dec = py::field<const i32>(table, "dec");
    i64 n_dec = py::nb::cast<i64>(table.attr("n_dec"));
    // Weighted rows: the counts are of the rows' classes of (decision, weight).
    auto cls = py::field<const i32>(leaves, "cls");
    auto unit = py::field<const i64>(leaves, "unit");
    auto price = py::field<const i64>(leaves, "price");
    Leaves lv;
    std::vector<i64> of(static_cast<std::size_t>(std::max<i64>(unit.size(), 0)), 0);
    if (cls.size() > 0) {
        if (cls.size() != dec.size() || unit.size() < 1 || price.size() % unit.size() != 0)
            throw std::invalid_argument("leaves: cls, unit and price do not fit the table");
        dec = cls;
        n_dec = unit.size();
        lv = Leaves{price.size() / unit.size(), unit.p, price.p,
                    py::nb::cast<i64>(leaves.attr("min_leaf")),
                    py::nb::cast<i64>(leaves.attr("infeasible")), false, nullptr};
        // One weight per decision, no prices: class of counts k is decision k.
        bool own = lv.D == n_dec;
        for (i64 k = 0; own && k < n_dec; ++k)
            for (i64 d = 0; d < lv.D; ++d)
                own = own && price[k * lv.D + d] == (k != d ? unit[k] : 0);
        lv.own = own;
        // No prices: each class's price row is its weight off its own decision.
        bool plain = !own && lv.D <= MAX_OF;
        for (i64 k = 0; plain && k < n_dec; ++k) {
            i64 zeros = 0;
            for (i64 d = 0; d < lv.D; ++d) {
                const i64 p = price[k * lv.D + d];
                zeros += p == 0;
                if (p == 0) of[k] = d;
                plain = plain && (p == 0 || p == unit[k]);
            }
            plain = plain && zeros == 1 && unit[k] > 0;
        }
        if (plain) lv.of = of.data();
    }
    Kernel<T> k{
        Entries{py::field<const i64>(entries, "node"), py::field<const i64>(entries, "r"),
                py::field<const i64>(entries, "sub")},
        TableView<T>{rc.p, nvals.p, nvals.size(), dec.p, dec.size(), n_dec, lv},
        py::dag_view(dag),
        Params::of(py::span<const i64>(params, "params")),
        m,
        many,
        allow,
        py::pool_view(pool),
        budget,
    };
    py::nb::gil_scoped_release free;
    try {
        return run(k);
    } catch (const std::bad_alloc &) {
        return static_cast<int>(OUT_OF_MEMORY);
    }
}

}  // namespace
}  // namespace fronts

namespace py {

void bind_depth_two(nb::module_ &m) {
    m.def(
        "depth_two_run",
        [](nb::handle entries, nb::handle table, nb::handle leaves, nb::handle dag,
           nb::handle params, nb::handle pool, i64 n_attributes, i64 many, i64 allow,
           i64 budget) {
            nb::handle rc = table.attr("rc");
            if (is<u8>(rc))
                return fronts::run_on<u8>(entries, table, leaves, dag, params, pool, n_attributes,
                                          many, allow, budget);
            if (is<i32>(rc))
                return fronts::run_on<i32>(entries, table, leaves, dag, params, pool,
                                           n_attributes, many, allow, budget);
            throw nb::type_error("table.rc: uint8 or int32 expected");
        },
        nb::arg("entries"), nb::arg("table"), nb::arg("leaves"), nb::arg("dag"),
        nb::arg("params"), nb::arg("pool"),
        nb::arg("n_attributes"), nb::arg("many"), nb::arg("allow"), nb::arg("budget"),
        "The fronts of the depth-two subproblems from counters[0] on, from class counts "
        "(resumable: DONE, BUDGET_SPENT, MUST_GROW, FRONT_TOO_LONG, OUT_OF_MEMORY). The "
        "arguments are the named tuples of dagger_cli.engine.kernels.depth_two and fronts.");
}

}  // namespace py
}  // namespace dagger
