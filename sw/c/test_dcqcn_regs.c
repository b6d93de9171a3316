// SPDX-License-Identifier: MIT
// A few values of the generated sw/c/dcqcn_regs.h against docs/spec.md 6.2, written by hand
// (sw/test_regmap_sw.py compiles it with -Wall -Wextra -Werror and runs it; the same script checks
// every macro against regmap/dcqcn_regs.rdl).
#include <stddef.h>
#include <stdio.h>

#include "dcqcn_regs.h"

static int failures;

static void check(const char *what, unsigned long got, unsigned long want) {
    if (got != want) {
        printf("FAIL %s: %#lx, spec 6.2 says %#lx\n", what, got, want);
        failures++;
    }
}

// the value of a field in a word, with the header's macros
#define FIELD_GET(word, reg, field) \
    (((word) & DCQCN_REGS__##reg##__##field##_bm) >> DCQCN_REGS__##reg##__##field##_bp)

int main(void) {
    check("config offset", DCQCN_REGS__CONFIG_OFFSET, 0x000);
    check("config word reset", DCQCN_REGS__CONFIG_RESET, 0x000147FC);
    check("alpha_g mask", DCQCN_REGS__CONFIG__ALPHA_G_bm, 0x3FF);
    check("alpha_g reset", DCQCN_REGS__CONFIG__ALPHA_G_reset, 1020);
    check("stage_threshold shift", DCQCN_REGS__CONFIG__STAGE_THRESHOLD_bp, 14);
    check("clamp_tgt mask", DCQCN_REGS__CONFIG__CLAMP_TGT_bm, 1UL << 22);
    check("intervals word reset", DCQCN_REGS__INTERVALS_RESET, 0x21920271);
    check("alpha_interval of the reset word", FIELD_GET(DCQCN_REGS__INTERVALS_RESET, INTERVALS, ALPHA_INTERVAL), 8594);
    check("cnp_cnt16 mask", DCQCN_REGS__ALPHA_CNP__CNP_CNT16_bm, 0xFFFFUL << 11);
    check("cnt_clear shift", DCQCN_REGS__EXT_CTRL__CNT_CLEAR_bp, 8);
    check("ext_ctrl offset", DCQCN_REGS__EXT_CTRL_OFFSET, 0x100);
    check("id word reset (DATA_BYTES 8)", DCQCN_REGS__ID_RESET, 0xDCC10108);
    check("rc is read-only", DCQCN_REGS__RC_WRITABLE, 0);
    check("alpha_cnp accepts writes", DCQCN_REGS__ALPHA_CNP_WRITABLE, 1);
    check("cnt_bytes_lo offset", DCQCN_REGS__CNT_BYTES_LO_OFFSET, 0x140);
    check("status in the struct", offsetof(dcqcn_regs_t, status), 0x148);
    check("ext_ctrl in the struct", offsetof(dcqcn_regs_t, ext_ctrl), 0x100);
    check("alpha_pending shift", DCQCN_REGS__STATUS__ALPHA_PENDING_bp, 18);
    if (failures == 0) {
        printf("dcqcn_regs.h: spot checks passed\n");
    }
    return failures != 0;
}
