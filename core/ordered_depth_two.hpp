// The ordered solver's depth-two trees, where most of its time goes.
//
// - sides_d1 (the depth-two pass): the least misclassifications over depth <= 1 of both
//   sides of one root split, on the packed subtable. With at most 8 classes the ordered
//   attributes walk their rows eight at a time (lanes_walk, lanes_walk_classes: per
//   position, each side's class counts so far and, where the code changes, the side's
//   split errors, without a branch); else per ordered attribute its rows are split into the
//   two sides' sequences (stable, without a branch) and each side is swept on its own
//   (numba's pass). A nominal attribute's groups are counted per side in one pass. One side
//   alone may be asked for (the other gets its leaf's errors). Every way gives the exact
//   least errors, so the same values.
// - d2_counts: the least misclassifications at depth <= 2 from class counts per pair of
//   attributes' codes (one pass over the rows per pair), when every attribute has few
//   codes: every root split's sides are scored from the counts (the depth-two layer of the
//   DAG engine, for ordered attributes).
// - d2_sweep: the least misclassifications at depth <= 2 of a long subtable of two classes
//   and ordered attributes only, every root split at once: per root attribute and second
//   attribute, the rows walk in the root's order from the > side to the <= side, and a
//   tree over the second attribute's codes keeps each side's least and most D (below) under
//   point updates (PrefixTrees: both sides in one node), O(A^2 m log m) in all where the
//   search evaluates its splits one pass each. Exact, so the same values; see best() for
//   when it runs.
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

// The narrow walks in AVX-512 (BW) when the core is built for a processor that has it
// (DAGGER_NATIVE's -march=native): the 32 lanes of a narrow position are one register, a
// side's rows and a class's rows are mask registers, and the masked adds, minima and maxima
// take one instruction each, about 1.2 times the walks the compiler makes of the loops
// below, which every other build runs (the wheels', the sanitizers'): the same values.
#if defined(__AVX512BW__) && defined(__AVX512F__)
#include <immintrin.h>
#define DAGGER_NARROW_AVX512 1
#else
#define DAGGER_NARROW_AVX512 0
#endif

#include "ordered_depth_one.hpp"
#include "ordered_intervals.hpp"

