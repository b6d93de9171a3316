// SPDX-License-Identifier: MIT
// C++ side of the cxx bridge: a Verilated dcqcn_cosim_top behind a small virtual interface.
#pragma once

#include <cstdint>
#include <memory>

#include "rust/cxx.h"

namespace dcqcn {

struct PortsIn;
struct Sample;
struct VariantInfo;
struct TraceSlot;

class Dut {
public:
    virtual ~Dut() = default;
    virtual void step(const PortsIn& inp, Sample& out) = 0;
    virtual void inject(const Sample& state, rust::Slice<const TraceSlot> trace_mem) = 0;
    virtual uint64_t run_bare(rust::Slice<const PortsIn> inputs, uint32_t repeat) = 0;
    virtual uint32_t copy_whole_runs(bool allow) = 0;
};

std::unique_ptr<Dut> new_dut(rust::Str variant, uint64_t init_seed);
rust::Vec<VariantInfo> variants();

}  // namespace dcqcn
