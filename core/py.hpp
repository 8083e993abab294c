// The binding layer's helpers: numpy arrays in and out of the kernels, and the fields of
// the Python side's named tuples of arrays (the kernels' structures) as Spans.
//
// Every kernel binding converts its arguments here, with the GIL held, into plain C++
// structures of Spans; then releases the GIL for the kernel itself (so the engine's worker
// threads, progress and Ctrl-C in Python go on meanwhile).
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <string>
#include <utility>
#include <vector>

#include "common.hpp"

namespace dagger::py {

namespace nb = nanobind;

using AnyArray = nb::ndarray<nb::c_contig, nb::device::cpu>;

// A C-contiguous numpy array of T as a Span (TypeError naming `what` for another dtype).
template <class T>
Span<T> span(nb::handle obj, const char *what = "array") {
    auto a = nb::cast<AnyArray>(obj);
    if (a.dtype() != nb::dtype<std::remove_const_t<T>>()) {
        throw nb::type_error((std::string(what) + ": unexpected dtype").c_str());
    }
    return Span<T>{static_cast<T *>(a.data()), static_cast<i64>(a.size())};
}

// A 2-d C-contiguous array of T as a Mat.
template <class T>
Mat<T> mat(nb::handle obj, const char *what = "matrix") {
    auto a = nb::cast<AnyArray>(obj);
    if (a.dtype() != nb::dtype<std::remove_const_t<T>>() || a.ndim() != 2) {
        throw nb::type_error((std::string(what) + ": unexpected dtype or shape").c_str());
    }
    return Mat<T>{static_cast<T *>(a.data()), static_cast<i64>(a.shape(0)),
                  static_cast<i64>(a.shape(1))};
}

// Field `name` of a Python object (a named tuple of arrays) as a Span.
template <class T>
Span<T> field(nb::handle obj, const char *name) {
    return span<T>(obj.attr(name), name);
}

// Whether a numpy array has dtype T.
template <class T>
bool is(nb::handle obj) {
    return nb::cast<AnyArray>(obj).dtype() == nb::dtype<T>();
}

// A new numpy array owning `data` (moved in), of the given shape.
template <class T>
nb::ndarray<nb::numpy, T> to_numpy(std::vector<T> &&data, std::vector<std::size_t> shape) {
    auto *owner = new std::vector<T>(std::move(data));
    nb::capsule keep(owner, [](void *p) noexcept { delete static_cast<std::vector<T> *>(p); });
    return nb::ndarray<nb::numpy, T>(owner->data(), shape.size(), shape.data(), keep);
}

template <class T>
nb::ndarray<nb::numpy, T> to_numpy(std::vector<T> &&data) {
    std::size_t n = data.size();
    return to_numpy<T>(std::move(data), {n});
}

// Register each part's kernels (one function per source file, bindings.cpp calls them).
void bind_threads(nb::module_ &m);
void bind_rules(nb::module_ &m);
void bind_discovery(nb::module_ &m);
void bind_posets(nb::module_ &m);
void bind_counting(nb::module_ &m);
void bind_csv(nb::module_ &m);
void bind_fronts(nb::module_ &m);
void bind_depth_two(nb::module_ &m);
void bind_ordered(nb::module_ &m);

}  // namespace dagger::py
