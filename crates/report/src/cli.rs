//! The command line: every subcommand's arguments, as clap parses them. Nothing here
//! computes; `main` hands each parsed command to its `cmd_*` module.

use crate::output::Format;
use crate::plots::Kind;
use anyhow::bail;
use clap::{Args, Parser, Subcommand};
use heaplab_core::{parse_count, Game, Sequence, Variant};
use std::path::PathBuf;
use std::process::ExitCode;

/// clap value parser for counts: `1000000`, `1e6`, `10^6`, `1_000_000`.
pub fn count_arg(s: &str) -> Result<u64, String> {
    parse_count(s).map_err(|e| e.to_string())
}

/// clap value parser for counts of at least 1.
pub fn positive_count_arg(s: &str) -> Result<u64, String> {
    match count_arg(s)? {
        0 => Err("0 is not allowed here: give at least 1".into()),
        n => Ok(n),
    }
}

/// clap value parser for the heaps of `count`: 1..=64 (any count past 64, however large,
/// is refused alike; `1e1` is 10).
pub fn heaps_arg(s: &str) -> Result<u32, String> {
    match count_arg(s) {
        Ok(k @ 1..=64) => Ok(k as u32),
        _ => Err(format!("`{s}` is not a number of heaps in 1..=64")),
    }
}

/// Formats a table (every position) can be written in: a b-file holds one sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TableFormat {
    /// Comma-separated values with a header line.
    Csv,
    /// Apache Parquet (zstd).
    Parquet,
}

impl From<TableFormat> for Format {
    fn from(f: TableFormat) -> Format {
        match f {
            TableFormat::Csv => Format::Csv,
            TableFormat::Parquet => Format::Parquet,
        }
    }
}

/// clap value parser for a number of seconds: finite and not negative.
pub fn seconds_arg(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!("`{s}` is not a number of seconds (0 or more)")),
    }
}

/// clap value parser for game specs (canonicalised).
pub fn game_arg(s: &str) -> Result<Game, String> {
    Game::parse(s).map_err(|e| e.to_string())
}

/// How a game is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PlayArg {
    /// The player who makes the last move wins.
    Normal,
    /// The player who makes the last move loses (`misère`).
    #[value(alias = "misère")]
    Misere,
}

impl From<PlayArg> for heaplab_core::Play {
    fn from(p: PlayArg) -> heaplab_core::Play {
        match p {
            PlayArg::Normal => heaplab_core::Play::Normal,
            PlayArg::Misere => heaplab_core::Play::Misere,
        }
    }
}

/// The game under `play` (as given when there is no `--play`).
///
/// # Errors
/// `--play normal` for a spec written `misere(…)`: the two contradict each other.
pub fn played(game: &Game, play: Option<PlayArg>) -> anyhow::Result<Game> {
    match play {
        Some(PlayArg::Normal) if game.play() == heaplab_core::Play::Misere => anyhow::bail!(
            "--play normal contradicts the spec `{game}` (misère play): drop one of them"
        ),
        Some(PlayArg::Misere) if game.misere_unsupported().is_some() => {
            anyhow::bail!("{}", game.misere_unsupported().unwrap_or_default())
        }
        Some(p) => Ok(game.with_play(p.into())),
        None => Ok(game.clone()),
    }
}

/// Which sequence of a game a command looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Values {
    /// Grundy values g(n).
    Grundy,
    /// Outcomes (1 for an N-position, 0 for a P-position).
    Outcome,
}

impl From<Values> for Sequence {
    fn from(v: Values) -> Sequence {
        match v {
            Values::Grundy => Sequence::Grundy,
            Values::Outcome => Sequence::Outcome,
        }
    }
}

/// What a claim is checked on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum On {
    /// Every position: columns `n`, `win`, `grundy`.
    Table,
    /// The P-positions: columns `k`, `p`, `gap`, `prev` (gap and prev are null for k = 0).
    Losers,
}

impl From<On> for heaplab_analysis::On {
    fn from(on: On) -> heaplab_analysis::On {
        match on {
            On::Table => heaplab_analysis::On::Table,
            On::Losers => heaplab_analysis::On::Losers,
        }
    }
}

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
    #[arg(long, short = 'g', value_parser = game_arg, allow_hyphen_values = true)]
    pub game: Game,
    /// Largest position N (positions 0..=N); accepts 1000000, 1e6, 10^6, 1_000_000.
    #[arg(long, short = 'n', value_parser = count_arg, allow_hyphen_values = true)]
    pub max: u64,
    /// Normal play (the last player to move wins; the default) or misère play (the last
    /// player to move loses): P-positions, outcomes and values of misère play, where the
    /// `grundy` column holds misère nim-values. Same as writing the game as `misere(SPEC)`.
    #[arg(long, value_enum)]
    pub play: Option<PlayArg>,
}

