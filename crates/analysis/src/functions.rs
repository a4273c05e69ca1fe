//! The claim functions: one definition, in the core crate (shared with `rule{…}` move
//! predicates), re-exported here for the claim machinery.

pub use heaplab_core::functions::{ClaimFunction, ClaimValue};