namespace dagger::ordered {

// The sides a depth-two pass sweeps.
enum : int { LEFT = 1, RIGHT = 2, BOTH = 3 };

// The depth-two pass's sequences (m + 1 each) and class counts, made once per subtable.
struct SidesScratch {
    vec<i32> lc, lk, rc, rk;
    vec<i32> lw, rw;  // the sides' rows' weights (weights only)
    vec<i64> cntL, cntR, tmp;
    vec<i32> walk;  // the lanes' least and most D per side
    SidesScratch(i64 m, i64 C, const Lanes &ln, bool weighted = false)
        : lc(static_cast<std::size_t>(m + 1)),
          lk(static_cast<std::size_t>(m + 1)),
          rc(static_cast<std::size_t>(m + 1)),
          rk(static_cast<std::size_t>(m + 1)),
          lw(weighted ? static_cast<std::size_t>(m + 1) : 0),
          rw(weighted ? static_cast<std::size_t>(m + 1) : 0),
          cntL(static_cast<std::size_t>(C)),
          cntR(static_cast<std::size_t>(C)),
          tmp(static_cast<std::size_t>(C)),
          walk(static_cast<std::size_t>(4 * ln.blocks * LANES)) {}
};

// For two classes, a side's best split into two leaves along an attribute errs
// min(T0, T1, T0 + min D, T1 - max D), T0 and T1 its rows of class 0 and 1 and D the
// difference class 1 - class 0 of its rows up to a threshold, over the thresholds that
// split it (min(l0, l1) + min(r0, r1) is the least of l0 + r0 = T0, l1 + r1 = T1,
// l1 + r0 = T0 + D and l0 + r1 = T1 - D): one walk per side, without a branch, over the
// side's rows in the attribute's order; a threshold splits the side where the code changes
// and rows of the side lie on both sides. The lanes of a block (LANES attributes) walk
// side by side. Per lane: the least and the most D of each side (mn > mx: no threshold).
template <bool DO_L, bool DO_R>
void lanes_walk(const Lanes &ln, i64 m, i32 t, i32 nL, i32 nR, i32 least, i32 *mnL, i32 *mxL,
                i32 *mnR, i32 *mxR) {
    constexpr i32 BIG = 1 << 30;
    for (i64 blk = 0; blk < ln.blocks; ++blk) {
        i32 dl[LANES] = {}, cl[LANES] = {}, dr[LANES] = {}, cr[LANES] = {};
        i32 lo_l[LANES], hi_l[LANES], lo_r[LANES], hi_r[LANES];
        for (i64 l = 0; l < LANES; ++l) {
            lo_l[l] = lo_r[l] = BIG;
            hi_l[l] = hi_r[l] = -BIG;
        }
        const i32 *S = ln.sa.data() + blk * m * LANES;
        const i32 *WE = ln.we.data() + blk * m * LANES;
        for (i64 q = 0; q < m; ++q) {
            for (i64 l = 0; l < LANES; ++l) {
                const i32 r = -static_cast<i32>(S[q * LANES + l] > t);  // all bits: right
                const i32 wv = WE[q * LANES + l] >> 1, e = -(WE[q * LANES + l] & 1);
                if constexpr (DO_L) {
                    dl[l] += wv & ~r;
                    cl[l] += 1 + r;
                    const i32 ok = e & -static_cast<i32>((cl[l] >= least) & (cl[l] <= nL - least));
                    lo_l[l] = std::min(lo_l[l], (dl[l] & ok) | (BIG & ~ok));
                    hi_l[l] = std::max(hi_l[l], (dl[l] & ok) | (-BIG & ~ok));
                }
                if constexpr (DO_R) {
                    dr[l] += wv & r;
                    cr[l] -= r;
                    const i32 ok = e & -static_cast<i32>((cr[l] >= least) & (cr[l] <= nR - least));
                    lo_r[l] = std::min(lo_r[l], (dr[l] & ok) | (BIG & ~ok));
                    hi_r[l] = std::max(hi_r[l], (dr[l] & ok) | (-BIG & ~ok));
                }
            }
        }
        for (i64 l = 0; l < LANES; ++l) {
            mnL[blk * LANES + l] = lo_l[l];
            mxL[blk * LANES + l] = hi_l[l];
            mnR[blk * LANES + l] = lo_r[l];
            mxR[blk * LANES + l] = hi_r[l];
        }
    }
}

// All bits where a side's n rows so far leave at least `least` on either part (n <= hi);
// T the lanes' 16-bit type.
template <class T>
inline T splits16(T n, T least, T hi) {
    return static_cast<T>(-static_cast<T>((n >= least) & (n <= hi)));
}

// lanes_walk on the narrow lanes (Lanes::we16, sa16; two classes without weights or prices):
// per attribute l, each side forwards and backwards (Lanes' NARROW_LANES), in one pass of
// 16-bit lanes over half the positions. A backward lane's D is of the rows after the
// threshold; the side's D before it is the side's whole D (dL, dR) less that. RANGE as in
// lanes_walk_classes16: without a minimum leaf size a threshold with no row of a side on one
// part gives that side's D of 0 or of all its rows, whose errors are its leaf's, which its
// caller starts from.
template <bool RANGE>
void lanes_walk16(const Lanes &ln, i64 m, i32 t, i32 nL, i32 nR, i32 dL, i32 dR, i32 least,
                  i32 *mnL, i32 *mxL, i32 *mnR, i32 *mxR) {
    constexpr i64 NW = NARROW_LANES;
    constexpr i16 BIG = 32767;
    const i64 H = narrow_half(m);
    const i16 tt = static_cast<i16>(t), lst16 = static_cast<i16>(least);
    alignas(64) i16 hi[NW];
    for (i64 l = 0; l < NW; ++l) hi[l] = static_cast<i16>((narrow_left(l) ? nL : nR) - least);
    for (i64 blk = 0; blk < ln.blocks; ++blk) {
        alignas(64) i16 lo[NW], up[NW];
        const i16 *S = ln.sa16.data() + blk * H * NW;
        const i16 *WE = ln.we16.data() + blk * H * NW;
#if DAGGER_NARROW_AVX512
        {
            const __m512i T = _mm512_set1_epi16(tt), one = _mm512_set1_epi16(1);
            const __m512i LST = _mm512_set1_epi16(lst16), HI = _mm512_loadu_si512(hi);
            __m512i vd = _mm512_setzero_si512(), vn = vd;
            __m512i vlo = _mm512_set1_epi16(BIG), vup = _mm512_set1_epi16(-BIG);
            for (i64 q = 0; q < H; ++q) {
                const __m512i sv = _mm512_loadu_si512(S + q * NW);
                const __m512i wv = _mm512_loadu_si512(WE + q * NW);
                const __mmask32 in = _kxor_mask32(_mm512_cmpgt_epi16_mask(sv, T), NARROW_LEFT);
                vd = _mm512_mask_add_epi16(vd, in, vd, _mm512_srai_epi16(wv, 1));
                __mmask32 ok = _mm512_test_epi16_mask(wv, one);
                if constexpr (RANGE) {
                    vn = _mm512_mask_add_epi16(vn, in, vn, one);
                    ok = _mm512_mask_cmpge_epi16_mask(ok, vn, LST);
                    ok = _mm512_mask_cmple_epi16_mask(ok, vn, HI);
                }
                vlo = _mm512_mask_min_epi16(vlo, ok, vlo, vd);
                vup = _mm512_mask_max_epi16(vup, ok, vup, vd);
            }
            _mm512_storeu_si512(lo, vlo);
            _mm512_storeu_si512(up, vup);
        }
#else
        alignas(64) i16 d[NW] = {}, n[NW] = {}, flip[NW];
        for (i64 l = 0; l < NW; ++l) {
            lo[l] = BIG, up[l] = -BIG;
            flip[l] = narrow_left(l) ? -1 : 0;  // the <= sides take the rows not to the right
        }
        for (i64 q = 0; q < H; ++q) {
            for (i64 l = 0; l < NW; ++l) {
                const i16 in = static_cast<i16>(-static_cast<i16>(S[q * NW + l] > tt) ^ flip[l]);
                const i16 wv = static_cast<i16>(WE[q * NW + l] >> 1);
                const i16 e = static_cast<i16>(-(WE[q * NW + l] & 1));
                d[l] = static_cast<i16>(d[l] + (wv & in));
                i16 ok = e;
                if constexpr (RANGE) {
                    n[l] = static_cast<i16>(n[l] - in);
                    ok = static_cast<i16>(e & splits16(n[l], lst16, hi[l]));
                }
                lo[l] = std::min(lo[l], static_cast<i16>((d[l] & ok) | (BIG & ~ok)));
                up[l] = std::max(up[l], static_cast<i16>((d[l] & ok) | (-BIG & ~ok)));
            }
        }
#endif
        constexpr i32 WIDE = 1 << 30;
        // a side's least and most D before a threshold, forwards and from backwards
        const auto side = [&](i64 f, i64 b, i32 whole, i32 &mn, i32 &mx) {
            mn = WIDE;
            mx = -WIDE;
            if (lo[f] != BIG) mn = lo[f], mx = up[f];
            if (lo[b] != BIG) mn = std::min(mn, whole - up[b]), mx = std::max(mx, whole - lo[b]);
        };
        for (i64 l = 0; l < LANES; ++l) {
            const i64 k = blk * LANES + l;
            side(l, 2 * LANES + l, dL, mnL[k], mxL[k]);
            side(LANES + l, 3 * LANES + l, dR, mnR[k], mxR[k]);
        }
    }
}

// With C > 2 classes (at most MAX_LANE_CLASSES), the same walk with the rows per class of
// each side so far (l_c): a split at a threshold errs n - max l_c - max (T_c - l_c) on a
// side of n rows, T_c per class. Per lane: each side's least errors (BIG: no threshold).
// WEIGHTED: l_c, n and T_c are weights (each lane's position keeps its row's, ln.wt); nL
// and nR still count the sides' rows (where a threshold splits a side).
template <int C, bool DO_L, bool DO_R, bool WEIGHTED = false>
void lanes_walk_classes(const Lanes &ln, i64 m, i32 t, i32 nL, i32 nR, i32 least, const i64 *totL,
                        const i64 *totR, i32 *eL, i32 *eR) {
    constexpr i32 BIG = 1 << 30;
    i32 TL[C], TR[C], WL = 0, WR = 0;
    for (int c = 0; c < C; ++c) {
        TL[c] = static_cast<i32>(totL[c]);
        TR[c] = static_cast<i32>(totR[c]);
        WL += TL[c];
        WR += TR[c];
    }
    for (i64 blk = 0; blk < ln.blocks; ++blk) {
        i32 cl[C][LANES] = {}, cr[C][LANES] = {}, nl[LANES] = {}, nr[LANES] = {};
        i32 bl[LANES], br[LANES];
        for (i64 l = 0; l < LANES; ++l) bl[l] = br[l] = BIG;
        const i32 *S = ln.sa.data() + blk * m * LANES;
        const i32 *WE = ln.we.data() + blk * m * LANES;
        const i32 *WT = WEIGHTED ? ln.wt.data() + blk * m * LANES : nullptr;
        for (i64 q = 0; q < m; ++q) {
            for (i64 l = 0; l < LANES; ++l) {
                const i32 r = -static_cast<i32>(S[q * LANES + l] > t);  // all bits: right
                const i32 k = WE[q * LANES + l] >> 1, e = -(WE[q * LANES + l] & 1);
                if constexpr (DO_L) {
                    nl[l] += 1 + r;
                    i32 ml = 0, mr = 0;
                    for (int c = 0; c < C; ++c) {
                        if constexpr (WEIGHTED)
                            cl[c][l] += WT[q * LANES + l] & -static_cast<i32>(k == c) & ~r;
                        else
                            cl[c][l] += static_cast<i32>(k == c) & ~r;
                        ml = std::max(ml, cl[c][l]);
                        mr = std::max(mr, TL[c] - cl[c][l]);
                    }
                    const i32 ok = e & -static_cast<i32>((nl[l] >= least) & (nl[l] <= nL - least));
                    const i32 err = (WEIGHTED ? WL : nL) - ml - mr;
                    bl[l] = std::min(bl[l], (err & ok) | (BIG & ~ok));
                }
                if constexpr (DO_R) {
                    nr[l] -= r;
                    i32 ml = 0, mr = 0;
                    for (int c = 0; c < C; ++c) {
                        if constexpr (WEIGHTED)
                            cr[c][l] += WT[q * LANES + l] & -static_cast<i32>(k == c) & r;
                        else
                            cr[c][l] += static_cast<i32>(k == c) & r;
                        ml = std::max(ml, cr[c][l]);
                        mr = std::max(mr, TR[c] - cr[c][l]);
                    }
                    const i32 ok = e & -static_cast<i32>((nr[l] >= least) & (nr[l] <= nR - least));
                    const i32 err = (WEIGHTED ? WR : nR) - ml - mr;
                    br[l] = std::min(br[l], (err & ok) | (BIG & ~ok));
                }
            }
        }
        for (i64 l = 0; l < LANES; ++l) {
            eL[blk * LANES + l] = bl[l];
            eR[blk * LANES + l] = br[l];
        }
    }
}

// lanes_walk_classes without weights on the narrow lanes (Lanes::we16, sa16; m <=
// NARROW_CLASS_ROWS, t and the root codes within NARROW_CODES): per attribute l, each side
// forwards and backwards (Lanes' NARROW_LANES), in one pass of 16-bit lanes over half the
// positions (the counts unsigned). A backward lane counts the rows after the threshold: a
// split errs n - max r_c - max (T_c - r_c) from those counts r_c as from the counts before
// it, so both directions score alike. RANGE: only the thresholds that leave `least` rows on
// either part of a side (a minimum leaf size); without one (least <= 1) every code change is
// scored, since a threshold with no row of the side on one part scores that side's leaf,
// which its caller starts from.
template <int C, bool RANGE>
void lanes_walk_classes16(const Lanes &ln, i64 m, i32 t, i32 nL, i32 nR, i32 least,
                          const i64 *totL, const i64 *totR, i32 *eL, i32 *eR) {
    using u16 = std::uint16_t;
    constexpr i64 NW = NARROW_LANES;
    constexpr u16 BIG = 65535;
    const i64 H = narrow_half(m);
    const i16 tt = static_cast<i16>(t);
    const u16 lst16 = static_cast<u16>(least);
    alignas(64) u16 tot[C][NW], size[NW], hi[NW];
    for (i64 l = 0; l < NW; ++l) {
        const bool left = narrow_left(l);
        for (int c = 0; c < C; ++c) tot[c][l] = static_cast<u16>(left ? totL[c] : totR[c]);
        size[l] = static_cast<u16>(left ? nL : nR);
        hi[l] = static_cast<u16>(std::max((left ? nL : nR) - least, 0));
    }
    for (i64 blk = 0; blk < ln.blocks; ++blk) {
        alignas(64) u16 best[NW];
        const i16 *S = ln.sa16.data() + blk * H * NW;
        const i16 *WE = ln.we16.data() + blk * H * NW;
#if DAGGER_NARROW_AVX512
        {
            const __m512i T = _mm512_set1_epi16(tt), one = _mm512_set1_epi16(1);
            const __m512i LST = _mm512_set1_epi16(static_cast<i16>(lst16));
            const __m512i HI = _mm512_loadu_si512(hi), SZ = _mm512_loadu_si512(size);
            __m512i vcnt[C], vrem[C], cls[C];
            for (int c = 0; c < C; ++c) {
                vcnt[c] = _mm512_setzero_si512();
                vrem[c] = _mm512_loadu_si512(tot[c]);
                cls[c] = _mm512_set1_epi16(static_cast<i16>(c));
            }
            __m512i vn = _mm512_setzero_si512(), vbest = _mm512_set1_epi16(-1);
            for (i64 q = 0; q < H; ++q) {
                const __m512i sv = _mm512_loadu_si512(S + q * NW);
                const __m512i wv = _mm512_loadu_si512(WE + q * NW);
                const __mmask32 in = _kxor_mask32(_mm512_cmpgt_epi16_mask(sv, T), NARROW_LEFT);
                const __m512i k = _mm512_srai_epi16(wv, 1);
                __mmask32 ok = _mm512_test_epi16_mask(wv, one);
                if constexpr (RANGE) {
                    vn = _mm512_mask_add_epi16(vn, in, vn, one);
                    ok = _mm512_mask_cmpge_epu16_mask(ok, vn, LST);
                    ok = _mm512_mask_cmple_epu16_mask(ok, vn, HI);
                }
                __m512i ml = _mm512_setzero_si512(), mr = ml;
                for (int c = 0; c < C; ++c) {  // the row's class on its side: one more
                    const __mmask32 mc = _mm512_mask_cmpeq_epi16_mask(in, k, cls[c]);
                    vcnt[c] = _mm512_mask_add_epi16(vcnt[c], mc, vcnt[c], one);
                    vrem[c] = _mm512_mask_sub_epi16(vrem[c], mc, vrem[c], one);
                    ml = _mm512_max_epu16(ml, vcnt[c]);
                    mr = _mm512_max_epu16(mr, vrem[c]);
                }
                const __m512i err = _mm512_sub_epi16(_mm512_sub_epi16(SZ, ml), mr);
                vbest = _mm512_mask_min_epu16(vbest, ok, vbest, err);
            }
            _mm512_storeu_si512(best, vbest);
        }
#else
        alignas(64) u16 cnt[C][NW] = {}, n[NW] = {}, flip[NW];
        for (i64 l = 0; l < NW; ++l) {
            best[l] = BIG;
            flip[l] = narrow_left(l) ? BIG : 0;  // the <= sides take the rows not to the right
        }
        for (i64 q = 0; q < H; ++q) {
            for (i64 l = 0; l < NW; ++l) {
                const u16 in = static_cast<u16>(-static_cast<u16>(S[q * NW + l] > tt) ^ flip[l]);
                const u16 k = static_cast<u16>(WE[q * NW + l] >> 1);
                u16 ok = static_cast<u16>(-(WE[q * NW + l] & 1));
                if constexpr (RANGE) {
                    n[l] = static_cast<u16>(n[l] - in);
                    ok &= splits16(n[l], lst16, hi[l]);
                }
                u16 ml = 0, mr = 0;
                for (int c = 0; c < C; ++c) {
                    cnt[c][l] = static_cast<u16>(cnt[c][l] - (static_cast<u16>(-(k == c)) & in));
                    ml = std::max(ml, cnt[c][l]);
                    mr = std::max(mr, static_cast<u16>(tot[c][l] - cnt[c][l]));
                }
                const u16 err = static_cast<u16>(size[l] - ml - mr);
                best[l] = std::min(best[l], static_cast<u16>((err & ok) | (BIG & ~ok)));
            }
        }
#endif
        const auto least_of = [&](i64 f, i64 b) {
            const u16 v = std::min(best[f], best[b]);
            return v == BIG ? (1 << 30) : static_cast<i32>(v);
        };
        for (i64 l = 0; l < LANES; ++l) {
            eL[blk * LANES + l] = least_of(l, 2 * LANES + l);
            eR[blk * LANES + l] = least_of(LANES + l, 3 * LANES + l);
        }
    }
}

template <int C, bool WEIGHTED>
void lanes_classes_of(const Lanes &ln, i64 m, i32 t, i32 nL, i32 nR, i32 least, const i64 *totL,
                      const i64 *totR, bool doL, bool doR, i32 *eL, i32 *eR) {
    if (doL && doR)
        lanes_walk_classes<C, true, true, WEIGHTED>(ln, m, t, nL, nR, least, totL, totR, eL, eR);
    else if (doL)
        lanes_walk_classes<C, true, false, WEIGHTED>(ln, m, t, nL, nR, least, totL, totR, eL, eR);
    else
        lanes_walk_classes<C, false, true, WEIGHTED>(ln, m, t, nL, nR, least, totL, totR, eL, eR);
}

template <int C>
void lanes_classes(const Lanes &ln, i64 m, i32 t, i32 nL, i32 nR, i32 least, const i64 *totL,
                   const i64 *totR, bool doL, bool doR, i32 *eL, i32 *eR) {
    if (ln.narrow_at(t)) {
        if (least > 1)
            lanes_walk_classes16<C, true>(ln, m, t, nL, nR, least, totL, totR, eL, eR);
        else
            lanes_walk_classes16<C, false>(ln, m, t, nL, nR, least, totL, totR, eL, eR);
    } else if (ln.wt.empty())
        lanes_classes_of<C, false>(ln, m, t, nL, nR, least, totL, totR, doL, doR, eL, eR);
    else
        lanes_classes_of<C, true>(ln, m, t, nL, nR, least, totL, totR, doL, doR, eL, eR);
}

// A group's rows less its largest class, its class counts packed 16 bits a class in g.
inline i64 group_errors(u64 g) {
    const i64 a = static_cast<i64>(g & 0xFFFF), b = static_cast<i64>((g >> 16) & 0xFFFF);
    const i64 c = static_cast<i64>((g >> 32) & 0xFFFF), d = static_cast<i64>(g >> 48);
    return a + b + c + d - std::max(std::max(a, b), std::max(c, d));
}

// The least misclassifications of both sides of a split over depth <= 1: the root
// attribute split at threshold code t (a row goes right when its code in pk.sa exceeds t),
// nl rows and class totals totL on the left, totR on the right (weights, when the packed
// subtable has them: the sides' weights are the totals' sums). `which` (LEFT, RIGHT,
// BOTH): the sides to pass; a side not passed gets its leaf's errors.
inline std::pair<i64, i64> sides_d1(const Packed &pk, i64 t, const i8 *kinds, i64 A, i64 C,
                                    i64 nl, const i64 *totL, const i64 *totR, int which,
                                    SidesScratch &w, i64 min_leaf = 1) {
    const i64 m = pk.m, nr = m - nl;
    const i64 wl = sum(totL, C), wr = sum(totR, C);  // the sides' weights (nl, nr without)
    const bool doL = which != RIGHT, doR = which != LEFT;
    const i64 *price = pk.price;
    i64 bestL = doL ? leaf_cost(totL, C, price) : 0;
    i64 bestR = doR ? leaf_cost(totR, C, price) : 0;
    i64 *cntL = w.cntL.data(), *cntR = w.cntR.data();
    const Lanes &ln = pk.lanes;
    const bool walk = ln.blocks > 0;  // the ordered attributes by lanes
    if (walk && C > 2 && (bestL > 0 || bestR > 0)) {
        const i64 nlanes = ln.blocks * LANES;
        i32 *eL = w.walk.data(), *eR = eL + nlanes;
        const i32 tt = static_cast<i32>(t), nL = static_cast<i32>(nl), nR = static_cast<i32>(nr);
        const i32 least = static_cast<i32>(min_leaf);
        const bool dl = bestL > 0, dr = bestR > 0;
        switch (C) {
            case 3: lanes_classes<3>(ln, m, tt, nL, nR, least, totL, totR, dl, dr, eL, eR); break;
            case 4: lanes_classes<4>(ln, m, tt, nL, nR, least, totL, totR, dl, dr, eL, eR); break;
            case 5: lanes_classes<5>(ln, m, tt, nL, nR, least, totL, totR, dl, dr, eL, eR); break;
            case 6: lanes_classes<6>(ln, m, tt, nL, nR, least, totL, totR, dl, dr, eL, eR); break;
            case 7: lanes_classes<7>(ln, m, tt, nL, nR, least, totL, totR, dl, dr, eL, eR); break;
            default: lanes_classes<8>(ln, m, tt, nL, nR, least, totL, totR, dl, dr, eL, eR); break;
        }
        for (i64 k = 0; k < nlanes; ++k) {
            if (ln.attr[k] < 0) continue;
            if (dl) bestL = std::min<i64>(bestL, eL[k]);
            if (dr) bestR = std::min<i64>(bestR, eR[k]);
        }
    } else if (walk && (bestL > 0 || bestR > 0)) {
        const i64 nlanes = ln.blocks * LANES;
        i32 *mnL = w.walk.data(), *mxL = mnL + nlanes, *mnR = mxL + nlanes, *mxR = mnR + nlanes;
        const i32 tt = static_cast<i32>(t), nL = static_cast<i32>(nl), nR = static_cast<i32>(nr);
        const i32 least = static_cast<i32>(min_leaf);
        if (ln.narrow_at(t)) {  // (no prices: D is class 1 less class 0)
            const i32 dL = static_cast<i32>(totL[1] - totL[0]);
            const i32 dR = static_cast<i32>(totR[1] - totR[0]);
            if (least > 1)
                lanes_walk16<true>(ln, m, tt, nL, nR, dL, dR, least, mnL, mxL, mnR, mxR);
            else
                lanes_walk16<false>(ln, m, tt, nL, nR, dL, dR, least, mnL, mxL, mnR, mxR);
        } else if (bestL > 0 && bestR > 0)
            lanes_walk<true, true>(ln, m, tt, nL, nR, least, mnL, mxL, mnR, mxR);
        else if (bestL > 0)
            lanes_walk<true, false>(ln, m, tt, nL, nR, least, mnL, mxL, mnR, mxR);
        else
            lanes_walk<false, true>(ln, m, tt, nL, nR, least, mnL, mxL, mnR, mxR);
        // a side's cost of deciding 0 (c0) and 1 (c1): T1 and T0 without prices
        const auto c0 = [&](const i64 *tot) {
            return price ? tot[0] * price[0] + tot[1] * price[2] : tot[1];
        };
        const auto c1 = [&](const i64 *tot) {
            return price ? tot[0] * price[1] + tot[1] * price[3] : tot[0];
        };
        const i64 c0L = c0(totL), c1L = c1(totL), c0R = c0(totR), c1R = c1(totR);
        for (i64 k = 0; k < nlanes; ++k) {
            if (ln.attr[k] < 0) continue;
            if (bestL > 0 && mnL[k] <= mxL[k])
                bestL = std::min({bestL, c1L + mnL[k], c0L - mxL[k]});
            if (bestR > 0 && mnR[k] <= mxR[k])
                bestR = std::min({bestR, c1R + mnR[k], c0R - mxR[k]});
        }
    }
    const Rows &rw = pk.rows;
    const bool weighted = !rw.wt.empty();
    // a nominal attribute's groups counted in one word per side (see below)
    const bool packed_groups = !weighted && price == nullptr && min_leaf <= 1 && C <= 4 &&
                               m < (i64{1} << 16);
    for (std::size_t j = 0; j < rw.attr.size(); ++j) {  // the attributes row by row
        if (bestL == 0 && bestR == 0) break;
        const i64 b = rw.attr[j];
        const i32 *col = rw.cb.data() + j * m;
        const i32 *cl = rw.cls.data() + j * m;
        const i32 *sd = rw.sa.data() + j * m;
        const i32 *wq = weighted ? rw.wt.data() + j * m : nullptr;
        if (kinds[b] == 1 && weighted) {
            i32 *Lc = w.lc.data(), *Lk = w.lk.data(), *Rc = w.rc.data(), *Rk = w.rk.data();
            i32 *Lw = w.lw.data(), *Rw = w.rw.data();
            i64 i = 0, jj = 0;
            for (i64 q = 0; q < m; ++q) {
                const i32 v = col[q], c = cl[q], u = wq[q];
                const i64 s = sd[q] > t;
                Lc[i] = v;
                Lk[i] = c;
                Lw[i] = u;
                Rc[jj] = v;
                Rk[jj] = c;
                Rw[jj] = u;
                i += 1 - s;
                jj += s;
            }
            // (two classes go by lanes: only more than MAX_LANE_CLASSES come here)
            i64 *tmp = w.tmp.data();
            if (doL && bestL > 0)
                bestL = sweep_w(Lc, Lk, Lw, nl, wl, totL, bestL, C, cntL, price, pk.F, tmp,
                                min_leaf);
            if (doR && bestR > 0)
                bestR = sweep_w(Rc, Rk, Rw, nr, wr, totR, bestR, C, cntR, price, pk.F, tmp,
                                min_leaf);
        } else if (kinds[b] == 1) {
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
                if (bestL > 0) bestL = sweep2(Lc, Lk, nl, totL[1], bestL, min_leaf);
                if (bestR > 0) bestR = sweep2(Rc, Rk, nr, totR[1], bestR, min_leaf);
            } else {
                if (bestL > 0) bestL = sweep(Lc, Lk, nl, totL, bestL, C, cntL, min_leaf);
                if (bestR > 0) bestR = sweep(Rc, Rk, nr, totR, bestR, C, cntR, min_leaf);
            }
        } else if (packed_groups) {
            // a nominal attribute without weights, prices or a minimum leaf size, C <= 4:
            // each side's class counts in the current group (the rows of one code, which
            // lie together in the attribute's order) packed 16 bits a class in one word, so
            // a row is one add and a group's errors (its rows less its largest class) are
            // read at its end
            u64 gl = 0, gr = 0;
            i64 eL = 0, eR = 0, kL = 0, kR = 0;
            for (i64 q = 0; q < m; ++q) {
                const u64 one = u64{1} << (16 * cl[q]);
                const u64 right = u64{0} - static_cast<u64>(sd[q] > t);  // all bits: right
                gl += one & ~right;
                gr += one & right;
                if (q + 1 < m && col[q + 1] == col[q]) continue;
                eL += group_errors(gl);
                eR += group_errors(gr);
                kL += gl != 0;
                kR += gr != 0;
                gl = gr = 0;
            }
            if (doL && kL >= 2 && eL < bestL) bestL = eL;
            if (doR && kR >= 2 && eR < bestR) bestR = eR;
        } else {
            std::fill(cntL, cntL + C, 0);
            std::fill(cntR, cntR + C, 0);
            i64 lastL = -1, lastR = -1, eL = 0, eR = 0, kL = 0, kR = 0, gL = 0, gR = 0;
            // each side's rows in the current group, and its least group's (min_leaf)
            i64 rL = 0, rR = 0, leastL = m, leastR = m;
            for (i64 q = 0; q <= m; ++q) {
                const i64 v = q < m ? col[q] : -2;
                if (v != lastL && gL > 0) {
                    eL += price ? leaf_cost(cntL, C, price) : gL - largest(cntL, C);
                    ++kL;
                    std::fill(cntL, cntL + C, 0);
                    gL = 0;
                    leastL = std::min(leastL, rL);
                    rL = 0;
                }
                if (v != lastR && gR > 0) {
                    eR += price ? leaf_cost(cntR, C, price) : gR - largest(cntR, C);
                    ++kR;
                    std::fill(cntR, cntR + C, 0);
                    gR = 0;
                    leastR = std::min(leastR, rR);
                    rR = 0;
                }
                if (q == m) break;
                const i64 u = wq ? wq[q] : 1;
                if (sd[q] <= t) {
                    cntL[cl[q]] += u;
                    gL += u;
                    ++rL;
                    lastL = v;
                } else {
                    cntR[cl[q]] += u;
                    gR += u;
                    ++rR;
                    lastR = v;
                }
            }
            if (doL && kL >= 2 && leastL >= min_leaf && eL < bestL) bestL = eL;
            if (doR && kR >= 2 && leastR >= min_leaf && eR < bestR) bestR = eR;
        }
    }
    if (!doL) bestL = leaf_cost(totL, C, price);
    if (!doR) bestR = leaf_cost(totR, C, price);
    return {bestL, bestR};
}

