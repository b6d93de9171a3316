// SPDX-License-Identifier: MIT
// Drives one Verilated variant per clock cycle: inputs in, outputs sampled before the edge,
// registers sampled after it (the record compared by the lockstep, docs/spec.md section 7).

#include "dcqcn-cosim/shim/dcqcn_shim.h"
#include "dcqcn-cosim/src/ffi.rs.h"

#include <array>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "verilated.h"
#include "dcqcn_variant_headers.inc"

namespace dcqcn {
namespace {

using Words = std::array<uint64_t, 8>;

// Data beats are CData..QData for up to 8 bytes and VlWide<N> (32-bit words) above.
template <typename T>
inline void put_data(T& dst, const Words& src) {
    dst = static_cast<T>(src[0]);
}
template <std::size_t N>
inline void put_data(VlWide<N>& dst, const Words& src) {
    for (std::size_t w = 0; w < N; ++w) dst[w] = static_cast<uint32_t>(src[w / 2] >> (32 * (w % 2)));
}
template <typename T>
inline void get_data(Words& dst, const T& src) {
    dst = Words{};
    dst[0] = static_cast<uint64_t>(src);
}
template <std::size_t N>
inline void get_data(Words& dst, const VlWide<N>& src) {
    dst = Words{};
    for (std::size_t w = 0; w < N; ++w) dst[w / 2] |= static_cast<uint64_t>(src[w]) << (32 * (w % 2));
}

// Entries of the event trace's storage (spec 4.10).
constexpr std::size_t kTraceDepth = 64;

template <std::size_t N>
inline void clear_wide(VlWide<N>& dst) {
    for (std::size_t w = 0; w < N; ++w) dst[w] = 0;
}

// Bits [lsb + width - 1 : lsb] of a wide port (width <= 32) from `v`.
template <std::size_t N>
inline void put_bits(VlWide<N>& dst, std::size_t lsb, std::size_t width, uint32_t v) {
    for (std::size_t b = 0; b < width; ++b) {
        const std::size_t bit = lsb + b;
        const uint32_t m = 1u << (bit % 32);
        if ((v >> b) & 1u) {
            dst[bit / 32] |= m;
        } else {
            dst[bit / 32] &= ~m;
        }
    }
}

template <typename V>
class DutImpl final : public Dut {
public:
    explicit DutImpl(uint64_t init_seed) {
        if (init_seed != 0) {
            // Random initial values (the model is built with --x-initial unique).
            ctx_.randReset(2);
            ctx_.randSeed(static_cast<int>(init_seed % 2147483647u) + 1);
        }
        top_.reset(new V(&ctx_, "TOP"));
        top_->clk = 0;
        top_->inj_clk = 0;
        top_->eval();
    }
    ~DutImpl() override { top_->final(); }

