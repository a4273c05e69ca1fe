//! # heaplab-analysis
//!
//! Analyses of game sequences (Grundy values, outcomes, P-position gaps): periodicity,
//! gaps, runs, growth fits and claim checking. This crate knows a rule only through a small
//! certificate context, never the rule itself.
