//! 5. Register map and AXI4-Lite slave.

use super::bench::*;

use dcqcn_model::{AxilIn, Inputs};

#[test]
fn reset_words() {
    let mut b = Bench::new();
    let expect = [
        (0x000, 0x0001_47FC),
        (0x004, 0x005B_8D80),
        (0x008, 0x00B7_1B00),
        (0x00C, 0x0098_9680),
        (0x010, 0x0003_9387),
        (0x014, 0x2192_0271),
        (0x018, 0x4A81_7C80),
        (0x01C, 0x4A81_7C80),
        (0x020, 0x0000_03FF),
        (0x024, 0x0000_0000),
    ];
    for (addr, word) in expect {
        assert_eq!(b.read(addr), word, "reset word at {addr:#05x}");
    }
    // The interval words again, from their definitions in the facts (section 5): round(t * f) of
    // Ni 1.5 ms, Nd 4 us and Na 55 us at the wrapper's 156.25 MHz.
    let cycles = |t: f64| (t * 156.25e6).round() as u32;
    assert_eq!(b.read(0x010), cycles(1.5e-3), "Ni");
    assert_eq!(
        b.read(0x014),
        word14(cycles(4e-6), cycles(55e-6)),
        "Nd and Na"
    );
}

#[test]
fn all_ones_reads_back_as_the_fields_only() {
    let mut b = Bench::new();
    b.cfg(0x000, 0xFFFF_FFFF);
    assert_eq!(b.read(0x000), 0x007F_FFFF);
    b.cfg(0x024, 0xFFFF_FFFF);
    assert_eq!(b.read(0x024), 1);
    b.cfg(0x014, 0xFFFF_FFFF);
    assert_eq!(b.read(0x014), 0xFFFF_FFFF);
}

#[test]
fn decode_on_bits_11_to_2_aliases_higher_addresses() {
    let mut b = Bench::new();
    assert_eq!(b.read(0x1018), L, "0x1018 reads Rc");
    assert_eq!(b.read(0xF01C), L, "0xF01C reads Rt");
    b.cfg(0x1004, 1234);
    assert_eq!(b.read(0x004), 1234, "a write to 0x1004 lands in Rai");
    assert_eq!(b.read(0x007), 1234, "address bits 1:0 are not decoded");
}

#[test]
fn decerr_for_unmapped_words_and_read_only_writes() {
    let mut b = Bench::new();
    for addr in [0x028u16, 0x02C, 0x100, 0x3FC] {
        let (_, resp, _) = b.read_at(addr);
        assert_eq!(resp, 3, "read of {addr:#x}");
        assert_eq!(b.write(addr, 0xFFFF_FFFF), 3, "write of {addr:#x}");
    }
    // Read-only words: DECERR and no effect.
    assert_eq!(b.write(0x018, 5), 3);
    assert_eq!(b.write(0x01C, 5), 3);
    assert_eq!(b.read(0x018), L);
    assert_eq!(b.read(0x01C), L);
    // 0x020 holds a writable bit: a write there is OKAY and only that bit changes.
    assert_eq!(b.write(0x020, 0xFFFF_FFFF), 0);
    assert_eq!(b.read(0x020), 0x7FF);
    // The decode leaves every configuration word untouched by the refused writes.
    assert_eq!(b.read(0x000), 0x0001_47FC);
}

#[test]
fn a_write_to_a_read_only_word_is_okay_when_a_read_is_taken_in_the_same_cycle() {
    // The read-only fields take part in the decode only when a read is taken; then they also
    // answer a write to their address (with no effect).
    let mut b = Bench::new();
    let both = Inputs {
        axil: AxilIn {
            awaddr: 0x018,
            awvalid: true,
            wdata: 7,
            wstrb: 0xF,
            wvalid: true,
            bready: true,
            araddr: 0x000,
            arvalid: true,
            rready: true,
        },
        ..Inputs::default()
    };
    b.step(&both);
    let o = b.step(&Inputs::default());
    assert!(o.awready && o.arready);
    let o = b.step(&Inputs {
        axil: AxilIn {
            bready: true,
            rready: true,
            ..AxilIn::default()
        },
        ..Inputs::default()
    });
    assert!(o.bvalid && o.rvalid);
    assert_eq!((o.bresp, o.rresp, o.rdata), (0, 0, 0x0001_47FC));
    assert_eq!(b.read(0x018), L, "no effect");
}

