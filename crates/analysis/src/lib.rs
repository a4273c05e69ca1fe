//! # heaplab-analysis
//!
//! Analyses of game sequences (Grundy values, outcomes, P-position lists): periodicity with
//! saltus and certificates ([`mod@periodicity`]), P-position counts, gaps, residues and growth
//! fits, Grundy first occurrences, frequencies and runs ([`stats`]), and claim checking over
//! tables with polars SQL ([`claim`]). This crate works on sequences; it knows a rule only
//! through a small certificate context ([`periodicity::CertContext`]).

pub mod claim;
pub mod periodicity;
pub mod stats;

pub use periodicity::{periodicity, CertContext, Periodicity};
