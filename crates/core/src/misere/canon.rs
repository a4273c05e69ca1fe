//! Canonical misère forms (stub until the engine lands).
#![allow(missing_docs, dead_code, unused_variables)]
use crate::games::takebreak::Breaker;
use crate::observe::Observer;
pub type FormId = u32;
#[derive(Default)]
pub struct MisereForms {}
pub struct MisereHeap {
    pub form: FormId,
    pub misere_value: u32,
    pub normal_value: u32,
}
impl MisereForms {
    pub fn new() -> MisereForms {
        MisereForms {}
    }
    pub fn zero(&self) -> FormId {
        0
    }
    pub fn from_options(&mut self, o: &[FormId]) -> FormId {
        0
    }
    pub fn add(&mut self, a: FormId, b: FormId) -> FormId {
        0
    }
    pub fn misere_value(&self, g: FormId) -> u32 {
        0
    }
}
pub fn take_break_misere_in(
    forms: &mut MisereForms,
    br: &Breaker,
    max: u64,
    obs: &dyn Observer,
) -> Result<((), Vec<MisereHeap>), crate::Error> {
    Err(crate::Error::Unsupported {
        what: "misère take-and-break (not yet)".into(),
    })
}
pub fn take_break_misere(
    br: &Breaker,
    max: u64,
    obs: &dyn Observer,
) -> Result<(MisereForms, Vec<MisereHeap>), crate::Error> {
    Err(crate::Error::Unsupported {
        what: "misère take-and-break (not yet)".into(),
    })
}
