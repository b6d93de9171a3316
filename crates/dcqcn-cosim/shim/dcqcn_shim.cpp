// SPDX-License-Identifier: MIT
// Drives one Verilated variant per clock cycle: inputs in, outputs sampled before the edge,
// registers sampled after it (the record compared by the lockstep, docs/spec.md section 7).

#include "dcqcn-cosim/shim/dcqcn_shim.h"
#include "dcqcn-cosim/src/ffi.rs.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <initializer_list>
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

// The fields of the comparison record Sample (ffi.rs) besides the data beat, each under its own
// name on the wrapper: the port outputs, and the registers as its st_ ports (X-macro lists).
// BEGIN GENERATED copy-lists: `make gen` from the snapshot! list; do not edit
#define DCQCN_PORT_OUTPUTS(X) \
    X(s_axis_tready) \
    X(m_axis_tvalid) \
    X(m_axis_tkeep) \
    X(m_axis_tlast) \
    X(s_axil_awready) \
    X(s_axil_wready) \
    X(s_axil_bvalid) \
    X(s_axil_bresp) \
    X(s_axil_arready) \
    X(s_axil_rvalid) \
    X(s_axil_rdata) \
    X(s_axil_rresp)
// The registers by width, in the order the wrapper declares its st_ ports and Sample lists them.
#define DCQCN_REGISTERS_8(X) \
    X(cnp_meta) \
    X(cnp_sync) \
    X(cnp_prev) \
    X(active) \
    X(alpha_pending) \
    X(dec_pending) \
    X(t_stage) \
    X(b_stage) \
    X(cfg_dec_gain) \
    X(cfg_stage_threshold) \
    X(cfg_clamp_tgt) \
    X(cfg_bypass) \
    X(cfg_timer_en) \
    X(cfg_byte_en) \
    X(cfg_hai_mult) \
    X(cfg_scheme) \
    X(cfg_gate_mask) \
    X(cfg_trace_en) \
    X(cfg_trace_wrap) \
    X(cfg_trace_sel) \
    X(trace_count) \
    X(trace_wptr) \
    X(trace_lost) \
    X(trace_last_type)
#define DCQCN_REGISTERS_16(X) \
    X(alpha) \
    X(alpha_timer) \
    X(dec_timer) \
    X(cfg_alpha_g) \
    X(cfg_dec_interval) \
    X(cfg_alpha_interval) \
    X(cnp_cnt16) \
    X(cfg_alpha_init) \
    X(cfg_min_dec_fac) \
    X(trace_n_dec) \
    X(trace_n_byte) \
    X(trace_n_timer)
#define DCQCN_REGISTERS_32(X) \
    X(rc) \
    X(rt) \
    X(inc_timer) \
    X(byte_cnt) \
    X(bpc) \
    X(cfg_rai) \
    X(cfg_rhai) \
    X(cfg_rmin) \
    X(cfg_inc_interval) \
    X(cfg_byte_threshold) \
    X(cfg_credit_cap) \
    X(cnt_cnp) \
    X(cnt_dec) \
    X(cnt_inc_fr) \
    X(cnt_inc_ai) \
    X(cnt_inc_hai) \
    X(cnt_inc_timer) \
    X(cnt_inc_byte) \
    X(cnt_stall) \
    X(bytes_hi) \
    X(cfg_rmax) \
    X(cfg_rate_first_cnp) \
    X(cfg_fw_rate) \
    X(trace_time) \
    X(trace_last_rc) \
    X(trace_last_stamp)
#define DCQCN_REGISTERS_64(X) \
    X(credit) \
    X(cnt_bytes)
// END GENERATED copy-lists

// A run of one width's registers, in list order, is in one piece when each field starts where the
// one before it ends, both in the Verilated root instance and in Sample.
template <typename T>
bool one_piece(std::initializer_list<const T*> from, std::initializer_list<const T*> to) {
    const auto at = [](const T* p) { return reinterpret_cast<std::uintptr_t>(p); };
    std::size_t k = 0;
    for (auto f = from.begin(), t = to.begin(); f != from.end(); ++f, ++t, ++k) {
        if (at(*f) != at(*from.begin()) + k * sizeof(T) || at(*t) != at(*to.begin()) + k * sizeof(T)) {
            return false;
        }
    }
    return true;
}

