//! `heaplab games`: every game family with an example spec; `heaplab completions` and
//! `heaplab man`: shell completions and the manual page, generated from the command line's
//! definitions.

use crate::cli::{Cli, CompletionsArgs, GamesArgs};
use anyhow::Result;
use clap::CommandFactory;
use heaplab_core::{spec_table, FAMILIES};
use std::process::ExitCode;

/// Runs the command.
pub fn run(a: GamesArgs) -> Result<ExitCode> {
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::to_value(FAMILIES)?)?
        );
    } else if a.markdown {
        print!("{}", spec_table());
    } else {
        for f in FAMILIES {
            println!("{:<24} {:<26} {}", f.spec, f.structure, f.description);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `heaplab completions SHELL`.
pub fn completions(a: CompletionsArgs) -> Result<ExitCode> {
    let mut cmd = Cli::command();
    clap_complete::generate(a.shell, &mut cmd, "heaplab", &mut std::io::stdout());
    Ok(ExitCode::SUCCESS)
}

/// `heaplab man`.
pub fn man() -> Result<ExitCode> {
    let mut out = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut out)?;
    for sub in Cli::command().get_subcommands() {
        let title = format!("heaplab-{}", sub.get_name());
        clap_mangen::Man::new(sub.clone())
            .title(title)
            .render(&mut out)?;
    }
    std::io::Write::write_all(&mut std::io::stdout(), &out)?;
    Ok(ExitCode::SUCCESS)
}