impl GameMax {
    /// The game as it is played (`--play` applied).
    ///
    /// # Errors
    /// As [`played`].
    pub fn played(&self) -> anyhow::Result<Game> {
        played(&self.game, self.play)
    }
}

/// Subcommands.
#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// Outcome (and Grundy value) of every position 0..=N as CSV or Parquet.
    #[command(
        after_help = "Examples:\n  heaplab table --game 'sub{1,2,3}' --max 1e6 --grundy -o data/t.parquet\n  heaplab table --game squares --max 100 | head\n  heaplab table --game 'sub{1,3,4}' --max 20 --remoteness --birthday --play misere"
    )]
    Table(TableArgs),
    /// Grundy values of a take-and-break code or Grundy's game to record heights in bounded
    /// memory (of a subtraction game such as `squares`, on the whole table): value-frequency
    /// snapshots at every 2^k, the rare positions, the largest value.
    #[command(
        after_help = "Examples:\n  heaplab record --game 0.167 --max 2^30 --snapshots runs/0.167 --checkpoint runs/0.167.ckpt\n  heaplab record --game grundy-game --max 2^24 --json\n  heaplab record --game squares --max 1e8 --values runs/sq.b --checkpoint runs/sq.ckpt"
    )]
    Record(RecordArgs),
    /// The P-positions (losers) 0..=N with index and gap, streamed as CSV, Parquet or b-file.
    #[command(
        after_help = "Examples:\n  heaplab losers --game squares --max 1e9 -o data/sq.txt\n  heaplab losers --game squares --max 1e10 -o data/sq.txt --checkpoint data/sq.ckpt\n  heaplab losers --game 'sub{1,2,3}' --max 1e18 --count"
    )]
    Losers(LosersArgs),
    /// A folder with tables, P-positions, plots and a summary for one game.
    #[command(after_help = "Example:\n  heaplab report --game squares --max 1e6")]
    Report(ReportArgs),
    /// Outcome of one heap or of a sum of heaps and, when it wins, one winning move.
    #[command(
        after_help = "Examples:\n  heaplab who --game 0.77 1e18\n  heaplab who --game squares 1000000 --all\n  heaplab who --game squares 1000000 --json\n  heaplab who --game squares 5 7 9\n  heaplab who 'squares:5 + 0.77:12 + sub{1,2}:7'"
    )]
    Who(WhoArgs),
    /// The misère quotient of a take-and-break game's heaps 0..=N: order, generators,
    /// relations, P-portion, the heap map and its period (proved when it can be).
    #[command(
        after_help = "Examples:\n  heaplab quotient --game 0.75 --max 30\n  heaplab quotient --game 0.77 --max 20 --json\n  heaplab quotient --game 0.72 --max 60 -o data/q072.csv\n  heaplab quotient --game 0.07 --max 25 --grow-to 25\n  heaplab quotient --game 0.75 --with 0.77 --max 200",
        mut_arg("game", |a| a.help(
            "Take-and-break game: an octal or hexadecimal code (0.75, 0.77, 4.7, 0.8), \
             grundy-game, or a CGSuite code a breaker plays (4!.0); misere(SPEC) is the same"
        )),
        mut_arg("play", |a| a.help(
            "The quotient is of misère play: leave it out or write `misere`; `normal` is refused"
        ))
    )]
    Quotient(QuotientArgs),
    /// How many positions of k heaps of one game are lost (P) and won (N).
    #[command(
        after_help = "Examples:\n  heaplab count --game squares --heaps 3 --max 29 --sorted\n  heaplab count --game 0.07 --heaps 1 --min 1 --max 50\n  heaplab count --game divisors --heaps 3 --min 1 --max 1e14 --sorted --mod 1234567891"
    )]
    Count(CountArgs),
    /// Periodicity (with certificate), P-position gaps and growth, Grundy values and runs.
    #[command(
        after_help = "Examples:\n  heaplab analyze --game 0.77 --max 200\n  heaplab analyze --game squares --max 1e6 --values outcome -o data/squares"
    )]
    Analyze(AnalyzeArgs),
    /// Two games' Grundy values (or outcomes) side by side: equal up to N, or where they differ.
    #[command(
        after_help = "Examples:\n  heaplab compare --game .161 --game .36 --max 700\n  heaplab compare --game nim --game 0.77 --max 1000 --values outcome"
    )]
    Compare(CompareArgs),
    /// One analysis row per value of a parameter in the spec, e.g. `sub{1,2,k}`.
    #[command(
        after_help = "Example:\n  heaplab sweep --game 'sub{1,2,k}' --param k=3..40 --max 1000 -o data/sweep.csv"
    )]
    Sweep(SweepArgs),
    /// A census of a whole space of games: classes, adaptive certification, known results.
    #[command(
        after_help = "Examples:\n  heaplab census --game 'sub{a,b,c}' --where '1 <= a < b < c <= 20' -o data/sub3.parquet\n  heaplab census --game '0.???' --max 65536 -o data/octal3.parquet\n  heaplab census --game '0.???' --shard 2/4 -o data/octal3-2.parquet"
    )]
    Census(CensusArgs),
    /// Merge census shards (Parquet or CSV files) into one census.
    #[command(
        after_help = "Example:\n  heaplab merge data/octal3-*.parquet -o data/octal3.parquet"
    )]
    Merge(MergeArgs),
    /// Check a conjectured closed form (a polars SQL expression) on every row.
    #[command(
        after_help = "Examples:\n  heaplab check --game 'sub{1,2,3}' --max 1e8 --claim 'win = (n % 4 <> 0)'\n  heaplab check --game divisors --max 1e8 --claim 'n = 0 OR grundy = v2(n)'"
    )]
    Check(CheckArgs),
    /// Conjectures found in the table, each as a claim for `check`; --verify checks them to a larger N.
    #[command(
        after_help = "Examples:\n  heaplab guess --game divisors --max 1e4 --verify 1e6\n  heaplab guess --game sqrt --max 1e6 --target losers --verify 1e9\n  heaplab guess --game 'sub{1,2,k}' --param k=3..40 --max 1000 --verify 1e5"
    )]
    Guess(GuessArgs),
    /// One PNG: grundy, fold, gaps, density, runs or values.
    #[command(
        after_help = "Example:\n  heaplab plot --game 0.77 --max 1000 --kind fold --width 12 -o data/fold.png"
    )]
    Plot(PlotArgs),
    /// Solve one row of a stone game (I, II or III), optionally with an optimal line.
    #[command(
        after_help = "Examples:\n  heaplab stone --variant 2 --piles 2,7,9,4,4 --line\n  heaplab stone --variant 1 --piles 2,10,1,2,10,2 --strategy greedy --line"
    )]
    Stone(StoneArgs),
    /// Check a claim over every row (or random rows) of a stone game.
    #[command(
        after_help = "Example:\n  heaplab stone-check --variant 1 --len 2..10 --values 1..5 --claim \"NOT (len % 2 = 0 AND sum % 2 = 1) OR winner = 'first'\""
    )]
    StoneCheck(StoneCheckArgs),
    /// Every game family with an example spec.
    #[command(after_help = "Example:\n  heaplab games --json")]
    Games(GamesArgs),
    /// A shell completion script on stdout (bash, zsh, fish, elvish, powershell).
    #[command(
        after_help = "Example:\n  heaplab completions bash > ~/.local/share/bash-completion/completions/heaplab"
    )]
    Completions(CompletionsArgs),
    /// The manual page (roff) on stdout.
    #[command(after_help = "Example:\n  heaplab man > heaplab.1 && man ./heaplab.1")]
    Man,
}

