// The columnar CSV reader's two row passes (driven by dagger_cli.data.csv): merging equal
// rows of a large file.
//
// factorize: dense ids of int64 row keys in order of first appearance and the first row
// of each id, by open addressing on a power-of-two table of int32 ids (a slot's key is read
// back through the first row of its id, so the table costs 4 bytes a slot). vote_dense:
// each group's most common decision (the smallest code on a tie) from a (groups x
// decisions) count table, the groups with several decisions and the rows outvoted.
#include <charconv>
#include <cmath>

#include "py.hpp"

namespace dagger {
namespace {

namespace nb = nanobind;

struct Factorized {
    std::vector<i32> ids, first;
};

Factorized factorize(Span<const i64> keys) {
    const i64 n = keys.size();
    // At least 1.5 slots a key, a power of two (as the numba kernel's table).
    i64 bits = 0;
    for (i64 v = n + n / 2; v > 0; v >>= 1) ++bits;
    const i64 slots = i64{1} << std::max<i64>(4, bits);
    const i64 mask = slots - 1;
    std::vector<i32> table(static_cast<std::size_t>(slots), -1);
    Factorized out;
    out.ids.resize(static_cast<std::size_t>(n));
    out.first.resize(static_cast<std::size_t>(n));
    i32 count = 0;
    for (i64 i = 0; i < n; ++i) {
        const i64 k = keys[i];
        // numba's int64 arithmetic: the product wraps, the shift is arithmetic.
        const i64 h = static_cast<i64>(static_cast<u64>(k) * 0x9E3779B97F4A7C15ull) >> 20;
        i64 s = h & mask;
        while (true) {
            const i32 g = table[s];
            if (g < 0) {
                table[s] = count;
                out.first[count] = static_cast<i32>(i);
                out.ids[i] = count;
                ++count;
                break;
            }
            if (keys[out.first[g]] == k) {
                out.ids[i] = g;
                break;
            }
            s = (s + 1) & mask;
        }
    }
    out.first.resize(static_cast<std::size_t>(count));
    return out;
}

// A short number t with a < t < b near their midpoint, for each pair (a, b): the first of
// mid's roundings to 1, 2, ... 17 significant digits that lies strictly between them
// within (b - a) * rounding of mid; mid itself, or a, if none does (neighbouring floats).
// The roundings are printf's %.*g (correctly rounded, as Python's format), read back
// correctly rounded: the same numbers as dagger_cli.data.thresholds.between.
double between(double a, double b, double rounding) {
    const double mid = a / 2 + b / 2;
    const double tolerance = (b - a) * rounding;
    char buf[64];
    for (int digits = 1; digits < 18; ++digits) {
        const auto end = std::to_chars(buf, buf + sizeof buf, mid, std::chars_format::general,
                                       digits);
        double t = 0;
        std::from_chars(buf, end.ptr, t);
        if (a < t && t < b && std::abs(t - mid) <= tolerance) return t + 0.0;
    }
    return a < mid && mid < b ? mid : a;
}

}  // namespace

namespace py {

void bind_csv(nb::module_ &m) {
    m.def(
        "thresholds_between",
        [](nb::handle lo, nb::handle hi, double rounding) {
            auto a = span<const double>(lo, "lo");
            auto b = span<const double>(hi, "hi");
            if (a.size() != b.size()) throw nb::value_error("lo, hi: one pair each");
            std::vector<double> out(static_cast<std::size_t>(a.size()));
            {
                nb::gil_scoped_release free;
                for (i64 i = 0; i < a.size(); ++i) out[i] = between(a[i], b[i], rounding);
            }
            return to_numpy<double>(std::move(out));
        },
        nb::arg("lo"), nb::arg("hi"), nb::arg("rounding"),
        "For each pair (lo, hi), a short number strictly between them near their midpoint "
        "(dagger_cli.data.thresholds.between, float64).");

    m.def(
        "csv_factorize",
        [](nb::handle keys) {
            auto k = span<const i64>(keys, "keys");
            if (k.size() >= (i64{1} << 31)) throw nb::value_error("keys: fewer than 2^31 rows");
            Factorized f;
            {
                nb::gil_scoped_release free;
                f = factorize(k);
            }
            return nb::make_tuple(to_numpy<i32>(std::move(f.ids)), to_numpy<i32>(std::move(f.first)));
        },
        nb::arg("keys"),
        "Dense ids (int32) of int64 keys in order of first appearance, and the first row of "
        "each id.");

    m.def(
        "csv_vote_dense",
        [](nb::handle gid, nb::handle decisions, i64 groups, i64 n_dec) {
            auto g = span<const i32>(gid, "gid");
            auto d = span<const i32>(decisions, "decisions");
            if (g.size() != d.size()) throw nb::value_error("gid, decisions: one per row");
            if (groups < 0 || n_dec < 1) throw nb::value_error("groups, n_dec");
            std::vector<i32> chosen(static_cast<std::size_t>(groups));
            std::vector<i64> stats(2, 0);
            bool bad = false;
            {
                nb::gil_scoped_release free;
                std::vector<i32> counts(static_cast<std::size_t>(groups * n_dec), 0);
                const u64 ug = static_cast<u64>(groups), ud = static_cast<u64>(n_dec);
                for (i64 i = 0; i < g.size(); ++i) {
                    const u64 a = static_cast<u64>(static_cast<i64>(g[i]));
                    const u64 b = static_cast<u64>(static_cast<i64>(d[i]));
                    if (a >= ug || b >= ud) {
                        bad = true;
                        break;
                    }
                    ++counts[a * ud + b];
                }
                i64 several = 0, outvoted = 0;
                for (i64 q = 0; q < groups; ++q) {
                    i64 best = -1, arg = 0, kinds = 0, size = 0;
                    for (i64 k = 0; k < n_dec; ++k) {
                        const i64 c = counts[q * n_dec + k];
                        if (c > 0) {
                            ++kinds;
                            size += c;
                        }
                        if (c > best) {  // the first maximum: the smallest decision code
                            best = c;
                            arg = k;
                        }
                    }
                    chosen[q] = static_cast<i32>(arg);
                    if (kinds > 1) {
                        ++several;
                        outvoted += size - best;
                    }
                }
                stats[0] = several;
                stats[1] = outvoted;
            }
            if (bad) throw nb::value_error("gid or decisions out of range");
            return nb::make_tuple(to_numpy<i32>(std::move(chosen)), to_numpy<i64>(std::move(stats)));
        },
        nb::arg("gid"), nb::arg("decisions"), nb::arg("groups"), nb::arg("n_dec"),
        "Each group's most common decision (the smallest code on a tie) and [groups with "
        "several decisions, rows outvoted].");
}

}  // namespace py
}  // namespace dagger