// Prefix sums of values at positions 0..P-1 under point updates, for two sequences at once
// (the two sides of a root split, updated together as a row moves from one to the other):
// per node and side its sum and its least and most prefix sum (of the non-empty prefixes
// within it), node 1 the whole range. In int32: a table's weight is at most WEIGHT_LIMIT
// (2^29 - 1), so every sum fits.
struct PrefixTrees {
    using V = i32;
    struct Side {
        V s, lo, hi;
    };
    struct Node {
        Side l, r;
    };
    i64 P = 1;
    vec<Node> t;
    void reset(i64 n) {
        P = 1;
        while (P < n) P <<= 1;
        t.assign(static_cast<std::size_t>(2 * P), Node{});
    }
    static Side join(const Side &a, const Side &b) {
        return {static_cast<V>(a.s + b.s), std::min<V>(a.lo, a.s + b.lo),
                std::max<V>(a.hi, a.s + b.hi)};
    }
    void pull(i64 i) {
        const Node &a = t[2 * i], &b = t[2 * i + 1];
        t[i] = {join(a.l, b.l), join(a.r, b.r)};
    }
    // the right side's value at k += v, before build()
    void put_right(i64 k, i64 v) {
        Side &x = t[P + k].r;
        x.s = x.lo = x.hi = static_cast<V>(x.s + v);
    }
    void build() {
        for (i64 i = P - 1; i >= 1; --i) pull(i);
    }
    // v moves from the right side to the left at k
    void move(i64 k, i64 v) {
        i64 i = P + k;
        Node &x = t[i];
        x.l.s = x.l.lo = x.l.hi = static_cast<V>(x.l.s + v);
        x.r.s = x.r.lo = x.r.hi = static_cast<V>(x.r.s - v);
        for (i >>= 1; i >= 1; i >>= 1) pull(i);
    }
    const Node &root() const { return t[1]; }
};

