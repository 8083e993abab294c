// The ordered solver's depth-one trees: the front at remaining depth <= 1 and the sweeps
// that find a sequence's best split into two leaves.
//
// The front at depth <= 1 of a set of rows is the Pareto front of its leaf and its best
// split into leaves per attribute (an ordered attribute's least-error threshold, a nominal
// attribute's split into its values): depth_one_front. A subtable's (front1) sweeps every
// attribute's rows once with prefix class counts; a side of a depth-two split
// (side_front1) has its leaf's errors and its best split's from the depth-two pass.
//
// sweep finds the least errors of one threshold split of a sequence of rows sorted by one
// attribute, below a bound: a split that errs e >= best skips the next e - best rows
// (moving a row across changes the errors by at most one); sweep2 is the same for two
// classes; sweep_w, with weights, skips the rows whose weight adds up to e - best (moving a
// row changes the errors by at most its weight). split_mis reads a side's best split off
// class counts per code instead.
#pragma once

#include "ordered_front.hpp"
#include "ordered_subtable.hpp"

namespace dagger::ordered {

// The parameters of a cost x the fronts kernel pairs with misclassifications: children
// combined by max (comb != 0) or sum, a leaf's cost lc, a split's sc + sr * rows.
// choice != 0: the pair is false positives (x) against false negatives (y) on a table of
// two classes, 1 the positive one (the driver's): a leaf takes either decision, so it has
// two points, (its rows of class 0, 0) deciding positive and (0, its rows of class 1)
// deciding negative; a split adds nothing (comb, lc, sc, sr are 0).
struct Cost {
    i64 comb, lc, sc, sr, choice = 0;
};
// The depth's (the misclassification search: depth max, a split 1).
inline constexpr Cost DEPTH{1, 0, 1, 0};

// The front of a leaf with a choice of decision (Cost::choice), class counts total (class 1
// the positive one), x ascending: (0, its positive rows) deciding negative and (its
// negative rows, 0) deciding positive; a pure leaf's (0, 0).
template <class P>
void choice_leaf(const i64 *total, vec<P> &out) {
    auto point = [](i64 x, i64 y) {
        P p{};
        p.x = x, p.y = y;
        return p;
    };
    if (total[0] == 0 || total[1] == 0) {
        out.push_back(point(0, 0));
    } else {
        out.push_back(point(0, total[1]));
        out.push_back(point(total[0], 0));
    }
}

// The front at depth <= 1 from the leaf and the candidate splits.
template <class P>
void depth_one_front(vec<P> &candidates) {
    pareto(candidates);
}

// The front at remaining depth 1 of the subtable s: the leaf and every split into leaves.
inline vec<Tagged> front1_choice(const Table &T, const Workspace &W, Sub s,
                                 Span<const XY> bound = {}, vec<Tagged> *relaxed = nullptr);

inline vec<Tagged> front1(const Table &T, const Workspace &W, Sub s, const Cost &px,
                          Span<const XY> bound = {}) {
    if (px.choice) return front1_choice(T, W, s, bound);
    const i64 m = s.m, C = T.C;
    vec<i64> total(static_cast<std::size_t>(C));
    counts(rows(T, W, s, 0), m, T.dec, total.data(), C, T.wt);
    const i64 wm = sum(total.data(), C);  // the rows' weight (m without weights)
    const i64 mis = leaf_cost(total.data(), C, T.price);
    vec<Tagged> pts;
    pts.reserve(static_cast<std::size_t>(1 + T.A));
    pts.push_back({px.lc, mis, LEAF, -1, -1});
    if (mis == 0 || m <= 1) {
        depth_one_front(pts);
        return pts;
    }
    const i64 split_x = px.sc + px.sr * wm;
    vec<i64> left(static_cast<std::size_t>(C)), tmp(static_cast<std::size_t>(C));
    for (i64 a = 0; a < T.A; ++a) {
        const i32 *lst = rows(T, W, s, a);
        const i32 *col = T.col(a);
        std::fill(left.begin(), left.end(), 0);
        if (T.ordered(a)) {
            i64 least = INF, code = -1;
            for (i64 p = 1; p < m; ++p) {
                left[T.dec[lst[p - 1]]] += T.w(lst[p - 1]);
                if (col[lst[p]] == col[lst[p - 1]]) continue;
                if (p < T.min_leaf || m - p < T.min_leaf) continue;
                i64 e;
                if (T.price) {
                    e = leaf_cost(left.data(), C, T.price) +
                        rest_cost(total.data(), left.data(), C, T.price, tmp.data());
                } else {
                    i64 ml = 0, mr = 0;
                    for (i64 c = 0; c < C; ++c) {
                        ml = std::max(ml, left[c]);
                        mr = std::max(mr, total[c] - left[c]);
                    }
                    e = wm - ml - mr;
                }
                if (e < least) {
                    least = e;
                    code = col[lst[p - 1]];
                }
            }
            if (code >= 0)
                pts.push_back({split_x + (px.comb ? px.lc : 2 * px.lc), least, ORDERED, a, code});
        } else {
            i64 e = 0, k = 0, size = 0, start = 0, least = m;
            for (i64 p = 0; p < m; ++p) {
                left[T.dec[lst[p]]] += T.w(lst[p]);
                size += T.w(lst[p]);
                if (p == m - 1 || col[lst[p + 1]] != col[lst[p]]) {
                    e += T.price ? leaf_cost(left.data(), C, T.price)
                                 : size - largest(left.data(), C);
                    ++k;
                    least = std::min(least, p + 1 - start);  // the group's rows
                    start = p + 1;
                    std::fill(left.begin(), left.end(), 0);
                    size = 0;
                }
            }
            if (k >= 2 && least >= T.min_leaf) pts.push_back({split_x + (px.comb ? px.lc : k * px.lc), e, NOMINAL, a, -1});
        }
    }
    depth_one_front(pts);
    return pts;
}

// Which of two equal points a front of front1_choice keeps: the first in the search's
// order (the leaf, then the attributes in order, an ordered one's thresholds ascending).
inline bool first_of(const Tagged &a, const Tagged &b) {
    const i64 ka = a.kind == LEAF ? -1 : a.attr, kb = b.kind == LEAF ? -1 : b.attr;
    return ka < kb || (ka == kb && a.code < b.code);
}

// Add q to the staircase st, the points coming x ascending, y descending (ties as first_of).
inline void chain_push(vec<Tagged> &st, const Tagged &q) {
    if (!st.empty()) {
        Tagged &last = st.back();
        if (q.y > last.y || (q.y == last.y && q.x > last.x)) return;  // dominated
        if (q.x == last.x && q.y == last.y) {
            if (first_of(q, last)) last = q;
            return;
        }
        if (q.x == last.x) st.pop_back();  // q dominates the last point
    }
    st.push_back(q);
}

// The staircase of two staircases' points (ties as first_of), in one pass.
inline vec<Tagged> merge_fronts(const vec<Tagged> &a, const vec<Tagged> &b) {
    vec<Tagged> out;
    out.reserve(a.size() + b.size());
    std::size_t i = 0, j = 0;
    i64 least = INF;
    while (i < a.size() || j < b.size()) {
        bool take_a;
        if (j == b.size())
            take_a = true;
        else if (i == a.size())
            take_a = false;
        else if (a[i].x != b[j].x || a[i].y != b[j].y)
            take_a = before(a[i], b[j]);
        else
            take_a = first_of(a[i], b[j]) || !first_of(b[j], a[i]);
        const Tagged &t = take_a ? a[i++] : b[j++];
        if (t.y < least) {
            least = t.y;
            out.push_back(t);
        }
    }
    return out;
}

// Add q to a staircase built x descending (down: reversed after), ties as first_of.
inline void down_push(vec<Tagged> &down, const Tagged &q) {
    if (!down.empty()) {  // down's last has x >= q's and y <= q's
        Tagged &last = down.back();
        if (q.x == last.x) {
            if (q.y == last.y && first_of(q, last)) last = q;
            return;
        }
        if (q.y == last.y) {  // q, of less x, dominates the last
            last = q;
            return;
        }
    }
    down.push_back(q);
}

// front1 for a leaf with a choice of decision (false positives against negatives, two
// classes; rows counted by their weights): the leaf's points and, per split, every labelling
// of its leaves: a threshold with (n0, n1) rows per class on its <= side makes (n0, T1 - n1)
// (<= positive, > negative) and (T0 - n0, n1) (the other way round; both sides alike are the
// leaf's points); a nominal attribute's split the front of its leaves' points summed. Along
// an attribute's thresholds the first labelling's points come x ascending and y descending,
// the second's the other way round: each is a staircase in one pass, and the staircases are
// merged. A threshold's point weakly dominated by the staircase `bound` is left out as it
// comes (a pointer into the bound follows each labelling's x); such a point only ever
// dominates points the bound dominates too, so the others are those of the whole front.
// Under a minimum leaf size (T.min_leaf) only the splits whose every child holds that many
// rows; `relaxed` (or null) gets the front without it in the same pass (every split), which
// the fronts kernel's bounds read (Search::relaxed).
inline vec<Tagged> front1_choice(const Table &T, const Workspace &W, Sub s,
                                 Span<const XY> bound, vec<Tagged> *relaxed) {
    const i64 m = s.m, nb = bound.size(), K = T.min_leaf;
    i64 total[2] = {0, 0};
    counts(rows(T, W, s, 0), m, T.dec, total, 2, T.wt);
    vec<Tagged> pts;
    vec<XY> leaf;
    choice_leaf(total, leaf);
    for (const XY &p : leaf) pts.push_back({p.x, p.y, LEAF, -1, -1});
    if (total[0] == 0 || total[1] == 0 || m <= 1) {
        if (relaxed != nullptr) *relaxed = pts;
        return pts;
    }
    // [0]: the front under K; [1]: without it (with `relaxed` and K > 1 only)
    const bool two = relaxed != nullptr && K > 1;
    vec<Tagged> front[2] = {pts, two ? pts : vec<Tagged>{}};
    vec<Tagged> up[2], down[2];
    for (i64 a = 0; a < T.A; ++a) {
        const i32 *lst = rows(T, W, s, a);
        const i32 *col = T.col(a);
        for (i64 j = 0; j < 2; ++j) up[j].clear(), down[j].clear();
        if (T.ordered(a)) {
            // up: x ascending (a pointer bu into the bound from its left); down: x
            // descending as the thresholds come (bd from the bound's right), reversed after
            i64 n[2] = {0, 0}, bu = 0, bd = nb;
            i32 row = lst[0], c_row = col[row];  // the row before p and its code
            for (i64 p = 1; p < m; ++p) {
                n[T.dec[row]] += T.w(row);
                const i32 next = lst[p], c_next = col[next];
                const i64 code = c_row;
                row = next;
                c_row = c_next;
                if (c_next == code) continue;
                const bool ok = p >= K && m - p >= K;
                if (!ok && !two) continue;
                const Tagged qu{n[0], total[1] - n[1], ORDERED, a, code};
                while (bu < nb && bound[bu].x <= qu.x) ++bu;
                if (bu == 0 || bound[bu - 1].y > qu.y) {
                    if (ok) chain_push(up[0], qu);
                    if (two) chain_push(up[1], qu);
                }
                const Tagged qd{total[0] - n[0], n[1], ORDERED, a, code};
                while (bd > 0 && bound[bd - 1].x > qd.x) --bd;
                if (bd > 0 && bound[bd - 1].y <= qd.y) continue;
                if (ok) down_push(down[0], qd);
                if (two) down_push(down[1], qd);
            }
            for (i64 j = 0; j < (two ? 2 : 1); ++j) {
                std::reverse(down[j].begin(), down[j].end());
                if (!up[j].empty()) front[j] = merge_fronts(front[j], up[j]);
                if (!down[j].empty()) front[j] = merge_fronts(front[j], down[j]);
            }
        } else {
            vec<XY> acc{{0, 0}}, one;
            i64 n[2] = {0, 0}, k = 0, least = m, start = 0;
            for (i64 p = 0; p < m; ++p) {
                n[T.dec[lst[p]]] += T.w(lst[p]);
                if (p == m - 1 || col[lst[p + 1]] != col[lst[p]]) {
                    one.clear();
                    choice_leaf(n, one);
                    acc = combine(acc, one, 0);
                    ++k;
                    n[0] = n[1] = 0;
                    least = std::min(least, p + 1 - start);  // the group's rows
                    start = p + 1;
                }
            }
            if (k >= 2) {
                for (const XY &q : acc) up[0].push_back({q.x, q.y, NOMINAL, a, -1});
                if (least >= K) front[0] = merge_fronts(front[0], up[0]);
                if (two) front[1] = merge_fronts(front[1], up[0]);
            }
        }
    }
    if (relaxed != nullptr) *relaxed = two ? std::move(front[1]) : front[0];
    return std::move(front[0]);
}

// A side's front at depth <= 1 from its leaf's and its best split's errors.
inline vec<XY> side_front1(i64 leaf_mis, i64 split_mis, i64 lc, i64 split_x) {
    vec<XY> pts;
    pts.reserve(2);
    pts.push_back({lc, leaf_mis});
    pts.push_back({split_x, split_mis});
    depth_one_front(pts);
    return pts;
}

// Misclassifications of a split into two leaves: cnt rows per class below, tot in all.
inline i64 split_errors(const i64 *cnt, const i64 *tot, i64 size, i64 C) {
    i64 ml = 0, mr = 0;
    for (i64 c = 0; c < C; ++c) {
        if (cnt[c] > ml) ml = cnt[c];
        if (tot[c] - cnt[c] > mr) mr = tot[c] - cnt[c];
    }
    return size - ml - mr;
}

// The least errors of a split into two leaves of the n rows (codes vc ascending, classes
// vk, class totals tot) if below best, else best. Only the splits with at least ml rows on
// either side (a minimum leaf size; 1: every split).
inline i64 sweep(const i32 *vc, const i32 *vk, i64 n, const i64 *tot, i64 best, i64 C, i64 *cnt,
                 i64 ml = 1) {
    std::fill(cnt, cnt + C, 0);
    i64 last = -1, skip = 0;
    for (i64 q = 0; q < n; ++q) {
        const i64 v = vc[q];
        if (skip > 0) {
            --skip;
        } else if (v != last && last >= 0 && q >= ml && q <= n - ml) {
            const i64 e = split_errors(cnt, tot, n, C);
            if (e < best) {
                best = e;
                if (best == 0) return 0;
            } else {
                skip = e - best;
                if (skip >= n - ml - q) return best;  // no row left to score
            }
        }
        ++cnt[vk[q]];
        last = v;
    }
    return best;
}

// sweep with weights (vw: the rows' weights, n rows of weight wn; ml as sweep's, in rows):
// moving a row across
// changes the errors by at most its weight, so a split that errs e >= best skips the rows
// that follow while their weight is at most e - best.
// With prices (price, F: the largest), a split costs its sides' leaves' least prices and a
// row moved changes that by at most its weight times F.
inline i64 sweep_w(const i32 *vc, const i32 *vk, const i32 *vw, i64 n, i64 wn, const i64 *tot,
                   i64 best, i64 C, i64 *cnt, const i64 *price = nullptr, i64 F = 1,
                   i64 *tmp = nullptr, i64 ml = 1) {
    std::fill(cnt, cnt + C, 0);
    i64 last = -1, budget = -1, wl = 0;
    for (i64 q = 0; q < n; ++q) {
        const i64 v = vc[q];
        if (budget >= 0 && q > 0) budget -= F * vw[q - 1];  // the row before moved left
        if (budget >= 0) {
            // (skipped: within the budget of the last split)
        } else if (v != last && last >= 0 && q >= ml && q <= n - ml) {
            const i64 e = price ? leaf_cost(cnt, C, price) + rest_cost(tot, cnt, C, price, tmp)
                                : split_errors(cnt, tot, wn, C);
            if (e < best) {
                best = e;
                if (best == 0) return 0;
            } else {
                budget = e - best;
                if (budget >= F * (wn - wl - 1)) return best;  // no row left to score
            }
        }
        cnt[vk[q]] += vw[q];
        wl += vw[q];
        last = v;
    }
    return best;
}

// sweep for two classes (vk 0 or 1, t1 rows of class 1): a split errs
// min(l0, l1) + min(r0, r1); ml as sweep's.
inline i64 sweep2(const i32 *vc, const i32 *vk, i64 n, i64 t1, i64 best, i64 ml = 1) {
    const i64 t0 = n - t1;
    i64 l1 = 0, last = -1, skip = 0;
    for (i64 q = 0; q < n; ++q) {
        const i64 v = vc[q];
        if (skip > 0) {
            --skip;
        } else if (v != last && last >= 0 && q >= ml && q <= n - ml) {
            const i64 l0 = q - l1;
            const i64 e = std::min(l0, l1) + std::min(t0 - l0, t1 - l1);
            if (e < best) {
                best = e;
                if (best == 0) return 0;
            } else {
                skip = e - best;
                if (skip >= n - ml - q) return best;
            }
        }
        l1 += vk[q];
        last = v;
    }
    return best;
}

// The least misclassifications of a split of a side along one attribute, from its class
// counts per code cnt[j * C + c] (tot: per class, size rows): the best threshold of an
// ordered attribute, or the multiway split of a nominal one; size if none splits.
inline i64 split_mis(const i64 *cnt, i64 nvb, i64 C, bool ordered, const i64 *tot, i64 size,
                     i64 *left) {
    if (ordered) {
        i64 best = INF, n_left = 0;
        std::fill(left, left + C, 0);
        for (i64 j = 0; j < nvb - 1; ++j) {
            for (i64 c = 0; c < C; ++c) {
                left[c] += cnt[j * C + c];
                n_left += cnt[j * C + c];
            }
            if (n_left == 0 || n_left == size) continue;
            i64 ml = 0, mr = 0;
            for (i64 c = 0; c < C; ++c) {
                ml = std::max(ml, left[c]);
                mr = std::max(mr, tot[c] - left[c]);
            }
            best = std::min(best, size - ml - mr);
        }
        return best < INF ? best : size;
    }
    i64 e = 0, k = 0;
    for (i64 j = 0; j < nvb; ++j) {
        i64 g = 0, mx = 0;
        for (i64 c = 0; c < C; ++c) {
            g += cnt[j * C + c];
            mx = std::max(mx, cnt[j * C + c]);
        }
        if (g > 0) {
            e += g - mx;
            ++k;
        }
    }
    return k >= 2 ? e : size;
}

}  // namespace dagger::ordered
