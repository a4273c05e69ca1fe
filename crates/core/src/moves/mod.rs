//! What moves are, described by their structure: the pieces engines read (an interval
//! bound, code digits that remove and split, …). Families (`games/`) make them; engines
//! (`engines/`) run them; nothing here knows a family.

pub mod bound;
pub mod breaker;
