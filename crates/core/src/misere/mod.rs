//! Misère play.

pub mod canon;
