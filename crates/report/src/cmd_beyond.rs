//! `who`, `losers`, `table`, `plot`, `check` and `guess` for games beyond one heap
//! (`--game wythoff`, `fibonacci-nim`, `put-or-take{squares}`, …; [`heaplab_core::beyond`],
//! [`heaplab_analysis::check_beyond`]). `main` sends a command here when its `--game`
//! names such a game; the arguments are those below.

use crate::beyond_out::{
    check_rows_output, count_arg, draw, game_arg, rows_fit_on_disk, table_frame, too_many_rows,
    write_losers, write_rows,
};
use crate::output::{print_json, secs};
use crate::progress::Progress;
use anyhow::{anyhow, bail, Result};
use clap::{Args, Parser, Subcommand};
use heaplab_analysis::{beyond_frames, check_beyond, guess_beyond};
use heaplab_core::beyond::loopy::Loopy;
use heaplab_core::beyond::sum::{decide_mixed_sum, is_mixed_sum};
use heaplab_core::BeyondGame;
use polars::prelude::*;
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// The commands that take a game beyond one heap.
#[derive(Parser, Debug)]
#[command(name = "heaplab", about = "heaplab for games beyond one heap")]
pub struct BeyondCli {
    /// Print nothing on stderr except errors.
    #[arg(long, short = 'q', global = true)]
    pub quiet: bool,
    #[command(subcommand)]
    cmd: BeyondCmd,
}

#[derive(Subcommand, Debug)]
enum BeyondCmd {
    /// The outcome of one position and a winning move.
    #[command(
        after_help = "Examples:\n  heaplab who --game wythoff 1000000000000000000 999999999999999999\n  heaplab who --game 'wythoff{3}' 20 33\n  heaplab who --game fibonacci-nim 1000\n  heaplab who --game fibonacci-nim 10 3     # CGSuite's (heap, previous move)\n  heaplab who --game 'put-or-take{squares}' 3"
    )]
    Who(WhoArgs),
    /// P-positions: pairs (k, a, b), start heaps (k, n), or loopy losses (k, n).
    #[command(
        after_help = "Examples:\n  heaplab losers --game wythoff --max 1e6 -o pairs.parquet\n  heaplab losers --game wythoff --max 1e9 --count\n  heaplab losers --game fibonacci-nim --max 1e6"
    )]
    Losers(ListArgs),
    /// Grundy values of the square [0, N]² (or of row R), by state, or loopy outcomes.
    #[command(
        after_help = "Examples:\n  heaplab table --game wythoff --max 2000 -o square.parquet\n  heaplab table --game 'wythoff{2}' --max 1e6 --row 10 -o row10.csv\n  heaplab table --game 'takeaway{3}' --max 100\n  heaplab table --game 'put-or-take{squares}' --max 1177"
    )]
    Table(TableArgs),
    /// A heat map of the Grundy square (or values by state), or the P-pairs.
    #[command(
        after_help = "Examples:\n  heaplab plot --game wythoff --max 1000 -o wythoff.png\n  heaplab plot --game wythoff --max 2000 --kind pairs -o pairs.png"
    )]
    Plot(PlotArgs),
    /// A claim over the rows (columns k, a, b / k, n / n, outcome), checked exactly.
    #[command(
        after_help = "Example:\n  heaplab check --game wythoff --max 1e8 --claim 'a = floor_phi(k) AND b = floor_phi2(k)'"
    )]
    Check(CheckArgs),
    /// A Beatty form for the P-pairs of a two-heap game, checked on every row.
    #[command(after_help = "Example:\n  heaplab guess --game 'wythoff{3}' --max 1e6")]
    Guess(GuessArgs),
    /// One folder: the table, the P-positions, plots and a summary.
    #[command(
        after_help = "Examples:\n  heaplab report --game wythoff --max 1000\n  heaplab report --game fibonacci-nim --max 1e6 -o fib\n  heaplab report --game 'put-or-take{squares}' --max 1177"
    )]
    Report(crate::cmd_beyond_report::BeyondReportArgs),
}