/// `heaplab completions`.
#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// `heaplab games` options.
#[derive(clap::Args, Debug)]
pub struct GamesArgs {
    /// JSON array of {"name", "spec", "description", "structure"} instead of the table.
    #[arg(long)]
    pub json: bool,
    /// The README's table of game specs (Markdown), made from the same registry.
    #[arg(long, conflicts_with = "json")]
    pub markdown: bool,
}

/// `heaplab table`.
#[derive(Args, Debug)]
pub struct TableArgs {
    #[command(flatten)]
    pub gm: GameMax,
    /// Add the `grundy` column.
    #[arg(long)]
    pub grundy: bool,
    /// Add the `remoteness` column: Smith's remoteness in the game's play (--play), the
    /// number of moves left when the winner hurries and the loser delays (even at normal-play
    /// P-positions, odd at misère P-positions); refused for games whose moves split a heap.
    #[arg(long)]
    pub remoteness: bool,
    /// Add the `birthday` column: the formal birthday, the number of moves in the longest
    /// play (a split leaves a sum, whose longest play is the sum of its heaps').
    #[arg(long)]
    pub birthday: bool,
    /// Heap shift S: the game's heap n is reported as heap n + S, for games whose terminal
    /// heap is S (subtract 1 or a prime, never below 1: `--game 'primes|sub{1}' --shift 1`);
    /// --max counts in shifted heaps.
    #[arg(long, default_value_t = 0, value_parser = count_arg, allow_hyphen_values = true)]
    pub shift: u64,
    /// Output file (.csv or .parquet); CSV on stdout without it.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// Output format (default: from the file extension).
    #[arg(long, value_enum)]
    pub format: Option<TableFormat>,
    /// Print one JSON summary on stdout (instead of the rows when there is no -o).
    #[arg(long)]
    pub json: bool,
    /// With --grundy: save the values so far to FILE every few minutes; rerunning the same
    /// command resumes from it (take-and-break codes, Grundy's game, subtraction games).
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// Most seconds between checkpoints (the first comes after 10 s, then at doubling
    /// intervals up to this; 0: after every segment).
    #[arg(long, default_value_t = 300.0, value_parser = seconds_arg, allow_hyphen_values = true)]
    pub checkpoint_every: f64,
    /// With --grundy: write the value frequencies over 0..=2^k to DIR/freq-2^k.txt for every
    /// 2^k from 2^10 to --max, as the run passes it.
    #[arg(long, value_name = "DIR")]
    pub snapshots: Option<PathBuf>,
}

