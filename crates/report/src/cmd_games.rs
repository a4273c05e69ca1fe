//! `heaplab games`: every game family with an example spec.

use crate::cli::GamesArgs;
use anyhow::Result;
use heaplab_core::FAMILIES;
use std::process::ExitCode;

/// Runs the command.
pub fn run(a: GamesArgs) -> Result<ExitCode> {
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::to_value(FAMILIES)?)?
        );
    } else {
        for f in FAMILIES {
            println!("{:<24} {}", f.spec, f.description);
        }
    }
    Ok(ExitCode::SUCCESS)
}