#[derive(Args, Debug)]
struct WhoArgs {
    /// The game (wythoff, wythoff{2}, vectors{(1,2),(2,1)}, fibonacci-nim, takeaway{3},
    /// put-or-take{squares}, add-or-divide).
    #[arg(long, short = 'g', value_parser = game_arg, allow_hyphen_values = true)]
    game: Option<BeyondGame>,
    /// Two heaps A B; a heap N (move memory: a start, the first move takes 1..N-1) or N K
    /// (CGSuite's (heap, previous move)); one heap (loopy). Without --game: a sum of normal
    /// play, `wythoff:3,5 + fibonacci-nim:10 + squares:7`.
    #[arg(required = true, num_args = 1..)]
    position: Vec<String>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct ListArgs {
    /// The game: wythoff, wythoff{a}, vectors{(x,y),…}, fibonacci-nim, takeaway{r},
    /// put-or-take{squares|triangular}, add-or-divide (see `heaplab games`).
    #[arg(long, short = 'g', value_parser = game_arg, allow_hyphen_values = true)]
    game: BeyondGame,
    /// Largest coordinate N.
    #[arg(long, short = 'n', value_parser = count_arg, allow_hyphen_values = true)]
    max: u64,
    /// Output file (.csv or .parquet); stdout (CSV) without it.
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
    /// Print only how many there are.
    #[arg(long)]
    count: bool,
    /// Print one JSON summary on stdout (instead of the rows when there is no -o).
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct TableArgs {
    /// The game: wythoff, wythoff{a}, vectors{(x,y),…}, fibonacci-nim, takeaway{r},
    /// put-or-take{squares|triangular}, add-or-divide (see `heaplab games`).
    #[arg(long, short = 'g', value_parser = game_arg, allow_hyphen_values = true)]
    game: BeyondGame,
    /// Largest coordinate N (the square [0, N]², heaps 0..=N, or positions 0..=N).
    #[arg(long, short = 'n', value_parser = count_arg, allow_hyphen_values = true)]
    max: u64,
    /// Two heaps: only row R, g(R, n) for 0 <= n <= N.
    #[arg(long, value_parser = count_arg, allow_hyphen_values = true)]
    row: Option<u64>,
    /// Output file (.csv or .parquet); stdout (CSV) without it.
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
    /// Print one JSON summary on stdout (instead of the rows when there is no -o).
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct PlotArgs {
    /// The game: wythoff, wythoff{a}, vectors{(x,y),…}, fibonacci-nim, takeaway{r},
    /// put-or-take{squares|triangular}, add-or-divide (see `heaplab games`).
    #[arg(long, short = 'g', value_parser = game_arg, allow_hyphen_values = true)]
    game: BeyondGame,
    /// Largest coordinate N.
    #[arg(long, short = 'n', value_parser = count_arg, allow_hyphen_values = true)]
    max: u64,
    /// The PNG to write.
    #[arg(long, short = 'o')]
    output: PathBuf,
    /// `grundy` (heat map of the values) or `pairs` (the P-positions as points).
    #[arg(long, default_value = "grundy", value_parser = ["grundy", "pairs"])]
    kind: String,
    /// Print one JSON summary on stdout.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct CheckArgs {
    /// The game: wythoff, wythoff{a}, vectors{(x,y),…}, fibonacci-nim, takeaway{r},
    /// put-or-take{squares|triangular}, add-or-divide (see `heaplab games`).
    #[arg(long, short = 'g', value_parser = game_arg, allow_hyphen_values = true)]
    game: BeyondGame,
    /// Largest coordinate N.
    #[arg(long, short = 'n', value_parser = count_arg, allow_hyphen_values = true)]
    max: u64,
    /// A true/false polars SQL expression over the columns, e.g. `a = floor_phi(k)`.
    #[arg(long, allow_hyphen_values = true)]
    claim: String,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct GuessArgs {
    /// The game: wythoff, wythoff{a}, vectors{(x,y),…}, fibonacci-nim, takeaway{r},
    /// put-or-take{squares|triangular}, add-or-divide (see `heaplab games`).
    #[arg(long, short = 'g', value_parser = game_arg, allow_hyphen_values = true)]
    game: BeyondGame,
    /// Largest coordinate N to check the guess to.
    #[arg(long, short = 'n', value_parser = count_arg, allow_hyphen_values = true)]
    max: u64,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// When the command line is a command on a game beyond one heap (`--game wythoff`, …):
/// its parsed arguments, or the exit code of a parse error already printed.
pub fn detect() -> Option<std::result::Result<BeyondCli, ExitCode>> {
    let args: Vec<String> = std::env::args().collect();
    let sub = args[1..].iter().find(|a| !a.starts_with('-'))?;
    if !["who", "losers", "table", "plot", "check", "guess", "report"].contains(&sub.as_str()) {
        return None;
    }
    let mut game = None;
    for (i, a) in args.iter().enumerate() {
        if a == "--game" || a == "-g" {
            game = args.get(i + 1).cloned();
        } else if let Some(v) = a.strip_prefix("--game=") {
            game = Some(v.to_string());
        }
    }
    let beyond = match game {
        Some(g) => BeyondGame::is_beyond(&g),
        // a sum with a term of a game beyond one heap
        None => sub == "who" && args.iter().any(|a| is_mixed_sum(a)),
    };
    if !beyond {
        return None;
    }
    // `--play` belongs to games of heaps; these games are played in normal play only
    if args
        .iter()
        .any(|a| a == "--play" || a.starts_with("--play="))
    {
        eprintln!(
            "error: --play: games beyond one heap (two-heap, loopy and stone games) are \
             played in normal play only; misère play is for heaps of one-heap games"
        );
        return Some(Err(ExitCode::from(2)));
    }
    Some(BeyondCli::try_parse_from(&args).map_err(|e| {
        use clap::error::ErrorKind;
        let _ = match e.kind() {
            ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => e.print(),
            _ => {
                let text = e.render().to_string();
                let line: Vec<&str> = text
                    .lines()
                    .take_while(|l| !l.trim().is_empty())
                    .map(str::trim)
                    .collect();
                eprintln!("{}", line.join(" "));
                Ok(())
            }
        };
        match e.kind() {
            ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => ExitCode::SUCCESS,
            _ => ExitCode::from(2),
        }
    }))
}

/// Runs a command on a game beyond one heap.
pub fn run(cli: BeyondCli) -> Result<ExitCode> {
    crate::progress::set_quiet(cli.quiet);
    // the answer goes to stdout: refused before any work when it is closed (`>&-`)
    let on_stdout = match &cli.cmd {
        BeyondCmd::Who(_) | BeyondCmd::Check(_) | BeyondCmd::Guess(_) => true,
        BeyondCmd::Losers(a) => a.count || a.json || a.output.is_none(),
        BeyondCmd::Table(a) => a.json || a.output.is_none(),
        BeyondCmd::Plot(a) => a.json,
        BeyondCmd::Report(a) => a.json,
    };
    if on_stdout {
        crate::files::check_stdout()?;
    }
    match cli.cmd {
        BeyondCmd::Who(a) => who(a),
        BeyondCmd::Losers(a) => losers(a),
        BeyondCmd::Table(a) => table(a),
        BeyondCmd::Plot(a) => plot(a),
        BeyondCmd::Check(a) => check(a),
        BeyondCmd::Guess(a) => guess(a),
        BeyondCmd::Report(a) => crate::cmd_beyond_report::run(a),
    }
}

fn who(a: WhoArgs) -> Result<ExitCode> {
    let t0 = Instant::now();
    let Some(g) = &a.game else {
        return who_sum(&a.position, a.json);
    };
    let position = a
        .position
        .iter()
        .map(|p| count_arg(p).map_err(|e| anyhow!("position `{p}`: {e}")))
        .collect::<Result<Vec<u64>>>()?;
    let progress = Progress::new(&format!("{g} at {}", a.position.join(", ")), 0);
    let d = heaplab_core::beyond::decide(g, &position, &progress)?;
    progress.finish();
    let (win, grundy, note) = (d.win(), d.grundy, &d.method);
    let to = d
        .move_text
        .as_deref()
        .map(|t| t.trim_start_matches("to ").to_string());
    let shown = position
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    if a.json {
        print_json(&json!({
            "game": g.to_string(),
            "position": position,
            "outcome": match d.outcome {
                Loopy::Unknown => "undecided",
                o => o.name(),
            },
            "win": win,
            "grundy": grundy,
            "winning_move_to": to,
            "method": note,
            "seconds": secs(t0),
        }));
    } else {
        let what = match d.outcome {
            Loopy::Win => "win (N-position)",
            Loopy::Loss => "lose (P-position)",
            Loopy::Draw => "draw (neither player can force a win: proven)",
            _ => {
                "undecided (a draw on every window tried, but not proven: no sound bound is known)"
            }
        };
        let gv = grundy.map_or(String::new(), |v| format!(", Grundy value {v}"));
        println!("{g} ({shown}): {what}{gv}");
        if let Some(to) = &to {
            println!("  winning move: to {to}");
        }
        println!("  [{note}]");
    }
    Ok(ExitCode::SUCCESS)
}

fn losers(a: ListArgs) -> Result<ExitCode> {
    let g = &a.game;
    let t0 = Instant::now();
    let progress = Progress::new(&format!("{g} to {}", a.max), a.max.saturating_add(1));
    if a.count && a.output.is_some() {
        bail!("--count prints how many there are: leave out -o (or --count)");
    }
    // the P-positions only counted: --count, or --json with no file to write
    let count_only = a.count || (a.json && a.output.is_none());
    let rows = match g.beatty() {
        Some(b) if count_only => b.count_upto(a.max),
        _ => {
            too_many_rows(g, a.max)?;
            if count_only {
                let mut rows = 0u64;
                beyond_frames(g, a.max, true, &progress, &mut |df| {
                    rows += df.height() as u64;
                    Ok(())
                })?;
                rows
            } else {
                check_rows_output(a.output.as_deref())?;
                if let Some(p) = &a.output {
                    rows_fit_on_disk(g, a.max, p)?;
                }
                write_losers(g, a.max, a.output.as_deref(), &progress)?
            }
        }
    };
    progress.finish();
    report_rows(g, a.max, rows, a.output.as_deref(), a.json, a.count, t0);
    Ok(ExitCode::SUCCESS)
}

/// What `losers` and `table` say once their rows are written or counted: the JSON summary,
/// the count (`--count`), or which file they went to (on stderr, unless `--quiet`).
fn report_rows(
    g: &BeyondGame,
    max: u64,
    rows: u64,
    output: Option<&std::path::Path>,
    as_json: bool,
    count: bool,
    t0: Instant,
) {
    if as_json {
        let files: Vec<String> = output.iter().map(|p| p.display().to_string()).collect();
        print_json(&json!({
            "game": g.to_string(),
            "max": max,
            "rows": rows,
            "files": files,
            "seconds": secs(t0),
        }));
    } else if count {
        println!("{rows}");
    } else if let Some(p) = output.filter(|_| !crate::progress::quiet()) {
        eprintln!("wrote {} ({rows} rows)", p.display());
    }
}

fn table(a: TableArgs) -> Result<ExitCode> {
    let g = &a.game;
    let t0 = Instant::now();
    check_rows_output(a.output.as_deref())?;
    let progress = Progress::new(&format!("{g} to {}", a.max), a.max.saturating_add(1));
    let (df, statement) = table_frame(g, a.max, a.row, &progress)?;
    progress.finish();
    if let Some(s) = statement.filter(|_| !crate::progress::quiet()) {
        eprintln!("{s}");
    }
    let rows = if a.json && a.output.is_none() {
        df.height() as u64
    } else {
        let schema = df.schema().as_ref().clone();
        write_rows(a.output.as_deref(), &schema, &mut |put| put(df.clone()))?
    };
    report_rows(g, a.max, rows, a.output.as_deref(), a.json, false, t0);
    Ok(ExitCode::SUCCESS)
}

fn plot(a: PlotArgs) -> Result<ExitCode> {
    let g = &a.game;
    if a.output.extension().and_then(|e| e.to_str()) != Some("png") {
        bail!("plot writes a .png: `{}`", a.output.display());
    }
    crate::files::AtomicFile::check(&a.output)?; // a bad path fails before any work
    let progress = Progress::new(&format!("{g} to {}", a.max), a.max.saturating_add(1));
    let t0 = Instant::now();
    let written = draw(g, &a.kind, a.max, &a.output, &progress)?;
    progress.finish();
    if a.json {
        print_json(&json!({
            "game": g.to_string(),
            "max": a.max,
            "kind": a.kind,
            "files": [written.display().to_string()],
            "seconds": secs(t0),
        }));
    } else if !crate::progress::quiet() {
        eprintln!("wrote {}", written.display());
    }
    Ok(ExitCode::SUCCESS)
}

fn check(a: CheckArgs) -> Result<ExitCode> {
    let t0 = Instant::now();
    let g = &a.game;
    too_many_rows(g, a.max)?;
    let progress = Progress::new(
        &format!("checking {g} to {}", a.max),
        a.max.saturating_add(1),
    );
    let r = check_beyond(g, a.max, &a.claim, &progress)?;
    progress.finish();
    if a.json {
        print_json(&json!({
            "game": g.to_string(),
            "max": a.max,
            "claim": a.claim,
            "holds": r.holds(),
            "rows": r.rows,
            "failures": r.failures,
            "counterexamples": frame_rows(&r.counterexamples),
            "seconds": secs(t0),
        }));
    } else if r.holds() {
        println!("holds on all {} rows to {} [{g}]", r.rows, a.max);
    } else {
        println!(
            "fails on {} of {} rows [{g}]; first counterexamples:",
            r.failures, r.rows
        );
        for row in frame_rows(&r.counterexamples) {
            let cells: Vec<String> = row
                .as_object()
                .map(|o| {
                    o.iter()
                        .map(|(k, v)| format!("{k} = {}", v.to_string().trim_matches('"')))
                        .collect()
                })
                .unwrap_or_default();
            println!("  {}", cells.join(", "));
        }
    }
    Ok(if r.holds() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn guess(a: GuessArgs) -> Result<ExitCode> {
    let t0 = Instant::now();
    let g = &a.game;
    too_many_rows(g, a.max)?;
    let progress = Progress::new(
        &format!("guessing {g} to {}", a.max),
        a.max.saturating_add(1),
    );
    let claim = guess_beyond(g, a.max, &progress)?;
    let checked = match &claim {
        Some(c) => Some(check_beyond(g, a.max, c, &progress)?),
        None => None,
    };
    progress.finish();
    let holds = checked.as_ref().is_some_and(|r| r.holds());
    if a.json {
        print_json(&json!({
            "game": g.to_string(),
            "max": a.max,
            "claim": claim,
            "holds": holds,
            "rows": checked.as_ref().map(|r| r.rows),
            "seconds": secs(t0),
        }));
    } else {
        match (&claim, &checked) {
            (Some(c), Some(r)) if r.holds() => {
                println!("{c}   (holds on all {} rows to {})", r.rows, a.max)
            }
            (Some(c), Some(r)) => println!("{c}   (fails on {} of {} rows)", r.failures, r.rows),
            _ => println!("no Beatty form (b - a = c k, a = floor(k alpha)) for {g}"),
        }
    }
    Ok(if holds {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The rows of a small frame as JSON objects: numbers as numbers, strings as strings.
fn frame_rows(df: &DataFrame) -> Vec<serde_json::Value> {
    (0..df.height())
        .map(|i| {
            let mut o = serde_json::Map::new();
            for c in df.columns() {
                let v = match c.get(i) {
                    Ok(AnyValue::UInt64(x)) => json!(x),
                    Ok(AnyValue::UInt32(x)) => json!(x),
                    Ok(AnyValue::Int64(x)) => json!(x),
                    Ok(AnyValue::String(x)) => json!(x),
                    Ok(AnyValue::StringOwned(x)) => json!(x.as_str()),
                    Ok(other) => json!(other.to_string()),
                    Err(_) => serde_json::Value::Null,
                };
                o.insert(c.name().to_string(), v);
            }
            serde_json::Value::Object(o)
        })
        .collect()
}

/// `who` on a sum of normal play mixing games beyond one heap with one-heap games: the
/// core's one decision ([`heaplab_core::beyond::sum::decide_mixed_sum`]), printed.
fn who_sum(words: &[String], as_json: bool) -> Result<ExitCode> {
    let text = words.join(" ");
    let d = decide_mixed_sum(&text, &crate::machine::budget(), &heaplab_core::Silent)?;
    if as_json {
        print_json(&serde_json::to_value(&d)?);
    } else {
        println!(
            "{}: {} (Grundy value {})",
            d.sum,
            if d.win {
                "win (N-position)"
            } else {
                "lose (P-position)"
            },
            d.grundy
        );
        for t in &d.terms {
            match t.grundy {
                Some(v) => println!("  {}: Grundy value {v}", t.term),
                None => println!("  {}: Grundy value unknown", t.term),
            }
        }
        if let Some(m) = &d.winning_move {
            println!("  winning move: {m}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