    void step(const PortsIn& i, Sample& o) override {
        V* t = top_.get();
        apply(t, i);
        t->clk = 0;
        t->eval();
        o.s_axis_tready = t->s_axis_tready;
        o.m_axis_tvalid = t->m_axis_tvalid;
        get_data(o.m_axis_tdata, t->m_axis_tdata);
        o.m_axis_tkeep = t->m_axis_tkeep;
        o.m_axis_tlast = t->m_axis_tlast;
        o.s_axil_awready = t->s_axil_awready;
        o.s_axil_wready = t->s_axil_wready;
        o.s_axil_bvalid = t->s_axil_bvalid;
        o.s_axil_bresp = t->s_axil_bresp;
        o.s_axil_arready = t->s_axil_arready;
        o.s_axil_rvalid = t->s_axil_rvalid;
        o.s_axil_rdata = t->s_axil_rdata;
        o.s_axil_rresp = t->s_axil_rresp;
        t->clk = 1;
        t->eval();
        o.cnp_meta = t->st_cnp_meta;
        o.cnp_sync = t->st_cnp_sync;
        o.cnp_prev = t->st_cnp_prev;
        o.rc = t->st_rc;
        o.rt = t->st_rt;
        o.active = t->st_active;
        o.alpha = t->st_alpha;
        o.alpha_timer = t->st_alpha_timer;
        o.alpha_pending = t->st_alpha_pending;
        o.dec_timer = t->st_dec_timer;
        o.dec_pending = t->st_dec_pending;
        o.inc_timer = t->st_inc_timer;
        o.byte_cnt = t->st_byte_cnt;
        o.t_stage = t->st_t_stage;
        o.b_stage = t->st_b_stage;
        o.bpc = t->st_bpc;
        o.credit = t->st_credit;
        o.cfg_alpha_g = t->st_cfg_alpha_g;
        o.cfg_dec_gain = t->st_cfg_dec_gain;
        o.cfg_stage_threshold = t->st_cfg_stage_threshold;
        o.cfg_clamp_tgt = t->st_cfg_clamp_tgt;
        o.cfg_rai = t->st_cfg_rai;
        o.cfg_rhai = t->st_cfg_rhai;
        o.cfg_rmin = t->st_cfg_rmin;
        o.cfg_inc_interval = t->st_cfg_inc_interval;
        o.cfg_dec_interval = t->st_cfg_dec_interval;
        o.cfg_alpha_interval = t->st_cfg_alpha_interval;
        o.cfg_bypass = t->st_cfg_bypass;
        o.cfg_timer_en = t->st_cfg_timer_en;
        o.cfg_byte_en = t->st_cfg_byte_en;
        o.cfg_byte_threshold = t->st_cfg_byte_threshold;
        o.cfg_credit_cap = t->st_cfg_credit_cap;
        o.cnp_cnt16 = t->st_cnp_cnt16;
        o.cnt_cnp = t->st_cnt_cnp;
        o.cnt_dec = t->st_cnt_dec;
        o.cnt_inc_fr = t->st_cnt_inc_fr;
        o.cnt_inc_ai = t->st_cnt_inc_ai;
        o.cnt_inc_hai = t->st_cnt_inc_hai;
        o.cnt_inc_timer = t->st_cnt_inc_timer;
        o.cnt_inc_byte = t->st_cnt_inc_byte;
        o.cnt_stall = t->st_cnt_stall;
        o.cnt_bytes = t->st_cnt_bytes;
        o.bytes_hi = t->st_bytes_hi;
        o.cfg_rmax = t->st_cfg_rmax;
        o.cfg_rate_first_cnp = t->st_cfg_rate_first_cnp;
        o.cfg_alpha_init = t->st_cfg_alpha_init;
        o.cfg_min_dec_fac = t->st_cfg_min_dec_fac;
        o.cfg_hai_mult = t->st_cfg_hai_mult;
        o.cfg_scheme = t->st_cfg_scheme;
        o.cfg_gate_mask = t->st_cfg_gate_mask;
        o.cfg_fw_rate = t->st_cfg_fw_rate;
        o.cfg_trace_en = t->st_cfg_trace_en;
        o.cfg_trace_wrap = t->st_cfg_trace_wrap;
        o.cfg_trace_sel = t->st_cfg_trace_sel;
        o.trace_count = t->st_trace_count;
        o.trace_wptr = t->st_trace_wptr;
        o.trace_lost = t->st_trace_lost;
        o.trace_time = t->st_trace_time;
        o.trace_n_dec = t->st_trace_n_dec;
        o.trace_n_byte = t->st_trace_n_byte;
        o.trace_n_timer = t->st_trace_n_timer;
        o.trace_last_type = t->st_trace_last_type;
        o.trace_last_rc = t->st_trace_last_rc;
        o.trace_last_stamp = t->st_trace_last_stamp;
    }

