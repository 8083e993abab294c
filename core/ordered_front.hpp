// The ordered solver's front algebra: Pareto fronts of (x, misclassifications) and the few
// operations its searches build everything from.
//
// A front is a staircase of points, x strictly up and y strictly down. A point is an XY,
// or a Tagged one with its tree's root (kind, attribute, threshold code) when the point is
// an answer; the working front of a search also holds bound points (kind VIRTUAL) that
// rule out whatever they dominate and are dropped at the end (real).
//
// - pareto: the non-dominated points of any candidates, sorted by (x, y) stably, the first
//   of equal points kept (the tie rule: the first tree found wins);
// - dominated / all_dominated: weak dominance by a front (binary search on x);
// - merge: a front with new points added, its own points winning ties;
// - combine: the min-plus product of two fronts (x summed, or maximised for depth-like
//   costs; y summed): when the pairs' x span little, the least y per x is read from a
//   table in x order, else the pairs are sorted;
// - the bounds a search derives from fronts: the largest shift that keeps points
//   dominated (kmax), the least y at each x (ylim), a child's bound (shifted), its lower
//   bound set (lower) and least corner (ideal).
#pragma once

#include <algorithm>
#include <utility>

#include "ordered_budget.hpp"

namespace dagger::ordered {

// Provenance of a point: its tree's root, or a bound's point (VIRTUAL).
enum Kind : i64 { LEAF = 0, ORDERED = 1, NOMINAL = 2, SHALLOWER = 3, VIRTUAL = -1 };
// An x below every cost: a bound point (NEG, y) rules out every point with a y >= y.
inline constexpr i64 NEG = -(i64{1} << 40);

struct XY {
    i64 x, y;
};
struct Tagged {
    i64 x, y, kind, attr, code;
};

template <class P>
inline bool before(const P &a, const P &b) {
    return a.x < b.x || (a.x == b.x && a.y < b.y);
}

// Sort points by (x, y), stably (equal points keep their order).
template <class P>
void sort_points(P *a, i64 n) {
    auto insertion = [](P *s, i64 k) {
        for (i64 i = 1; i < k; ++i) {
            const P q = s[i];
            i64 j = i - 1;
            while (j >= 0 && before(q, s[j])) {
                s[j + 1] = s[j];
                --j;
            }
            s[j + 1] = q;
        }
    };
    constexpr i64 RUN = 16;
    if (n <= RUN) {
        insertion(a, n);
        return;
    }
    for (i64 s = 0; s < n; s += RUN) insertion(a + s, std::min(RUN, n - s));
    vec<P> tmp(static_cast<std::size_t>(n));
    P *src = a, *dst = tmp.data();
    for (i64 w = RUN; w < n; w *= 2) {
        for (i64 lo = 0; lo < n; lo += 2 * w) {
            const i64 mid = std::min(lo + w, n), hi = std::min(lo + 2 * w, n);
            i64 i = lo, j = mid, k = lo;
            while (i < mid && j < hi) dst[k++] = before(src[j], src[i]) ? src[j++] : src[i++];
            while (i < mid) dst[k++] = src[i++];
            while (j < hi) dst[k++] = src[j++];
        }
        std::swap(src, dst);
    }
    if (src != a) std::copy(src, src + n, a);
}

// The non-dominated points among pts (in place), sorted by x; the first of equal points
// is kept.
template <class P>
void pareto(vec<P> &pts) {
    sort_points(pts.data(), static_cast<i64>(pts.size()));
    std::size_t k = 0;
    i64 least = INF;
    for (std::size_t q = 0; q < pts.size(); ++q) {
        if (pts[q].y < least) {
            least = pts[q].y;
            pts[k++] = pts[q];
        }
    }
    pts.resize(k);
}

// Whether (x, y) is weakly dominated by a point of the front f (x up, y down).
template <class F>
bool dominated(i64 x, i64 y, const F &f) {
    i64 lo = 0, hi = static_cast<i64>(f.size());
    while (lo < hi) {  // the first point with x > x
        const i64 mid = (lo + hi) / 2;
        if (f[mid].x <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 && f[lo - 1].y <= y;
}

// Whether every point of pts moved by dx in x is weakly dominated by f.
template <class A, class F>
bool all_dominated(const A &pts, i64 dx, const F &f) {
    for (const auto &p : pts)
        if (!dominated(p.x + dx, p.y, f)) return false;
    return true;
}

// Whether the points are a staircase (x strictly up, y strictly down).
template <class F>
bool staircase(const F &f) {
    for (i64 i = 1; i < static_cast<i64>(f.size()); ++i)
        if (f[i].x <= f[i - 1].x || f[i].y >= f[i - 1].y) return false;
    return true;
}

// The front of f with the points pts (x moved by dx) added, tagged (kind, attr, code);
// f's own points win ties. A staircase f is merged with the few new points sorted in one
// pass; anything else is sorted with them.
template <class A>
vec<Tagged> merge(const vec<Tagged> &f, const A &pts, i64 dx, i64 kind, i64 attr, i64 code) {
    const std::size_t np = pts.size();
    vec<Tagged> out;
    out.reserve(f.size() + np);
    if (np <= 16 && staircase(f)) {
        Tagged add[16];
        for (std::size_t q = 0; q < np; ++q) add[q] = {pts[q].x + dx, pts[q].y, kind, attr, code};
        sort_points(add, static_cast<i64>(np));
        std::size_t i = 0, j = 0;
        i64 least = INF;
        while (i < f.size() || j < np) {
            const bool own = j == np || (i < f.size() && !before(add[j], f[i]));
            const Tagged &t = own ? f[i++] : add[j++];
            if (t.y < least) {
                least = t.y;
                out.push_back(t);
            }
        }
        return out;
    }
    out.assign(f.begin(), f.end());
    for (std::size_t q = 0; q < np; ++q) out.push_back({pts[q].x + dx, pts[q].y, kind, attr, code});
    pareto(out);
    return out;
}

// The front of the pairs a + b: x summed (or maximised when comb is non-zero), y summed.
template <class A, class B>
vec<XY> combine(const A &a, const B &b, i64 comb) {
    vec<XY> out;
    const i64 na = static_cast<i64>(a.size()), nb = static_cast<i64>(b.size());
    const i64 n = na * nb;
    if (n == 0) return out;
    const bool mx = comb != 0;
    i64 amin = INF, amax = -INF, bmin = INF, bmax = -INF;
    for (const auto &p : a) {
        amin = std::min(amin, p.x);
        amax = std::max(amax, p.x);
    }
    for (const auto &p : b) {
        bmin = std::min(bmin, p.x);
        bmax = std::max(bmax, p.x);
    }
    const i64 lo = mx ? std::max(amin, bmin) : amin + bmin;
    const i64 hi = mx ? std::max(amax, bmax) : amax + bmax;
    if (hi - lo <= 4 * n + 64) {  // the least y per x, read off in x order
        vec<i64> least(static_cast<std::size_t>(hi - lo + 1), INF);
        for (const auto &p : a) {
            for (const auto &q : b) {
                const i64 x = (mx ? std::max(p.x, q.x) : p.x + q.x) - lo;
                const i64 y = p.y + q.y;
                if (y < least[x]) least[x] = y;
            }
        }
        // (without a branch: each x is written at the end, kept when its y is below all
        // before it)
        out.resize(static_cast<std::size_t>(std::min(n, hi - lo + 1) + 1));
        i64 top = INF, k = 0;
        for (i64 x = 0; x <= hi - lo; ++x) {
            const i64 v = least[static_cast<std::size_t>(x)];
            out[static_cast<std::size_t>(k)] = {x + lo, v};
            k += v < top;
            top = std::min(top, v);
        }
        out.resize(static_cast<std::size_t>(k));
        return out;
    }
    out.reserve(static_cast<std::size_t>(n));
    for (const auto &p : a)
        for (const auto &q : b) out.push_back({mx ? std::max(p.x, q.x) : p.x + q.x, p.y + q.y});
    pareto(out);
    return out;
}

// The largest k such that every point of c moved by (-k * alpha, -k) is weakly dominated
// by f (0 also when not even k = 0 is: no threshold lies within 0 rows of another; INF when
// c is empty): thresholds within k rows of the one c was evaluated at are pruned. A point p
// moved by k is dominated by q of f when k <= (p.x - q.x) / alpha and k <= p.y - q.y; along
// the staircase f (x up, y down) the first falls and the second rises, so p's largest k is
// where they cross: two binary searches per point, and the first point that allows 0 ends
// it. (With a choice of decision the fronts search moves each class by its own rows
// instead: moved_dominated in ordered.cpp.)
template <class F>
i64 kmax(const vec<XY> &c, const F &f, i64 alpha) {
    i64 least = INF;
    const i64 nf = static_cast<i64>(f.size());
    for (const auto &p : c) {
        i64 lo = 0, hi = nf;
        while (lo < hi) {  // j: the first point with x > p.x
            const i64 mid = (lo + hi) / 2;
            if (f[mid].x <= p.x)
                lo = mid + 1;
            else
                hi = mid;
        }
        const i64 j = lo;
        if (j == 0 || f[j - 1].y > p.y) return 0;
        lo = 0, hi = j - 1;
        while (lo < hi) {  // i0: the first of f[0, j) with y <= p.y
            const i64 mid = (lo + hi) / 2;
            if (f[mid].y <= p.y)
                hi = mid;
            else
                lo = mid + 1;
        }
        const i64 i0 = lo;
        const auto by_x = [&](i64 i) { return alpha > 0 ? (p.x - f[i].x) / alpha : INF; };
        const auto by_y = [&](i64 i) { return p.y - f[i].y; };
        lo = i0, hi = j;
        while (lo < hi) {  // the first of f[i0, j) where x allows no more than y
            const i64 mid = (lo + hi) / 2;
            if (by_x(mid) <= by_y(mid))
                hi = mid;
            else
                lo = mid + 1;
        }
        i64 k = 0;
        if (lo < j) k = std::max(k, by_x(lo));
        if (lo > i0) k = std::max(k, by_y(lo - 1));
        least = std::min(least, std::min(k, std::max<i64>(p.y, 0)));
        if (least == 0) return 0;
    }
    return least;
}

// For every x in [lo, hi], the least y of a front's points with an x <= it: a point (x, y)
// is weakly dominated iff y >= that. A table (one lookup) while the range is at most
// YLIM_DENSE; beyond it (weighted rows in fine units make x ranges of millions) the
// front's staircase, searched (a few lookups), so its memory is the front's, not the range's.
inline constexpr i64 YLIM_DENSE = i64{1} << 21;

struct YLim {
    i64 lo = 0, hi = -1;
    bool dense = true;
    vec<i64> table;   // dense: table[x - lo]
    vec<i64> xs, ys;  // else the staircase: x ascending, y strictly descending

    // the least y at x (x >= lo; an x above hi reads hi's)
    i64 at(i64 x) const {
        x = std::min(x, hi);
        if (dense) return table[static_cast<std::size_t>(x - lo)];
        const auto it = std::upper_bound(xs.begin(), xs.end(), std::max(x, lo));
        return it == xs.begin() ? INF : ys[static_cast<std::size_t>(it - xs.begin() - 1)];
    }

    // the staircase of the points (x, y) with x <= hi (an x below lo read as lo)
    void stairs(vec<std::pair<i64, i64>> &pts) {
        std::sort(pts.begin(), pts.end());
        xs.clear();
        ys.clear();
        for (const auto &[x, y] : pts) {
            if (!ys.empty() && y >= ys.back()) continue;  // (sorted: a new x)
            xs.push_back(x);
            ys.push_back(y);
        }
    }

    // the points of pts (x moved by dx) merged in (a point the merge drops is dominated
    // by one it adds, so only the new points lower the least y)
    template <class A>
    void add(const A &pts, i64 dx) {
        if (dense) {
            const i64 size = static_cast<i64>(table.size());
            for (const auto &p : pts) {
                const i64 x = p.x + dx;
                if (x <= hi) {
                    for (i64 j = std::max(x, lo) - lo; j < size && table[j] > p.y; ++j)
                        table[j] = p.y;
                }
            }
            return;
        }
        vec<std::pair<i64, i64>> all;
        all.reserve(xs.size() + pts.size());
        for (std::size_t k = 0; k < xs.size(); ++k) all.emplace_back(xs[k], ys[k]);
        for (const auto &p : pts)
            if (p.x + dx <= hi) all.emplace_back(std::max(p.x + dx, lo), p.y);
        stairs(all);
    }
};

template <class F>
YLim ylim(const F &f, i64 x_lo, i64 x_hi) {
    YLim out;
    out.lo = x_lo;
    out.hi = x_hi;
    out.dense = x_hi - x_lo + 1 <= YLIM_DENSE;
    if (out.dense) {
        out.table.assign(static_cast<std::size_t>(x_hi - x_lo + 1), INF);
        for (const auto &p : f) {
            if (p.x <= x_hi) {
                const i64 j = std::max(p.x, x_lo) - x_lo;
                if (p.y < out.table[j]) out.table[j] = p.y;
            }
        }
        for (std::size_t j = 1; j < out.table.size(); ++j)
            if (out.table[j - 1] < out.table[j]) out.table[j] = out.table[j - 1];
        return out;
    }
    vec<std::pair<i64, i64>> pts;
    for (const auto &p : f)
        if (p.x <= x_hi) pts.emplace_back(std::max(p.x, x_lo), p.y);
    out.stairs(pts);
    return out;
}

// The least x and the least y of a child's trees: over its front f and the bound b that
// ruled out the rest (every other tree is above a bound point).
template <class F, class B>
XY ideal(const F &f, const B &b) {
    i64 x = INF, y = INF;
    for (const auto &p : f) {
        x = std::min(x, p.x);
        y = std::min(y, p.y);
    }
    for (const auto &p : b) {
        x = std::min(x, p.x);
        y = std::min(y, p.y);
    }
    return {std::max(x, NEG), y};
}

// The bound a child gets: the parent's working front w moved by what the split and the
// rest of its children add at least (dx, dy).
template <class F>
vec<XY> shifted(const F &w, i64 dx, i64 dy) {
    vec<XY> out;
    out.reserve(w.size());
    for (const auto &p : w) out.push_back({std::max(p.x - dx, NEG), p.y - dy});
    return out;
}

// A lower-bound set of at most k points below the staircase s (x up, y down): runs of its
// points, each replaced by its first point's x and its last point's y.
inline vec<XY> coarse(const vec<XY> &s, std::size_t k) {
    if (s.size() <= k) return s;
    vec<XY> out;
    out.reserve(k);
    const std::size_t n = s.size();
    for (std::size_t j = 0; j < k; ++j) {
        const std::size_t a = j * n / k, b = (j + 1) * n / k;
        out.push_back({s[a].x, s[b - 1].y});
    }
    return out;
}

// The bound a child gets when its sibling's trees each cost at least a point of sib (a
// lower-bound staircase, x summed): the points c for which c + s + (dx, dy) is weakly
// dominated by the staircase w for every s of sib (w eroded by sib), as a staircase. It
// rules out more than w moved by sib's least corner (shifted), which is its one-point case.
// sib is first made at most SIB points (coarse): the work is |w| |sib|^2 log |w|.
template <class F>
vec<XY> eroded(const F &w, const vec<XY> &sib0, i64 dx, i64 dy) {
    constexpr std::size_t SIB = 8;
    if (sib0.size() <= 1) {
        const XY s = ideal(sib0, vec<XY>{});
        return shifted(w, dx + s.x, dy + s.y);
    }
    const vec<XY> sib = coarse(sib0, SIB);
    const i64 nw = static_cast<i64>(w.size());
    auto least_y = [&](i64 z) {  // the least y of w's points with an x <= z
        i64 lo = 0, hi = nw;
        while (lo < hi) {
            const i64 mid = (lo + hi) / 2;
            if (w[mid].x <= z)
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo > 0 ? w[lo - 1].y : INF;
    };
    vec<i64> xs;
    xs.reserve(w.size() * sib.size());
    for (const auto &p : w)
        for (const auto &s : sib) xs.push_back(std::max(p.x - s.x - dx, NEG));
    std::sort(xs.begin(), xs.end());
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
    vec<XY> out;
    i64 top = INF;
    for (const i64 x : xs) {
        i64 v = -INF;
        for (const auto &s : sib) {
            const i64 y = least_y(x + s.x + dx);
            if (y >= INF) {
                v = INF;
                break;
            }
            v = std::max(v, y - s.y - dy);
        }
        if (v < top) {
            top = v;
            out.push_back({x, v});
        }
    }
    return out;
}

// A child's lower-bound set: its front f and the bound b it was solved under (every tree
// it left out lies weakly above a bound point), raised to what any tree costs at least
// (x >= a leaf's lc, y >= 0).
template <class F>
vec<XY> lower(const F &f, const vec<XY> &b, i64 lc) {
    vec<XY> out;
    out.reserve(f.size() + b.size());
    for (const auto &p : f) out.push_back({p.x, p.y});
    for (const auto &p : b) out.push_back({std::max(p.x, lc), std::max<i64>(p.y, 0)});
    pareto(out);
    return out;
}

// A search's first working front: the bound box (VIRTUAL points) and the front one level
// shallower (SHALLOWER).
template <class B, class S>
vec<Tagged> working_front(const B &box, const S &shallower) {
    vec<Tagged> f;
    f.reserve(box.size());
    for (const auto &p : box) f.push_back({p.x, p.y, VIRTUAL, -1, -1});
    return merge(f, shallower, 0, SHALLOWER, -1, -1);
}

// The front without its bound points.
inline vec<Tagged> real(const vec<Tagged> &f) {
    vec<Tagged> out;
    for (const auto &t : f)
        if (t.kind != VIRTUAL) out.push_back(t);
    return out;
}

// The x and y of a tagged front.
inline vec<XY> xy(const vec<Tagged> &f) {
    vec<XY> out;
    out.reserve(f.size());
    for (const auto &t : f) out.push_back({t.x, t.y});
    return out;
}

}  // namespace dagger::ordered