// The least misclassifications over the trees of depth <= 2 of s, for two classes and
// ordered attributes only (no prices), every root split at once. With D the weight of
// class 1 less that of class 0 in a side's rows up to a threshold of a second attribute, the
// side's least errors at depth <= 1 are min(S0, S1, S0 + min D, S1 - max D) (S0, S1 its
// classes' weights: lanes_walk says why), and min and max may run over every code of the
// second attribute, since a code below the side's least or from its most on gives D = 0 or
// D = S1 - S0, which only adds the leaves' S0 and S1. So per root attribute a and second
// attribute b, the rows walk in a's order from the > side to the <= side, each move a point
// update of both sides' trees over b's codes, and at each threshold of a both sides' least
// errors along b are read at the trees' roots. choice gets the best tree's root (the first
// in the attributes' and thresholds' order among equal ones): (attribute, threshold code,
// kind), attribute -1 for the leaf. Stops early (any value) once st says aborted.
inline i64 d2_sweep(const Table &T, const Workspace &W, Sub s, const Stats &st, i64 *choice) {
    const i64 A = T.A, m = s.m;
    vec<i64> total(2);
    counts(rows(T, W, s, 0), m, T.dec, total.data(), 2, T.wt);
    i64 best_v = std::min(total[0], total[1]);
    choice[0] = -1;
    choice[1] = -1;
    choice[2] = LEAF;
    if (best_v == 0) return 0;
    vec<i64> l0(static_cast<std::size_t>(m)), l1(static_cast<std::size_t>(m));
    vec<i64> bestL(static_cast<std::size_t>(m)), bestR(static_cast<std::size_t>(m));
    vec<i32> at(static_cast<std::size_t>(m)), code(static_cast<std::size_t>(m));
    // per attribute b, each row's rank among b's codes in s (the trees span s's codes, not
    // the table's), indexed by row
    vec<i32> rank(static_cast<std::size_t>(A * T.n));
    vec<i64> ranks(static_cast<std::size_t>(A));
    for (i64 b = 0; b < A; ++b) {
        const i32 *lb = rows(T, W, s, b);
        const i32 *cb = T.col(b);
        i32 *rk = rank.data() + b * T.n;
        i32 k = 0;
        for (i64 q = 0; q < m; ++q) {
            if (q > 0 && cb[lb[q]] != cb[lb[q - 1]]) ++k;
            rk[lb[q]] = k;
        }
        ranks[b] = k + 1;
    }
    PrefixTrees trees;
    for (i64 a = 0; a < A; ++a) {
        const i32 *lst = rows(T, W, s, a);
        const i32 *ca = T.col(a);
        // the thresholds of a in s: after q + 1 rows where the code changes
        i64 K = 0, c0 = 0, c1 = 0;
        for (i64 q = 0; q + 1 < m; ++q) {
            const i32 row = lst[q];
            (T.dec[row] == 1 ? c1 : c0) += T.w(row);
            if (ca[lst[q + 1]] != ca[row]) {
                at[K] = static_cast<i32>(q);
                code[K] = ca[row];
                l0[K] = c0;
                l1[K] = c1;
                bestL[K] = std::min(c0, c1);
                bestR[K] = std::min(total[0] - c0, total[1] - c1);
                ++K;
            }
        }
        if (K == 0) continue;
        for (i64 b = 0; b < A; ++b) {
            if (st.aborted()) return best_v;
            const i32 *cb = rank.data() + b * T.n;
            const i64 nb = ranks[b];
            if (nb < 2) continue;
            trees.reset(nb);
            for (i64 q = 0; q < m; ++q) {
                const i32 row = lst[q];
                trees.put_right(cb[row], T.dec[row] == 1 ? T.w(row) : -T.w(row));
            }
            trees.build();
            i64 j = 0;
            for (i64 q = 0; j < K; ++q) {
                const i32 row = lst[q];
                trees.move(cb[row], T.dec[row] == 1 ? T.w(row) : -T.w(row));
                if (q != at[j]) continue;
                const auto &x = trees.root();
                const i64 L0 = l0[j], L1 = l1[j], R0 = total[0] - L0, R1 = total[1] - L1;
                bestL[j] = std::min({bestL[j], L0 + x.l.lo, L1 - x.l.hi});
                bestR[j] = std::min({bestR[j], R0 + x.r.lo, R1 - x.r.hi});
                ++j;
            }
        }
        for (i64 j = 0; j < K; ++j) {
            if (bestL[j] + bestR[j] < best_v) {
                best_v = bestL[j] + bestR[j];
                choice[0] = a;
                choice[1] = code[j];
                choice[2] = ORDERED;
            }
        }
        if (best_v == 0) break;
    }
    return best_v;
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
    counts(lst, m, T.dec, total.data(), C, T.wt);
    const i64 wm = sum(total.data(), C);  // the rows' weight: from here on every count is one
    const i64 leaf = wm - largest(total.data(), C);
    i64 best_v = leaf;
    choice[0] = -1;
    choice[1] = -1;
    choice[2] = LEAF;
    // per attribute: class counts per code
    vec<i64> one(static_cast<std::size_t>(A * V * C), 0);
    auto ONE = [&](i64 a, i64 v) { return one.data() + (a * V + v) * C; };
    for (i64 q = 0; q < m; ++q) {
        const i64 row = lst[q], u = T.w(row);
        for (i64 a = 0; a < A; ++a) ONE(a, T.col(a)[row])[T.dec[row]] += u;
    }
    auto group = [&](i64 a, i64 i) {
        i64 g = 0;
        for (i64 c = 0; c < C; ++c) g += ONE(a, i)[c];
        return g;
    };
    // the depth-one trees
    for (i64 a = 0; a < A; ++a) {
        const i64 v = split_mis(ONE(a, 0), T.nv[a], C, T.ordered(a), total.data(), wm, left.data());
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
                    if (0 < nl && nl < wm) {
                        i64 ml = 0, mr = 0;
                        for (i64 c = 0; c < C; ++c) {
                            ml = std::max(ml, lf[c]);
                            mr = std::max(mr, total[c] - lf[c]);
                        }
                        if (wm - ml - mr == v) {
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
                pair[(ca[row] * V + cb[row]) * C + T.dec[row]] += T.w(row);
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
                    if (nl == 0 || nl == wm) continue;
                    const i64 vl = split_mis(cum.data(), nb, C, T.ordered(b), side_tot.data(), nl,
                                             left.data());
                    for (i64 j = 0; j < nb; ++j)
                        for (i64 c = 0; c < C; ++c)
                            other[j * C + c] = ONE(b, j)[c] - cum[j * C + c];
                    for (i64 c = 0; c < C; ++c) other_tot[c] = total[c] - side_tot[c];
                    const i64 vr = split_mis(other.data(), nb, C, T.ordered(b), other_tot.data(),
                                             wm - nl, left.data());
                    d1L[i] = std::min(d1L[i], vl);
                    d1R[i] = std::min(d1R[i], vr);
                }
            } else {
                // a nominal root: each value's group split along b
                for (i64 i = 0; i < na; ++i) {
                    const i64 g = group(a, i);
                    if (g == 0) continue;
                    const i64 vg = split_mis(pair.data() + i * V * C, nb, C, T.ordered(b),
                                             ONE(a, i), g, left.data());
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
                if (nl == 0 || nl == wm) continue;
                i64 ml = 0, mr = 0;
                for (i64 c = 0; c < C; ++c) {
                    ml = std::max(ml, side_tot[c]);
                    mr = std::max(mr, total[c] - side_tot[c]);
                }
                const i64 v = std::min(d1L[i], nl - ml) + std::min(d1R[i], (wm - nl) - mr);
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

// What a depth-two front search knows of one attribute's splits of its subtable, for the
// search of a subtable of more rows (a side of the next root threshold along): per split
// (the <= side's last code) lower bounds of its sides' depth-one errors, which only grow
// as a side takes rows.
struct SplitBound {
    i64 code, l, r;
};
using SplitBounds = vec<SplitBound>;

// The trees of depth 2 rooted at a split of ordered attribute a of s, merged into the
// working front F, when every split into leaves of a side costs the same x. pk: the
// subtable packed (pack; its sa is rewritten here for a). lim: ylim(F) over the x of the
// subtable's depth-two trees when lim_ok (else made here), kept so as F changes. seed:
// bounds of a's splits from a subtable of some of these rows (its splits' codes in
// order), or null; out (or null) gets this search's bounds: the seed's, raised, and those
// of the splits it evaluated.
inline void front2_ordered(const Table &T, const Workspace &W, Sub s, i64 a, i64 hint,
                           const Cost &px, Packed &pk, Stats st, vec<Tagged> &F, YLim &lim,
                           bool &lim_ok, const SplitBounds *seed = nullptr,
                           SplitBounds *out = nullptr, const SplitBounds *wider = nullptr,
                           i64 lose = 0) {
    const i64 m = s.m, C = T.C;
    const i64 comb = px.comb, lc = px.lc, sc = px.sc, sr = px.sr;
    const i32 *lst = rows(T, W, s, a);
    const i32 *col = T.col(a);
    vec<i64> total(static_cast<std::size_t>(C));
    counts(lst, m, T.dec, total.data(), C, T.wt);
    const i64 wm = sum(total.data(), C);  // the rows' weight (m without weights)
    const i64 split_x = sc + sr * wm;
    vec<i64> pos(static_cast<std::size_t>(m));
    const i64 K = boundaries(lst, m, col, pos.data());
    if (K == 0) return;
    // the thresholds a minimum leaf size allows (all without)
    const auto [k0, k1] = allowed(pos.data(), K, m, T.min_leaf);
    if (k0 > k1) return;
    // Under a minimum leaf size a subset of rows may need more errors (its splits may leave
    // too few rows): a side's bound from a side it contains (the evaluated neighbour's, the
    // seed's) is off; from a side that contains it less the rows between, on only when
    // every attribute is ordered (Table::containing).
    const bool mono = T.monotone(), containing = T.containing();
    if (!mono) seed = nullptr;
    if (!containing) wider = nullptr;
    // the weight on the <= side of each threshold, and what moving the rows up to it can
    // change a cost by (Positions)
    Positions at;
    at.of(T, lst, pos.data(), K);
    const i64 *wpos = at.w, *bpos = at.b;
    // the sides' leaf errors at every threshold, from prefix class counts
    vec<i64> misL(static_cast<std::size_t>(K)), misR(static_cast<std::size_t>(K));
    vec<i64> prefix(static_cast<std::size_t>(K * C));  // the <= side's class counts
    side_leaves(lst, m, T.dec, C, total.data(), pos.data(), K, misL.data(), misR.data(),
                prefix.data(), T.wt, T.price);
    // a side's split into two leaves errs no less than its rows less its two largest
    // classes (binary splits only: a nominal split may have more leaves)
    // (two_l, two_r: per threshold; 0 where not bounded)
    vec<i64> two_l(static_cast<std::size_t>(K), 0), two_r(static_cast<std::size_t>(K), 0);
    if (C > 2 && T.all_ordered && T.price == nullptr) {
        const vec<i64> two = class_bounds(lst, m, T.dec, C, total.data(), pos.data(), K, 2, T.wt);
        for (i64 kk = 0; kk < K; ++kk) {
            two_l[kk] = two[(kk * 2 + 0) * 2 + 1];
            two_r[kk] = two[(kk * 2 + 1) * 2 + 1];
        }
    }
    vec<i64> d1L(static_cast<std::size_t>(K), 0), d1R(static_cast<std::size_t>(K), 0);
    // Under a minimum leaf size, the same sides' best splits without it (relaxed: no more
    // than with it, and only growing as a side takes rows), passed first at each evaluated
    // threshold, lower bounds elsewhere: they bound the thresholds between as d1L, d1R do
    // without K.
    vec<i64> r1L(mono ? 0 : static_cast<std::size_t>(K), 0);
    vec<i64> r1R(mono ? 0 : static_cast<std::size_t>(K), 0);
    // the seed's bounds at the thresholds of the same code (its subtable's sides hold some
    // of these sides' rows: their errors are no larger), 0 elsewhere
    vec<i64> seedL, seedR;
    vec<u8> known;  // which thresholds have a bound to hand on: seeded or evaluated
    if (seed != nullptr || out != nullptr) {
        seedL.assign(static_cast<std::size_t>(K), 0);
        seedR.assign(static_cast<std::size_t>(K), 0);
        known.assign(static_cast<std::size_t>(K), 0);
    }
    if (seed != nullptr) {
        // A seed's <= side (code c) is within the <= side of every threshold of a code >= c
        // here, its > side within the > side of every threshold of a code <= c: the
        // largest such bound at each threshold (a running maximum each way).
        const i64 ns = static_cast<i64>(seed->size());
        const SplitBound *sb = seed->data();
        i64 j = 0, run = 0;
        for (i64 kk = 0; kk < K; ++kk) {
            const i64 code = col[lst[pos[kk] - 1]];
            for (; j < ns && sb[j].code <= code; ++j) {
                run = std::max(run, sb[j].l);
                if (sb[j].code == code) known[kk] = 1;
            }
            seedL[kk] = run;
        }
        j = ns - 1;
        run = 0;
        for (i64 kk = K - 1; kk >= 0; --kk) {
            const i64 code = col[lst[pos[kk] - 1]];
            for (; j >= 0 && sb[j].code >= code; --j) run = std::max(run, sb[j].r);
            seedR[kk] = run;
        }
    }
    if (wider != nullptr) {
        // a subtable of these rows and more (lose: what the rows it has more change a
        // side's errors by at most): its bounds less that, at the thresholds of its codes
        if (seedL.empty()) {
            seedL.assign(static_cast<std::size_t>(K), 0);
            seedR.assign(static_cast<std::size_t>(K), 0);
            known.assign(static_cast<std::size_t>(K), 0);
        }
        i64 kk = 0;
        for (const SplitBound &b : *wider) {
            while (kk < K && col[lst[pos[kk] - 1]] < b.code) ++kk;
            if (kk == K) break;
            if (col[lst[pos[kk] - 1]] == b.code) {
                seedL[kk] = std::max(seedL[kk], b.l - lose);
                seedR[kk] = std::max(seedR[kk], b.r - lose);
            }
        }
    }
    const bool seeded = seed != nullptr || wider != nullptr;
    vec<i64> totL(static_cast<std::size_t>(C), 0), totR(static_cast<std::size_t>(C), 0);
    vec<u8> alive_at(static_cast<std::size_t>(K));  // per threshold: which points can be on F
    IntervalPruner iv(pos.data(), K, hint, k0, k1);
    const i64 two_leaf = comb ? lc : 2 * lc;
    // the x range of the candidates' points, and the front's y bound over it (kept across
    // the subtable's attributes: merges lower it in place)
    const i64 x_lo = lc;
    const i64 x_hi = split_x + (comb ? std::max(sc + sr * wm + two_leaf, lc)
                                     : 2 * (sc + sr * wm + two_leaf));
    if (!lim_ok) {
        lim = ylim(F, x_lo, x_hi);
        lim_ok = true;
    }
    bool first_eval = true;  // the root attribute's codes are packed at the first pass
    SidesScratch w(m, C, pk.lanes, T.wt != nullptr);
    // A threshold's bounds: its sides' best splits err no less than the same side's at the
    // evaluated neighbour it contains (d1L[ln], d1R[rn]), and no less than the neighbour's
    // that contains it minus the rows between; no less than the class bound; no more than
    // the leaf. Its points (one side split, the other, both) and the front's least y at
    // their x.
    // (Under K: the relaxed values' bounds rl_l, rl_r too.)
    struct Screen {
        i64 lb_l, lb_r, lim0, lim1, lim2, rl_l, rl_r;
    };
    constexpr i64 FAR = -(i64{1} << 40);  // a bound that binds nothing
    // the values that only grow as a side takes rows (the relaxed ones under K), and those
    // a containing side bounds less the rows between (K's when Table::containing)
    const vec<i64> &gL = mono ? d1L : r1L, &gR = mono ? d1R : r1R;
    const vec<i64> &cL = containing ? d1L : r1L, &cR = containing ? d1R : r1R;
    // (rows between: their weight, wpos)
    auto screen = [&](const Interval &I, i64 kk) {
        const i64 bp = bpos[kk], p = wpos[kk];
        const i64 dl_ln = I.ln >= 0 ? gL[I.ln] : 0;
        const i64 dr_ln = I.ln >= 0 ? cR[I.ln] + bpos[I.ln] : FAR;
        const i64 dl_rn = I.rn >= 0 ? cL[I.rn] - bpos[I.rn] : FAR;
        const i64 dr_rn = I.rn >= 0 ? gR[I.rn] : 0;
        i64 rl_l = 0, rl_r = 0;
        if (!mono) {  // the relaxed values' own bounds (each way, as without K)
            std::tie(rl_l, rl_r) = side_bounds(r1L, r1R, I, bpos, bp, true, true);
            rl_l = std::min(rl_l, misL[kk]);
            rl_r = std::min(rl_r, misR[kk]);
        }
        i64 lb_l = std::max(std::max(std::max(dl_ln, dl_rn + bp), two_l[kk]), rl_l);
        i64 lb_r = std::max(std::max(std::max(dr_rn, dr_ln - bp), two_r[kk]), rl_r);
        if (seeded) {
            lb_l = std::max(lb_l, seedL[kk]);
            lb_r = std::max(lb_r, seedR[kk]);
        }
        lb_l = std::min(lb_l, misL[kk]);
        lb_r = std::min(lb_r, misR[kk]);
        const i64 xl = sc + sr * p + two_leaf;
        const i64 xr = sc + sr * (wm - p) + two_leaf;
        const i64 x0 = split_x + (comb ? std::max(xl, lc) : xl + lc);
        const i64 x1 = split_x + (comb ? std::max(lc, xr) : lc + xr);
        const i64 x2 = split_x + (comb ? std::max(xl, xr) : xl + xr);
        return Screen{lb_l, lb_r, lim.at(x0), lim.at(x1), lim.at(x2), rl_l, rl_r};
    };
    // which of a threshold's points can be on the front: bit 0 its left side split, 1 its
    // right, 2 both
    auto points = [&](const Screen &c, i64 kk) {
        return static_cast<u8>((c.lb_l + misR[kk] < c.lim0) | ((misL[kk] + c.lb_r < c.lim1) << 1) |
                               ((c.lb_l + c.lb_r < c.lim2) << 2));
    };
    while (!iv.empty()) {
        const Interval I = iv.pop();
        if (st.aborted()) break;
        // screen every threshold of the interval on its own bounds, then pick the one
        // nearest the wanted (the lower of two as near)
        u8 *f = alive_at.data();
        for (i64 kk = I.lo; kk <= I.hi; ++kk) f[kk] = points(screen(I, kk), kk);
        const i64 want = iv.want(I);
        i64 pick = -1, best_gap = INF, alive = 0, uses_l = 0, uses_r = 0;
        for (i64 kk = I.lo; kk <= I.hi; ++kk) {
            if (!f[kk]) continue;
            ++alive;
            uses_l += (f[kk] & 5) != 0;
            uses_r += (f[kk] & 6) != 0;
            const i64 gap = std::abs(kk - want);
            if (gap < best_gap) {
                best_gap = gap;
                pick = kk;
            }
        }
        st.add(S_PRUNED, I.hi - I.lo + 1 - alive);
        if (pick < 0) continue;
        const Screen c = screen(I, pick);
        const i64 pick_l = c.lb_l, pick_r = c.lb_r, lim_l = c.lim0, lim_r = c.lim1, lim_b = c.lim2;
        const bool pick_uses_l = (f[pick] & 5) != 0, pick_uses_r = (f[pick] & 6) != 0;
        iv.evaluated();
        const i64 mid = pick, p = pos[mid];
        st.add(S_EVALUATED);
        if (first_eval) {
            root_codes(T, W, s, a, pk);
            first_eval = false;
        }
        for (i64 c = 0; c < C; ++c) {
            totL[c] = prefix[mid * C + c];
            totR[c] = total[c] - totL[c];
        }
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
        if (!mono) {
            r1L[mid] = c.rl_l;
            r1R[mid] = c.rl_r;
        }
        auto pass = [&](int which) {
            if (!mono) {  // the relaxed values first (they bound the neighbours)
                const auto [l1, r1] =
                    sides_d1(pk, t, T.kinds, T.A, C, p, totL.data(), totR.data(), which, w);
                if (which != RIGHT) r1L[mid] = l1;
                if (which != LEFT) r1R[mid] = r1;
            }
            return sides_d1(pk, t, T.kinds, T.A, C, p, totL.data(), totR.data(), which, w,
                            T.min_leaf);
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
        if (out != nullptr) {
            seedL[mid] = std::max(seedL[mid], d1L[mid]);
            seedR[mid] = std::max(seedR[mid], d1R[mid]);
            known[mid] = 1;
        }
        const vec<XY> L = side_front1(misL[mid], bl, lc, sc + sr * wpos[mid] + two_leaf);
        const vec<XY> R = side_front1(misR[mid], br, lc, sc + sr * (wm - wpos[mid]) + two_leaf);
        const vec<XY> cxy = combine(L, R, comb);
        if (!all_dominated(cxy, split_x, F)) {  // else the merge keeps the front
            F = merge(F, cxy, split_x, ORDERED, a, t);
            lim.add(cxy, split_x);  // = ylim(F) of the merged front
        }
        if (alive > 1) iv.split(I, mid);
    }
    if (out != nullptr) {
        out->clear();
        for (i64 kk = 0; kk < K; ++kk)
            if (known[kk]) out->push_back({col[lst[pos[kk] - 1]], seedL[kk], seedR[kk]});
    }
}

}  // namespace dagger::ordered
