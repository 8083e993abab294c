// The fronts kernels' structures from the Python side's named tuples
// (dagger_cli.engine.kernels.fronts: DagArrays, FrontPool; the params vector), for the
// bindings of fronts.cpp and depth_two.cpp.
#pragma once

#include "front_store.hpp"
#include "py.hpp"

namespace dagger::py {

inline fronts::DagView dag_view(nb::handle d) {
    return fronts::DagView{
        field<const i64>(d, "node_start"),        field<const i32>(d, "node_size"),
        field<const i32>(d, "node_mis"),          field<const i8>(d, "node_split"),
        field<const i32>(d, "node_level"),        field<const i64>(d, "node_bundle_start"),
        field<const i64>(d, "bundle_edge_start"), field<const i32>(d, "edge_child"),
        field<const i32>(d, "row_pool"),          field<const i32>(d, "node_weight"),
    };
}

inline fronts::Pool pool_view(nb::handle p) {
    return fronts::Pool{field<i64>(p, "fref"), field<i64>(p, "fxy"), field<i32>(p, "fch"),
                        field<i64>(p, "counters"), field<i64>(p, "needs")};
}

}  // namespace dagger::py
