//! `heaplab`: tables, P-position lists, reports and plots for impartial heap games.
//!
//! Every command prints a human summary (or, with `--json`, one JSON object) on stdout;
//! progress goes to stderr and `--quiet` silences it. Errors are one line on stderr with
//! exit code 2; `check` exits 1 when a claim is refuted.

mod analyze;
mod cleanup;
mod cmd_analyze;
mod cmd_check;
mod cmd_losers;
mod cmd_plot;
mod cmd_report;
mod cmd_stone;
mod cmd_sweep;
mod cmd_table;
mod cmd_who;
mod frames;
mod plot;
mod plots;
mod progress;
mod util;

use clap::{Args, Parser, Subcommand};

/// mimalloc keeps freed chunk buffers for reuse instead of returning them to the kernel
/// (glibc's trimming made chunked checks pay page faults again and again).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use heaplab_core::Game;
use std::path::PathBuf;
use std::process::ExitCode;
use util::{count_arg, game_arg, Format};

/// heaplab: impartial games on one heap — P-positions, Grundy values, reports.
#[derive(Parser, Debug)]
#[command(name = "heaplab", version, about, long_about = None)]
pub struct Cli {
    /// Print nothing on stderr except errors (no progress, no notes).
    #[arg(long, short = 'q', global = true)]
    pub quiet: bool,
    #[command(subcommand)]
    pub cmd: Cmd,
}

/// The game and the range 0..=N shared by most commands.
#[derive(Args, Debug, Clone)]
pub struct GameMax {
    /// Game spec, e.g. `squares`, `sub{1,2,3}`, `divisors`, `sqrt`, `0.77` (see `heaplab games`).
    #[arg(long, short = 'g', value_parser = game_arg)]
    pub game: Game,
    /// Largest position N (positions 0..=N); accepts 1000000, 1e6, 10^6, 1_000_000.
    #[arg(long, short = 'n', value_parser = count_arg, allow_hyphen_values = true)]
    pub max: u64,
}

/// Subcommands.
#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// Outcome (and Grundy value) of every position 0..=N as CSV or Parquet.
    Table(TableArgs),
    /// The P-positions (losers) 0..=N with index and gap, streamed as CSV, Parquet or b-file.
    Losers(LosersArgs),
    /// A folder with tables, P-positions, plots and a summary for one game.
    Report(ReportArgs),
    /// Outcome of one position and, when it wins, one winning move.
    Who(WhoArgs),
    /// Periodicity (with certificate), P-position gaps and growth, Grundy values and runs.
    Analyze(AnalyzeArgs),
    /// One analysis row per value of a parameter in the spec, e.g. `sub{1,2,k}`.
    Sweep(SweepArgs),
    /// Check a conjectured closed form (a polars SQL expression) on every row.
    Check(CheckArgs),
    /// One PNG: grundy, fold, gaps, density, runs or values.
    Plot(PlotArgs),
    /// Solve one row of a stone game (I, II or III), optionally with an optimal line.
    Stone(StoneArgs),
    /// Check a claim over every row (or random rows) of a stone game.
    StoneCheck(StoneCheckArgs),
    /// Every game family with an example spec.
    Games(GamesArgs),
}

