//! `heaplab`: tables, P-position lists, reports and plots for impartial heap games.
//!
//! Every command prints a human summary (or, with `--json`, one JSON object) on stdout;
//! progress goes to stderr and `--quiet` silences it. Errors are one line on stderr with
//! exit code 2; `check` exits 1 when a claim is refuted. This file only dispatches: the
//! arguments are in `cli`, each command in its `cmd_*` module, and the work in the
//! libraries `heaplab-core` and `heaplab-analysis`.

mod beyond_out;
mod cleanup;
mod cli;
mod cmd_analyze;
mod cmd_beyond;
mod cmd_beyond_report;
mod cmd_census;
mod cmd_census_games;
mod cmd_check;
mod cmd_compare;
mod cmd_count;
mod cmd_games;
mod cmd_guess;
mod cmd_losers;
mod cmd_plot;
mod cmd_quotient;
mod cmd_record;
mod cmd_report;
mod cmd_stone;
mod cmd_sweep;
mod cmd_table;
mod cmd_who;
mod exit;
mod files;
mod machine;
mod oom;
mod output;
mod plot;
mod plots;
mod progress;
mod report_dir;
mod segments;
mod sink;

use cli::{Cli, Cmd};
use std::process::ExitCode;

/// mimalloc, refusing in one line (exit 2, temporary files removed) when memory runs out.
#[global_allocator]
static GLOBAL: oom::Refusing = oom::Refusing;

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    progress::set_quiet(cli.quiet);
    // commands whose answer is on stdout: refused before any work when it is closed (`>&-`),
    // not answered into nothing with exit 0 (`table` and `losers` rows are checked where
    // they are written; a `wrote FILE` line lost is no answer lost)
    let answer_on_stdout = match &cli.cmd {
        Cmd::Who(_)
        | Cmd::Quotient(_)
        | Cmd::Count(_)
        | Cmd::Analyze(_)
        | Cmd::Compare(_)
        | Cmd::Check(_)
        | Cmd::Guess(_)
        | Cmd::Games(_)
        | Cmd::Completions(_)
        | Cmd::Man
        | Cmd::Stone(_)
        | Cmd::StoneCheck(_) => true,
        Cmd::Table(a) => a.json,
        Cmd::Record(a) => a.json,
        Cmd::Losers(a) => a.json || (a.count && a.output.is_none()),
        Cmd::Sweep(a) => a.json || a.output.is_none(),
        Cmd::Census(a) => a.json || a.list || a.output.is_none(),
        Cmd::Merge(a) => a.json,
        Cmd::Report(a) => a.json,
        Cmd::Plot(a) => a.json,
    };
    if answer_on_stdout {
        files::check_stdout()?;
    }
    // a file on stdout beside a JSON answer there would interleave the two
    let json_and_file = match &cli.cmd {
        Cmd::Table(a) => a.json.then_some(a.output.as_deref()).flatten(),
        Cmd::Losers(a) => a.json.then_some(a.output.as_deref()).flatten(),
        Cmd::Sweep(a) => a.json.then_some(a.output.as_deref()).flatten(),
        Cmd::Census(a) => a.json.then_some(a.output.as_deref()).flatten(),
        Cmd::Merge(a) => a.json.then_some(a.output.as_path()),
        Cmd::Report(a) => a.json.then_some(a.output.as_deref()).flatten(),
        Cmd::Analyze(a) => a.json.then_some(a.output.as_deref()).flatten(),
        Cmd::Quotient(a) => a.json.then_some(a.output.as_deref()).flatten(),
        Cmd::Plot(a) => a.json.then_some(a.output.as_deref()).flatten(),
        _ => None,
    };
    if let Some(out) = json_and_file.filter(|o| files::is_stdout(o)) {
        anyhow::bail!(
            "-o {} is stdout, where --json prints too: the two would mix; write the file elsewhere or leave out --json",
            out.display()
        );
    }
    match cli.cmd {
        Cmd::Table(a) => cmd_table::run(a),
        Cmd::Record(a) => cmd_record::run(a),
        Cmd::Losers(a) => cmd_losers::run(a),
        Cmd::Report(a) => cmd_report::run(a),
        Cmd::Who(a) => cmd_who::run(a),
        Cmd::Quotient(a) => cmd_quotient::run(a),
        Cmd::Count(a) => cmd_count::run(a),
        Cmd::Analyze(a) => cmd_analyze::run(a),
        Cmd::Compare(a) => cmd_compare::run(a),
        Cmd::Sweep(a) => cmd_sweep::run(a),
        Cmd::Census(a) => cmd_census::run(a),
        Cmd::Merge(a) => cmd_census::merge(a),
        Cmd::Check(a) => cmd_check::run(a),
        Cmd::Guess(a) => cmd_guess::run(a),
        Cmd::Plot(a) => cmd_plot::run(a),
        Cmd::Stone(a) => cmd_stone::run(a),
        Cmd::StoneCheck(a) => cmd_stone::check(a),
        Cmd::Games(a) => cmd_games::run(a),
        Cmd::Completions(a) => cmd_games::completions(a),
        Cmd::Man => cmd_games::man(),
    }
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
    // A file-size limit (`ulimit -f`): a write past it fails with EFBIG, which ends the run
    // in one line with its temporary files removed, instead of SIGXFSZ killing the process
    // and leaving them.
    #[cfg(unix)]
    // SAFETY: sets SIGXFSZ to be ignored at startup, before any thread is started; no
    // handler is involved.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    cleanup::install();
    files::init_umask();
    // a command on a game beyond one heap (`--game wythoff`, …) has arguments of its own
    if let Some(parsed) = cmd_beyond::detect() {
        return match parsed {
            Ok(cli) => exit::report(|| cmd_beyond::run(cli)),
            Err(code) => code,
        };
    }
    match cli::parse() {
        Ok(cli) => exit::report(|| run(cli)),
        Err(code) => code,
    }
}