/// `heaplab record`.
#[derive(Args, Debug)]
pub struct RecordArgs {
    /// A take-and-break code (e.g. `0.167`) or `grundy-game`, in normal play; or a
    /// subtraction game with a finite or named set (`squares`, `sub{1,2,3}`), whose run keeps
    /// the whole table (about 5 bytes a heap).
    #[arg(long, short = 'g', value_parser = game_arg, allow_hyphen_values = true)]
    pub game: Game,
    /// The last heap N (heaps 0..=N); accepts 2^33, 1e9, 1000000.
    #[arg(long, short = 'n', value_parser = count_arg, allow_hyphen_values = true)]
    pub max: u64,
    /// Values kept in memory at the start (the prefix K; the window of recent values is
    /// about as long): memory is about 16 bytes per kept value plus 64 MiB. A value whose
    /// witness or rare part lies beyond K is found from the spill file instead. Take-and-break
    /// codes only.
    #[arg(long, default_value = "2^24", value_parser = count_arg, allow_hyphen_values = true)]
    pub keep: u64,
    /// Where every value is kept on disk (2 bytes each) for the rare heaps that need values
    /// no longer in memory (default: CHECKPOINT.spill with --checkpoint, kept for a resume;
    /// else a temporary file in the current folder). Removed when the run completes.
    #[arg(long, value_name = "FILE")]
    pub spill: Option<PathBuf>,
    /// No spill file: a heap that needs values no longer in memory stops the run (saying
    /// which, and what to do).
    #[arg(long, conflicts_with = "spill")]
    pub no_spill: bool,
    /// Write the value frequencies over heaps 1..=2^k to DIR/freq-2^k.txt for every 2^k
    /// from 2^10 to N as the run passes it, and the rare positions to DIR/rare.txt at the end.
    #[arg(long, value_name = "DIR")]
    pub snapshots: Option<PathBuf>,
    /// Save the run's state to FILE every few minutes; rerunning the same command (here or
    /// on another machine with the same checkpoint key) resumes from it. For a take-and-break
    /// code an interrupt (Ctrl-C, SIGTERM, SIGHUP) saves it first and stops with code 130.
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// Most seconds between checkpoints (the first after 10 s, then doubling up to this).
    #[arg(long, default_value_t = 300.0, value_parser = seconds_arg, allow_hyphen_values = true)]
    pub checkpoint_every: f64,
    /// Also write every value as an OEIS b-file (`n g(n)` lines) to FILE, as the run goes
    /// (refused when the disk will not hold it). A take-and-break code's run cannot have both
    /// --values and --checkpoint; a whole-table run (`squares`) writes the b-file at the end
    /// and may have both.
    #[arg(long, value_name = "FILE")]
    pub values: Option<PathBuf>,
    /// Print one JSON summary on stdout (`whole_table` says whether the run kept every value;
    /// `mask` is the sparse-space mask: `type`, `bits`, `rare_class`).
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
    /// Index of the first P-position in the `k` column (OEIS sequences often start at 1).
    #[arg(long, default_value_t = 0, value_parser = count_arg, allow_hyphen_values = true)]
    pub offset: u64,
    /// Heap shift S: the game's heap n is reported as heap n + S, for games whose terminal
    /// heap is S (subtract 1 or a prime, never below 1: `--game 'primes|sub{1}' --shift 1`);
    /// --max counts in shifted heaps.
    #[arg(long, default_value_t = 0, value_parser = count_arg, allow_hyphen_values = true)]
    pub shift: u64,
    /// Output format (default: from the file extension).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Print only the number of P-positions and the largest one.
    #[arg(long)]
    pub count: bool,
    /// Save the state to FILE every few minutes; rerunning the same command resumes from it.
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// Most seconds between checkpoints (the first comes after 10 s, then at doubling
    /// intervals up to this; 0: after every segment).
    #[arg(long, default_value_t = 300.0, value_parser = seconds_arg, allow_hyphen_values = true)]
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
    /// Game spec of every heap; without it, the heaps are a sum `SPEC:HEAP + SPEC:HEAP …`.
    #[arg(long, short = 'g', value_parser = game_arg, allow_hyphen_values = true)]
    pub game: Option<Game>,
    /// The heap sizes (with --game), or the sum, e.g. 'squares:5 + 0.77:12 + sub{1,2}:7'.
    #[arg(required = true, num_args = 1..)]
    pub heaps: Vec<String>,
    /// Heap shift S (as `losers --shift`): every heap given is the game's heap minus S.
    #[arg(long, default_value_t = 0, value_parser = count_arg, allow_hyphen_values = true)]
    pub shift: u64,
    /// Normal play (the default) or misère play (the last player to move loses), for every
    /// heap. A misère sum of several heaps is decided when its heaps are tame (by their
    /// genera), small take-and-break heaps (by canonical misère forms), or heaps of
    /// take-and-break games of any size up to 2^64 - 1 whose misère quotient — the joint
    /// quotient for heaps of several games — is found quickly with proved periods (see
    /// `heaplab quotient`, and `--with` for a joint quotient: its letters name the
    /// elements `who` prints).
    #[arg(long, value_enum)]
    pub play: Option<PlayArg>,
    /// List every winning move (up to --limit), each with the position it leaves.
    #[arg(long)]
    pub all: bool,
    /// With --all: list at most this many moves.
    #[arg(
        long,
        default_value = "1000",
        value_parser = positive_count_arg,
        requires = "all",
        allow_hyphen_values = true
    )]
    pub limit: u64,
    /// Print one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `heaplab count`.