    // Every register of spec 7 from `st` (the registered outputs from their port fields) and the
    // trace storage from `trace_mem`, at a rising edge of inj_clk with clk held
    // (verilator/dcqcn_cosim_top.sv, spec 4.8).
    void inject(const Sample& st, rust::Slice<const TraceSlot> trace_mem) override {
        V* t = top_.get();
        t->inj_clk = 0;
        t->eval();
        t->in_cnp_meta = st.cnp_meta;
        t->in_cnp_sync = st.cnp_sync;
        t->in_cnp_prev = st.cnp_prev;
        t->in_rc = st.rc;
        t->in_rt = st.rt;
        t->in_active = st.active;
        t->in_alpha = st.alpha;
        t->in_alpha_timer = st.alpha_timer;
        t->in_alpha_pending = st.alpha_pending;
        t->in_dec_timer = st.dec_timer;
        t->in_dec_pending = st.dec_pending;
        t->in_inc_timer = st.inc_timer;
        t->in_byte_cnt = st.byte_cnt;
        t->in_t_stage = st.t_stage;
        t->in_b_stage = st.b_stage;
        t->in_bpc = st.bpc;
        t->in_credit = st.credit;
        t->in_m_valid = st.m_axis_tvalid;
        put_data(t->in_m_data, st.m_axis_tdata);
        t->in_m_keep = static_cast<std::remove_reference_t<decltype(t->in_m_keep)>>(st.m_axis_tkeep);
        t->in_m_last = st.m_axis_tlast;
        t->in_cfg_alpha_g = st.cfg_alpha_g;
        t->in_cfg_dec_gain = st.cfg_dec_gain;
        t->in_cfg_stage_threshold = st.cfg_stage_threshold;
        t->in_cfg_clamp_tgt = st.cfg_clamp_tgt;
        t->in_cfg_rai = st.cfg_rai;
        t->in_cfg_rhai = st.cfg_rhai;
        t->in_cfg_rmin = st.cfg_rmin;
        t->in_cfg_inc_interval = st.cfg_inc_interval;
        t->in_cfg_dec_interval = st.cfg_dec_interval;
        t->in_cfg_alpha_interval = st.cfg_alpha_interval;
        t->in_cfg_bypass = st.cfg_bypass;
        t->in_cfg_timer_en = st.cfg_timer_en;
        t->in_cfg_byte_en = st.cfg_byte_en;
        t->in_cfg_byte_threshold = st.cfg_byte_threshold;
        t->in_cfg_credit_cap = st.cfg_credit_cap;
        t->in_cnp_cnt16 = st.cnp_cnt16;
        t->in_cnt_cnp = st.cnt_cnp;
        t->in_cnt_dec = st.cnt_dec;
        t->in_cnt_inc_fr = st.cnt_inc_fr;
        t->in_cnt_inc_ai = st.cnt_inc_ai;
        t->in_cnt_inc_hai = st.cnt_inc_hai;
        t->in_cnt_inc_timer = st.cnt_inc_timer;
        t->in_cnt_inc_byte = st.cnt_inc_byte;
        t->in_cnt_stall = st.cnt_stall;
        t->in_cnt_bytes = st.cnt_bytes;
        t->in_bytes_hi = st.bytes_hi;
        t->in_cfg_rmax = st.cfg_rmax;
        t->in_cfg_rate_first_cnp = st.cfg_rate_first_cnp;
        t->in_cfg_alpha_init = st.cfg_alpha_init;
        t->in_cfg_min_dec_fac = st.cfg_min_dec_fac;
        t->in_cfg_hai_mult = st.cfg_hai_mult;
        t->in_cfg_scheme = st.cfg_scheme;
        t->in_cfg_gate_mask = st.cfg_gate_mask;
        t->in_cfg_fw_rate = st.cfg_fw_rate;
        t->in_cfg_trace_en = st.cfg_trace_en;
        t->in_cfg_trace_wrap = st.cfg_trace_wrap;
        t->in_cfg_trace_sel = st.cfg_trace_sel & 0x3F;
        t->in_trace_count = st.trace_count & 0x7F;
        t->in_trace_wptr = st.trace_wptr & 0x3F;
        t->in_trace_lost = st.trace_lost;
        t->in_trace_time = st.trace_time;
        t->in_trace_n_dec = st.trace_n_dec & 0x3FF;
        t->in_trace_n_byte = st.trace_n_byte & 0x3FF;
        t->in_trace_n_timer = st.trace_n_timer & 0x3FF;
        // entry i at bits [68i+67:68i]: type and both [3:0], rc [35:4], stamp [67:36]
        clear_wide(t->in_trace_mem);
        std::size_t i = 0;
        for (const TraceSlot& e : trace_mem) {
            if (i == kTraceDepth) break;
            put_bits(t->in_trace_mem, 68 * i, 4, e.kind & 0xFu);
            put_bits(t->in_trace_mem, 68 * i + 4, 32, e.rc);
            put_bits(t->in_trace_mem, 68 * i + 36, 32, e.stamp);
            ++i;
        }
        t->in_bvalid = st.s_axil_bvalid;
        t->in_bresp = st.s_axil_bresp;
        t->in_rvalid = st.s_axil_rvalid;
        t->in_rdata = st.s_axil_rdata;
        t->in_rresp = st.s_axil_rresp;
        t->inj_clk = 1;
        t->eval();
        t->inj_clk = 0;
        t->eval();
    }

