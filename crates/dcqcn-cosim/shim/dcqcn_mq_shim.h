// SPDX-License-Identifier: MIT
// C++ side of the multi-QP block's cxx bridge (src/mq_ffi.rs): a Verilated dcqcn_mq_core
// (docs/spec-mq.md) behind a small virtual interface, one class per (HDL, QPS) variant.
#pragma once

#include <cstdint>
#include <memory>

#include "rust/cxx.h"

namespace dcqcn {
namespace mq {

struct MqPortsIn;
struct MqPortsOut;
struct MqVariantInfo;

class MqDut {
public:
    virtual ~MqDut() = default;
    virtual void set_inputs(const MqPortsIn& inp) = 0;
    virtual void eval() = 0;
    virtual void outputs(MqPortsOut& out) const = 0;
    virtual void obs_state(rust::Vec<uint32_t>& words) const = 0;
    virtual void obs_bitmaps(rust::Vec<uint32_t>& words) const = 0;
    virtual void obs_writes(rust::Vec<uint32_t>& words) const = 0;
    virtual void clock_edge() = 0;
    virtual void inject_state(rust::Slice<const uint32_t> state, rust::Slice<const uint32_t> bitmaps) = 0;
    virtual void write_mem(uint32_t copy, uint32_t addr, uint64_t data) = 0;
    virtual uint64_t read_mem(uint32_t copy, uint32_t addr) = 0;
};

std::unique_ptr<MqDut> new_mq_dut(bool vhdl, uint32_t qps);
std::unique_ptr<MqDut> new_mq_dut_named(rust::Str name);
rust::Vec<MqVariantInfo> mq_variants();

}  // namespace mq
}  // namespace dcqcn
