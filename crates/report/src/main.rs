//! `heaplab`: tables, P-position lists, reports and plots for impartial heap games.
//!
//! Every command prints a human summary (or, with `--json`, one JSON object) on stdout;
//! progress goes to stderr and `--quiet` silences it. Errors are one line on stderr with
//! exit code 2; `check` exits 1 when a claim is refuted. This file only dispatches: the
//! arguments are in `cli`, each command in its `cmd_*` module, and the work in the
//! libraries `heaplab-core` and `heaplab-analysis`.

mod cleanup;
mod cli;
mod cmd_analyze;
mod cmd_check;
mod cmd_games;
mod cmd_losers;
mod cmd_plot;
mod cmd_report;
mod cmd_stone;
mod cmd_sweep;
mod cmd_table;
mod cmd_who;
mod machine;
mod output;
mod plot;
mod plots;
mod progress;
mod report_dir;
mod sink;

use clap::Parser;
use cli::{Cli, Cmd};
use std::process::ExitCode;

/// mimalloc keeps freed chunk buffers for reuse instead of returning them to the kernel
/// (glibc's trimming made chunked checks pay page faults again and again).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    progress::set_quiet(cli.quiet);
    match cli.cmd {
        Cmd::Table(a) => cmd_table::run(a),
        Cmd::Losers(a) => cmd_losers::run(a),
        Cmd::Report(a) => cmd_report::run(a),
        Cmd::Who(a) => cmd_who::run(a),
        Cmd::Analyze(a) => cmd_analyze::run(a),
        Cmd::Sweep(a) => cmd_sweep::run(a),
        Cmd::Check(a) => cmd_check::run(a),
        Cmd::Plot(a) => cmd_plot::run(a),
        Cmd::Stone(a) => cmd_stone::run(a),
        Cmd::StoneCheck(a) => cmd_stone::check(a),
        Cmd::Games(a) => cmd_games::run(a),
    }
}

/// The message of a panic payload (`&str` or `String`), else "".
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_default()
}

/// One line from a rendered clap error: the lines before the first blank line, joined.
fn one_line(text: &str) -> String {
    text.lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ")
}

/// clap quotes a rejected value whole: one longer than 80 characters (a spec of thousands
/// of moves) is cut to its first 60, so the error stays one readable line.
fn shorten_values(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(a) = rest.find('\'') {
        let Some(len) = rest[a + 1..].find('\'') else {
            break;
        };
        let value = &rest[a + 1..a + 1 + len];
        out.push_str(&rest[..=a]);
        if value.chars().count() > 80 {
            let head: String = value.chars().take(60).collect();
            out.push_str(&format!("{head}… ({} characters)", value.chars().count()));
        } else {
            out.push_str(value);
        }
        out.push('\'');
        rest = &rest[a + len + 2..];
    }
    out.push_str(rest);
    out
}

fn main() -> ExitCode {
    // Output piped into `head` and the like: end quietly when the reader goes away, as
    // Unix tools do, instead of failing on the next write.
    #[cfg(unix)]
    // SAFETY: restores the default disposition of SIGPIPE at startup, before any thread
    // is started; no handler is involved.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    cleanup::install();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
                || matches!(
                    e.kind(),
                    ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
                )
            {
                let _ = e.print();
                return if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                    ExitCode::from(2)
                } else {
                    ExitCode::SUCCESS
                };
            }
            eprintln!("{}", shorten_values(&one_line(&e.render().to_string())));
            return ExitCode::from(2);
        }
    };
    // `println!` panics when stdout cannot be written (a full disk, `> /dev/full`): that
    // panic is caught here and reported as a one-line error like any other.
    const STDOUT_PANIC: &str = "failed printing to stdout";
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !panic_text(info.payload()).starts_with(STDOUT_PANIC) {
            default_hook(info);
        }
    }));
    let result = match std::panic::catch_unwind(|| run(cli)) {
        Ok(r) => r,
        Err(payload) => {
            let text = panic_text(&*payload);
            match text.strip_prefix(STDOUT_PANIC) {
                Some(rest) => Err(anyhow::anyhow!(
                    "cannot write to stdout: {}",
                    rest.trim_start_matches(':').trim()
                )),
                None => std::panic::resume_unwind(payload),
            }
        }
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // The causes in order, each once (a context that repeats its cause is dropped).
            let mut parts: Vec<String> = Vec::new();
            for cause in e.chain() {
                let c = cause.to_string().replace('\n', " ");
                if !parts.iter().any(|p| p.contains(&c)) {
                    parts.push(c);
                }
            }
            let msg = parts.join(": ");
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}