#[derive(Args, Debug)]
pub struct CountArgs {
    /// Game spec of every heap.
    #[arg(long, short = 'g', value_parser = game_arg, allow_hyphen_values = true)]
    pub game: Game,
    /// Heaps in a position (k).
    #[arg(long, value_parser = heaps_arg, allow_hyphen_values = true)]
    pub heaps: u32,
    /// Largest heap N.
    #[arg(long, short = 'n', value_parser = count_arg, allow_hyphen_values = true)]
    pub max: u64,
    /// Smallest heap.
    #[arg(long, default_value_t = 0, value_parser = count_arg, allow_hyphen_values = true)]
    pub min: u64,
    /// Count multisets a <= b <= … instead of ordered tuples.
    #[arg(long)]
    pub sorted: bool,
    /// Print the counts modulo M.
    #[arg(long = "mod", value_name = "M", value_parser = positive_count_arg, allow_hyphen_values = true)]
    pub modulus: Option<u64>,
    /// Lead with the N-positions (first-player wins) instead of the P-positions.
    #[arg(long)]
    pub n_positions: bool,
    /// Print one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `heaplab quotient`.
#[derive(Args, Debug)]
pub struct QuotientArgs {
    /// The game (a take-and-break code or `grundy-game`, e.g. `0.75`, `0.77`; the
    /// quotient is of misère play, so `--play` may be left out) and the largest heap N.
    #[command(flatten)]
    pub gm: GameMax,
    /// Let the quotient grow at heaps up to H however long it takes; an H below 26 keeps
    /// the quick limit. Without it, growth is first guessed and proved (within 10^8 walk
    /// steps: Kayles grows this way up to heap 27 and is proved periodic at heap 180), else
    /// learned at heaps up to 26 within 8·10^6 search steps (seconds to tens of seconds),
    /// and a quotient that must grow further is refused, naming the heap (Dawson's Kayles,
    /// 0.07, at heap 25).
    #[arg(long, value_name = "H", value_parser = count_arg)]
    pub grow_to: Option<u64>,
    /// Another take-and-break game (repeatable): the **joint** quotient of the games, which
    /// decides every sum of heaps 0..=N of all of them at once (Plambeck–Siegel's quotient
    /// of a closed set of games); each game's heap map gets its own period.
    #[arg(long = "with", value_name = "GAME", value_parser = game_arg)]
    pub with: Vec<Game>,
    /// Write the heap map (heap, element, word, p) as CSV or Parquet (by extension).
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
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
    pub values: Values,
    /// Folder for the tables (CSV and Parquet of each).
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// Print one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `heaplab compare`.
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// The two games: `--game A --game B`.
    #[arg(long, short = 'g', value_parser = game_arg, required = true, allow_hyphen_values = true)]
    pub game: Vec<Game>,
    /// Largest position N (positions 0..=N).
    #[arg(long, short = 'n', value_parser = count_arg, allow_hyphen_values = true)]
    pub max: u64,
    /// What is compared.
    #[arg(long, value_enum, default_value = "grundy")]
    pub values: Values,
    /// Print one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `heaplab sweep`.
#[derive(Args, Debug)]
pub struct SweepArgs {
    /// Game spec holding the parameter, e.g. `sub{1,2,k}`.
    #[arg(long, short = 'g', allow_hyphen_values = true)]
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

/// `heaplab census`.
#[derive(Args, Debug)]
pub struct CensusArgs {
    /// A game template (repeatable): parameters by name (`sub{a,b,c}`), `?` for any octal
    /// digit (`0.???`: 0-7 after the point, 0 or 4 before it).
    #[arg(long, short = 'g', required = true, allow_hyphen_values = true)]
    pub game: Vec<String>,
    /// Explicit values of a parameter (repeatable): `k=3..40` or `k=3,5,8`.
    #[arg(long)]
    pub param: Vec<String>,
    /// Constraints: chains of linear forms, comma-separated, e.g. `1 <= a < b < c <= 20, a + b != c`.
    #[arg(long = "where", default_value = "", allow_hyphen_values = true)]
    pub constraints: String,
    /// The first N of each class (positions 0..=N).
    #[arg(long, value_parser = count_arg, default_value = "256", allow_hyphen_values = true)]
    pub start: u64,
    /// The largest N of each class.
    #[arg(long, short = 'n', value_parser = count_arg, default_value = "65536", allow_hyphen_values = true)]
    pub max: u64,
    /// Estimated seconds per class (heaplab's estimate, so every machine stops at the same N).
    #[arg(long, allow_hyphen_values = true)]
    pub seconds: Option<f64>,
    /// Run only shard i of n (1-based): the classes whose index is i - 1 modulo n.
    #[arg(long, allow_hyphen_values = true)]
    pub shard: Option<String>,
    /// Output file (.parquet or .csv); with --shard, required. A killed run resumes from
    /// FILE.journal.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// Leave out the `seconds` column, so that two runs write the same bytes.
    #[arg(long)]
    pub no_seconds: bool,
    /// List the classes (and their members) without computing anything.
    #[arg(long)]
    pub list: bool,
    /// Also write one row per game (.parquet or .csv): every member of the classes computed,
    /// its parameters as columns, the reduction to its class's representative, and the
    /// class's results carried over (`period` scaled, `class_period` as computed).
    #[arg(long, value_name = "FILE", conflicts_with = "list")]
    pub members: Option<PathBuf>,
    /// One row per game at bit speed (finite subtraction sets such as `sub{a,b,c}`): the
    /// outcome period of every game, proven by a repeated window, streamed to -o in chunks
    /// (a killed run resumes from FILE.parts); millions of games.
    #[arg(long, conflicts_with_all = ["start", "max", "seconds", "list", "no_seconds", "members"])]
    pub per_game: bool,
    /// With --per-game: normal play (the default) or misère play.
    #[arg(long, value_enum, requires = "per_game")]
    pub play: Option<PlayArg>,
    /// With --per-game: Grundy periods too (normal play).
    #[arg(long, requires = "per_game")]
    pub grundy: bool,
    /// With --per-game: positions one game may compute before its row says `none`.
    #[arg(long, value_parser = count_arg, requires = "per_game", allow_hyphen_values = true)]
    pub limit: Option<u64>,
    /// With --per-game: write the census's plots (period against the largest move, the
    /// preperiod histogram) as PNGs into this folder.
    #[arg(long, requires = "per_game")]
    pub plots: Option<PathBuf>,
    /// Print one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `heaplab merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Shard files written by `census --shard` (or whole censuses).
    #[arg(required = true)]
    pub parts: Vec<PathBuf>,
    /// The merged census (.parquet or .csv).
    #[arg(long, short = 'o')]
    pub output: PathBuf,
    /// Leave out the `seconds` column, so that merges of different runs write the same bytes.
    #[arg(long)]
    pub no_seconds: bool,
    /// Print one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// What `heaplab guess` looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GuessTarget {
    /// The Grundy values (claims on `grundy`).
    Grundy,
    /// The outcomes (claims on `win`).
    Outcome,
    /// The P-positions in order (claims on `k`, `p`, `gap`, `prev`).
    Losers,
}

impl From<GuessTarget> for heaplab_analysis::Target {
    fn from(t: GuessTarget) -> heaplab_analysis::Target {
        match t {
            GuessTarget::Grundy => heaplab_analysis::Target::Grundy,
            GuessTarget::Outcome => heaplab_analysis::Target::Outcome,
            GuessTarget::Losers => heaplab_analysis::Target::Losers,
        }
    }
}

/// `heaplab guess`.
#[derive(Args, Debug)]
pub struct GuessArgs {
    /// Game spec, or with --param a spec holding the parameter, e.g. `sub{1,2,k}`.
    #[arg(long, short = 'g', allow_hyphen_values = true)]
    pub game: String,
    /// Largest position N of the table the guesses are found on.
    #[arg(long, short = 'n', value_parser = count_arg, allow_hyphen_values = true)]
    pub max: u64,
    /// What to describe (repeatable; all three by default).
    #[arg(long, value_enum)]
    pub target: Vec<GuessTarget>,
    /// A parameter of the spec and its consecutive values, `k=3..40`: guess the period and
    /// preperiod as functions of it. Repeat it (`--param a=1..12 --param b=2..40`, with
    /// `--where 'a < b'`) for formulas over several parameters of a finite subtraction set.
    #[arg(long)]
    pub param: Vec<String>,
    /// With several --param: constraints on them, as in `census --where`.
    #[arg(long = "where", default_value = "", allow_hyphen_values = true)]
    pub constraints: String,
    /// Check every guess on the table (or sweep) to this larger N.
    #[arg(long, value_parser = count_arg, allow_hyphen_values = true)]
    pub verify: Option<u64>,
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
    #[arg(long, allow_hyphen_values = true)]
    pub claim: String,
    /// Check every position (`n`, `win`, `grundy`) or the P-positions (`k`, `p`, `gap`, `prev`).
    #[arg(long, value_enum, default_value = "table")]
    pub on: On,
    /// When the claim fails, print the first counterexample as a proof: the claim with the
    /// values it reads, and the heap's value from its options (one per smaller value).
    #[arg(long)]
    pub witness: bool,
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
    pub kind: Kind,
    /// Fold width (default: the detected period, else 64); rows wider than the plot show
    /// their first columns.
    #[arg(long, value_parser = count_arg, allow_hyphen_values = true)]
    pub width: Option<u64>,
    /// Image size in pixels, e.g. 1600x800 (default 1200x600).
    #[arg(long, allow_hyphen_values = true)]
    pub size: Option<String>,
    /// Log axes (gaps, values).
    #[arg(long)]
    pub log: bool,
    /// Colour fold maps by Grundy value (the default) or by outcome.
    #[arg(long, value_enum)]
    pub values: Option<Values>,
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
    #[arg(long, allow_hyphen_values = true)]
    pub variant: u8,
    /// The row, e.g. `5,3,4,5`, or `@FILE` with the values (commas or whitespace).
    #[arg(long, allow_hyphen_values = true)]
    pub piles: String,
    /// Also print one optimal line of play (with --strategy: the strategy's line against
    /// the best reply).
    #[arg(long)]
    pub line: bool,
    /// Score a strategy for the first player against the best reply, beside best play:
    /// `greedy` (I: the larger end; II and III: the most the move can take).
    #[arg(long, value_parser = ["greedy"], allow_hyphen_values = true)]
    pub strategy: Option<String>,
    /// Print one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `heaplab stone-check`.
#[derive(Args, Debug)]
pub struct StoneCheckArgs {
    /// 1, 2 or 3.
    #[arg(long, allow_hyphen_values = true)]
    pub variant: u8,
    /// Row lengths, e.g. `2..10`.
    #[arg(long, allow_hyphen_values = true)]
    pub len: String,
    /// Pile values, e.g. `1..5` (negative allowed: `-3..3`).
    #[arg(long, allow_hyphen_values = true)]
    pub values: String,
    /// Boolean polars SQL over `len`, `sum`, `margin`, `winner` ('first', 'second', 'tie'), `first_total`.
    #[arg(long, allow_hyphen_values = true)]
    pub claim: String,
    /// Check COUNT random rows instead of every row (`1e6` and the like accepted; at
    /// least 1).
    #[arg(long, value_parser = positive_count_arg, allow_hyphen_values = true)]
    pub random: Option<u64>,
    /// Seed of the random rows.
    #[arg(long, default_value_t = 1, requires = "random", value_parser = count_arg, allow_hyphen_values = true)]
    pub seed: u64,
    /// Print one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// The command line, parsed; help and version are printed here (exit 0), and a bad
/// command line is one line on stderr (exit 2).
pub fn parse() -> Result<Cli, ExitCode> {
    Cli::try_parse().map_err(|e| {
        use clap::error::ErrorKind;
        match e.kind() {
            ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                let _ = e.print();
                ExitCode::SUCCESS
            }
            ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                let _ = e.print();
                ExitCode::from(2)
            }
            _ => {
                eprintln!("{}", shorten_values(&one_line(&e.render().to_string())));
                ExitCode::from(2)
            }
        }
    })
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

/// Parses `5,3,4,5` (integers, any sign), or `@FILE` holding such a list (commas or
/// whitespace between values) for rows too long for a command line.
pub fn parse_piles(s: &str) -> anyhow::Result<Vec<i64>> {
    if let Some(path) = s.strip_prefix('@') {
        // at most 64 MiB of text (millions of piles): `@/dev/zero` must not fill memory
        const LIMIT: u64 = 64 << 20;
        let mut text = String::new();
        std::fs::File::open(path)
            .and_then(|f| {
                std::io::Read::read_to_string(&mut std::io::Read::take(f, LIMIT + 1), &mut text)
            })
            .map_err(|e| anyhow::anyhow!("cannot read piles from `{path}`: {e}"))?;
        if text.len() as u64 > LIMIT {
            bail!("`{path}` holds more than 64 MiB of piles");
        }
        // values between commas or whitespace, any mix of them
        let values: Vec<&str> = text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|v| !v.is_empty())
            .collect();
        if values.is_empty() {
            bail!("`{path}` holds no piles");
        }
        return parse_piles(&values.join(","));
    }
    if s.trim().is_empty() {
        bail!("--piles is empty: give the piles as a comma-separated list such as 5,3,4,5");
    }
    s.split(',')
        .enumerate()
        .map(|(i, x)| {
            let x = x.trim();
            if x.is_empty() {
                bail!("--piles has an empty value at position {}", i + 1);
            }
            x.parse::<i64>().map_err(|e| {
                use std::num::IntErrorKind::{NegOverflow, PosOverflow};
                let why = match e.kind() {
                    PosOverflow | NegOverflow => "is beyond 64 bits",
                    _ => "is not an integer",
                };
                anyhow::anyhow!("--piles value {} (`{x}`) {why}", i + 1)
            })
        })
        .collect()
}

pub fn variant(v: u8) -> anyhow::Result<Variant> {
    Variant::from_number(v).ok_or_else(|| anyhow::anyhow!("--variant must be 1, 2 or 3, not {v}"))
}

/// `A..B` inclusive (or a single number).
pub fn range(s: &str, what: &str) -> anyhow::Result<(i64, i64)> {
    let parse = |x: &str| -> anyhow::Result<i64> {
        let x = x.trim();
        let (neg, digits) = match x.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, x),
        };
        let v = count_arg(digits).map_err(anyhow::Error::msg)?;
        if v > 1 << 40 {
            bail!("{what}: `{x}` is out of range (at most 2^40 in size)");
        }
        Ok(if neg { -(v as i64) } else { v as i64 })
    };
    let (a, b) = match s.split_once("..") {
        Some((a, b)) => (parse(a)?, parse(b)?),
        None => {
            let x = parse(s)?;
            (x, x)
        }
    };
    if a > b {
        bail!("{what} range {s} is empty");
    }
    Ok((a, b))
}
