// SPDX-License-Identifier: MIT
// A few values of the generated sw/c/dcqcn_mq_regs.h against docs/spec-mq.md 6.1-6.3, written by
// hand (sw/test_regmap_sw.py compiles it with -Wall -Wextra -Werror -pedantic and runs it; the same
// script checks every macro against regmap/dcqcn_mq_regs.rdl).
#include <stddef.h>
#include <stdio.h>

#include "dcqcn_mq_regs.h"

static int failures;

static void check(const char *what, unsigned long got, unsigned long want) {
    if (got != want) {
        printf("FAIL %s: %#lx, spec-mq 6 says %#lx\n", what, got, want);
        failures++;
    }
}

// the value of a field in a word, with the header's macros
#define FIELD_GET(word, reg, field) \
    (((word) & DCQCN_MQ_REGS__##reg##__##field##_bm) >> DCQCN_MQ_REGS__##reg##__##field##_bp)
#define QP_FIELD_GET(word, reg, field) \
    (((word) & DCQCN_MQ_REGS__QPX__##reg##__##field##_bm) >> DCQCN_MQ_REGS__QPX__##reg##__##field##_bp)

int main(void) {
    // 6.1: 21-bit addresses, QP q's window at 0x100000 + q * 0x100
    check("decode bits", DCQCN_MQ_REGS_DECODE_BITS, 21);
    check("window base", DCQCN_MQ_REGS_QP_BASE, 0x100000);
    check("window stride", DCQCN_MQ_REGS_QP_STRIDE, 0x100);
    check("qp_rate of QP 5", DCQCN_MQ_REGS_QP_ADDR(5, DCQCN_MQ_REGS__QPX__QP_RATE_OFFSET), 0x100508);
    check("qp_ctrl of QP 4095", DCQCN_MQ_REGS_QP_ADDR(4095, DCQCN_MQ_REGS__QPX__QP_CTRL_OFFSET), 0x1FFF44);
    check("QP 2 in the struct", offsetof(dcqcn_mq_regs_t, qp[2].qp_credit), 0x100230);
    // 6.2
    check("id word reset", DCQCN_MQ_REGS__ID_RESET, 0xDC4D0100);
    check("qps reset (QPS 1024)", DCQCN_MQ_REGS__PARAMS__QPS_reset, 1024);
    check("line_win reset", DCQCN_MQ_REGS__LINE_WIN__LINE_WIN_reset, 8192);
    check("status is read-only", DCQCN_MQ_REGS__STATUS_WRITABLE, 0);
    check("enables word reset", DCQCN_MQ_REGS__ENABLES_RESET, 0xF);
    check("cnp_merge_period reset", DCQCN_MQ_REGS__CNP_MERGE_PERIOD_RESET, 625);
    check("nocnp_timer_th reset", DCQCN_MQ_REGS__NOCNP_TIMER_TH_RESET, 234375);
    check("alpha_init shift", DCQCN_MQ_REGS__ALPHA_CFG__ALPHA_INIT_bp, 20);
    check("alpha_init of the reset word", FIELD_GET(DCQCN_MQ_REGS__ALPHA_CFG_RESET, ALPHA_CFG, ALPHA_INIT), 1023);
    check("alpha_rate_shift mask", DCQCN_MQ_REGS__ALPHA_CFG__ALPHA_RATE_SHIFT_bm, 0xFUL << 16);
    check("ost_limit_cnp of the reset word", FIELD_GET(DCQCN_MQ_REGS__OST_LIMITS_RESET, OST_LIMITS, OST_LIMIT_CNP), 8);
    check("credit_cap width", DCQCN_MQ_REGS__CREDIT_CAP__CREDIT_CAP_bw, 21);
    check("port_credit reset", DCQCN_MQ_REGS__PORT_CREDIT_RESET, 67108864);
    check("cnt_ctrl offset", DCQCN_MQ_REGS__CNT_CTRL_OFFSET, 0x100);
    check("cnt_ctrl accepts writes", DCQCN_MQ_REGS__CNT_CTRL_WRITABLE, 1);
    check("cnt_init_drop offset", DCQCN_MQ_REGS__CNT_INIT_DROP_OFFSET, 0x140);
    check("dfx_clear shift", DCQCN_MQ_REGS__DFX_CTRL__DFX_CLEAR_bp, 8);
    check("dfx_wptr mask", DCQCN_MQ_REGS__DFX_STATUS__DFX_WPTR_bm, 0x3FUL << 8);
    check("dfx_entry_valid shift", DCQCN_MQ_REGS__DFX_ENTRY__DFX_ENTRY_VALID_bp, 8);
    check("dfx_qp in the struct", offsetof(dcqcn_mq_regs_t, dfx_qp), 0x190);
    // 6.3
    check("qp_cnp_timer offset", DCQCN_MQ_REGS__QPX__QP_CNP_TIMER_OFFSET, 0x04);
    check("merge_el after the init round", QP_FIELD_GET(DCQCN_MQ_REGS__QPX__QP_CNP_MERGE_RESET, QP_CNP_MERGE, MERGE_EL), 0xFFFF);
    check("alpha_el shift", DCQCN_MQ_REGS__QPX__QP_ALPHA__ALPHA_EL_bp, 16);
    check("qp_byte_cnt offset", DCQCN_MQ_REGS__QPX__QP_BYTE_CNT_OFFSET, 0x18);
    check("active shift", DCQCN_MQ_REGS__QPX__QP_T_BC__ACTIVE_bp, 16);
    check("qp_cc_rate reset", DCQCN_MQ_REGS__QPX__QP_CC_RATE_RESET, 8192);
    check("qp_credit is read-only", DCQCN_MQ_REGS__QPX__QP_CREDIT_WRITABLE, 0);
    check("ost mask", DCQCN_MQ_REGS__QPX__QP_OST__OST_bm, 0xFFUL << 16);
    check("req_valid shift", DCQCN_MQ_REGS__QPX__QP_REQ__REQ_VALID_bp, 16);
    check("qp_ctrl accepts writes", DCQCN_MQ_REGS__QPX__QP_CTRL_WRITABLE, 1);
    check("qp_clear shift", DCQCN_MQ_REGS__QPX__QP_CTRL__QP_CLEAR_bp, 1);
    check("ost_lt_lo shift", DCQCN_MQ_REGS__QPX__QP_CTRL__OST_LT_LO_bp, 12);
    check("qp_ctrl after the init round (rate_ok, ost_lt_hi, ost_lt_lo)", DCQCN_MQ_REGS__QPX__QP_CTRL_RESET,
          (1UL << 8) | (1UL << 11) | (1UL << 12));
    if (failures == 0) {
        printf("dcqcn_mq_regs.h: spot checks passed\n");
    }
    return failures != 0;
}