#[test]
fn strobes_are_ignored_at_the_wrapper() {
    // The wrapper's shim has no strobe port: a partial-strobe write writes every field.
    let mut b = Bench::new();
    assert_eq!(b.write_strb(0x000, 0x0040_0000 | 0x3FF, 0x1).0, 0);
    assert_eq!(b.read(0x000), 0x0040_03FF);
    assert_eq!(b.write_strb(0x004, 0xDEAD_BEEF, 0x0).0, 0);
    assert_eq!(b.read(0x004), 0xDEAD_BEEF);
}

#[test]
fn handshake_timing() {
    let mut b = Bench::new();
    b.idle(3);
    let w = Inputs {
        axil: AxilIn {
            awaddr: 0x004,
            awvalid: true,
            wdata: 99,
            wstrb: 0xF,
            wvalid: true,
            bready: true,
            ..AxilIn::default()
        },
        ..Inputs::default()
    };
    // Taken in the first cycle it is offered; AWREADY/WREADY in the next, BVALID in the one after.
    let o0 = b.step(&w);
    let o1 = b.step(&w);
    let o2 = b.step(&Inputs {
        axil: AxilIn {
            bready: true,
            ..AxilIn::default()
        },
        ..Inputs::default()
    });
    let o3 = b.step(&Inputs::default());
    assert!(!o0.awready && !o0.bvalid);
    assert!(o1.awready && o1.wready && !o1.bvalid);
    assert!(!o2.awready && o2.bvalid && o2.bresp == 0);
    assert!(!o3.bvalid, "BREADY in the BVALID cycle ends the response");
    // BVALID stays until BREADY.
    b.step(&w);
    b.step(&Inputs::default());
    for _ in 0..5 {
        assert!(b.step(&Inputs::default()).bvalid);
    }
    // Read: ARREADY one cycle after ARVALID with RDATA already shown, RVALID one cycle later,
    // held until RREADY, after which RDATA returns to 0.
    let r = Inputs {
        axil: AxilIn {
            araddr: 0x004,
            arvalid: true,
            ..AxilIn::default()
        },
        ..Inputs::default()
    };
    let rready = Inputs {
        axil: AxilIn {
            rready: true,
            ..AxilIn::default()
        },
        ..Inputs::default()
    };
    let o0 = b.step(&r);
    let o1 = b.step(&r);
    let o2 = b.step(&Inputs::default());
    let o3 = b.step(&rready);
    let o4 = b.step(&Inputs::default());
    assert!(!o0.arready && !o0.rvalid);
    assert!(o1.arready && !o1.rvalid && o1.rdata == 99);
    assert!(o2.rvalid && o2.rdata == 99);
    assert!(o3.rvalid && o3.rdata == 99);
    assert!(!o4.rvalid && o4.rdata == 0);
}

#[test]
fn axis_rst_resets_every_register_configuration_included() {
    let mut b = Bench::new();
    b.cfg(0x000, 0x0040_0000 | (3 << 14) | (2 << 10) | 700);
    b.cfg(0x004, 1);
    b.cfg(0x008, 2);
    b.cfg(0x00C, 3);
    b.cfg(0x010, 4);
    b.cfg(0x014, word14(5, 6));
    b.cfg(0x020, 0x400);
    let c = b.cycle + 2;
    b.pulse(c);
    b.run_to(c + 40);
    assert_ne!(b.at(c + 40).rc, L);
    b.step(&Inputs {
        rst: true,
        ..Inputs::default()
    });
    assert_eq!(b.read(0x000), 0x0001_47FC);
    assert_eq!(b.read(0x004), 0x005B_8D80);
    assert_eq!(b.read(0x008), 0x00B7_1B00);
    assert_eq!(b.read(0x00C), 0x0098_9680);
    assert_eq!(b.read(0x010), 234_375);
    assert_eq!(b.read(0x014), 0x2192_0271);
    assert_eq!(b.read(0x018), L);
    assert_eq!(b.read(0x01C), L);
    assert_eq!(b.read(0x020), 0x3FF);
    // The processes are idle again: the next CNP is a first CNP with the reset Nd (634 cycles).
    let c = b.cycle + 1;
    b.pulse(c);
    b.run_to(c + 700);
    assert_eq!(b.changes(c, c + 700, rc), vec![(c + 634, HALVED)]);
}