/// `heaplab games` options.
#[derive(clap::Args, Debug)]
pub struct GamesArgs {
    /// JSON array of {"spec", "description"} instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// `heaplab table`.
#[derive(Args, Debug)]
pub struct TableArgs {
    #[command(flatten)]
    pub gm: GameMax,
    /// Add the `grundy` column.
    #[arg(long)]
    pub grundy: bool,
    /// Output file (.csv or .parquet); CSV on stdout without it.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// Output format (default: from the file extension).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Print one JSON summary on stdout (instead of the rows when there is no -o).
    #[arg(long)]
    pub json: bool,
}

/// `heaplab losers`.
#[derive(Args, Debug)]
pub struct LosersArgs {
    #[command(flatten)]
    pub gm: GameMax,
    /// Output file: .csv, .parquet or .txt (OEIS b-file); CSV on stdout without it.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// Output format (default: from the file extension).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Print only the number of P-positions and the largest one.
    #[arg(long)]
    pub count: bool,
    /// Save the state to FILE every few minutes; rerunning the same command resumes from it.
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// Seconds between checkpoints (0: after every segment).
    #[arg(long, default_value_t = 300.0, hide = true)]
    pub checkpoint_every: f64,
    /// Print one JSON summary on stdout (instead of the rows when there is no -o).
    #[arg(long)]
    pub json: bool,
}

/// `heaplab report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    #[command(flatten)]
    pub gm: GameMax,
    /// Output folder (default `reports/<game>-<N>/`).
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// Print one JSON summary on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `heaplab who`.
#[derive(Args, Debug)]
pub struct WhoArgs {
    /// Game spec.
    #[arg(long, short = 'g', value_parser = game_arg)]
    pub game: Game,
    /// The position (heap size).
    #[arg(value_parser = count_arg, allow_hyphen_values = true)]
    pub n: u64,
    /// Print one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `heaplab analyze`.
#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub gm: GameMax,
    /// The sequence whose periodicity is analysed.
    #[arg(long, value_enum, default_value = "grundy")]
    pub values: analyze::Values,
    /// Folder for the tables (CSV and Parquet of each).
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// Print one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `heaplab sweep`.
#[derive(Args, Debug)]
pub struct SweepArgs {
    /// Game spec holding the parameter, e.g. `sub{1,2,k}`.
    #[arg(long, short = 'g')]
    pub game: String,
    /// The parameter and its values: `k=3..40` (inclusive) or `k=3,5,8`.
    #[arg(long)]
    pub param: String,
    /// Largest position N of each analysis.
    #[arg(long, short = 'n', value_parser = count_arg, allow_hyphen_values = true)]
    pub max: u64,
    /// Output file (.csv or .parquet).
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// Print one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `heaplab check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub gm: GameMax,
    /// Boolean polars SQL expression over the columns, e.g. `win = (n % 4 <> 0)`.
    #[arg(long)]
    pub claim: String,
    /// Check every position (`n`, `win`, `grundy`) or the P-positions (`k`, `p`, `gap`, `prev`).
    #[arg(long, value_enum, default_value = "table")]
    pub on: cmd_check::On,
    /// Print one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `heaplab plot`.
#[derive(Args, Debug)]
pub struct PlotArgs {
    #[command(flatten)]
    pub gm: GameMax,
    /// What to draw.
    #[arg(long, value_enum)]
    pub kind: plots::Kind,
    /// Fold width (default: the detected period, else 64); rows wider than the plot show
    /// their first columns.
    #[arg(long, value_parser = util::count_arg)]
    pub width: Option<u64>,
    /// Image size in pixels, e.g. 1600x800 (default 1200x600).
    #[arg(long)]
    pub size: Option<String>,
    /// Log axes (gaps, values).
    #[arg(long)]
    pub log: bool,
    /// Colour fold maps by Grundy value (the default) or by outcome.
    #[arg(long, value_enum)]
    pub values: Option<analyze::Values>,
    /// Output PNG (default `<game>-<N>-<kind>.png`).
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// Print one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `heaplab stone`.
#[derive(Args, Debug)]
pub struct StoneArgs {
    /// 1: first or last pile; 2: first X <= 2M piles; 3: one to three piles from the front.
    #[arg(long)]
    pub variant: u8,
    /// The row, e.g. `5,3,4,5`, or `@FILE` with the values (commas or whitespace).
    #[arg(long, allow_hyphen_values = true)]
    pub piles: String,
    /// Also print one optimal line of play.
    #[arg(long)]
    pub line: bool,
    /// Print one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `heaplab stone-check`.
#[derive(Args, Debug)]
pub struct StoneCheckArgs {
    /// 1, 2 or 3.
    #[arg(long)]
    pub variant: u8,
    /// Row lengths, e.g. `2..10`.
    #[arg(long)]
    pub len: String,
    /// Pile values, e.g. `1..5` (negative allowed: `-3..3`).
    #[arg(long, allow_hyphen_values = true)]
    pub values: String,
    /// Boolean polars SQL over `len`, `sum`, `margin`, `winner` ('first', 'second', 'tie'), `first_total`.
    #[arg(long)]
    pub claim: String,
    /// Check COUNT random rows instead of every row (`1e6` and the like accepted).
    #[arg(long, value_parser = util::count_arg)]
    pub random: Option<u64>,
    /// Seed of the random rows.
    #[arg(long, default_value_t = 1, requires = "random")]
    pub seed: u64,
    /// Print one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// Prints a JSON value on stdout.
pub fn print_json(v: &serde_json::Value) {
    println!("{}", serde_json::to_string(v).expect("json"));
}

fn games(json: bool) -> anyhow::Result<ExitCode> {
    let rows = [
        ("sub{1,2,3}", "finite subtraction set: remove 1, 2 or 3"),
        ("allbut{2,3,7}", "remove any number except those listed"),
        ("squares", "remove a positive square (Stone Game IV)"),
        ("cubes", "remove a positive cube"),
        ("triangular", "remove a triangular number 1, 3, 6, 10, ..."),
        ("fibonacci", "remove a Fibonacci number 1, 2, 3, 5, 8, ..."),
        ("primes", "remove a prime"),
        ("powers2", "remove a power of two 1, 2, 4, 8, ..."),
        ("factorials", "remove a factorial 1, 2, 6, 24, ..."),
        (
            "practical",
            "remove a practical number 1, 2, 4, 6, 8, 12, ...",
        ),
        ("nim", "remove any positive number (one-heap Nim)"),
        ("primes|sub{1}", "union of sets: remove 1 or a prime"),
        (
            "leave1(primes|sub{1})",
            "same moves, but never take the whole heap",
        ),
        ("divisors", "remove a proper divisor d of n (1 <= d < n)"),
        ("divisors-nontrivial", "remove a divisor d with 1 < d < n"),
        ("sqrt", "remove 1..floor(sqrt n)"),
        ("upto{3}", "remove 1..k (the Bash game)"),
        ("half", "remove 1..floor(n/2)"),
        (
            "0.77",
            "octal take-and-break code (Kayles); also .77, 4.07, 0.137",
        ),
        ("0.3F", "hexadecimal code: digit bit 8 leaves three heaps"),
        ("kayles", "alias of 0.77"),
        ("dawson", "Dawson's Kayles, alias of 0.07"),
        (
            "grundy-game",
            "split one heap into two unequal non-empty heaps",
        ),
    ];
    if json {
        let list: Vec<_> = rows
            .iter()
            .map(|(spec, what)| serde_json::json!({ "spec": spec, "description": what }))
            .collect();
        println!("{}", serde_json::to_string_pretty(&list)?);
    } else {
        for (spec, what) in rows {
            println!("{spec:<24} {what}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The message of a panic payload (`&str` or `String`), else "".
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_default()
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let quiet = cli.quiet;
    progress::set_quiet(quiet);
    match cli.cmd {
        Cmd::Table(a) => cmd_table::run(a, quiet),
        Cmd::Losers(a) => cmd_losers::run(a, quiet),
        Cmd::Report(a) => cmd_report::run(a, quiet),
        Cmd::Who(a) => cmd_who::run(a, quiet),
        Cmd::Analyze(a) => cmd_analyze::run(a, quiet),
        Cmd::Sweep(a) => cmd_sweep::run(a, quiet),
        Cmd::Check(a) => cmd_check::run(a, quiet),
        Cmd::Plot(a) => cmd_plot::run(a, quiet),
        Cmd::Stone(a) => cmd_stone::run(a, quiet),
        Cmd::StoneCheck(a) => cmd_stone::check(a, quiet),
        Cmd::Games(a) => games(a.json),
    }
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
