//! Bit-exact, cycle-accurate model of the multi-QP DCQCN block `dcqcn_mq` (docs/spec-mq.md).
//!
//! `params` (spec-mq 2), `ports` (3) and `obs` (8.1, 8.2: the one declaration of what the lockstep
//! compares) are the block's interface.

pub mod obs;
pub mod params;
pub mod ports;

pub use obs::{MqObs, WriteObs};
pub use params::{MqParamError, MqParams};
pub use ports::{MqAxilIn, MqInputs, MqOutputs, QpEvent};

pub mod bitmaps;
pub mod block;
pub mod grant;
pub mod mem;
pub mod regmap;
pub mod regs;
pub mod rpt;
pub mod rr;
pub mod visit;

pub use block::{Bitmap, Bitmaps, CycleWrites, MqBlock, MqInitial, MqInitialError, MqState};
pub use mem::{mem_copies, Credit, MemCopy, Memory, MqMems, Record, MEMORIES};
pub use regs::{MqConfig, MqRegs};
