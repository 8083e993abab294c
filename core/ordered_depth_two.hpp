// The ordered solver's depth-two trees, where most of its time goes.
//
// - sides_d1 (the depth-two pass): the least misclassifications over depth <= 1 of both
//   sides of one root split, on the packed subtable. Per ordered attribute, its rows are
//   split into the two sides' sequences (stable, without a branch) and each side is swept
//   on its own; a nominal attribute's groups are counted per side in one pass. One side
//   alone may be asked for (the other gets its leaf's errors).
// - d2_counts: the least misclassifications at depth <= 2 from class counts per pair of
//   attributes' codes (one pass over the rows per pair), when every attribute has few
//   codes: every root split's sides are scored from the counts (the depth-two layer of the
//   DAG engine, for ordered attributes).
// - front2_ordered: the trees of depth 2 rooted at a split of one ordered attribute,
//   merged into a working front, when every split into leaves of a side costs the same x.
//   A threshold after p rows makes at most four points (both sides leaves: the depth-one
//   front has the best of those; one side split; the other; both); their x are known from
//   the sizes and the sides' leaf errors from prefix class counts, so only the sides' best
//   splits need a pass, and a side is passed only if a point with its split can be on the
//   front or another threshold of the interval can use its errors as a bound. Before a
//   pass, each threshold of the interval is bounded on its own (a side's best split errs no
//   less than the same side's at the evaluated neighbour it contains, and no less than the
//   neighbour's that contains it minus the rows between); a threshold whose four bounded
//   points are all weakly dominated is skipped.
#pragma once

#include <utility>

#include "ordered_depth_one.hpp"
#include "ordered_intervals.hpp"

