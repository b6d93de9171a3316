// SPDX-License-Identifier: MIT
// tb_nscc_ack: replays the NSCC ACK-process vectors of `dcqcn nscc-vectors` (format: the file's
// header) on nscc_mq_ack_exec through nscc_ack_top and compares every output field. The first
// mismatch is reported with its vector index, line and field name; exit 0 when every vector
// matches, 1 on a mismatch, 2 on a bad file.
//
// Usage: tb_nscc_ack VECTORS.txt   (built with -GLINE_WIN=N and -DNSCC_LINE_WIN=N, the same N)

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "Vnscc_ack_top.h"
#include "verilated.h"

#ifndef NSCC_LINE_WIN
#error "build with -DNSCC_LINE_WIN=<the LINE_WIN the model was verilated with>"
#endif

namespace {

struct Field {
    const char* name;
    int bits;
};

static const Field IN_FIELDS[] = {
    {"in_cwnd", 32},
    {"in_abytes", 32},
    {"in_saved", 32},
    {"in_base_rtt", 24},
    {"in_max_wnd", 24},
    {"in_avg", 32},
    {"in_achieved", 32},
    {"in_received", 32},
    {"in_fi_count", 32},
    {"in_inc", 40},
    {"in_to_ignore", 32},
    {"in_ignored", 32},
    {"in_increase", 1},
    {"in_trigger_qa", 1},
    {"in_qa_armed", 1},
    {"in_t_adj", 32},
    {"in_t_dec", 32},
    {"in_t_qa", 32},
    {"gbytes", 32},
    {"old", 1},
    {"now", 32},
    {"cc_en", 1},
    {"ev_kind", 2},
    {"ev_bytes", 24},
    {"ev_ecn", 1},
    {"ev_rtt_valid", 1},
    {"ev_rtt", 24},
    {"ev_pend", 7},
    {"ev_rc", 1},
    {"cfg_base_rtt", 24},
    {"cfg_target", 24},
    {"cfg_mtu", 16},
    {"cfg_max_wnd", 24},
    {"cfg_init_cwnd", 24},
    {"cfg_fi", 20},
    {"cfg_alpha", 32},
    {"cfg_fi_scale", 24},
    {"cfg_eta", 24},
    {"cfg_adjust_period", 24},
    {"cfg_adjust_bytes", 24},
    {"cfg_gamma", 9},
    {"cfg_ewma_shift", 4},
    {"cfg_qa_gate", 4},
    {"cfg_qa_en", 1},
    {"cfg_fi_delay", 16},
    {"cfg_qa_delay", 24},
};
static const Field OUT_FIELDS[] = {
    {"out_cwnd", 32},
    {"out_abytes", 32},
    {"out_saved", 32},
    {"out_base_rtt", 24},
    {"out_max_wnd", 24},
    {"out_avg", 32},
    {"out_achieved", 32},
    {"out_received", 32},
    {"out_fi_count", 32},
    {"out_inc", 40},
    {"out_to_ignore", 32},
    {"out_ignored", 32},
    {"out_increase", 1},
    {"out_trigger_qa", 1},
    {"out_qa_armed", 1},
    {"out_t_adj", 32},
    {"out_t_dec", 32},
    {"out_t_qa", 32},
    {"oc_penalty", 1},
    {"oc_restored", 1},
    {"oc_rtt_valid", 1},
    {"oc_qa_fired", 1},
    {"oc_qa_ignored", 1},
    {"oc_rcase", 3},
    {"oc_md_applied", 1},
    {"oc_adjusted", 1},
    {"oc_eta_added", 1},
    {"win_ok", 1},
    {"init_cwnd", 32},
    {"init_abytes", 32},
    {"init_saved", 32},
    {"init_base_rtt", 24},
    {"init_max_wnd", 24},
    {"init_avg", 32},
    {"init_achieved", 32},
    {"init_received", 32},
    {"init_fi_count", 32},
    {"init_inc", 40},
    {"init_to_ignore", 32},
    {"init_ignored", 32},
    {"init_increase", 1},
    {"init_trigger_qa", 1},
    {"init_qa_armed", 1},
    {"init_t_adj", 32},
    {"init_t_dec", 32},
    {"init_t_qa", 32},
};

static void drive(Vnscc_ack_top& t, const std::vector<uint64_t>& v) {
    t.in_cwnd = static_cast<IData>(v[0]);
    t.in_abytes = static_cast<IData>(v[1]);
    t.in_saved = static_cast<IData>(v[2]);
    t.in_base_rtt = static_cast<IData>(v[3]);
    t.in_max_wnd = static_cast<IData>(v[4]);
    t.in_avg = static_cast<IData>(v[5]);
    t.in_achieved = static_cast<IData>(v[6]);
    t.in_received = static_cast<IData>(v[7]);
    t.in_fi_count = static_cast<IData>(v[8]);
    t.in_inc = static_cast<QData>(v[9]);
    t.in_to_ignore = static_cast<IData>(v[10]);
    t.in_ignored = static_cast<IData>(v[11]);
    t.in_increase = static_cast<CData>(v[12]);
    t.in_trigger_qa = static_cast<CData>(v[13]);
    t.in_qa_armed = static_cast<CData>(v[14]);
    t.in_t_adj = static_cast<IData>(v[15]);
    t.in_t_dec = static_cast<IData>(v[16]);
    t.in_t_qa = static_cast<IData>(v[17]);
    t.gbytes = static_cast<IData>(v[18]);
    t.old = static_cast<CData>(v[19]);
    t.now = static_cast<IData>(v[20]);
    t.cc_en = static_cast<CData>(v[21]);
    t.ev_kind = static_cast<CData>(v[22]);
    t.ev_bytes = static_cast<IData>(v[23]);
    t.ev_ecn = static_cast<CData>(v[24]);
    t.ev_rtt_valid = static_cast<CData>(v[25]);
    t.ev_rtt = static_cast<IData>(v[26]);
    t.ev_pend = static_cast<CData>(v[27]);
    t.ev_rc = static_cast<CData>(v[28]);
    t.cfg_base_rtt = static_cast<IData>(v[29]);
    t.cfg_target = static_cast<IData>(v[30]);
    t.cfg_mtu = static_cast<SData>(v[31]);
    t.cfg_max_wnd = static_cast<IData>(v[32]);
    t.cfg_init_cwnd = static_cast<IData>(v[33]);
    t.cfg_fi = static_cast<IData>(v[34]);
    t.cfg_alpha = static_cast<IData>(v[35]);
    t.cfg_fi_scale = static_cast<IData>(v[36]);
    t.cfg_eta = static_cast<IData>(v[37]);
    t.cfg_adjust_period = static_cast<IData>(v[38]);
    t.cfg_adjust_bytes = static_cast<IData>(v[39]);
    t.cfg_gamma = static_cast<SData>(v[40]);
    t.cfg_ewma_shift = static_cast<CData>(v[41]);
    t.cfg_qa_gate = static_cast<CData>(v[42]);
    t.cfg_qa_en = static_cast<CData>(v[43]);
    t.cfg_fi_delay = static_cast<SData>(v[44]);
    t.cfg_qa_delay = static_cast<IData>(v[45]);
}

static void sample(const Vnscc_ack_top& t, std::vector<uint64_t>& o) {
    o[0] = t.out_cwnd;
    o[1] = t.out_abytes;
    o[2] = t.out_saved;
    o[3] = t.out_base_rtt;
    o[4] = t.out_max_wnd;
    o[5] = t.out_avg;
    o[6] = t.out_achieved;
    o[7] = t.out_received;
    o[8] = t.out_fi_count;
    o[9] = t.out_inc;
    o[10] = t.out_to_ignore;
    o[11] = t.out_ignored;
    o[12] = t.out_increase;
    o[13] = t.out_trigger_qa;
    o[14] = t.out_qa_armed;
    o[15] = t.out_t_adj;
    o[16] = t.out_t_dec;
    o[17] = t.out_t_qa;
    o[18] = t.oc_penalty;
    o[19] = t.oc_restored;
    o[20] = t.oc_rtt_valid;
    o[21] = t.oc_qa_fired;
    o[22] = t.oc_qa_ignored;
    o[23] = t.oc_rcase;
    o[24] = t.oc_md_applied;
    o[25] = t.oc_adjusted;
    o[26] = t.oc_eta_added;
    o[27] = t.win_ok;
    o[28] = t.init_cwnd;
    o[29] = t.init_abytes;
    o[30] = t.init_saved;
    o[31] = t.init_base_rtt;
    o[32] = t.init_max_wnd;
    o[33] = t.init_avg;
    o[34] = t.init_achieved;
    o[35] = t.init_received;
    o[36] = t.init_fi_count;
    o[37] = t.init_inc;
    o[38] = t.init_to_ignore;
    o[39] = t.init_ignored;
    o[40] = t.init_increase;
    o[41] = t.init_trigger_qa;
    o[42] = t.init_qa_armed;
    o[43] = t.init_t_adj;
    o[44] = t.init_t_dec;
    o[45] = t.init_t_qa;
}

constexpr size_t N_IN = sizeof(IN_FIELDS) / sizeof(IN_FIELDS[0]);
constexpr size_t N_OUT = sizeof(OUT_FIELDS) / sizeof(OUT_FIELDS[0]);

// One hex token into *v; false when it is not hex or does not fit `bits`.
bool parse_hex(const std::string& tok, int bits, uint64_t* v) {
    if (tok.empty() || tok.size() > 16) return false;
    char* end = nullptr;
    unsigned long long x = std::strtoull(tok.c_str(), &end, 16);
    if (*end != '\0') return false;
    if (bits < 64 && (x >> bits) != 0) return false;
    *v = x;
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s VECTORS.txt\n", argv[0]);
        return 2;
    }
    std::ifstream in(argv[1]);
    if (!in) {
        std::fprintf(stderr, "nscc_ack (verilator): cannot open %s\n", argv[1]);
        return 2;
    }
    VerilatedContext ctx;
    Vnscc_ack_top top{&ctx};
    std::string line;
    uint64_t lineno = 0;
    uint64_t index = 0;
    bool have_line_win = false;
    std::vector<uint64_t> v(N_IN + N_OUT);
    std::vector<uint64_t> got(N_OUT);
    while (std::getline(in, line)) {
        ++lineno;
        if (line.empty() || line[0] == '#') continue;
        std::istringstream ss(line);
        std::vector<std::string> tok;
        for (std::string t; ss >> t;) tok.push_back(t);
        if (tok.size() == 2 && tok[0] == "line_win") {
            unsigned long lw = std::strtoul(tok[1].c_str(), nullptr, 10);
            if (lw != NSCC_LINE_WIN) {
                std::fprintf(stderr,
                             "nscc_ack (verilator): %s:%" PRIu64 ": line_win %lu, but the model was "
                             "built with LINE_WIN %d\n",
                             argv[1], lineno, lw, NSCC_LINE_WIN);
                return 2;
            }
            have_line_win = true;
            continue;
        }
        if (!have_line_win) {
            std::fprintf(stderr, "nscc_ack (verilator): %s:%" PRIu64 ": a vector before line_win\n",
                         argv[1], lineno);
            return 2;
        }
        if (tok.size() != N_IN + N_OUT) {
            std::fprintf(stderr, "nscc_ack (verilator): %s:%" PRIu64 ": %zu fields, expected %zu\n",
                         argv[1], lineno, tok.size(), N_IN + N_OUT);
            return 2;
        }
        for (size_t i = 0; i < N_IN + N_OUT; ++i) {
            const Field& f = i < N_IN ? IN_FIELDS[i] : OUT_FIELDS[i - N_IN];
            if (!parse_hex(tok[i], f.bits, &v[i])) {
                std::fprintf(stderr,
                             "nscc_ack (verilator): %s:%" PRIu64 ": field %s = '%s' is not a %d-bit "
                             "hex value\n",
                             argv[1], lineno, f.name, tok[i].c_str(), f.bits);
                return 2;
            }
        }
        drive(top, v);
        top.eval();
        sample(top, got);
        for (size_t k = 0; k < N_OUT; ++k) {
            if (got[k] != v[N_IN + k]) {
                std::fprintf(stderr,
                             "nscc_ack (verilator): MISMATCH at vector %" PRIu64 " (%s:%" PRIu64
                             "): field %s expected 0x%" PRIx64 ", got 0x%" PRIx64 "\n",
                             index, argv[1], lineno, OUT_FIELDS[k].name, v[N_IN + k], got[k]);
                return 1;
            }
        }
        ++index;
    }
    if (index == 0) {
        std::fprintf(stderr, "nscc_ack (verilator): %s holds no vector\n", argv[1]);
        return 2;
    }
    top.final();
    std::printf("nscc_ack (verilator): %" PRIu64 " vectors, every output field equal to the model\n",
                index);
    return 0;
}
