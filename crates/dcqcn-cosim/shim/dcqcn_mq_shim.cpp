// SPDX-License-Identifier: MIT
// Drives one Verilated dcqcn_mq_core (docs/spec-mq.md) of either HDL, inside the lockstep wrapper
// verilator/dcqcn_mq_cosim_top.sv: the port inputs of a cycle in, an evaluation with clk low
// (outputs, and the observation ports obs_state, obs_bitmaps and obs_writes: S(t) and the writes
// of cycle t, spec-mq 8.1, 8.2), then the rising edge; between two edges, state injection and
// memory dumps through the wrapper's inj_* ports (spec-mq 8.2, 8.3).

#include "dcqcn-cosim/shim/dcqcn_mq_shim.h"
#include "dcqcn-cosim/src/mq_ffi.rs.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "verilated.h"
#include "dcqcn_mq_variant_headers.inc"

namespace dcqcn {
namespace mq {
namespace {

// The observation ports are read every cycle, so each is written into the caller's vector in
// place once it has the port's size: a push_back is a call across the bridge per word (at QPS
// 1024 the bitmaps alone are 224 words), which cost the lockstep a fifth of its time.

// A port of up to 64 bits (CData .. QData) as 32-bit little-endian words.
template <typename T>
inline void get_words(rust::Vec<uint32_t>& dst, const T& src) {
    static_assert(std::is_integral<T>::value, "a scalar port");
    constexpr std::size_t n = sizeof(T) > 4 ? 2 : 1;
    const uint64_t v = static_cast<uint64_t>(src);
    if (dst.size() != n) {
        dst.clear();
        dst.reserve(n);
        for (std::size_t w = 0; w < n; ++w) dst.push_back(0);
    }
    uint32_t* d = dst.data();
    d[0] = static_cast<uint32_t>(v);
    if (n > 1) d[n - 1] = static_cast<uint32_t>(v >> 32);
}
// A wide port (VlWide<N>, 32-bit words, least significant first).
template <std::size_t N>
inline void get_words(rust::Vec<uint32_t>& dst, const VlWide<N>& src) {
    if (dst.size() != N) {
        dst.clear();
        dst.reserve(N);
        for (std::size_t w = 0; w < N; ++w) dst.push_back(0);
    }
    uint32_t* d = dst.data();
    for (std::size_t w = 0; w < N; ++w) d[w] = src[w];
}

// An input port from 32-bit little-endian words (missing words 0; the port's width cuts the rest:
// Verilator ignores the bits above it).
template <typename T>
inline void set_words(T& dst, rust::Slice<const uint32_t> src) {
    static_assert(std::is_integral<T>::value, "a scalar port");
    uint64_t v = src.size() > 0 ? src[0] : 0;
    if (sizeof(T) > 4 && src.size() > 1) v |= static_cast<uint64_t>(src[1]) << 32;
    dst = static_cast<T>(v);
}
template <std::size_t N>
inline void set_words(VlWide<N>& dst, rust::Slice<const uint32_t> src) {
    for (std::size_t w = 0; w < N; ++w) dst[w] = w < src.size() ? src[w] : 0;
}

template <typename V>
class MqDutImpl final : public MqDut {
public:
    MqDutImpl() : top_(new V(&ctx_, "TOP")) {
        top_->clk = 0;
        top_->eval();
    }
    ~MqDutImpl() override { top_->final(); }

    void set_inputs(const MqPortsIn& i) override {
        V* t = top_.get();
        t->rst = i.rst;
        t->s_req_valid = i.s_req_valid;
        t->s_req_qp = i.s_req_qp & 0xFFF;
        t->s_req_bytes = i.s_req_bytes;
        t->s_cnp_valid = i.s_cnp_valid;
        t->s_cnp_qp = i.s_cnp_qp & 0xFFF;
        t->s_rpt_valid = i.s_rpt_valid;
        t->s_rpt_qp = i.s_rpt_qp & 0xFFF;
        t->s_rpt_bytes = i.s_rpt_bytes;
        t->grant_pause = i.grant_pause;
        t->s_axil_awaddr = i.s_axil_awaddr & 0x1FFFFF;
        t->s_axil_awvalid = i.s_axil_awvalid;
        t->s_axil_wdata = i.s_axil_wdata;
        t->s_axil_wstrb = i.s_axil_wstrb & 0xF;
        t->s_axil_wvalid = i.s_axil_wvalid;
        t->s_axil_bready = i.s_axil_bready;
        t->s_axil_araddr = i.s_axil_araddr & 0x1FFFFF;
        t->s_axil_arvalid = i.s_axil_arvalid;
        t->s_axil_rready = i.s_axil_rready;
    }

    void eval() override {
        top_->clk = 0;
        top_->eval();
    }