    uint64_t run_bare(rust::Slice<const PortsIn> inputs, uint32_t repeat) override {
        V* t = top_.get();
        uint64_t sum = 0;
        for (uint32_t r = 0; r < repeat; ++r) {
            for (const PortsIn& i : inputs) {
                apply(t, i);
                t->clk = 0;
                t->eval();
                sum += t->s_axis_tready + t->m_axis_tvalid + t->s_axil_rdata;
                t->clk = 1;
                t->eval();
                sum += t->st_rc;
            }
        }
        return sum;
    }

private:
    static void apply(V* t, const PortsIn& i) {
        t->rst = i.rst;
        t->cnp = i.cnp;
        put_data(t->s_axis_tdata, i.s_axis_tdata);
        t->s_axis_tkeep = static_cast<std::remove_reference_t<decltype(t->s_axis_tkeep)>>(i.s_axis_tkeep);
        t->s_axis_tvalid = i.s_axis_tvalid;
        t->s_axis_tlast = i.s_axis_tlast;
        t->m_axis_tready = i.m_axis_tready;
        t->s_axil_awaddr = i.s_axil_awaddr & 0xFFF;
        t->s_axil_awvalid = i.s_axil_awvalid;
        t->s_axil_wdata = i.s_axil_wdata;
        t->s_axil_wstrb = i.s_axil_wstrb & 0xF;
        t->s_axil_wvalid = i.s_axil_wvalid;
        t->s_axil_bready = i.s_axil_bready;
        t->s_axil_araddr = i.s_axil_araddr & 0xFFF;
        t->s_axil_arvalid = i.s_axil_arvalid;
        t->s_axil_rready = i.s_axil_rready;
    }

    VerilatedContext ctx_;
    std::unique_ptr<V> top_;
};

struct Entry {
    const char* name;
    uint32_t data_bytes;
    uint32_t clk_hz;
    uint32_t line_rate;
    const char* description;
    std::unique_ptr<Dut> (*make)(uint64_t);
};

#define DCQCN_VARIANT(CLASS, NAME, BYTES, CLK, RATE, DESC) \
    static std::unique_ptr<Dut> make_##CLASS(uint64_t seed) { return std::unique_ptr<Dut>(new DutImpl<CLASS>(seed)); } \
    static const Entry entry_##CLASS{NAME, BYTES, CLK, RATE, DESC, &make_##CLASS};
#include "dcqcn_variants.inc"
#undef DCQCN_VARIANT

#define DCQCN_VARIANT(CLASS, NAME, BYTES, CLK, RATE, DESC) &entry_##CLASS,
const Entry* const kVariants[] = {
#include "dcqcn_variants.inc"
};
#undef DCQCN_VARIANT

}  // namespace

std::unique_ptr<Dut> new_dut(rust::Str variant, uint64_t init_seed) {
    std::string want(variant);
    for (const Entry* e : kVariants) {
        if (want == e->name) return e->make(init_seed);
    }
    throw std::runtime_error("unknown RTL variant '" + want + "'");
}

rust::Vec<VariantInfo> variants() {
    rust::Vec<VariantInfo> v;
    for (const Entry* e : kVariants) v.push_back(VariantInfo{e->name, e->data_bytes, e->clk_hz, e->line_rate, e->description});
    return v;
}

}  // namespace dcqcn