namespace dagger::ordered {

// The sides a depth-two pass sweeps.
enum : int { LEFT = 1, RIGHT = 2, BOTH = 3 };

// The depth-two pass's sequences (m + 1 each) and class counts, made once per subtable.
struct SidesScratch {
    vec<i32> lc, lk, rc, rk;
    vec<i64> cntL, cntR;
    SidesScratch(i64 m, i64 C)
        : lc(static_cast<std::size_t>(m + 1)),
          lk(static_cast<std::size_t>(m + 1)),
          rc(static_cast<std::size_t>(m + 1)),
          rk(static_cast<std::size_t>(m + 1)),
          cntL(static_cast<std::size_t>(C)),
          cntR(static_cast<std::size_t>(C)) {}
};

// The least misclassifications of both sides of a split over depth <= 1: the root
// attribute split at threshold code t (a row goes right when its code in pk.sa exceeds t),
// nl rows and class totals totL on the left, totR on the right. `which` (LEFT, RIGHT,
// BOTH): the sides to pass; a side not passed gets its leaf's errors.
inline std::pair<i64, i64> sides_d1(const Packed &pk, i64 t, const i8 *kinds, i64 A, i64 C,
                                    i64 nl, const i64 *totL, const i64 *totR, int which,
                                    SidesScratch &w) {
    const i64 m = pk.m, nr = m - nl;
    const bool doL = which != RIGHT, doR = which != LEFT;
    i64 bestL = doL ? nl - largest(totL, C) : 0;
    i64 bestR = doR ? nr - largest(totR, C) : 0;
    i64 *cntL = w.cntL.data(), *cntR = w.cntR.data();
    for (i64 b = 0; b < A; ++b) {
        if (bestL == 0 && bestR == 0) break;
        const i32 *col = pk.cb.data() + b * m;
        const i32 *cl = pk.cls.data() + b * m;
        const i32 *sd = pk.sa.data() + b * m;
        if (kinds[b] == 1) {
            i32 *Lc = w.lc.data(), *Lk = w.lk.data(), *Rc = w.rc.data(), *Rk = w.rk.data();
            if (which == BOTH) {
                i64 i = 0, j = 0;
                for (i64 q = 0; q < m; ++q) {
                    const i32 v = col[q], c = cl[q];
                    const i64 s = sd[q] > t;
                    Lc[i] = v;
                    Lk[i] = c;
                    Rc[j] = v;
                    Rk[j] = c;
                    i += 1 - s;
                    j += s;
                }
            } else {  // one side's sequence only
                const i64 keep = which == RIGHT;
                i32 *oc = which == RIGHT ? Rc : Lc;
                i32 *ok = which == RIGHT ? Rk : Lk;
                i64 i = 0;
                for (i64 q = 0; q < m; ++q) {
                    oc[i] = col[q];
                    ok[i] = cl[q];
                    i += static_cast<i64>(sd[q] > t) == keep;
                }
            }
            if (C == 2) {
                if (bestL > 0) bestL = sweep2(Lc, Lk, nl, totL[1], bestL);
                if (bestR > 0) bestR = sweep2(Rc, Rk, nr, totR[1], bestR);
            } else {
                if (bestL > 0) bestL = sweep(Lc, Lk, nl, totL, bestL, C, cntL);
                if (bestR > 0) bestR = sweep(Rc, Rk, nr, totR, bestR, C, cntR);
            }
        } else {
            std::fill(cntL, cntL + C, 0);
            std::fill(cntR, cntR + C, 0);
            i64 lastL = -1, lastR = -1, eL = 0, eR = 0, kL = 0, kR = 0, gL = 0, gR = 0;
            for (i64 q = 0; q <= m; ++q) {
                const i64 v = q < m ? col[q] : -2;
                if (v != lastL && gL > 0) {
                    eL += gL - largest(cntL, C);
                    ++kL;
                    std::fill(cntL, cntL + C, 0);
                    gL = 0;
                }
                if (v != lastR && gR > 0) {
                    eR += gR - largest(cntR, C);
                    ++kR;
                    std::fill(cntR, cntR + C, 0);
                    gR = 0;
                }
                if (q == m) break;
                if (sd[q] <= t) {
                    ++cntL[cl[q]];
                    ++gL;
                    lastL = v;
                } else {
                    ++cntR[cl[q]];
                    ++gR;
                    lastR = v;
                }
            }
            if (doL && kL >= 2 && eL < bestL) bestL = eL;
            if (doR && kR >= 2 && eR < bestR) bestR = eR;
        }
    }
    if (!doL) bestL = nl - largest(totL, C);
    if (!doR) bestR = nr - largest(totR, C);
    return {bestL, bestR};
}

// The least misclassifications over the trees of depth <= 2 of s from class counts per
// pair of attributes' codes, for attributes of few codes (T.nv). choice gets the best
// tree's root: (attribute, threshold code, kind), attribute -1 for the leaf.
inline i64 d2_counts(const Table &T, const Workspace &W, Sub s, i64 *choice) {
    const i64 A = T.A, C = T.C, m = s.m;
    i64 V = 1;
    for (i64 a = 0; a < A; ++a) V = std::max(V, T.nv[a]);
    const i32 *lst = rows(T, W, s, 0);
    vec<i64> total(static_cast<std::size_t>(C)), left(static_cast<std::size_t>(C));
    counts(lst, m, T.dec, total.data(), C);
    const i64 leaf = m - largest(total.data(), C);
    i64 best_v = leaf;
    choice[0] = -1;
    choice[1] = -1;
    choice[2] = LEAF;
    // per attribute: class counts per code
    vec<i64> one(static_cast<std::size_t>(A * V * C), 0);
    auto ONE = [&](i64 a, i64 v) { return one.data() + (a * V + v) * C; };
    for (i64 q = 0; q < m; ++q) {
        const i64 row = lst[q];
        for (i64 a = 0; a < A; ++a) ++ONE(a, T.col(a)[row])[T.dec[row]];
    }
    auto group = [&](i64 a, i64 i) {
        i64 g = 0;
        for (i64 c = 0; c < C; ++c) g += ONE(a, i)[c];
        return g;
    };
    // the depth-one trees
    for (i64 a = 0; a < A; ++a) {
        const i64 v = split_mis(ONE(a, 0), T.nv[a], C, T.ordered(a), total.data(), m, left.data());
        if (v < best_v) {
            best_v = v;
            choice[0] = a;
            choice[2] = T.ordered(a) ? ORDERED : NOMINAL;
            choice[1] = -1;
            if (T.ordered(a)) {  // its threshold: the best one, again
                vec<i64> lf(static_cast<std::size_t>(C), 0);
                i64 nl = 0;
                for (i64 j = 0; j < T.nv[a] - 1; ++j) {
                    for (i64 c = 0; c < C; ++c) {
                        lf[c] += ONE(a, j)[c];
                        nl += ONE(a, j)[c];
                    }
                    if (0 < nl && nl < m) {
                        i64 ml = 0, mr = 0;
                        for (i64 c = 0; c < C; ++c) {
                            ml = std::max(ml, lf[c]);
                            mr = std::max(mr, total[c] - lf[c]);
                        }
                        if (m - ml - mr == v) {
                            choice[1] = j;
                            break;
                        }
                    }
                }
            }
        }
    }
    if (best_v == 0) return best_v;
    vec<i64> pair(static_cast<std::size_t>(V * V * C), 0);
    vec<i64> cum(static_cast<std::size_t>(V * C), 0), other(static_cast<std::size_t>(V * C), 0);
    vec<i64> side_tot(static_cast<std::size_t>(C), 0), other_tot(static_cast<std::size_t>(C), 0);
    vec<i64> d1L(static_cast<std::size_t>(V)), d1R(static_cast<std::size_t>(V));
    for (i64 a = 0; a < A; ++a) {
        const i64 na = T.nv[a];
        const i32 *ca = T.col(a);
        // the sides' depth-one errors along every attribute b, for every threshold i of a
        for (i64 i = 0; i < na; ++i) {
            d1L[i] = INF;
            d1R[i] = INF;
        }
        for (i64 b = 0; b < A; ++b) {
            const i64 nb = T.nv[b];
            const i32 *cb = T.col(b);
            for (i64 i = 0; i < na; ++i)
                std::fill(pair.data() + i * V * C, pair.data() + (i * V + nb) * C, 0);
            for (i64 q = 0; q < m; ++q) {
                const i64 row = lst[q];
                ++pair[(ca[row] * V + cb[row]) * C + T.dec[row]];
            }
            if (T.ordered(a)) {
                std::fill(cum.data(), cum.data() + nb * C, 0);
                std::fill(side_tot.begin(), side_tot.end(), 0);
                i64 nl = 0;
                for (i64 i = 0; i < na - 1; ++i) {
                    for (i64 j = 0; j < nb; ++j)
                        for (i64 c = 0; c < C; ++c) cum[j * C + c] += pair[(i * V + j) * C + c];
                    for (i64 c = 0; c < C; ++c) side_tot[c] += ONE(a, i)[c];
                    nl += group(a, i);
                    if (nl == 0 || nl == m) continue;
                    const i64 vl =
                        split_mis(cum.data(), nb, C, T.ordered(b), side_tot.data(), nl, left.data());
                    for (i64 j = 0; j < nb; ++j)
                        for (i64 c = 0; c < C; ++c) other[j * C + c] = ONE(b, j)[c] - cum[j * C + c];
                    for (i64 c = 0; c < C; ++c) other_tot[c] = total[c] - side_tot[c];
                    const i64 vr = split_mis(other.data(), nb, C, T.ordered(b), other_tot.data(),
                                             m - nl, left.data());
                    d1L[i] = std::min(d1L[i], vl);
                    d1R[i] = std::min(d1R[i], vr);
                }
            } else {
                // a nominal root: each value's group split along b
                for (i64 i = 0; i < na; ++i) {
                    const i64 g = group(a, i);
                    if (g == 0) continue;
                    const i64 vg = split_mis(pair.data() + i * V * C, nb, C, T.ordered(b), ONE(a, i),
                                             g, left.data());
                    d1L[i] = std::min(d1L[i], vg);
                }
            }
        }
        if (T.ordered(a)) {
            std::fill(side_tot.begin(), side_tot.end(), 0);
            i64 nl = 0;
            for (i64 i = 0; i < na - 1; ++i) {
                for (i64 c = 0; c < C; ++c) side_tot[c] += ONE(a, i)[c];
                nl += group(a, i);
                if (nl == 0 || nl == m) continue;
                i64 ml = 0, mr = 0;
                for (i64 c = 0; c < C; ++c) {
                    ml = std::max(ml, side_tot[c]);
                    mr = std::max(mr, total[c] - side_tot[c]);
                }
                const i64 v = std::min(d1L[i], nl - ml) + std::min(d1R[i], (m - nl) - mr);
                if (v < best_v) {
                    best_v = v;
                    choice[0] = a;
                    choice[1] = i;
                    choice[2] = ORDERED;
                }
            }
        } else {
            i64 v = 0, k = 0;
            for (i64 i = 0; i < na; ++i) {
                const i64 g = group(a, i);
                if (g == 0) continue;
                ++k;
                v += std::min(d1L[i], g - largest(ONE(a, i), C));
            }
            if (k >= 2 && v < best_v) {
                best_v = v;
                choice[0] = a;
                choice[1] = -1;
                choice[2] = NOMINAL;
            }
        }
    }
    return best_v;
}

// The trees of depth 2 rooted at a split of ordered attribute a of s, merged into the
// working front F, when every split into leaves of a side costs the same x. pk: the
// subtable packed (pack; its sa is rewritten here for a).
inline void front2_ordered(const Table &T, const Workspace &W, Sub s, i64 a, i64 hint,
                           const Cost &px, Packed &pk, Stats st, vec<Tagged> &F) {
    const i64 m = s.m, C = T.C;
    const i64 comb = px.comb, lc = px.lc, sc = px.sc, sr = px.sr;
    const i64 split_x = sc + sr * m;
    const i32 *lst = rows(T, W, s, a);
    const i32 *col = T.col(a);
    vec<i64> total(static_cast<std::size_t>(C));
    counts(lst, m, T.dec, total.data(), C);
    vec<i64> pos(static_cast<std::size_t>(m));
    const i64 K = boundaries(lst, m, col, pos.data());
    if (K == 0) return;
    // the sides' leaf errors at every threshold, from prefix class counts
    vec<i64> misL(static_cast<std::size_t>(K)), misR(static_cast<std::size_t>(K));
    side_leaves(lst, m, T.dec, C, total.data(), pos.data(), K, misL.data(), misR.data());
    // a side's split into two leaves errs no less than its rows less its two largest
    // classes (binary splits only: a nominal split may have more leaves)
    vec<i64> two_cls;
    if (C > 2 && T.all_ordered)
        two_cls = class_bounds(lst, m, T.dec, C, total.data(), pos.data(), K, 2);
    else
        two_cls.assign(static_cast<std::size_t>(K * 4), 0);
    vec<i64> d1L(static_cast<std::size_t>(K), 0), d1R(static_cast<std::size_t>(K), 0);
    vec<i64> totL(static_cast<std::size_t>(C), 0), totR(static_cast<std::size_t>(C), 0);
    IntervalPruner iv(pos.data(), K, hint);
    const i64 two_leaf = comb ? lc : 2 * lc;
    // the x range of the candidates' points, and the front's y bound over it
    const i64 x_lo = lc;
    const i64 x_hi = split_x + (comb ? std::max(sc + sr * m + two_leaf, lc)
                                     : 2 * (sc + sr * m + two_leaf));
    vec<i64> lim = ylim(F, x_lo, x_hi);
    auto at = [&](i64 x) { return lim[std::min(x, x_hi) - x_lo]; };
    bool first_eval = true;  // the root attribute's codes are packed at the first pass
    SidesScratch w(m, C);
    while (!iv.empty()) {
        const Interval I = iv.pop();
        if (st.aborted()) break;
        // screen every threshold of the interval on its own bounds
        i64 pick = -1, pick_l = 0, pick_r = 0, best_gap = INF;
        const i64 want = iv.want(I);
        i64 alive = 0, uses_l = 0, uses_r = 0;
        bool pick_uses_l = false, pick_uses_r = false;
        i64 lim_l = 0, lim_r = 0, lim_b = 0;
        for (i64 kk = I.lo; kk <= I.hi; ++kk) {
            const i64 p = pos[kk];
            i64 lb_l = 0, lb_r = 0;
            if (I.ln >= 0) {
                lb_l = std::max(lb_l, d1L[I.ln]);
                lb_r = std::max(lb_r, d1R[I.ln] - (p - pos[I.ln]));
            }
            if (I.rn >= 0) {
                lb_l = std::max(lb_l, d1L[I.rn] - (pos[I.rn] - p));
                lb_r = std::max(lb_r, d1R[I.rn]);
            }
            lb_l = std::max(lb_l, two_cls[(kk * 2 + 0) * 2 + 1]);
            lb_r = std::max(lb_r, two_cls[(kk * 2 + 1) * 2 + 1]);
            lb_l = std::min(lb_l, misL[kk]);
            lb_r = std::min(lb_r, misR[kk]);
            const i64 xl = sc + sr * p + two_leaf;
            const i64 xr = sc + sr * (m - p) + two_leaf;
            i64 x0, x1, x2;
            if (comb) {
                x0 = split_x + std::max(xl, lc);
                x1 = split_x + std::max(lc, xr);
                x2 = split_x + std::max(xl, xr);
            } else {
                x0 = split_x + xl + lc;
                x1 = split_x + lc + xr;
                x2 = split_x + xl + xr;
            }
            // the front's least y at each point's x
            const i64 lim0 = at(x0), lim1 = at(x1), lim2 = at(x2);
            const bool l0 = lb_l + misR[kk] < lim0;
            const bool l1 = misL[kk] + lb_r < lim1;
            const bool l2 = lb_l + lb_r < lim2;
            if (!(l0 || l1 || l2)) {
                st.add(S_PRUNED);
                continue;
            }
            ++alive;
            uses_l += l0 || l2;
            uses_r += l1 || l2;
            const i64 gap = std::abs(kk - want);
            if (gap < best_gap) {
                best_gap = gap;
                pick = kk;
                pick_l = lb_l;
                pick_r = lb_r;
                pick_uses_l = l0 || l2;
                pick_uses_r = l1 || l2;
                lim_l = lim0;
                lim_r = lim1;
                lim_b = lim2;
            }
        }
        if (pick < 0) continue;
        iv.evaluated();
        const i64 mid = pick, p = pos[mid];
        st.add(S_EVALUATED);
        if (first_eval) {
            root_codes(T, W, s, a, pk.sa.data());
            first_eval = false;
        }
        std::fill(totL.begin(), totL.end(), 0);
        for (i64 q = 0; q < p; ++q) ++totL[T.dec[lst[q]]];
        for (i64 c = 0; c < C; ++c) totR[c] = total[c] - totL[c];
        // A side is passed if a point with its split can be on the front, or if another
        // threshold of the interval can use the side's errors as a bound: the side that
        // gains more first, then the other (if still needed) with its sibling's exact
        // errors. A side not passed keeps its bound for the neighbours, and its leaf.
        const i64 t = col[lst[p - 1]];
        const bool keep_l = uses_l > static_cast<i64>(pick_uses_l);
        const bool keep_r = uses_r > static_cast<i64>(pick_uses_r);
        i64 bl = misL[mid], br = misR[mid];
        d1L[mid] = pick_l;
        d1R[mid] = pick_r;
        auto pass = [&](int which) {
            return sides_d1(pk, t, T.kinds, T.A, C, p, totL.data(), totR.data(), which, w);
        };
        if (keep_l && keep_r) {
            std::tie(bl, br) = pass(BOTH);
            d1L[mid] = bl;
            d1R[mid] = br;
        } else {
            bool left_first;
            if (keep_l || keep_r)
                left_first = keep_l;
            else if (pick_uses_l && pick_uses_r)
                left_first = lim_l - (pick_l + misR[mid]) >= lim_r - (misL[mid] + pick_r);
            else
                left_first = pick_uses_l;
            if (left_first) {
                bl = pass(LEFT).first;
                d1L[mid] = bl;
                if (keep_r || misL[mid] + pick_r < lim_r || bl + pick_r < lim_b) {
                    br = pass(RIGHT).second;
                    d1R[mid] = br;
                }
            } else {
                br = pass(RIGHT).second;
                d1R[mid] = br;
                if (keep_l || pick_l + misR[mid] < lim_l || pick_l + br < lim_b) {
                    bl = pass(LEFT).first;
                    d1L[mid] = bl;
                }
            }
        }
        const vec<XY> L = side_front1(misL[mid], bl, lc, sc + sr * p + two_leaf);
        const vec<XY> R = side_front1(misR[mid], br, lc, sc + sr * (m - p) + two_leaf);
        const vec<XY> cxy = combine(L, R, comb);
        if (!all_dominated(cxy, split_x, F)) {  // else the merge keeps the front
            F = merge(F, cxy, split_x, ORDERED, a, t);
            ylim_add(lim, cxy, split_x, x_lo, x_hi);
        }
        if (alive > 1) iv.split(I, mid);
    }
}

}  // namespace dagger::ordered