    void outputs(MqPortsOut& o) const override {
        const V* t = top_.get();
        o.m_grant_valid = t->m_grant_valid;
        o.m_grant_qp = t->m_grant_qp;
        o.m_grant_bytes = t->m_grant_bytes;
        o.s_axil_awready = t->s_axil_awready;
        o.s_axil_wready = t->s_axil_wready;
        o.s_axil_arready = t->s_axil_arready;
        o.s_axil_bvalid = t->s_axil_bvalid;
        o.s_axil_bresp = t->s_axil_bresp;
        o.s_axil_rvalid = t->s_axil_rvalid;
        o.s_axil_rdata = t->s_axil_rdata;
        o.s_axil_rresp = t->s_axil_rresp;
    }

    void obs_state(rust::Vec<uint32_t>& w) const override { get_words(w, top_->obs_state); }
    void obs_bitmaps(rust::Vec<uint32_t>& w) const override { get_words(w, top_->obs_bitmaps); }
    void obs_writes(rust::Vec<uint32_t>& w) const override { get_words(w, top_->obs_writes); }

    void clock_edge() override {
        top_->clk = 1;
        top_->eval();
    }

    // State injection and memory dumps (verilator/dcqcn_mq_cosim_top.sv, spec-mq 8.2, 8.3): one
    // rising edge of inj_clk each, clk held where it is.
    void inject_state(rust::Slice<const uint32_t> state, rust::Slice<const uint32_t> bitmaps) override {
        V* t = top_.get();
        set_words(t->in_state, state);
        set_words(t->in_bitmaps, bitmaps);
        inj_edge(0);
    }

    void write_mem(uint32_t copy, uint32_t addr, uint64_t data) override {
        V* t = top_.get();
        t->inj_copy = copy & 0x1F;
        t->inj_addr = addr & 0xFFF;
        t->inj_data = data;
        inj_edge(1);
    }

    uint64_t read_mem(uint32_t copy, uint32_t addr) override {
        V* t = top_.get();
        t->inj_copy = copy & 0x1F;
        t->inj_addr = addr & 0xFFF;
        inj_edge(2);
        return t->dump_data;
    }

private:
    void inj_edge(uint8_t op) {
        V* t = top_.get();
        t->inj_op = op;
        t->inj_clk = 0;
        t->eval();
        t->inj_clk = 1;
        t->eval();
    }

    VerilatedContext ctx_;
    std::unique_ptr<V> top_;
};

struct Entry {
    const char* name;
    bool vhdl;
    uint32_t qps;
    uint32_t clk_hz;
    uint32_t line_rate;
    std::unique_ptr<MqDut> (*make)();
};

#define DCQCN_MQ_VARIANT(CLASS, NAME, VHDL, QPS, CLK, RATE) \
    static std::unique_ptr<MqDut> make_##CLASS() { return std::unique_ptr<MqDut>(new MqDutImpl<CLASS>()); } \
    static const Entry entry_##CLASS{NAME, VHDL, QPS, CLK, RATE, &make_##CLASS};
#include "dcqcn_mq_variants.inc"
#undef DCQCN_MQ_VARIANT

// Every variant built (none while rtl/mq/ and rtl/vhdl/mq/ are absent), then a terminator.
#define DCQCN_MQ_VARIANT(CLASS, NAME, VHDL, QPS, CLK, RATE) &entry_##CLASS,
const Entry* const kVariants[] = {
#include "dcqcn_mq_variants.inc"
    nullptr};
#undef DCQCN_MQ_VARIANT

}  // namespace

// A mutant (`mut_*`, built with feature `mutants` from verilator/mutants/mq/) is never the variant
// of an (HDL, QPS): it is chosen by its name only (new_mq_dut_named).
static bool is_mutant(const Entry* e) { return std::string(e->name).rfind("mut_", 0) == 0; }

std::unique_ptr<MqDut> new_mq_dut(bool vhdl, uint32_t qps) {
    for (const Entry* const* e = kVariants; *e != nullptr; ++e) {
        if ((*e)->vhdl == vhdl && (*e)->qps == qps && !is_mutant(*e)) return (*e)->make();
    }
    throw std::runtime_error(std::string("no dcqcn_mq variant of the ") + (vhdl ? "VHDL twin" : "SystemVerilog") +
                             " at QPS " + std::to_string(qps) + " is built");
}

std::unique_ptr<MqDut> new_mq_dut_named(rust::Str name) {
    const std::string n(name);
    for (const Entry* const* e = kVariants; *e != nullptr; ++e) {
        if (n == (*e)->name) return (*e)->make();
    }
    throw std::runtime_error("no dcqcn_mq variant named `" + n + "` is built");
}

rust::Vec<MqVariantInfo> mq_variants() {
    rust::Vec<MqVariantInfo> v;
    for (const Entry* const* e = kVariants; *e != nullptr; ++e) {
        v.push_back(MqVariantInfo{(*e)->name, (*e)->vhdl, (*e)->qps, (*e)->clk_hz, (*e)->line_rate});
    }
    return v;
}

}  // namespace mq
}  // namespace dcqcn
