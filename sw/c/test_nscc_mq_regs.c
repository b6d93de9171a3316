// SPDX-License-Identifier: MIT
// A few values of the generated sw/c/nscc_mq_regs.h against docs/spec-nscc.md 8.1 and 8.3 (and
// spec-mq 6.1, whose protocol the block keeps), written by hand (scripts/test_regmap_gen.py
// compiles it with -Wall -Wextra -Werror -pedantic and runs it; the same script checks every macro
// against regmap/nscc_mq_regs.rdl).
#include <stddef.h>
#include <stdio.h>

#include "nscc_mq_regs.h"

static int failures;

static void check(const char *what, unsigned long got, unsigned long want) {
    if (got != want) {
        printf("FAIL %s: %#lx, spec-nscc 8 says %#lx\n", what, got, want);
        failures++;
    }
}

// the value of a field in a word, with the header's macros
#define FIELD_GET(word, reg, field) \
    (((word) & NSCC_MQ_REGS__##reg##__##field##_bm) >> NSCC_MQ_REGS__##reg##__##field##_bp)
#define QP_FIELD_GET(word, reg, field) \
    (((word) & NSCC_MQ_REGS__QPX__##reg##__##field##_bm) >> NSCC_MQ_REGS__QPX__##reg##__##field##_bp)

int main(void) {
    // spec-mq 6.1: 21-bit addresses, flow q's window at 0x100000 + q * 0x100
    check("decode bits", NSCC_MQ_REGS_DECODE_BITS, 21);
    check("window base", NSCC_MQ_REGS_QP_BASE, 0x100000);
    check("window stride", NSCC_MQ_REGS_QP_STRIDE, 0x100);
    check("qp_cwnd of flow 5", NSCC_MQ_REGS_QP_ADDR(5, NSCC_MQ_REGS__QPX__QP_CWND_OFFSET), 0x100548);
    check("qp_t_qa of flow 4095", NSCC_MQ_REGS_QP_ADDR(4095, NSCC_MQ_REGS__QPX__QP_T_QA_OFFSET), 0x1FFF88);
    check("flow 2 in the struct", offsetof(nscc_mq_regs_t, qp[2].qp_inflight), 0x10025C);
    // 8.1: the engine's words
    check("id word reset", NSCC_MQ_REGS__ID_RESET, 0x5CC00100);
    check("qps reset (QPS 1024)", NSCC_MQ_REGS__PARAMS__QPS_reset, 1024);
    check("enables word reset", NSCC_MQ_REGS__ENABLES_RESET, 0xF);
    check("cc_en shift", NSCC_MQ_REGS__ENABLES__CC_EN_bp, 0);
    check("max_rate offset", NSCC_MQ_REGS__MAX_RATE_OFFSET, 0x020);
    check("ost_limits word reset (ost_limit only)", NSCC_MQ_REGS__OST_LIMITS_RESET, 16);
    check("credit_cap offset", NSCC_MQ_REGS__CREDIT_CAP_OFFSET, 0x044);
    check("now offset", NSCC_MQ_REGS__NOW_OFFSET, 0x04C);
    // 8.1: the NSCC registers
    check("base_rtt offset", NSCC_MQ_REGS__BASE_RTT_OFFSET, 0x050);
    check("base_rtt reset (12 us)", NSCC_MQ_REGS__BASE_RTT__BASE_RTT_reset, 1875);
    check("target reset (9 us)", NSCC_MQ_REGS__TARGET__TARGET_reset, 1406);
    check("mtu width", NSCC_MQ_REGS__MTU__MTU_bw, 16);
    check("mtu reset", NSCC_MQ_REGS__MTU__MTU_reset, 4096);
    check("max_wnd reset", NSCC_MQ_REGS__MAX_WND_RESET, 22500);
    check("init_cwnd reset", NSCC_MQ_REGS__INIT_CWND_RESET, 0);
    check("fi width", NSCC_MQ_REGS__FI__FI_bw, 20);
    check("fi reset", NSCC_MQ_REGS__FI_RESET, 2048);
    check("alpha reset", NSCC_MQ_REGS__ALPHA__ALPHA_reset, 57266);
    check("fi_scale reset", NSCC_MQ_REGS__FI_SCALE_RESET, 1638);
    check("eta reset", NSCC_MQ_REGS__ETA_RESET, 15729);
    check("adjust_period reset", NSCC_MQ_REGS__ADJUST_PERIOD_RESET, 1875);
    check("adjust_bytes reset", NSCC_MQ_REGS__ADJUST_BYTES_RESET, 32768);
    check("gamma mask", NSCC_MQ_REGS__NSCC_CFG__GAMMA_bm, 0x1FF);
    check("gamma of the reset word", FIELD_GET(NSCC_MQ_REGS__NSCC_CFG_RESET, NSCC_CFG, GAMMA), 205);
    check("ewma_shift of the reset word", FIELD_GET(NSCC_MQ_REGS__NSCC_CFG_RESET, NSCC_CFG, EWMA_SHIFT), 6);
    check("qa_gate mask", NSCC_MQ_REGS__NSCC_CFG__QA_GATE_bm, 0xFUL << 24);
    check("qa_gate of the reset word", FIELD_GET(NSCC_MQ_REGS__NSCC_CFG_RESET, NSCC_CFG, QA_GATE), 3);
    check("qa_en shift", NSCC_MQ_REGS__NSCC_CFG__QA_EN_bp, 31);
    check("nscc_cfg offset", NSCC_MQ_REGS__NSCC_CFG_OFFSET, 0x07C);
    check("fi_delay reset (1 us)", NSCC_MQ_REGS__FI_DELAY_RESET, 156);
    check("fi_delay width", NSCC_MQ_REGS__FI_DELAY__FI_DELAY_bw, 16);
    check("qa_delay offset", NSCC_MQ_REGS__QA_DELAY_OFFSET, 0x084);
    check("qa_delay reset", NSCC_MQ_REGS__QA_DELAY_RESET, 0);
    // 8.1: the counters
    check("cnt_ctrl offset", NSCC_MQ_REGS__CNT_CTRL_OFFSET, 0x100);
    check("cnt_grant offset", NSCC_MQ_REGS__CNT_GRANT_OFFSET, 0x120);
    check("cnt_init_drop offset", NSCC_MQ_REGS__CNT_INIT_DROP_OFFSET, 0x140);
    check("cnt_ack offset", NSCC_MQ_REGS__CNT_ACK_OFFSET, 0x144);
    check("cnt_qa offset", NSCC_MQ_REGS__CNT_QA_OFFSET, 0x15C);
    check("cnt_adjust offset", NSCC_MQ_REGS__CNT_ADJUST_OFFSET, 0x164);
    check("cnt_adjust is read-only", NSCC_MQ_REGS__CNT_ADJUST_WRITABLE, 0);
    check("cnt_adjust in the struct", offsetof(nscc_mq_regs_t, cnt_adjust), 0x164);
    // 8.3: the engine's words
    check("qp_cc_rate reset", NSCC_MQ_REGS__QPX__QP_CC_RATE_RESET, 8192);
    check("qp_ctrl accepts writes", NSCC_MQ_REGS__QPX__QP_CTRL_WRITABLE, 1);
    check("qp_ctrl after the init round (rate_ok, ost_lt_hi)", NSCC_MQ_REGS__QPX__QP_CTRL_RESET,
          (1UL << 8) | (1UL << 11));
#if defined(NSCC_MQ_REGS__QPX__QP_CTRL__LIM8_bm) || defined(NSCC_MQ_REGS__QPX__QP_CTRL__CNP_FLAG_bm) \
    || defined(NSCC_MQ_REGS__QPX__QP_CTRL__OST_LT_LO_bm)
    check("qp_ctrl has no lim8, no cnp_flag and no ost_lt_lo", 1, 0);
#endif
    // 8.3: the NSCC words
    check("qp_cwnd offset", NSCC_MQ_REGS__QPX__QP_CWND_OFFSET, 0x48);
    check("qp_cwnd after the init round (22,500 bytes, Q24.8)", NSCC_MQ_REGS__QPX__QP_CWND_RESET, 22500UL << 8);
    check("qp_cwnd accepts writes", NSCC_MQ_REGS__QPX__QP_CWND_WRITABLE, 1);
    check("qp_saved offset", NSCC_MQ_REGS__QPX__QP_SAVED_OFFSET, 0x4C);
    check("flow base_rtt width", NSCC_MQ_REGS__QPX__QP_BASE_RTT__FLOW_BASE_RTT_bw, 24);
    check("flow base_rtt after the init round", NSCC_MQ_REGS__QPX__QP_BASE_RTT_RESET, 1875);
    check("flow max_wnd after the init round", NSCC_MQ_REGS__QPX__QP_MAX_WND_RESET, 22500);
    check("qp_avg is read-only", NSCC_MQ_REGS__QPX__QP_AVG_WRITABLE, 0);
    check("qp_inflight offset", NSCC_MQ_REGS__QPX__QP_INFLIGHT_OFFSET, 0x5C);
    check("qp_achieved offset", NSCC_MQ_REGS__QPX__QP_ACHIEVED_OFFSET, 0x60);
    check("qp_inc_lo offset", NSCC_MQ_REGS__QPX__QP_INC_LO_OFFSET, 0x6C);
    check("qp_inc_hi offset", NSCC_MQ_REGS__QPX__QP_INC_HI_OFFSET, 0x70);
    check("inc_hi width (inc [39:32])", NSCC_MQ_REGS__QPX__QP_INC_HI__INC_HI_bw, 8);
    check("qp_to_ignore offset", NSCC_MQ_REGS__QPX__QP_TO_IGNORE_OFFSET, 0x74);
    check("qp_ignored offset", NSCC_MQ_REGS__QPX__QP_IGNORED_OFFSET, 0x78);
    check("qa_armed shift", NSCC_MQ_REGS__QPX__QP_FLAGS__QA_ARMED_bp, 2);
    check("old shift", NSCC_MQ_REGS__QPX__QP_FLAGS__OLD_bp, 9);
    check("win_ok after the init round", QP_FIELD_GET(NSCC_MQ_REGS__QPX__QP_FLAGS_RESET, QP_FLAGS, WIN_OK), 1);
    check("qp_flags after the init round", NSCC_MQ_REGS__QPX__QP_FLAGS_RESET, 1UL << 8);
    check("qp_t_adj offset", NSCC_MQ_REGS__QPX__QP_T_ADJ_OFFSET, 0x80);
    check("qp_t_dec offset", NSCC_MQ_REGS__QPX__QP_T_DEC_OFFSET, 0x84);
    check("qp_t_qa is read-only", NSCC_MQ_REGS__QPX__QP_T_QA_WRITABLE, 0);
    if (failures == 0) {
        printf("nscc_mq_regs.h: spot checks passed\n");
    }
    return failures != 0;
}