#define DCQCN_ROOT_AT(f) &r->st_##f,
#define DCQCN_SAMPLE_AT(f) &o.f,
#define DCQCN_SAMPLE(f) o.f = r->st_##f;
// Whether run LIST of T is in one piece in r and o.
#define DCQCN_ONE_PIECE(T, LIST) one_piece<T>({LIST(DCQCN_ROOT_AT)}, {LIST(DCQCN_SAMPLE_AT)})
// Copies run LIST of T from r to o: whole if `whole`, else field by field.
#define DCQCN_COPY_RUN(whole, T, LIST) \
    if (whole) { \
        const T* from[] = {LIST(DCQCN_ROOT_AT)}; \
        T* to[] = {LIST(DCQCN_SAMPLE_AT)}; \
        std::memcpy(to[0], from[0], sizeof(from) / sizeof(from[0]) * sizeof(T)); \
    } else { \
        LIST(DCQCN_SAMPLE) \
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
        const auto* r = top_->rootp;
        Sample o{};
        one_piece_ = {DCQCN_ONE_PIECE(uint8_t, DCQCN_REGISTERS_8), DCQCN_ONE_PIECE(uint16_t, DCQCN_REGISTERS_16),
                      DCQCN_ONE_PIECE(uint32_t, DCQCN_REGISTERS_32), DCQCN_ONE_PIECE(uint64_t, DCQCN_REGISTERS_64)};
        whole_ = one_piece_;
    }
    ~DutImpl() override { top_->final(); }

    void step(const PortsIn& i, Sample& o) override {
        V* t = top_.get();
        // Every value from the root instance itself: a port of the model class is a reference to
        // it, which would be loaded again after every store into `o`.
        const auto* r = t->rootp;
        apply(t, i);
        t->clk = 0;
        t->eval();
        sample_outputs(r, o);
        t->clk = 1;
        t->eval();
        sample_registers(r, o);
    }

    // Every register of spec 7 from `st` (the registered outputs from their port fields) and the
    // trace storage from `trace_mem`, at a rising edge of inj_clk with clk held
    // (verilator/dcqcn_cosim_top.sv, spec 4.8).
    void inject(const Sample& st, rust::Slice<const TraceSlot> trace_mem) override {
        V* t = top_.get();
        t->inj_clk = 0;
        t->eval();
        // the output register of credit_gate: its m_axis_* outputs
        t->in_m_valid = st.m_axis_tvalid;
        put_data(t->in_m_data, st.m_axis_tdata);
        t->in_m_keep = static_cast<std::remove_reference_t<decltype(t->in_m_keep)>>(st.m_axis_tkeep);
        t->in_m_last = st.m_axis_tlast;
        // BEGIN GENERATED inject: `make gen` from the snapshot! list; do not edit
        t->in_cnp_meta = st.cnp_meta;
        t->in_cnp_sync = st.cnp_sync;
        t->in_cnp_prev = st.cnp_prev;
        t->in_rc = st.rc;
        t->in_rt = st.rt;
        t->in_active = st.active;
        t->in_alpha = st.alpha & 0x3FF;
        t->in_alpha_timer = st.alpha_timer;
        t->in_alpha_pending = st.alpha_pending;
        t->in_dec_timer = st.dec_timer;
        t->in_dec_pending = st.dec_pending;
        t->in_inc_timer = st.inc_timer;
        t->in_byte_cnt = st.byte_cnt;
        t->in_t_stage = st.t_stage;
        t->in_b_stage = st.b_stage;
        t->in_bpc = st.bpc;
        t->in_credit = st.credit & 0xFFFFFFFFFFFF;
        t->in_cfg_alpha_g = st.cfg_alpha_g & 0x3FF;
        t->in_cfg_dec_gain = st.cfg_dec_gain & 0xF;
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
        t->in_cfg_alpha_init = st.cfg_alpha_init & 0x3FF;
        t->in_cfg_min_dec_fac = st.cfg_min_dec_fac & 0x7FF;
        t->in_cfg_hai_mult = st.cfg_hai_mult;
        t->in_cfg_scheme = st.cfg_scheme & 0x3;
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
        // END GENERATED inject
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

    uint32_t copy_whole_runs(bool allow) override {
        uint32_t n = 0;
        for (std::size_t k = 0; k < whole_.size(); ++k) {
            whole_[k] = allow && one_piece_[k];
            n += whole_[k];
        }
        return n;
    }

private:
    template <typename R>
    static void sample_outputs(const R* r, Sample& o) {
        get_data(o.m_axis_tdata, r->m_axis_tdata);
#define DCQCN_SAMPLE_PORT(f) o.f = r->f;
        DCQCN_PORT_OUTPUTS(DCQCN_SAMPLE_PORT)
#undef DCQCN_SAMPLE_PORT
    }

    // Every register, a run at a time: the lockstep copies all of them every cycle, and a run in
    // one piece is a few wide moves where field by field is a load and a store per register.
    template <typename R>
    void sample_registers(const R* r, Sample& o) const {
        DCQCN_COPY_RUN(whole_[0], uint8_t, DCQCN_REGISTERS_8)
        DCQCN_COPY_RUN(whole_[1], uint16_t, DCQCN_REGISTERS_16)
        DCQCN_COPY_RUN(whole_[2], uint32_t, DCQCN_REGISTERS_32)
        DCQCN_COPY_RUN(whole_[3], uint64_t, DCQCN_REGISTERS_64)
    }

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
    // Per register run (8, 16, 32, 64 bits): in one piece in this instance and in Sample; copied
    // whole (copy_whole_runs).
    std::array<bool, 4> one_piece_{};
    std::array<bool, 4> whole_{};
};

struct Entry {
    const char* name;
    uint32_t data_bytes;
    uint32_t clk_hz;
    uint32_t line_rate;
    bool rate_rules;
    bool control;
    uint32_t trace_depth;
    const char* description;
    std::unique_ptr<Dut> (*make)(uint64_t);
};

#define DCQCN_VARIANT(CLASS, NAME, BYTES, CLK, RATE, RULES, CONTROL, TRACE, DESC) \
    static std::unique_ptr<Dut> make_##CLASS(uint64_t seed) { return std::unique_ptr<Dut>(new DutImpl<CLASS>(seed)); } \
    static const Entry entry_##CLASS{NAME, BYTES, CLK, RATE, RULES, CONTROL, TRACE, DESC, &make_##CLASS};
#include "dcqcn_variants.inc"
#undef DCQCN_VARIANT

#define DCQCN_VARIANT(CLASS, NAME, BYTES, CLK, RATE, RULES, CONTROL, TRACE, DESC) &entry_##CLASS,
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
    for (const Entry* e : kVariants) v.push_back(VariantInfo{e->name, e->data_bytes, e->clk_hz, e->line_rate, e->rate_rules, e->control, e->trace_depth, e->description});
    return v;
}

}  // namespace dcqcn
