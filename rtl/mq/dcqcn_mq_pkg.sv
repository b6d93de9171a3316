// SPDX-License-Identifier: MIT
// dcqcn_mq_pkg: constants and small functions shared by the dcqcn_mq modules (spec-mq 6.1-6.3).

`resetall
`timescale 1ns / 1ps
`default_nettype none

package dcqcn_mq_pkg;

    /* AXI4-Lite responses (spec-mq 6.1) */
    localparam logic [1:0] RESP_OKAY   = 2'b00;
    localparam logic [1:0] RESP_DECERR = 2'b11;

    /* Global words (spec-mq 6.2): byte addresses; decoded on addr[11:2] when addr[20:12] = 0 */
    localparam logic [11:0] ADDR_ID                 = 12'h000;
    localparam logic [11:0] ADDR_PARAMS             = 12'h004;
    localparam logic [11:0] ADDR_LINE_WIN           = 12'h008;
    localparam logic [11:0] ADDR_STATUS             = 12'h00C;
    localparam logic [11:0] ADDR_ENABLES            = 12'h010;
    localparam logic [11:0] ADDR_CNP_MERGE_PERIOD   = 12'h014;
    localparam logic [11:0] ADDR_NOCNP_TIMER_TH     = 12'h018;
    localparam logic [11:0] ADDR_BYTE_CNT_TH        = 12'h01C;
    localparam logic [11:0] ADDR_MAX_RATE           = 12'h020;
    localparam logic [11:0] ADDR_ALPHA_TIMER_TH     = 12'h024;
    localparam logic [11:0] ADDR_ALPHA_CFG          = 12'h028;
    localparam logic [11:0] ADDR_RATE_AI            = 12'h02C;
    localparam logic [11:0] ADDR_RATE_HAI           = 12'h030;
    localparam logic [11:0] ADDR_RATE_MIN           = 12'h034;
    localparam logic [11:0] ADDR_INC_CFG            = 12'h038;
    localparam logic [11:0] ADDR_CNP_TIMER_THRD     = 12'h03C;
    localparam logic [11:0] ADDR_OST_LIMITS         = 12'h040;
    localparam logic [11:0] ADDR_CREDIT_CAP         = 12'h044;
    localparam logic [11:0] ADDR_PORT_CREDIT        = 12'h048;
    localparam logic [11:0] ADDR_NOW                = 12'h04C;
    localparam logic [11:0] ADDR_CNT_CTRL           = 12'h100;
    localparam logic [11:0] ADDR_CNT_CNP            = 12'h104;
    localparam logic [11:0] ADDR_CNT_DEC            = 12'h108;
    localparam logic [11:0] ADDR_CNT_INC_FR         = 12'h10C;
    localparam logic [11:0] ADDR_CNT_INC_AI         = 12'h110;
    localparam logic [11:0] ADDR_CNT_INC_HAI        = 12'h114;
    localparam logic [11:0] ADDR_CNT_INC_TIMER      = 12'h118;
    localparam logic [11:0] ADDR_CNT_INC_BYTE       = 12'h11C;
    localparam logic [11:0] ADDR_CNT_GRANT          = 12'h120;
    localparam logic [11:0] ADDR_CNT_GRANT_BYTES_LO = 12'h124;
    localparam logic [11:0] ADDR_CNT_GRANT_BYTES_HI = 12'h128;
    localparam logic [11:0] ADDR_CNT_REQ            = 12'h12C;
    localparam logic [11:0] ADDR_CNT_REQ_DROP       = 12'h130;
    localparam logic [11:0] ADDR_CNT_RPT            = 12'h134;
    localparam logic [11:0] ADDR_CNT_RPT_SPURIOUS   = 12'h138;
    localparam logic [11:0] ADDR_CNT_BAD_QP         = 12'h13C;
    localparam logic [11:0] ADDR_CNT_INIT_DROP      = 12'h140;
    localparam logic [11:0] ADDR_DFX_CTRL           = 12'h170;
    localparam logic [11:0] ADDR_DFX_STATUS         = 12'h174;
    localparam logic [11:0] ADDR_DFX_COUNTS         = 12'h178;
    localparam logic [11:0] ADDR_DFX_TIME           = 12'h17C;
    localparam logic [11:0] ADDR_DFX_SEL            = 12'h180;
    localparam logic [11:0] ADDR_DFX_ENTRY          = 12'h184;
    localparam logic [11:0] ADDR_DFX_RC             = 12'h188;
    localparam logic [11:0] ADDR_DFX_STAMP          = 12'h18C;
    localparam logic [11:0] ADDR_DFX_QP             = 12'h190;

    /* Identity (spec-mq 6.2: id) */
    localparam logic [7:0]  MQ_VERSION = 8'd1;
    localparam logic [15:0] MQ_MAGIC   = 16'hDC4D;

    /* Per-QP window words (spec-mq 6.3): word index addr[7:2] of each offset in the 256-byte window */
    localparam logic [5:0] W_QP_CNP_MERGE = 6'h00;  // 0x00
    localparam logic [5:0] W_QP_CNP_TIMER = 6'h01;  // 0x04
    localparam logic [5:0] W_QP_RATE      = 6'h02;  // 0x08
    localparam logic [5:0] W_QP_TARGET    = 6'h03;  // 0x0C
    localparam logic [5:0] W_QP_ALPHA     = 6'h04;  // 0x10
    localparam logic [5:0] W_QP_BYTE_CNT  = 6'h06;  // 0x18
    localparam logic [5:0] W_QP_SENT_SEEN = 6'h07;  // 0x1C
    localparam logic [5:0] W_QP_T_BC      = 6'h08;  // 0x20
    localparam logic [5:0] W_QP_INC_TIMER = 6'h09;  // 0x24
    localparam logic [5:0] W_QP_CC_RATE   = 6'h0A;  // 0x28
    localparam logic [5:0] W_QP_CREDIT    = 6'h0C;  // 0x30
    localparam logic [5:0] W_QP_STAMP     = 6'h0D;  // 0x34
    localparam logic [5:0] W_QP_OST       = 6'h0E;  // 0x38
    localparam logic [5:0] W_QP_SENT      = 6'h0F;  // 0x3C
    localparam logic [5:0] W_QP_REQ       = 6'h10;  // 0x40
    localparam logic [5:0] W_QP_CTRL      = 6'h11;  // 0x44


endpackage
