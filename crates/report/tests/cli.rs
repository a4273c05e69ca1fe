//! End-to-end tests: run the `heaplab` binary in a temporary folder and read what it wrote.

use polars::prelude::*;
use polars_io::csv::read::CsvReadOptions;
use polars_io::parquet::read::ParquetReader;
use polars_io::SerReader;
use serde_json::json;
use std::path::Path;
use std::process::{Command, Output};

fn heaplab(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_heaplab"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run heaplab")
}

fn ok(dir: &Path, args: &[&str]) -> String {
    let o = heaplab(dir, args);
    assert!(
        o.status.success(),
        "heaplab {args:?} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

fn json(dir: &Path, args: &[&str]) -> serde_json::Value {
    serde_json::from_str(ok(dir, args).trim()).expect("one JSON object")
}

fn read_csv(p: &Path) -> DataFrame {
    CsvReadOptions::default()
        .try_into_reader_with_file_path(Some(p.to_path_buf()))
        .unwrap()
        .finish()
        .unwrap()
}

fn read_parquet(p: &Path) -> DataFrame {
    ParquetReader::new(std::fs::File::open(p).unwrap())
        .finish()
        .unwrap()
}

fn u64s(df: &DataFrame, col: &str) -> Vec<Option<u64>> {
    let c = df.column(col).unwrap().cast(&DataType::UInt64).unwrap();
    let ca = c.u64().unwrap();
    (0..ca.len()).map(|i| ca.get(i)).collect()
}

fn bools(df: &DataFrame, col: &str) -> Vec<bool> {
    let ca = df.column(col).unwrap().bool().unwrap();
    (0..ca.len()).map(|i| ca.get(i).unwrap()).collect()
}

/// OEIS A030193 (P-positions of subtract-a-square), the first 58 terms.
const A030193: [u64; 58] = [
    0, 2, 5, 7, 10, 12, 15, 17, 20, 22, 34, 39, 44, 52, 57, 62, 65, 67, 72, 85, 95, 109, 119, 124,
    127, 130, 132, 137, 142, 147, 150, 170, 177, 180, 182, 187, 192, 197, 204, 210, 215, 238, 243,
    249, 255, 257, 260, 262, 267, 272, 275, 312, 317, 322, 327, 332, 335, 340,
];

#[test]
fn table_round_trips_through_csv_and_parquet() {
    let d = tempfile::tempdir().unwrap();
    for name in ["t.csv", "t.parquet"] {
        let v = json(
            d.path(),
            &[
                "table",
                "--game",
                "sub{3,2,1}",
                "--max",
                "1_000",
                "--grundy",
                "-o",
                name,
                "--json",
            ],
        );
        assert_eq!(v["game"], "sub{1,2,3}");
        assert_eq!(v["p_positions"], 251);
        assert_eq!(v["largest_p"], 1000);
        assert_eq!(v["max_grundy"], 3);
        let df = if name.ends_with("csv") {
            read_csv(&d.path().join(name))
        } else {
            read_parquet(&d.path().join(name))
        };
        assert_eq!(df.height(), 1001);
        let n = u64s(&df, "n");
        let win = bools(&df, "win");
        let g = u64s(&df, "grundy");
        for i in 0..=1000u64 {
            assert_eq!(n[i as usize], Some(i));
            assert_eq!(win[i as usize], i % 4 != 0);
            assert_eq!(g[i as usize], Some(i % 4));
        }
    }
}

#[test]
fn table_on_stdout_is_csv() {
    let d = tempfile::tempdir().unwrap();
    let out = ok(d.path(), &["table", "--game", "squares", "--max", "20"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "n,win");
    assert_eq!(lines.len(), 22);
    // Stone Game IV: 1 win, 2 lose, 4 win, 7 lose, 17 lose.
    assert_eq!(lines[1 + 1], "1,true");
    assert_eq!(lines[1 + 2], "2,false");
    assert_eq!(lines[1 + 4], "4,true");
    assert_eq!(lines[1 + 7], "7,false");
    assert_eq!(lines[1 + 17], "17,false");
}

#[test]
fn losers_count_and_files() {
    let d = tempfile::tempdir().unwrap();
    let v = json(
        d.path(),
        &["losers", "--game", "squares", "--max", "1e6", "--json"],
    );
    assert_eq!(v["p_positions"], 13952);
    assert!(v["max_grundy"].is_null());
    for (max, count) in [("10^3", 115), ("1e4", 579), ("100000", 2781)] {
        let v = json(
            d.path(),
            &[
                "losers", "--game", "squares", "--max", max, "--count", "--json",
            ],
        );
        assert_eq!(v["p_positions"], count, "{max}");
    }
    let out = ok(
        d.path(),
        &["losers", "--game", "squares", "--max", "340", "-o", "l.csv"],
    );
    assert!(out.contains("58 P-positions"), "{out}");
    let df = read_csv(&d.path().join("l.csv"));
    let k = u64s(&df, "k");
    let p = u64s(&df, "p");
    let gap = u64s(&df, "gap");
    assert_eq!(p.iter().map(|x| x.unwrap()).collect::<Vec<_>>(), A030193);
    assert_eq!(k[57], Some(57));
    assert_eq!(gap[0], None);
    assert_eq!(gap[1], Some(2));
    ok(
        d.path(),
        &[
            "losers",
            "--game",
            "squares",
            "--max",
            "340",
            "-o",
            "l.parquet",
        ],
    );
    let df = read_parquet(&d.path().join("l.parquet"));
    assert_eq!(
        u64s(&df, "p")
            .iter()
            .map(|x| x.unwrap())
            .collect::<Vec<_>>(),
        A030193
    );
    ok(
        d.path(),
        &["losers", "--game", "squares", "--max", "20", "-o", "b.txt"],
    );
    let b = std::fs::read_to_string(d.path().join("b.txt")).unwrap();
    assert_eq!(b, "0 0\n1 2\n2 5\n3 7\n4 10\n5 12\n6 15\n7 17\n8 20\n");
}

#[test]
fn divisor_and_sqrt_games_from_the_cli() {
    let d = tempfile::tempdir().unwrap();
    let v = json(
        d.path(),
        &["losers", "--game", "divisors", "--max", "1e5", "--json"],
    );
    assert_eq!(v["p_positions"], 50_001); // 0 and the odd n
    let v = json(d.path(), &["who", "--game", "sqrt", "3", "--json"]);
    assert_eq!(v["win"], true);
    assert_eq!(v["winning_move"], 1);
    let v = json(d.path(), &["who", "--game", "sqrt", "5", "--json"]);
    assert_eq!(v["win"], false);
    assert!(v["winning_move"].is_null());
    // closed form at any size: 10^18 - 1 = q² - 1 with q = 10^9 is no single range
    // (those are 2^k - 1), so it is an N-position, and so is 10^18; the count is at once
    let v = json(d.path(), &["who", "--game", "sqrt", "1e18", "--json"]);
    assert_eq!(v["method"], "closed form");
    assert_eq!(v["win"], true);
    let v = json(
        d.path(),
        &[
            "losers", "--game", "sqrt", "--max", "1e18", "--count", "--json",
        ],
    );
    let c = v["p_positions"].as_u64().unwrap();
    assert!((1_999_000_000..2_000_000_000).contains(&c), "{c}");
    // the single range q = 2^20 - 1 holds q² - 1 alone
    let q: u64 = (1 << 20) - 1;
    let p = (q * q - 1).to_string();
    let v = json(d.path(), &["who", "--game", "sqrt", &p, "--json"]);
    assert_eq!(v["win"], false);
    let v = json(d.path(), &["who", "--game", "divisors", "3", "--json"]);
    assert_eq!(v["win"], false);
    let v = json(d.path(), &["who", "--game", "squares", "17", "--json"]);
    assert_eq!(v["win"], false);
    let v = json(d.path(), &["who", "--game", "squares", "18", "--json"]);
    assert_eq!(v["win"], true);
    assert_eq!(v["winning_move"], 1);
    let v = json(d.path(), &["who", "--game", "sub{1,2,3}", "1e18", "--json"]);
    assert_eq!(v["win"], false);
}

fn png_is_drawn(p: &Path) {
    let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(p).unwrap()));
    let mut reader = dec.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (1200, 600), "{}", p.display());
    let px = &buf[..info.buffer_size()];
    let ch = info.color_type.samples();
    let non_white = px
        .chunks(ch)
        .filter(|c| c.iter().take(3).any(|&v| v < 200))
        .count();
    assert!(
        non_white > 5000,
        "{} looks blank ({non_white} drawn pixels)",
        p.display()
    );
    // Text is drawn: the title row band (top 40 px) has dark pixels.
    let top = &px[..(40 * info.width as usize * ch)];
    assert!(
        top.chunks(ch).filter(|c| c[0] < 100).count() > 100,
        "no title in {}",
        p.display()
    );
}

#[test]
fn report_writes_every_file() {
    let d = tempfile::tempdir().unwrap();
    let v = json(
        d.path(),
        &["report", "--game", "squares", "--max", "20000", "--json"],
    );
    let dir = d.path().join("reports/squares-20000");
    for f in [
        "table.parquet",
        "table.csv",
        "losers.csv",
        // (no period: gap lengths counted instead of gaps.png; the largest value, 42,
        // is below what envelope.png needs, so grundy.png stays)
        "grundy.png",
        "gap-lengths.png",
        "summary.md",
    ] {
        assert!(dir.join(f).exists(), "{f} missing");
    }
    assert_eq!(v["max_grundy"], 42); // sas_dp baseline: maxG=42 for n < 20001
    let df = read_parquet(&dir.join("table.parquet"));
    assert_eq!(df.height(), 20001);
    // OEIS A014586 (Grundy values of subtract-a-square), first terms.
    let a014586 = [
        0u64, 1, 0, 1, 2, 0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 3, 2, 3, 4, 5,
    ];
    let g = u64s(&df, "grundy");
    for (i, &x) in a014586.iter().enumerate() {
        assert_eq!(g[i], Some(x));
    }
    png_is_drawn(&dir.join("grundy.png"));
    png_is_drawn(&dir.join("gap-lengths.png"));
    let md = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(md.contains("| P-positions in 0..=N | 911 |"), "{md}");
    assert!(md.contains("largest Grundy value | 42"));
    // Nothing else is left beside the report.
    let entries: Vec<_> = std::fs::read_dir(d.path().join("reports"))
        .unwrap()
        .collect();
    assert_eq!(entries.len(), 1);
}

#[test]
fn bad_input_is_one_line_and_exit_2_with_no_file_left() {
    let d = tempfile::tempdir().unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["table", "--game", "sub{}", "--max", "10", "-o", "x.csv"],
        vec!["table", "--game", "sub{0}", "--max", "10", "-o", "x.csv"],
        vec!["table", "--game", "sub{1,-2}", "--max", "10", "-o", "x.csv"],
        vec!["table", "--game", "squares(", "--max", "10", "-o", "x.csv"],
        vec!["table", "--game", "foo", "--max", "10", "-o", "x.csv"],
        vec!["table", "--game", "squares", "--max", "-5", "-o", "x.csv"],
        vec!["table", "--game", "squares", "--max", "1e40", "-o", "x.csv"],
        vec![
            "table",
            "--game",
            "squares",
            "--max",
            "10",
            "-o",
            "no/such/dir/x.csv",
        ],
        vec![
            "losers",
            "--game",
            "squares",
            "--max",
            "10",
            "-o",
            "no/such/dir/x.csv",
        ],
        vec![
            "losers", "--game", "squares", "--max", "10", "-o", "x.weird",
        ],
        vec![
            "report",
            "--game",
            "squares",
            "--max",
            "10",
            "-o",
            "/proc/heaplab-report",
        ],
        vec!["table", "--game", "squares", "--max", "1e15"],
        // a quotient with no period proof to a heap past a day's work
        vec!["quotient", "--game", "0.F", "--max", "1e6"],
        vec!["who", "--game", "squares", "1e18"],
        // Years of work, refused up front.
        vec!["who", "--game", "primes", "1e9"],
        vec!["losers", "--game", "primes", "--max", "1e9", "--count"],
        vec![
            "table",
            "--game",
            "practical",
            "--max",
            "1e9",
            "--grundy",
            "-o",
            "x.csv",
        ],
        // formats that cannot hold a table, refused before any work
        vec![
            "table", "--game", "squares", "--max", "10", "--format", "bfile",
        ],
        // remoteness of a game whose moves split a heap; birthday of a coin-turning game;
        // a remoteness table too long for a day
        vec![
            "table",
            "--game",
            "0.77",
            "--max",
            "10",
            "--remoteness",
            "-o",
            "x.csv",
        ],
        vec![
            "table",
            "--game",
            "ruler",
            "--max",
            "10",
            "--birthday",
            "-o",
            "x.csv",
        ],
        vec![
            "table",
            "--game",
            "nim",
            "--max",
            "1e8",
            "--remoteness",
            "-o",
            "x.csv",
        ],
        vec![
            "sweep", "--game", "sub{1,k}", "--param", "k=2..3", "--max", "100", "-o", "s.txt",
        ],
        // an unwritable checkpoint fails up front
        vec![
            "losers",
            "--game",
            "squares",
            "--max",
            "1e6",
            "-o",
            "x.csv",
            "--checkpoint",
            "no/such/dir/cp",
        ],
        // claims that would reach out of their expression
        vec![
            "check",
            "--game",
            "squares",
            "--max",
            "10",
            "--claim",
            "n = 1) OR (n = 2",
        ],
        vec!["check", "--game", "squares", "--max", "10", "--claim", ""],
        // a format for rows that are not written
        vec![
            "losers", "--game", "squares", "--max", "100", "--count", "--format", "parquet",
        ],
        // more rows than the disk holds (2.5e13 P-positions)
        vec![
            "losers", "--game", "upto{3}", "--max", "1e14", "-o", "x.csv",
        ],
        // options of other plot kinds
        vec![
            "plot", "--game", "squares", "--max", "100", "--kind", "grundy", "--width", "5", "-o",
            "x.png",
        ],
        vec![
            "plot", "--game", "squares", "--max", "100", "--kind", "fold", "--log", "-o", "x.png",
        ],
        vec![
            "plot", "--game", "squares", "--max", "100", "--kind", "gaps", "--values", "outcome",
            "-o", "x.png",
        ],
        vec![
            "stone-check",
            "--variant",
            "1",
            "--len",
            "2..3",
            "--values",
            "1..2",
            "--claim",
            "true",
            "--seed",
            "5",
        ],
        // stone checks beyond a day of work, or rows beyond a solver's cap
        vec![
            "stone-check",
            "--variant",
            "1",
            "--len",
            "2..10",
            "--values",
            "1..5",
            "--claim",
            "true",
            "--random",
            "1e15",
        ],
        vec![
            "stone-check",
            "--variant",
            "2",
            "--len",
            "5000",
            "--values",
            "1..5",
            "--claim",
            "true",
            "--random",
            "1",
        ],
    ];
    for args in cases {
        let o = heaplab(d.path(), &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        let left: Vec<_> = std::fs::read_dir(d.path()).unwrap().collect();
        assert!(left.is_empty(), "{args:?} left {left:?}");
    }
    let o = heaplab(d.path(), &["table", "--game", "foo", "--max", "10"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("unknown game family `foo`"), "{err}");
    let o = heaplab(d.path(), &["table", "--game", "squares", "--max", "1e40"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("too large"));
    let o = heaplab(d.path(), &["table", "--game", "squares", "--max", "-5"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("negative"));
    let deep = format!("{}squares{}", "leave1(".repeat(14_000), ")".repeat(14_000));
    let o = heaplab(d.path(), &["who", "--game", &deep, "10"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nested"));
    // an offset that overflows names the first P-position it cannot label, on stdout as
    // in a file (an argument's fault, not a failure to write), and leaves no file
    for out in [&["-o", "x.txt"][..], &[][..]] {
        let mut args = vec![
            "losers",
            "--game",
            "squares",
            "--offset",
            "18446744073709551614",
            "--max",
            "10",
        ];
        args.extend_from_slice(out);
        let o = heaplab(d.path(), &args);
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(
            err.trim_end(),
            "error: --offset 18446744073709551614: P-position 5 would get index \
             2 + 18446744073709551614, past 2^64 - 1"
        );
        assert!(!d.path().join("x.txt").exists());
    }
    // --play on a game beyond one heap names --play, whether the game is --game or a sum
    for args in [
        &["who", "--play", "misere", "--game", "wythoff", "3,5"][..],
        &["who", "--play", "misere", "wythoff:3,5 + 0.77:3"][..],
    ] {
        let o = heaplab(d.path(), args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.starts_with("error: --play: ") && err.contains("normal play only"),
            "{args:?}: {err}"
        );
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
    // misère values beyond reach suggest outcomes only where those fit
    for (max, advised) in [("1e5", true), ("3e10", false)] {
        let args = [
            "analyze", "--game", "0.75", "--play", "misere", "--max", max,
        ];
        let o = heaplab(d.path(), &args);
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(
            err.contains("`--values outcome` analyses"),
            advised,
            "{err}"
        );
    }
    let o = heaplab(d.path(), &["who", "--game", "primes", "1e9"]);
    let err = String::from_utf8_lossy(&o.stderr);
    // refused with the largest n this machine accepts
    assert!(
        err.contains("no shortcut") && err.contains("use n <="),
        "{err}"
    );
}

#[test]
fn interrupted_runs_leave_no_temporary_files() {
    let d = tempfile::tempdir().unwrap();
    for args in [
        &[
            "losers", "--game", "squares", "--max", "1e10", "-o", "l.csv",
        ][..],
        &["report", "--game", "squares", "--max", "1e8", "-o", "rep"][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_heaplab"))
            .args(args)
            .current_dir(d.path())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // wait until the temporary output exists, then interrupt
        let t = std::time::Instant::now();
        while std::fs::read_dir(d.path()).unwrap().count() == 0 && t.elapsed().as_secs() < 30 {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
        // SAFETY: sends SIGINT to our own child process.
        unsafe {
            libc::kill(child.id() as i32, libc::SIGINT);
        }
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(130), "{args:?}");
        let left: Vec<_> = std::fs::read_dir(d.path()).unwrap().collect();
        assert!(left.is_empty(), "{args:?} left {left:?}");
    }
}

#[test]
fn a_full_stdout_is_a_one_line_error() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // not on this system
    };
    let d = tempfile::tempdir().unwrap();
    for args in [
        &["who", "--game", "squares", "100"][..],
        &["games"][..],
        &["stone", "--variant", "1", "--piles", "5,3,4,5"][..],
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_heaplab"))
            .args(args)
            .current_dir(d.path())
            .stdout(full.try_clone().unwrap())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("cannot write to stdout"), "{args:?}: {err}");
    }
}

#[test]
fn closed_forms_answer_at_once() {
    let d = tempfile::tempdir().unwrap();
    // the Bash game: P-positions are the multiples of 4
    let v = json(
        d.path(),
        &["who", "--game", "upto{3}", "1000000000003", "--json"],
    );
    assert_eq!(v["win"], true);
    assert_eq!(v["winning_move"], 3);
    assert_eq!(v["method"], "arithmetic progression");
    let v = json(
        d.path(),
        &[
            "losers", "--game", "upto{3}", "--max", "1e12", "--count", "--json",
        ],
    );
    assert_eq!(v["p_positions"], 250_000_000_001u64);
    assert_eq!(v["largest_p"], 1_000_000_000_000u64);
    // far beyond any sieve: still a closed form, not refused as too much work
    let v = json(
        d.path(),
        &[
            "losers", "--game", "upto{3}", "--max", "1e18", "--count", "--json",
        ],
    );
    assert_eq!(v["p_positions"], 250_000_000_000_000_001u64);
    // subtract-only-one-huge-amount: every small heap is a P-position
    let v = json(
        d.path(),
        &["who", "--game", "sub{1000000000000}", "10", "--json"],
    );
    assert_eq!(v["win"], false);
    // one-heap Nim to 10^15: the only P-position is 0
    let v = json(
        d.path(),
        &[
            "losers", "--game", "nim", "--max", "1e15", "--count", "--json",
        ],
    );
    assert_eq!(
        (v["p_positions"].as_u64(), v["largest_p"].as_u64()),
        (Some(1), Some(0))
    );
    // --count with -o still writes the file
    let v = json(
        d.path(),
        &[
            "losers",
            "--game",
            "sub{1,2,3}",
            "--max",
            "20",
            "--count",
            "-o",
            "l.csv",
            "--json",
        ],
    );
    assert_eq!(v["p_positions"], 6);
    let df = read_csv(&d.path().join("l.csv"));
    assert_eq!(u64s(&df, "p"), [0, 4, 8, 12, 16, 20].map(Some).to_vec());
}

#[test]
fn quiet_leaves_stderr_empty() {
    let d = tempfile::tempdir().unwrap();
    let o = heaplab(
        d.path(),
        &["--quiet", "losers", "--game", "squares", "--max", "1000"],
    );
    assert!(o.status.success());
    assert!(o.stderr.is_empty());
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("k,p,gap\n0,0,\n1,2,2\n"));
}

/// Runs `args` in `dir`, kills it with SIGKILL once `cp` exists, and returns whether it was
/// still running then (so the resume path is really exercised).
fn kill_after_checkpoint(dir: &Path, args: &[&str], cp: &Path) -> bool {
    let mut child = Command::new(env!("CARGO_BIN_EXE_heaplab"))
        .args(args)
        .current_dir(dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t = std::time::Instant::now();
    while !cp.exists() && t.elapsed().as_secs() < 60 {
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // kill soon after the first checkpoint: the squares sieve is fast enough to finish
    // 6e7 positions within half a second
    std::thread::sleep(std::time::Duration::from_millis(30));
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    running
}

#[test]
fn killed_runs_resume_to_identical_output() {
    let d = tempfile::tempdir().unwrap();
    // (rows labelled with --offset and --shift resume as well)
    let labels: &[&str] = &["--offset", "1", "--shift", "2"];
    for (game, max, out, extra) in [
        ("squares", "6e7", "sq.csv", &[][..]),
        ("squares", "6e7", "sq.parquet", &[][..]),
        ("squares", "6e7", "sq.txt", &[][..]),
        ("sub{1,3,4}", "3e7", "s.csv", &[][..]),
        ("squares", "6e7", "lab.txt", labels),
        ("squares", "6e7", "lab.csv", labels),
    ] {
        let reference = format!("ref-{out}");
        let base = ["losers", "--game", game, "--max", max, "-o", &reference];
        ok(d.path(), &[&base[..], extra].concat());
        let cp = d.path().join(format!("{out}.ckpt"));
        let cp_s = cp.to_str().unwrap().to_string();
        let args = [
            &[
                "losers",
                "--game",
                game,
                "--max",
                max,
                "-o",
                out,
                "--checkpoint",
                &cp_s,
                "--checkpoint-every",
                "0.1",
            ][..],
            extra,
        ]
        .concat();
        let mut kills = 0;
        while kill_after_checkpoint(d.path(), &args, &cp) {
            kills += 1;
            assert!(
                !d.path().join(out).exists(),
                "{out} must not appear before the end"
            );
            if kills == 2 {
                break;
            }
        }
        assert!(
            kills >= 1,
            "{game} {out}: the run ended before it could be killed"
        );
        // Resume to the end.
        ok(d.path(), &args);
        assert!(!cp.exists(), "the checkpoint is removed at the end");
        let a = std::fs::read(d.path().join(out)).unwrap();
        let b = std::fs::read(d.path().join(&reference)).unwrap();
        assert!(
            a == b,
            "{game} {out}: resumed output differs ({} vs {} bytes)",
            a.len(),
            b.len()
        );
        let left: Vec<_> = std::fs::read_dir(d.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .filter(|n| n.contains(".partial") || n.contains(".spool"))
            .collect();
        assert!(left.is_empty(), "left behind: {left:?}");
    }
    // A checkpoint of another run is refused.
    let cp = d.path().join("other.ckpt");
    let cp_s = cp.to_str().unwrap().to_string();
    kill_after_checkpoint(
        d.path(),
        &[
            "losers",
            "--game",
            "squares",
            "--max",
            "3e7",
            "-o",
            "o.csv",
            "--checkpoint",
            &cp_s,
            "--checkpoint-every",
            "0.1",
        ],
        &cp,
    );
    let o = heaplab(
        d.path(),
        &[
            "losers",
            "--game",
            "cubes",
            "--max",
            "3e7",
            "-o",
            "o.csv",
            "--checkpoint",
            &cp_s,
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("belongs to another run"));
    let o = heaplab(
        d.path(),
        &[
            "losers",
            "--game",
            "squares",
            "--max",
            "100",
            "--checkpoint",
            "x.ckpt",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn analyze_finds_the_published_periods() {
    let d = tempfile::tempdir().unwrap();
    // (spec, N, preperiod, period, saltus, certified)
    let cases: [(&str, &str, u64, u64, i64, bool); 12] = [
        ("0.77", "200", 71, 12, 0, true), // Kayles: proven by N = 200 (Guy–Smith)
        ("0.137", "1000", 52, 34, 0, true),
        ("0.07", "1000", 53, 34, 0, true),
        ("sub{2,3,7}", "200", 0, 5, 0, true),
        ("sub{1,3,4}", "200", 0, 7, 0, true),
        ("sub{2,5,7}", "300", 0, 22, 0, true),
        ("sub{1,2}", "100", 0, 3, 0, true),
        ("sub{1,3}", "100", 0, 2, 0, true),
        ("sub{1,2,5}", "100", 0, 3, 0, true), // the smallest period, never a multiple
        ("0.3F", "300", 0, 6, 3, false),
        ("allbut{2,3,7}", "300", 0, 4, 2, false),
        ("kayles", "166", 71, 12, 0, false), // seen (N + 1 >= 2·71 + 2·12), but Guy–Smith needs N >= 168
    ];
    for (spec, max, n0, p, s, cert) in cases {
        let v = json(
            d.path(),
            &["analyze", "--game", spec, "--max", max, "--json"],
        );
        let per = &v["periodicity"];
        assert_eq!(per["preperiod"], n0, "{spec}");
        assert_eq!(per["period"], p, "{spec}");
        assert_eq!(per["saltus"], s, "{spec}");
        assert_eq!(per["certified"], cert, "{spec}: {}", per["certificate"]);
        assert_eq!(
            per["last_exception"],
            if n0 == 0 {
                serde_json::Value::Null
            } else {
                (n0 - 1).into()
            }
        );
    }
    let v = json(
        d.path(),
        &["analyze", "--game", "squares", "--max", "1e6", "--json"],
    );
    assert!(v["periodicity"].is_null());
    assert_eq!(v["p_positions"]["count"], 13952);
    assert_eq!(v["grundy"]["max"], 168);
    assert_eq!(v["grundy"]["first_occurrence"][0], 0);
    let alpha = v["p_positions"]["alpha"].as_f64().unwrap();
    assert!((0.66..0.74).contains(&alpha), "{alpha}");
    // tables in a folder
    let out = ok(
        d.path(),
        &[
            "analyze",
            "--game",
            "sub{1,3,4}",
            "--max",
            "500",
            "-o",
            "an",
        ],
    );
    assert!(out.contains("period 7"), "{out}");
    for t in [
        "gap_records",
        "gap_histogram",
        "residues",
        "grundy_values",
        "run_lengths",
        "longest_runs",
    ] {
        assert!(d.path().join(format!("an/{t}.csv")).exists(), "{t}");
        assert!(d.path().join(format!("an/{t}.parquet")).exists(), "{t}");
    }
    let res = read_csv(&d.path().join("an/residues.csv"));
    assert_eq!(res.height(), (2..=12).sum::<usize>());
    // Into a new nested folder through a dangling link (the folder it names is made), with
    // a file of the user's beside the tables left alone; a file is not a folder.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("made/here", d.path().join("link")).unwrap();
        ok(
            d.path(),
            &["analyze", "--game", "sub{1,2}", "--max", "50", "-o", "link"],
        );
        assert!(d.path().join("made/here/residues.parquet").exists());
        std::fs::write(d.path().join("made/here/notes.txt"), "mine").unwrap();
        ok(
            d.path(),
            &["analyze", "--game", "sub{1,3}", "--max", "50", "-o", "link"],
        );
        assert_eq!(
            std::fs::read_to_string(d.path().join("made/here/notes.txt")).unwrap(),
            "mine"
        );
        let o = heaplab(
            d.path(),
            &[
                "analyze",
                "--game",
                "sub{1,2}",
                "--max",
                "50",
                "-o",
                "made/here/notes.txt",
            ],
        );
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("exists and is not a folder") && err.lines().count() == 1,
            "{err}"
        );
    }
}

#[test]
fn sweep_rows_equal_single_analyses() {
    let d = tempfile::tempdir().unwrap();
    let v = json(
        d.path(),
        &[
            "sweep",
            "--game",
            "sub{1,2,k}",
            "--param",
            "k=3..9",
            "--max",
            "400",
            "--json",
            "-o",
            "sw.csv",
        ],
    );
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 7);
    for row in rows {
        let k = row["k"].as_u64().unwrap();
        let a = json(
            d.path(),
            &[
                "analyze",
                "--game",
                &format!("sub{{1,2,{k}}}"),
                "--max",
                "400",
                "--json",
            ],
        );
        assert_eq!(row["preperiod"], a["periodicity"]["preperiod"], "k={k}");
        assert_eq!(row["period"], a["periodicity"]["period"], "k={k}");
        assert_eq!(row["saltus"], a["periodicity"]["saltus"], "k={k}");
        assert_eq!(row["certified"], a["periodicity"]["certified"], "k={k}");
        assert_eq!(row["p_positions"], a["p_positions"]["count"], "k={k}");
        assert_eq!(row["max_grundy"], a["grundy"]["max"], "k={k}");
    }
    let df = read_csv(&d.path().join("sw.csv"));
    let cols: Vec<String> = df
        .get_column_names()
        .iter()
        .map(|c| c.to_string())
        .collect();
    assert_eq!(cols[0], "k");
    for c in [
        "preperiod",
        "period",
        "saltus",
        "certified",
        "p_positions",
        "max_grundy",
    ] {
        assert!(cols.contains(&c.to_string()), "{c}");
    }
    let o = heaplab(
        d.path(),
        &[
            "sweep",
            "--game",
            "sub{1,2,k}",
            "--param",
            "j=3..5",
            "--max",
            "10",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn who_answers_far_positions_from_proven_periods() {
    let d = tempfile::tempdir().unwrap();
    let v = json(d.path(), &["who", "--game", "0.77", "1e18", "--json"]);
    // Kayles' period 12 from 71: 4,1,2,8,1,4,7,2,1,8,2,7 at n ≡ 0..11 (mod 12) for n >= 72
    let expect = [4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7][(1_000_000_000_000_000_000u64 % 12) as usize];
    assert_eq!(v["grundy"], expect);
    assert_eq!(v["win"], true);
    assert!(v["method"].as_str().unwrap().contains("proven"));
    // the winning move: a number of tokens removed (as for every game) and the heaps left,
    // which add up with it to n
    let removed = v["winning_move"].as_u64().unwrap();
    let leaves: Vec<u64> = v["leaves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_u64().unwrap())
        .collect();
    assert!((1..=2).contains(&removed) && leaves.len() <= 2, "{v}");
    assert_eq!(
        removed + leaves.iter().sum::<u64>(),
        1_000_000_000_000_000_000
    );
    let v = json(d.path(), &["who", "--game", "squares", "1000", "--json"]);
    assert_eq!(
        (&v["winning_move"], &v["leaves"]),
        (&json!(400), &json!([600]))
    );
    let v = json(d.path(), &["who", "--game", "sub{1,3,4}", "1e18", "--json"]);
    assert_eq!(
        v["grundy"],
        [0, 1, 0, 1, 2, 3, 2][(1_000_000_000_000_000_000u64 % 7) as usize]
    );
    // divisors: odd heaps lose (parity), by the table below 2^22 and by the argument above
    for (n, win) in [
        ("4194303", false),
        ("4194304", true),
        ("1000000000000000001", false),
    ] {
        let v = json(d.path(), &["who", "--game", "divisors", n, "--json"]);
        assert_eq!(v["win"], win, "{n}");
        if win {
            assert_eq!(v["winning_move"], 1);
        }
    }
    let v = json(d.path(), &["who", "--game", "divisors", "1e18", "--json"]);
    assert_eq!(
        (v["win"].as_bool(), v["winning_move"].as_u64()),
        (Some(true), Some(1))
    );
}

#[test]
fn check_claims_from_the_readme() {
    let d = tempfile::tempdir().unwrap();
    let cases: [(&str, &str, &str, &str, bool); 5] = [
        ("sub{1,2,3}", "1e6", "table", "win = (n % 4 <> 0)", true),
        (
            "divisors",
            "1e5",
            "table",
            "n = 0 OR win = (n % 2 = 0)",
            true,
        ),
        ("divisors", "1e5", "table", "n = 0 OR grundy = v2(n)", true),
        (
            "sqrt",
            "1e12",
            "losers",
            "k = 0 OR gap = floor((1 + isqrt(1 + 4 * prev)) / 2) + 1",
            true,
        ),
        (
            "squares",
            "1e4",
            "table",
            "n = 0 OR win = is_square(n)",
            false,
        ),
    ];
    for (game, max, on, claim, holds) in cases {
        let o = heaplab(
            d.path(),
            &[
                "check", "--game", game, "--max", max, "--on", on, "--claim", claim, "--json",
            ],
        );
        assert_eq!(o.status.code(), Some(if holds { 0 } else { 1 }), "{claim}");
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["holds"], holds, "{claim}");
        if !holds {
            assert_eq!(v["counterexamples"][0]["n"], 3);
            assert_eq!(v["counterexamples"].as_array().unwrap().len(), 10);
        } else {
            assert_eq!(v["failures"], 0);
        }
    }
    for (claim, msg) in [
        ("foo = 1", "unknown column `foo`"),
        ("n = = 1", "invalid claim"),
        ("n + 1", "true/false"),
        ("win <> 'abc'", "string literal at column 8"),
    ] {
        let o = heaplab(
            d.path(),
            &[
                "check", "--game", "squares", "--max", "100", "--claim", claim,
            ],
        );
        assert_eq!(o.status.code(), Some(2), "{claim}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(msg), "{err}");
    }
}

#[test]
fn stone_games_solve_and_check_claims() {
    let d = tempfile::tempdir().unwrap();
    let v = json(
        d.path(),
        &["stone", "--variant", "1", "--piles", "5,3,4,5", "--json"],
    );
    assert_eq!(v["winner"], "first");
    let v = json(
        d.path(),
        &["stone", "--variant", "2", "--piles", "2,7,9,4,4", "--json"],
    );
    assert_eq!(v["first_total"], 10);
    for (piles, winner) in [
        ("1,2,3,7", "second"),
        ("1,2,3,-9", "first"),
        ("1,2,3,6", "tie"),
    ] {
        let v = json(
            d.path(),
            &["stone", "--variant", "3", "--piles", piles, "--json"],
        );
        assert_eq!(v["winner"], winner, "{piles}");
        for k in ["variant", "first_total", "second_total", "margin"] {
            assert!(!v[k].is_null(), "{k}");
        }
    }
    let v = json(
        d.path(),
        &[
            "stone",
            "--variant",
            "1",
            "--piles",
            "5,3,4,5",
            "--line",
            "--json",
        ],
    );
    assert_eq!(v["line"].as_array().unwrap().len(), 4);
    // Sizes beyond the usual limits.
    let big: Vec<String> = (0..500)
        .map(|i| ((i * 7919) % 97 + 1).to_string())
        .collect();
    json(
        d.path(),
        &[
            "stone",
            "--variant",
            "1",
            "--piles",
            &big.join(","),
            "--json",
        ],
    );
    let big3: Vec<String> = (0..50_000)
        .map(|i| ((i * 7919) % 201) as i64 - 100)
        .map(|x| x.to_string())
        .collect();
    std::fs::write(d.path().join("row.txt"), big3.join("\n")).unwrap();
    json(
        d.path(),
        &["stone", "--variant", "3", "--piles", "@row.txt", "--json"],
    );
    let big2: Vec<String> = (0..100)
        .map(|i| ((i * 7919) % 97 + 1).to_string())
        .collect();
    json(
        d.path(),
        &[
            "stone",
            "--variant",
            "2",
            "--piles",
            &big2.join(","),
            "--json",
        ],
    );

    let parity = "NOT (len % 2 = 0 AND sum % 2 = 1) OR winner = 'first'";
    let v = json(
        d.path(),
        &[
            "stone-check",
            "--variant",
            "1",
            "--len",
            "2..8",
            "--values",
            "1..5",
            "--claim",
            parity,
            "--json",
        ],
    );
    assert_eq!(v["holds"], true);
    let o = heaplab(
        d.path(),
        &[
            "stone-check",
            "--variant",
            "1",
            "--len",
            "2..6",
            "--values",
            "1..5",
            "--claim",
            "winner = 'first'",
            "--json",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["counterexample"]["piles"], serde_json::json!([1, 1])); // shortest, then least
    for bad in ["", "1,,2", "1,x"] {
        let o = heaplab(d.path(), &["stone", "--variant", "3", "--piles", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        assert_eq!(
            String::from_utf8_lossy(&o.stderr)
                .trim_end()
                .lines()
                .count(),
            1
        );
    }
}

/// Decodes a PNG: (width, height, RGB bytes, iTXt chunks).
fn decode_png(p: &Path) -> (u32, u32, Vec<u8>, Vec<(String, String)>) {
    let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(p).unwrap()));
    let mut reader = dec.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb, "{}", p.display());
    buf.truncate(info.buffer_size());
    let texts = reader
        .info()
        .utf8_text
        .iter()
        .map(|t| (t.keyword.clone(), t.get_text().unwrap()))
        .collect();
    (info.width, info.height, buf, texts)
}

#[test]
fn reports_draw_every_plot_with_titles() {
    let d = tempfile::tempdir().unwrap();
    // the plots each game gets, chosen by what it is: periodic games lead with the fold
    // map and have no density or growth; runs only when a run is longer than one
    for (game, max, shown, kinds) in [
        // no period: the values over their fitted envelope, and the gap lengths counted
        (
            "squares",
            "1e6",
            "1000000",
            vec!["envelope", "growth", "density", "gap-lengths", "values"],
        ),
        ("0.77", "1000", "1000", vec!["fold", "grundy", "values"]),
        (
            "sqrt",
            "1e5",
            "100000",
            vec!["envelope", "growth", "density", "gap-lengths", "values"],
        ),
        // P-positions 0 and 3·2^k − 1: too few gaps to count, so gaps against the index
        (
            "half|sub{1}",
            "1e5",
            "100000",
            vec!["envelope", "growth", "density", "gaps", "values"],
        ),
        (
            "sub{1,3,4}",
            "200",
            "200",
            vec!["fold", "grundy", "gaps", "values"],
        ),
        (
            "0.07",
            "1000",
            "1000",
            vec!["fold", "grundy", "gaps", "values", "runs"],
        ),
        // g(n) = n: period 1 with saltus 1, folded; one P-position, so no gaps
        (
            "nim",
            "1000",
            "1000",
            vec!["grundy", "growth", "density", "values", "fold"],
        ),
    ] {
        let v = json(
            d.path(),
            &["report", "--game", game, "--max", max, "--json"],
        );
        let dir = std::path::PathBuf::from(v["dir"].as_str().unwrap());
        let dir = d.path().join(dir);
        let canon = v["game"].as_str().unwrap().to_string();
        let summary = std::fs::read_to_string(dir.join("summary.md")).unwrap();
        let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
        // shown in this order, each with a caption; every other plot named as left out
        let at: Vec<usize> = kinds
            .iter()
            .map(|k| html.find(&format!("<img src=\"{k}.png\"")).expect(k))
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{game}: order");
        for k in [
            "grundy",
            "growth",
            "fold",
            "density",
            "gaps",
            "runs",
            "values",
            "envelope",
            "gap-lengths",
        ] {
            // (envelope and gap-lengths stand in for grundy and gaps, which say so)
            if !kinds.contains(&k) {
                assert!(!dir.join(format!("{k}.png")).exists(), "{game}: {k}.png");
                assert!(
                    ["envelope", "gap-lengths"].contains(&k)
                        || summary.contains(&format!("{k}.png")),
                    "{game}: {k} {summary}"
                );
            }
        }
        if v["p_positions"].as_u64().unwrap() < 2 {
            assert!(
                summary.contains("gaps.png: not drawn, there is one P-position"),
                "{summary}"
            );
        }
        for k in kinds {
            let p = dir.join(format!("{k}.png"));
            assert!(p.exists(), "{game}: {k}.png missing");
            assert!(
                std::fs::metadata(&p).unwrap().len() < 2 << 20,
                "{game} {k}: over 2 MB"
            );
            let (w, h, px, texts) = decode_png(&p);
            assert_eq!((w, h), (1200, 600));
            let title = &texts.iter().find(|t| t.0 == "Title").expect("title").1;
            assert!(
                title.contains(&canon) && title.contains(shown),
                "{game} {k}: {title}"
            );
            let drawn = px.chunks(3).filter(|c| c.iter().any(|&v| v < 200)).count();
            assert!(drawn > 3000, "{game} {k}: blank ({drawn} pixels)");
            // the title band has text
            let band = &px[..40 * w as usize * 3];
            assert!(
                band.chunks(3).filter(|c| c[0] < 100).count() > 100,
                "{game} {k}: no title drawn"
            );
        }
        assert!(html.contains("href=\"table.parquet\"") && html.contains("<figcaption>"));
    }
}

#[test]
fn reports_state_growth_laws_and_plots_for_games_without_a_period() {
    let d = tempfile::tempdir().unwrap();
    let report = |game: &str, max: &str| {
        let v = json(
            d.path(),
            &["report", "--game", game, "--max", max, "--json"],
        );
        let dir = d.path().join(v["dir"].as_str().unwrap());
        (
            std::fs::read_to_string(dir.join("summary.md")).unwrap(),
            std::fs::read_to_string(dir.join("index.html")).unwrap(),
        )
    };
    // subtract-a-square to 10^6: both exponents, as measured (values ≈ 1.33·n^0.350,
    // P-positions ≈ 0.97·n^0.692)
    let (md, _) = report("squares", "1e6");
    assert!(
        md.contains("growth: count(≤ n) ≈ 0.9715·n^0.6915, a power law"),
        "{md}"
    );
    assert!(
        md.contains(
            "value growth: the largest Grundy value up to n ≈ 1.3337·n^0.3496, a power law"
        ),
        "{md}"
    );
    // growth.png and density.png captions name the law drawn over the data
    assert!(md.contains("the largest value ≈ 1.3337·n^0.3496 (a power law, α = 0.3496)"));
    assert!(md.contains("count(≤ n) ≈ 0.9715·n^0.6915 (a power law, α = 0.6915)"));
    // squares to 10^5 has no period: the choice of plots is made and said
    let (md, html) = report("squares", "1e5");
    for page in [&md, &html] {
        assert!(
            page.contains("grundy.png: not drawn, there is no period and the values grow"),
            "{page}"
        );
        assert!(
            page.contains("so envelope.png shows them divided by it instead"),
            "{page}"
        );
        assert!(
            page.contains("gaps.png: not drawn, there is no period and 2780 gaps"),
            "{page}"
        );
    }
    assert!(md.contains("![envelope.png](envelope.png)") && !md.contains("![grundy.png]"));
    assert!(md.contains("![gap-lengths.png](gap-lengths.png)") && !md.contains("![gaps.png]"));
    // half|sub{1}: exponential P-positions, ratio 2
    let (md, _) = report("half|sub{1}", "1e6");
    assert!(
        md.contains("growth: exponential, the k-th P-position ≈ 1.4977·2.0002^k"),
        "{md}"
    );
    assert!(
        md.contains("(logarithmic: the P-positions grow exponentially, the k-th ≈ 1.498·2.0002^k)")
    );
    // and in analyze --json
    let v = json(
        d.path(),
        &["analyze", "--game", "half|sub{1}", "--max", "1e6", "--json"],
    );
    let g = &v["p_positions"]["growth"];
    assert_eq!(g["law"], "logarithmic");
    assert!(v["p_positions"]["alpha"].is_null());
    let r = (1.0 / g["b"].as_f64().unwrap()).exp();
    assert!((r - 2.0).abs() < 0.01, "{r}");
    assert_eq!(v["grundy"]["growth"]["law"], "power");
    // the new kinds from `plot`, and a refusal where there is no envelope
    ok(
        d.path(),
        &[
            "plot", "--game", "squares", "--max", "1e4", "--kind", "envelope", "-o", "e.png",
        ],
    );
    png_is_drawn(&d.path().join("e.png"));
    ok(
        d.path(),
        &[
            "plot",
            "--game",
            "squares",
            "--max",
            "1e4",
            "--kind",
            "gap-lengths",
            "-o",
            "l.png",
        ],
    );
    png_is_drawn(&d.path().join("l.png"));
    let out = heaplab(
        d.path(),
        &[
            "plot", "--game", "0.77", "--max", "1000", "--kind", "envelope", "-o", "k.png",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("the envelope plot needs"), "{err}");
    assert!(!d.path().join("k.png").exists());
}

/// A fold map PNG: its width, RGB pixels and the layout the plot records in its
/// `heaplab:fold` text chunk (x0, y0, cell width, cell height, fold width, rows).
fn fold_png(p: &Path) -> (u32, Vec<u8>, Vec<usize>) {
    let (w, _, px, texts) = decode_png(p);
    let layout = &texts.iter().find(|t| t.0 == "heaplab:fold").unwrap().1;
    let f = layout.split(',').map(|x| x.parse().unwrap()).collect();
    (w, px, f)
}

#[test]
fn kayles_fold_map_shows_vertical_stripes() {
    let d = tempfile::tempdir().unwrap();
    ok(
        d.path(),
        &[
            "plot", "--game", "0.77", "--max", "1000", "--kind", "fold", "--width", "12", "-o",
            "fold.png",
        ],
    );
    let (w, px, f) = fold_png(&d.path().join("fold.png"));
    let (x0, y0, cw, ch, width, rows) = (f[0], f[1], f[2], f[3], f[4], f[5]);
    assert_eq!(width, 12);
    assert!(rows >= 80);
    let colour = |r: usize, c: usize| {
        let (x, y) = (x0 + c * cw + cw / 2, y0 + r * ch + ch / 2);
        let i = (y * w as usize + x) * 3;
        (px[i], px[i + 1], px[i + 2])
    };
    // Kayles is periodic with period 12 from n = 71 (row 5, column 11): from row 6 on every
    // column keeps one colour — straight vertical stripes.
    for c in 0..12 {
        for r in 6..rows - 1 {
            assert_eq!(colour(r, c), colour(6, c), "row {r} column {c}");
        }
    }
    // ... and the first rows are not all like that (the preperiod shows).
    assert!((0..12).any(|c| colour(0, c) != colour(6, c)));
    // other plot kinds and bad sizes
    ok(
        d.path(),
        &[
            "plot", "--game", "squares", "--max", "1e5", "--kind", "gaps", "--log", "--size",
            "800x400", "-o", "g.png",
        ],
    );
    let (w, h, px, _) = decode_png(&d.path().join("g.png"));
    assert_eq!(w, 800);
    // the early P-positions (left half of the log axis) are drawn too, not only the tail
    let blue = (0..h as usize)
        .flat_map(|y| (100..400usize).map(move |x| (y * w as usize + x) * 3))
        .filter(|&i| px[i..i + 3] == [31, 119, 180])
        .count();
    assert!(blue > 100, "{blue} blue pixels in the left half");
    // sizes whose last log bin used to come out empty (a panic)
    for max in ["100", "1e4", "2e4"] {
        ok(
            d.path(),
            &[
                "plot", "--game", "squares", "--max", max, "--kind", "gaps", "--log", "-o",
                "g2.png",
            ],
        );
    }
    let o = heaplab(
        d.path(),
        &[
            "plot", "--game", "squares", "--max", "100", "--kind", "gaps", "--size", "10x10", "-o",
            "x.png",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(!d.path().join("x.png").exists());
    // a fold wider than the plot area draws the columns that fit, at once
    ok(
        d.path(),
        &[
            "plot", "--game", "0.77", "--max", "1000", "--kind", "fold", "--width", "1e8", "-o",
            "wide.png",
        ],
    );
    let (w, px, f) = fold_png(&d.path().join("wide.png"));
    // (a fold wider than the table is one row of the table: 1001 columns)
    assert_eq!((f[2], f[4], f[5]), (1, 1001, 1), "{f:?}");
    // the widest fold there is, too (it used to loop over 2^64 columns)
    ok(
        d.path(),
        &[
            "plot",
            "--game",
            "0.77",
            "--max",
            "1000",
            "--kind",
            "fold",
            "--width",
            "18446744073709551615",
            "-o",
            "widest.png",
        ],
    );
    assert_eq!(fold_png(&d.path().join("widest.png")).2[4], 1001);
    // the one row is drawn across the area: cells at its start and end are coloured
    let y = f[1];
    for x in [f[0], w as usize - 200] {
        let i = (y * w as usize + x) * 3;
        assert_ne!(&px[i..i + 3], &[255, 255, 255], "pixel {x}");
    }
}

#[test]
fn finite_set_counts_come_from_the_period_and_pipes_end_quietly() {
    let d = tempfile::tempdir().unwrap();
    let o = heaplab(
        d.path(),
        &[
            "losers",
            "--game",
            "sub{1,2,3}",
            "--max",
            "1e12",
            "--count",
            "--json",
        ],
    );
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["p_positions"], 250_000_000_001u64);
    assert_eq!(v["largest_p"], 1_000_000_000_000u64);
    let o = heaplab(d.path(), &["games", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v.as_array().unwrap().iter().any(|g| g["spec"] == "squares"));
    // A reader that stops early (like `head -1`): no error, no panic.
    let bin = env!("CARGO_BIN_EXE_heaplab");
    let mut child = std::process::Command::new(bin)
        .args(["losers", "--game", "squares", "--max", "1e7"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    std::io::Read::read_exact(&mut out, &mut first).unwrap();
    drop(out);
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked") && !err.contains("error"), "{err}");
}

#[cfg(unix)]
#[test]
fn outputs_follow_links_and_write_into_pipes() {
    use std::os::unix::fs::FileTypeExt;
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    // a link: the file it names is replaced, the link stays
    std::fs::write(dir.join("real.csv"), "old").unwrap();
    std::os::unix::fs::symlink("real.csv", dir.join("link.csv")).unwrap();
    ok(
        dir,
        &[
            "losers", "--game", "squares", "--max", "20", "-o", "link.csv",
        ],
    );
    assert!(std::fs::symlink_metadata(dir.join("link.csv"))
        .unwrap()
        .file_type()
        .is_symlink());
    let csv = std::fs::read_to_string(dir.join("real.csv")).unwrap();
    assert!(csv.starts_with("k,p,gap\n0,0,\n1,2,2\n"), "{csv}");
    // a FIFO gets the rows and stays a FIFO (a rename would have put a file in its place)
    let fifo = dir.join("rows.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let f2 = fifo.clone();
        let reader = std::thread::spawn(move || std::fs::read_to_string(f2).unwrap());
        let to_fifo = [
            "losers",
            "--game",
            "squares",
            "--max",
            "20",
            "--format",
            "csv",
            "-o",
            "rows.fifo",
        ];
        ok(dir, &to_fifo);
        assert_eq!(reader.join().unwrap(), csv);
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
        // ... and cannot be resumed into
        let o = heaplab(dir, &[&to_fifo[..], &["--checkpoint", "cp"]].concat());
        assert_eq!(o.status.code(), Some(2));
    }
    // a checkpoint spelled differently from -o is still the same file
    let o = heaplab(
        dir,
        &[
            "losers",
            "--game",
            "squares",
            "--max",
            "1e5",
            "-o",
            "z.txt",
            "--checkpoint",
            "./z.txt",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("another file than -o"));
}

#[test]
fn a_report_replaces_only_a_report() {
    let d = tempfile::tempdir().unwrap();
    let run = |max: &str| {
        heaplab(
            d.path(),
            &["report", "--game", "sub{1,2}", "--max", max, "-o", "rep"],
        )
    };
    assert_eq!(run("100").status.code(), Some(0));
    // an earlier report with nothing added is replaced
    assert_eq!(run("200").status.code(), Some(0));
    let md = std::fs::read_to_string(d.path().join("rep/summary.md")).unwrap();
    assert!(md.contains("0 ≤ n ≤ 200"), "{md}");
    // a file someone added would be lost: refused, the folder left as it was
    std::fs::write(d.path().join("rep/notes.md"), "mine").unwrap();
    let o = run("300");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("notes.md") && err.lines().count() == 1,
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(d.path().join("rep/notes.md")).unwrap(),
        "mine"
    );
    let md = std::fs::read_to_string(d.path().join("rep/summary.md")).unwrap();
    assert!(md.contains("0 ≤ n ≤ 200"), "{md}");
    // and a folder that is no report at all
    std::fs::create_dir(d.path().join("mine")).unwrap();
    std::fs::write(d.path().join("mine/x"), "").unwrap();
    let o = heaplab(
        d.path(),
        &["report", "--game", "sub{1,2}", "--max", "10", "-o", "mine"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a heaplab report"));
}

#[test]
fn sums_of_heaps_and_counts() {
    let d = tempfile::tempdir().unwrap();
    // squares (A014586 begins 0, 1, 0, 1, 2, 0, 1, 0, 1, 2): g(5) = 0, g(7) = 0,
    // g(9) = 2; the winning move is in the heap of 9, to a heap of value 0
    let v = json(
        d.path(),
        &["who", "--game", "squares", "5", "7", "9", "--json"],
    );
    let gs: Vec<u64> = v["heaps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["grundy"].as_u64().unwrap())
        .collect();
    assert_eq!(gs, [0, 0, 2]);
    assert_eq!(
        (v["grundy"].as_u64(), v["win"].as_bool()),
        (Some(2), Some(true))
    );
    let m = &v["winning_move"];
    assert_eq!(m["heap"], 2);
    let removed = m["removed"].as_u64().unwrap();
    assert!([1, 4, 9].contains(&removed), "{v}");
    // the same sum in the mixed notation, with the same facts
    let t = ok(d.path(), &["who", "squares:5 + squares:7 + squares:9"]);
    assert!(
        t.contains("Grundy value 0 xor 0 xor 2 = 2: win (N-position)"),
        "{t}"
    );
    assert!(t.contains("winning move: heap 3 (squares:9)"), "{t}");
    // a lost sum has no move
    let v = json(d.path(), &["who", "--game", "squares", "5", "7", "--json"]);
    assert_eq!(
        (v["win"].as_bool(), v["winning_move"].is_null()),
        (Some(false), true)
    );
    // far heaps of mixed games: v2(10^18) = 18, (10^18 - 1) mod 6 = 3
    let v = json(
        d.path(),
        &[
            "who",
            "divisors:1e18 + upto{5}:999999999999999999 + nim:7",
            "--json",
        ],
    );
    assert_eq!(v["grundy"], 18 ^ 3 ^ 7);
    let m = &v["winning_move"];
    let result: u64 = m["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            let n = h["n"].as_u64().unwrap();
            match h["game"].as_str().unwrap() {
                "divisors" => u64::from(n.trailing_zeros()),
                "upto{5}" => n % 6,
                "nim" => n,
                g => panic!("{g}"),
            }
        })
        .fold(0, |a, g| a ^ g);
    assert_eq!(result, 0, "{v}");
    // terms as separate words are one sum
    assert_eq!(
        ok(d.path(), &["who", "squares:5", "0.77:3"]),
        ok(d.path(), &["who", "squares:5 + 0.77:3"])
    );
    // a game and bare heaps: pointed to --game; two heaps in one term: named
    let o = heaplab(d.path(), &["who", "squares", "5", "7"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("heaplab who --game squares 5 7"), "{err}");
    let o = heaplab(d.path(), &["who", "sub{1,2}:7:3"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("more than one `:HEAP`"), "{err}");
    // one heap: today's answer
    let one = ok(d.path(), &["who", "squares:1000"]);
    assert_eq!(one, ok(d.path(), &["who", "--game", "squares", "1000"]));
    // counts: Project Euler 310 (1160 losing triples 0 <= a <= b <= c <= 29) and 306
    // (0.07: 3 first-player wins for 1 <= n <= 5, 40 for 1 <= n <= 50)
    let c = json(
        d.path(),
        &[
            "count", "--game", "squares", "--heaps", "3", "--max", "29", "--sorted", "--json",
        ],
    );
    assert_eq!(
        (c["p_positions"].as_str(), c["total"].as_str()),
        (Some("1160"), Some("4960"))
    );
    for (max, wins) in [("5", "3"), ("50", "40")] {
        let c = json(
            d.path(),
            &[
                "count", "--game", "0.07", "--heaps", "1", "--min", "1", "--max", max, "--json",
            ],
        );
        assert_eq!(c["n_positions"].as_str(), Some(wins));
    }
    // divisors to 10^14: at once, exact past 2^64, and modulo M
    let c = json(
        d.path(),
        &[
            "count", "--game", "divisors", "--heaps", "3", "--min", "1", "--max", "1e14", "--json",
        ],
    );
    assert_eq!(
        c["total"].as_str(),
        Some("1000000000000000000000000000000000000000000")
    );
    let p: num_bigint::BigUint = c["p_positions"].as_str().unwrap().parse().unwrap();
    let m = json(
        d.path(),
        &[
            "count",
            "--game",
            "divisors",
            "--heaps",
            "3",
            "--min",
            "1",
            "--max",
            "1e14",
            "--mod",
            "1000000007",
            "--json",
        ],
    );
    assert_eq!(
        m["p_positions"].as_str(),
        Some((p % 1_000_000_007u32).to_string().as_str())
    );
    let t = ok(
        d.path(),
        &[
            "count", "--game", "0.07", "--heaps", "1", "--min", "1", "--max", "5",
        ],
    );
    assert!(
        t.contains("P-positions (lost) 2, N-positions (won) 3, of 5"),
        "{t}"
    );
    // one heap of squares far out: its P-positions by the sieve, no Grundy table
    let c = json(
        d.path(),
        &[
            "count", "--game", "squares", "--heaps", "1", "--max", "1e6", "--json",
        ],
    );
    assert_eq!(c["p_positions"].as_str(), Some("13952"));
    assert!(c["max_grundy"].is_null() && c["method"].as_str().unwrap().contains("sieve"));
    // bad input: one line, exit code 2
    for args in [
        vec!["who", "--game", "squares", "5", "x"],
        vec!["who", "squares:5 +"],
        vec!["who", "+"],
        vec!["who", "squares:5 + foo:3"],
        vec!["who", "squares:5 + 0.77"],
        vec!["who", "squares:1e12 + 0.77:5"],
        vec!["count", "--game", "squares", "--heaps", "0", "--max", "5"],
        vec![
            "count",
            "--game",
            "squares",
            "--heaps",
            "18446744073709551615",
            "--max",
            "5",
        ],
        vec![
            "count", "--game", "squares", "--heaps", "2", "--max", "5", "--min", "7",
        ],
        vec!["count", "--game", "squares", "--heaps", "2", "--max", "x"],
        vec![
            "count", "--game", "squares", "--heaps", "2", "--max", "5", "--mod", "0",
        ],
    ] {
        let o = heaplab(d.path(), &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        if matches!(args.get(4), Some(&"0" | &"18446744073709551615")) {
            // any count of heaps out of range, however large, is named alike
            assert!(err.contains("is not a number of heaps in 1..=64"), "{err}");
        }
    }
    // all 2^64 sizes from heap 0 are counted, not refused: upto{0} has no moves, so every
    // one of the 2^128 pairs is lost
    let v = json(
        d.path(),
        &[
            "count",
            "--game",
            "upto{0}",
            "--heaps",
            "2",
            "--max",
            "18446744073709551615",
            "--json",
        ],
    );
    let all = "340282366920938463463374607431768211456";
    assert_eq!(
        (v["total"].as_str(), v["p_positions"].as_str()),
        (Some(all), Some(all))
    );
}

/// The claims `guess` prints for a game, with their verdicts.
fn guesses(dir: &Path, args: &[&str]) -> Vec<(String, Option<bool>)> {
    let mut a = vec!["guess", "--json"];
    a.extend_from_slice(args);
    let v = json(dir, &a);
    v["guesses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["claim"].as_str().unwrap().to_string(),
                g["verified"]["holds"].as_bool(),
            )
        })
        .collect()
}

#[test]
fn guesses_are_claims_that_check_confirms_far_out() {
    let d = tempfile::tempdir().unwrap();
    let holds = |gs: &[(String, Option<bool>)], claim: &str| {
        assert!(
            gs.iter().any(|(c, v)| c == claim && *v == Some(true)),
            "{claim} not among {gs:?}"
        );
    };
    // each guessed on 10^4 and verified 100 times further
    let gs = guesses(
        d.path(),
        &["--game", "divisors", "--max", "1e4", "--verify", "1e6"],
    );
    holds(&gs, "grundy = CASE WHEN n = 0 THEN 0 ELSE v2(n) END");
    let gs = guesses(
        d.path(),
        &["--game", "sub{1,2,3}", "--max", "1e4", "--verify", "1e6"],
    );
    holds(&gs, "win = (n % 4 <> 0)");
    holds(&gs, "grundy = n % 4");
    let gs = guesses(
        d.path(),
        &["--game", "upto{6}", "--max", "1e4", "--verify", "1e6"],
    );
    holds(&gs, "win = (n % 7 <> 0)");
    holds(&gs, "p = 7 * k");
    let gs = guesses(
        d.path(),
        &[
            "--game",
            "sub{1,4,5}",
            "--max",
            "1e4",
            "--verify",
            "1e6",
            "--target",
            "grundy",
        ],
    );
    holds(
        &gs,
        "grundy = CASE WHEN n % 8 IN (0, 2) THEN 0 WHEN n % 8 IN (1, 3) THEN 1 WHEN n % 8 IN \
         (4, 6) THEN 2 ELSE 3 END",
    );
    assert_eq!(gs.len(), 1, "--target grundy: {gs:?}");
    let gs = guesses(
        d.path(),
        &[
            "--game", "sqrt", "--max", "1e4", "--target", "losers", "--verify", "1e8",
        ],
    );
    holds(&gs, "k = 0 OR gap = (1 + isqrt(1 + 4 * prev)) // 2 + 1");
    // half|sub{1} (P-positions 0, then 3·2^k − 1): gap = prev + 1 breaks only at k = 1, and
    // the guess says from which row it holds
    let gs = guesses(
        d.path(),
        &["--game", "half|sub{1}", "--max", "1e4", "--verify", "1e7"],
    );
    holds(&gs, "k < 2 OR gap = prev + 1");
    let t = ok(
        d.path(),
        &["guess", "--game", "half|sub{1}", "--max", "1e5"],
    );
    assert!(
        t.contains("gap = prev + 1 from row k = 2 on (row k = 1 breaks it: p = 2 after prev = 0)"),
        "{t}"
    );
    // Kayles: its proven period, with the 14 exceptions before 71 written out
    let gs = guesses(
        d.path(),
        &["--game", "0.77", "--max", "1e3", "--verify", "1e5"],
    );
    assert!(gs.iter().all(|(_, v)| *v == Some(true)), "{gs:?}");
    assert!(gs[0].0.contains("WHEN n % 12 IN"), "{gs:?}");
    // subtract-a-square has no known closed form: no guess at all, at any N
    for max in ["1", "24", "1e5"] {
        let gs = guesses(d.path(), &["--game", "squares", "--max", max]);
        assert!(gs.is_empty(), "{max}: {gs:?}");
    }
    // small tables and near-rational slopes: nothing false (each was printed once)
    for args in [
        ["--game", "allbut{1,2,3}", "--max", "7", "--verify", "700"],
        ["--game", "sub{1,2,3}", "--max", "226", "--verify", "22600"],
        ["--game", "divisors", "--max", "100", "--verify", "10000"],
        ["--game", "grundy-game", "--max", "226", "--verify", "22600"],
    ] {
        let gs = guesses(d.path(), &args);
        assert!(gs.iter().all(|(_, v)| *v == Some(true)), "{args:?}: {gs:?}");
    }
    // a sweep whose rows are not all proven (k past N) guesses nothing
    let gs = guesses(
        d.path(),
        &[
            "--game",
            "sub{1,2,k}",
            "--param",
            "k=100..140",
            "--max",
            "100",
        ],
    );
    assert!(gs.is_empty(), "{gs:?}");
    // the sweep form: sub{1,2,k} has period k + 1 when 3 divides k, else 3
    let gs = guesses(
        d.path(),
        &[
            "--game",
            "sub{1,2,k}",
            "--param",
            "k=3..40",
            "--max",
            "1000",
            "--verify",
            "1e4",
        ],
    );
    holds(&gs, "period = CASE WHEN k % 3 = 0 THEN k + 1 ELSE 3 END");
    holds(&gs, "preperiod = 0");
    // the text names the verdict
    let t = ok(
        d.path(),
        &[
            "guess",
            "--game",
            "sub{1,2,3}",
            "--max",
            "100",
            "--verify",
            "1e4",
        ],
    );
    assert!(t.contains("verified: holds to N = 10000"), "{t}");
    // bad input: one line, exit code 2
    for args in [
        vec![
            "guess", "--game", "squares", "--max", "1e4", "--verify", "100",
        ],
        vec![
            "guess",
            "--game",
            "sub{1,2,k}",
            "--param",
            "k=3,5,9",
            "--max",
            "100",
        ],
        vec![
            "guess",
            "--game",
            "sub{1,2,k}",
            "--param",
            "k=3..40",
            "--max",
            "100",
            "--target",
            "grundy",
        ],
        vec!["guess", "--game", "nonsense", "--max", "100"],
        vec!["guess", "--game", "squares", "--max", "1e15"],
    ] {
        let o = heaplab(d.path(), &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn research_loop_answers() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Kayles: every exception of the preperiod; Dawson's Kayles: density 5/34 exactly
    let k = json(d, &["analyze", "--game", "0.77", "--max", "300", "--json"]);
    assert_eq!(
        k["periodicity"]["exceptions"],
        json!([0, 3, 6, 9, 11, 15, 18, 21, 22, 28, 34, 39, 57, 70])
    );
    let text = ok(d, &["analyze", "--game", "0.07", "--max", "500"]);
    assert!(text.contains("5/34 exactly for every n"), "{text}");
    // .161 and .36 part at heap 519
    let c = json(
        d,
        &[
            "compare", "--game", ".161", "--game", ".36", "--max", "700", "--json",
        ],
    );
    assert_eq!(c["differences"][0]["n"], 519);
    assert_eq!(c["equal"], false);
    assert!(ok(d, &["compare", "-g", ".161", "-g", ".36", "-n", "700"])
        .contains("first differ at n = 519"));
    // who --all: every move to a P-position of squares from 10^6
    let w = json(
        d,
        &["who", "--game", "squares", "1000000", "--all", "--json"],
    );
    let moves = w["winning_moves"].as_array().unwrap();
    assert_eq!(moves.len(), 11);
    assert_eq!(moves[0]["removed"], 1600);
    assert_eq!(moves[0]["leaves"], json!([998400]));
    assert_eq!(w["complete"], true);
    // subtract 1 or a prime down to heap 1: the losing N are N ≡ 1 (mod 4), from k = 1
    let out = ok(
        d,
        &[
            "losers",
            "--game",
            "primes|sub{1}",
            "--shift",
            "1",
            "--offset",
            "1",
            "--max",
            "30",
            "--format",
            "bfile",
        ],
    );
    assert_eq!(out, "1 1\n2 5\n3 9\n4 13\n5 17\n6 21\n7 25\n8 29\n");
    let t = ok(
        d,
        &[
            "table",
            "--game",
            "primes|sub{1}",
            "--shift",
            "1",
            "--max",
            "3",
        ],
    );
    assert_eq!(t, "n,win\n1,false\n2,true\n3,true\n");
    let one = json(
        d,
        &[
            "who",
            "--game",
            "primes|sub{1}",
            "--shift",
            "1",
            "17",
            "--json",
        ],
    );
    assert_eq!(
        (one["n"].clone(), one["win"].clone()),
        (json!(17), json!(false))
    );
    // greedy against the best reply, beside best play
    let s = json(
        d,
        &[
            "stone",
            "--variant",
            "1",
            "--piles",
            "2,10,1,2,10,2",
            "--strategy",
            "greedy",
            "--json",
        ],
    );
    assert_eq!(s["strategy_result"]["margin"], -15);
    assert_eq!(s["optimal_result"]["margin"], 1);
    assert_eq!(s["given_away"], 16);
}

/// `--play misere` on the commands: misère Nim's P-positions n ≡ 1 (mod 4), misère
/// nim-values with genus and phylum columns, a certified misère period, misère sums, and a
/// checkpointed misère run resumed.
/// A count alone whose engine would take more than a second goes by a proved period of
/// the values first: Dawson's Kayles (0.07, period 34 from heap 53, Guy–Smith) to 3·10^9
/// used to run the table engine for 16–40 s in up to 14.7 GB, as its estimate was under
/// the 10 s that then sent a count to the period. The count is checked against the
/// P-positions listed to 400, extended by that period here.
#[test]
fn a_count_alone_goes_by_a_proved_period() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let rows = ok(d, &["losers", "--game", "0.07", "--max", "400"]);
    let ps: Vec<u64> = rows
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().parse().unwrap())
        .collect();
    let max = 3_000_000_000u64;
    // heaps 0..=119 as listed, then the residues of 120..154 repeat
    let head = ps.iter().filter(|&&p| p < 120).count() as u64;
    let residues: Vec<u64> = ps
        .iter()
        .filter(|&&p| (120..154).contains(&p))
        .map(|p| p % 34)
        .collect();
    let tail = (120..154u64)
        .filter(|n| residues.contains(&(n % 34)))
        .map(|n| (max - n) / 34 + 1)
        .sum::<u64>();
    let largest = (max - 40..=max)
        .rev()
        .find(|n| residues.contains(&(n % 34)));
    let v = json(
        d,
        &[
            "losers", "--game", "0.07", "--max", "3e9", "--count", "--json",
        ],
    );
    assert_eq!(v["p_positions"], head + tail);
    assert_eq!(v["largest_p"], largest.unwrap());
    assert!(
        v["method"].as_str().unwrap().contains("proven periodic"),
        "{v}"
    );
    // misère 4.7 to heap 0: the quick quotient try no longer spends 10 s on guesses
    let v = json(
        d,
        &[
            "losers", "--game", "4.7", "--play", "misere", "--max", "0", "--count", "--json",
        ],
    );
    assert_eq!(v["p_positions"], 0);
}

/// `losers --checkpoint` on a take-and-break code says up front that its table is built
/// whole before any P-position, so nothing is saved until then (a SIGTERM after 14 s left
/// no checkpoint, while the docs promise the first after 10 s); a sieve says nothing.
#[test]
fn a_checkpoint_that_cannot_save_early_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let args = |game: &'static str| {
        [
            "losers",
            "--game",
            game,
            "--max",
            "3000",
            "-o",
            "p.txt",
            "--checkpoint",
            "p.ckpt",
        ]
    };
    let o = heaplab(d, &args("0.167"));
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("saves nothing until it is done"), "{err}");
    assert!(err.contains("table --grundy --checkpoint"), "{err}");
    let o = heaplab(d, &args("sub{1,2,3}"));
    assert!(o.status.success());
    assert!(!String::from_utf8_lossy(&o.stderr).contains("saves nothing"));
}

#[test]
fn misere_play_from_the_cli() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let v = json(
        d,
        &[
            "losers",
            "--game",
            "sub{1,2,3}",
            "--max",
            "1e12",
            "--count",
            "--play",
            "misere",
            "--json",
        ],
    );
    assert_eq!(v["game"], "misere(sub{1,2,3})");
    assert_eq!(v["p_positions"], 250_000_000_000u64);
    let rows = ok(
        d,
        &[
            "losers",
            "--game",
            "sub{1,2,3}",
            "--max",
            "20",
            "--play",
            "misere",
        ],
    );
    assert_eq!(rows, "k,p,gap\n0,1,\n1,5,4\n2,9,4\n3,13,4\n4,17,4\n");
    // the same as writing the spec misere( )
    assert_eq!(
        rows,
        ok(
            d,
            &["losers", "--game", "misere(sub{1,2,3})", "--max", "20"]
        )
    );
    let o = heaplab(
        d,
        &[
            "losers",
            "--game",
            "misere(sub{1,2,3})",
            "--max",
            "20",
            "--play",
            "normal",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("contradicts"));
    ok(
        d,
        &[
            "table",
            "--game",
            "divisors",
            "--max",
            "12",
            "--grundy",
            "--play",
            "misere",
            "-o",
            "t.parquet",
        ],
    );
    let t = read_parquet(&d.join("t.parquet"));
    assert_eq!(u64s(&t, "grundy")[..8], [1, 1, 0, 1, 2, 0, 3, 0].map(Some));
    let genus = t.column("genus").unwrap().str().unwrap();
    assert_eq!(genus.get(0), Some("0^{120}"));
    assert_eq!(genus.get(4), Some("2^{20}"));
    assert_eq!(genus.get(6), Some("1^{31}"));
    let phylum = t.column("phylum").unwrap().str().unwrap();
    assert_eq!(phylum.get(6), Some("restive"));
    assert_eq!(phylum.get(7), Some("wild"));
    let a = json(
        d,
        &[
            "analyze",
            "--game",
            "sub{1,4,5}",
            "--max",
            "200",
            "--play",
            "misere",
            "--json",
        ],
    );
    assert_eq!(a["periodicity"]["period"], 8);
    assert_eq!(a["periodicity"]["certified"], true);
    assert_eq!(a["genus"]["periodicity"]["certified"], true);
    // Kayles: misère P-positions by canonical forms
    let k = json(
        d,
        &[
            "losers", "--game", "0.77", "--max", "40", "--play", "misere", "--json", "--count",
        ],
    );
    assert_eq!(k["p_positions"], 5);
    assert_eq!(k["largest_p"], 20);
    // to every heap size: by the proved period of Kayles' misère quotient (was refused: the
    // P-position engine's estimate), and normal play's by Guy–Smith
    for (play, p, largest) in [("misere", 5, 20), ("normal", 1, 0)] {
        let k = json(
            d,
            &[
                "losers",
                "--game",
                "0.77",
                "--max",
                "18446744073709551615",
                "--play",
                play,
                "--json",
                "--count",
            ],
        );
        assert_eq!(
            (k["p_positions"].as_u64(), k["largest_p"].as_u64()),
            (Some(p), Some(largest))
        );
        assert!(k["method"].as_str().unwrap().contains("period"), "{k}");
    }
    // sums: a tame one decided, a restive one refused in one line with exit code 2
    let s = json(
        d,
        &[
            "who", "--game", "squares", "--play", "misere", "2", "5", "10", "--json",
        ],
    );
    assert_eq!(
        (s["win"].as_bool(), s["play"].as_str()),
        (Some(true), Some("misere"))
    );
    let o = heaplab(
        d,
        &["who", "--game", "divisors", "--play", "misere", "6", "1"],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("not tame") && err.lines().count() == 1,
        "{err}"
    );
    // a misère checkpoint resumes into the same list
    let args = [
        "losers",
        "--game",
        "squares",
        "--max",
        "3e6",
        "--play",
        "misere",
        "-o",
        "m.csv",
        "--checkpoint",
        "m.ckpt",
        "--checkpoint-every",
        "0",
    ];
    ok(d, &args);
    let full = std::fs::read_to_string(d.join("m.csv")).unwrap();
    let plain = ok(
        d,
        &[
            "losers", "--game", "squares", "--max", "3e6", "--play", "misere",
        ],
    );
    assert_eq!(full, plain);
}

/// Games beyond the menu from the command line: a `rule{…}` equals the family it imitates,
/// unions of families and `nondivisors` run, and malformed ones are one line with exit 2.
#[test]
fn rules_and_unions_from_the_cli() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let table = |g: &str| ok(d, &["table", "--game", g, "--max", "300", "--grundy"]);
    assert_eq!(
        table("rule{k <= isqrt(n)}").replace("rule{k <= isqrt(n)}", "sqrt"),
        table("sqrt")
    );
    assert_eq!(table("rule{n % k = 0 AND k < n}"), table("divisors"));
    let v = json(
        d,
        &[
            "losers",
            "--game",
            "sub{1}|half",
            "--max",
            "1000",
            "--count",
            "--json",
        ],
    );
    assert_eq!(v["game"], "half|sub{1}");
    let v = json(
        d,
        &[
            "losers",
            "--game",
            "nondivisors",
            "--max",
            "1000",
            "--json",
            "--count",
        ],
    );
    assert_eq!(v["p_positions"], 3);
    for bad in ["0.77|sub{1}", "rule{k <= sqrt(n)}", "rule{k < n", "rule{}"] {
        let o = heaplab(d, &["table", "--game", bad, "--max", "10"]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{bad}: {err}");
        assert!(err.contains("position"), "{bad}: {err}");
    }
}

#[test]
fn rules_beyond_the_menu_from_the_command_line() {
    let d = tempfile::tempdir().unwrap();
    // a report of a game with outcomes only: the outcomes, no Grundy plots
    let out = ok(
        d.path(),
        &[
            "report",
            "--game",
            "seed(sub{1,2}; NN)",
            "--max",
            "300",
            "-o",
            "r",
        ],
    );
    assert!(!out.contains("Grundy value"), "{out}");
    let t = read_csv(&d.path().join("r/table.csv"));
    assert_eq!(t.get_column_names(), ["n", "win"]);
    assert!(!d.path().join("r/grundy.png").exists());
    // extended codes and coin turning in a sum: a winning move is printed
    let out = ok(d.path(), &["who", "--game", "4!.0", "5", "3"]);
    assert!(
        out.contains("winning move") && out.contains("leave 2 + 3"),
        "{out}"
    );
    let out = ok(d.path(), &["who", "--game", "ruler", "12"]);
    assert!(out.contains("turn coin 12, leaving no head"), "{out}");
    // 4!.0 is Grundy's game in misère play too (a breaker plays it): 5 + 5 is lost
    let out = ok(
        d.path(),
        &["who", "--game", "4!.0", "--play", "misere", "5", "5"],
    );
    assert!(out.contains("lose (P-position)"), "{out}");
    // misère play of codes no breaker plays is refused with the reason, exit code 2
    let o = heaplab(
        d.path(),
        &["who", "--game", "{2+}!.0", "--play", "misere", "5", "5"],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("not available") && err.contains("four or more"),
        "{err}"
    );
}

/// A census in 4 shards, one killed (SIGKILL) once its journal holds rows and then resumed,
/// merged: the same bytes as the whole census run at once; bad shard arguments and foreign
/// journals are refused.
#[test]
fn census_shards_killed_resumed_and_merged_equal_the_whole_run() {
    let d = tempfile::tempdir().unwrap();
    let space: &[&str] = &[
        "census",
        "--game",
        "0.??",
        "--game",
        "sub{a,b,c}",
        "--where",
        "1 <= a < b < c <= 12",
        "--max",
        "8192",
        "--no-seconds",
    ];
    let whole = json(
        d.path(),
        &[space, &["-o", "whole.parquet", "--json"]].concat(),
    );
    let classes = whole["classes"].as_u64().unwrap();
    assert_eq!(whole["items"], 64 + 220);
    assert!(classes < 64 + 220, "deduplication merged nothing");
    // shard 2 killed once its journal has rows
    let journal = d.path().join("s2.parquet.journal");
    let mut child = Command::new(env!("CARGO_BIN_EXE_heaplab"))
        .args([space, &["--shard", "2/4", "-o", "s2.parquet"]].concat())
        .current_dir(d.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t = std::time::Instant::now();
    let lines = || {
        std::fs::read_to_string(&journal)
            .map(|s| s.lines().count())
            .unwrap_or(0)
    };
    while lines() < 4 && t.elapsed().as_secs() < 60 && child.try_wait().unwrap().is_none() {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let killed_with = lines();
    eprintln!("shard 2 killed with {killed_with} journal lines");
    // a partial last line, as a kill in mid-write leaves it
    if killed_with > 0 {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&journal)
            .unwrap();
        write!(f, "{{\"class\": 12, \"ite").unwrap();
    }
    for i in 1..=4 {
        // (shard 3 as CSV: merge reads both)
        let out = format!("s{i}.{}", if i == 3 { "csv" } else { "parquet" });
        let r = json(
            d.path(),
            &[space, &["--shard", &format!("{i}/4"), "-o", &out, "--json"]].concat(),
        );
        if i == 2 && killed_with > 1 {
            assert!(r["resumed"].as_u64().unwrap() >= 1, "{r}");
        }
        assert!(!d.path().join(format!("{out}.journal")).exists());
    }
    let m = json(
        d.path(),
        &[
            "merge",
            "s3.csv",
            "s1.parquet",
            "s4.parquet",
            "s2.parquet",
            "-o",
            "merged.parquet",
            "--no-seconds",
            "--json",
        ],
    );
    assert_eq!(m["missing"], json!([]));
    assert_eq!(
        std::fs::read(d.path().join("merged.parquet")).unwrap(),
        std::fs::read(d.path().join("whole.parquet")).unwrap()
    );
    // idempotent: merging the merged census with a shard changes nothing
    ok(
        d.path(),
        &[
            "merge",
            "merged.parquet",
            "s2.parquet",
            "-o",
            "again.parquet",
        ],
    );
    // (parts written without `seconds` merge without it: no invented zeros)
    assert_eq!(
        std::fs::read(d.path().join("again.parquet")).unwrap(),
        std::fs::read(d.path().join("whole.parquet")).unwrap()
    );
    // missing shards: listed, exit code 1, the partial census written
    let o = heaplab(d.path(), &["merge", "s1.parquet", "-o", "part.parquet"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("classes missing (1, 2, 3, 5"));
    // rows: every class once, Kayles-like rows recognised
    let df = read_parquet(&d.path().join("whole.parquet"));
    assert_eq!(
        u64s(&df, "class"),
        (0..classes).map(Some).collect::<Vec<_>>()
    );
    let known = df.column("known").unwrap().str().unwrap().clone();
    let games = df.column("game").unwrap().str().unwrap().clone();
    let kayles = (0..df.height())
        .find(|&i| games.get(i) == Some("0.77"))
        .unwrap();
    assert!(known.get(kayles).unwrap().contains("Kayles 0.77"));
    assert!(df.column("seconds").is_err());
    // another census's shard, a foreign journal, bad shard arguments
    ok(
        d.path(),
        &[
            "census",
            "--game",
            "0.?",
            "--max",
            "300",
            "-o",
            "other.parquet",
        ],
    );
    let o = heaplab(
        d.path(),
        &["merge", "s1.parquet", "other.parquet", "-o", "x.parquet"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("different censuses"));
    assert!(!d.path().join("x.parquet").exists());
    std::fs::write(d.path().join("s5.parquet.journal"), "{\"census\":\"x\"}\n").unwrap();
    for (args, says) in [
        (
            &["census", "--game", "0.?", "--shard", "1/4"][..],
            "--shard needs -o",
        ),
        (
            &[
                "census",
                "--game",
                "0.?",
                "--shard",
                "5/4",
                "-o",
                "a.parquet",
            ],
            "--shard must look like",
        ),
        (
            &["census", "--game", "0.?", "--shard", "x", "-o", "a.parquet"],
            "--shard must look like",
        ),
        (
            &["census", "--game", "0.?", "-o", "s5.parquet"],
            "journal of another census",
        ),
        (
            &["census", "--game", "sub{a}", "--where", "a >= 1"],
            "no upper bound",
        ),
        (
            &["census", "--game", "0.?", "--start", "0"],
            "need 1 <= start <= max",
        ),
        (
            &["census", "--game", "0.?", "--seconds", "-1"],
            "seconds must be a finite number",
        ),
        (
            &["merge", "nothere.parquet", "-o", "y.parquet"],
            "cannot read `nothere.parquet`",
        ),
        (
            &["merge", "whole.parquet", "-o", "y.txt"],
            "use a .csv or .parquet name",
        ),
    ] {
        let o = heaplab(d.path(), args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(says) && err.lines().count() == 1,
            "{args:?}: {err}"
        );
    }
}

/// Smith's remoteness of heap n by plain recursion over the options (`moves(n)`: the heaps
/// they leave), with the outcomes by their own recursion: 0 without options; from an
/// N-position 1 + the least remoteness of a P-position option; else 1 + the largest.
fn remoteness_by_recursion(max: u64, moves: &dyn Fn(u64) -> Vec<u64>, misere: bool) -> Vec<u64> {
    fn win(n: u64, m: &dyn Fn(u64) -> Vec<u64>, misere: bool, w: &mut Vec<Option<bool>>) -> bool {
        if let Some(x) = w[n as usize] {
            return x;
        }
        let os = m(n);
        let x = if os.is_empty() {
            misere
        } else {
            os.iter().any(|&o| !win(o, m, misere, w))
        };
        w[n as usize] = Some(x);
        x
    }
    let mut w = vec![None; max as usize + 1];
    let mut r: Vec<u64> = vec![];
    for n in 0..=max {
        let os = moves(n);
        let v = if os.is_empty() {
            0
        } else if win(n, moves, misere, &mut w) {
            let p: Vec<u64> = os
                .iter()
                .copied()
                .filter(|&o| !win(o, moves, misere, &mut w))
                .collect();
            1 + p.iter().map(|&o| r[o as usize]).min().unwrap()
        } else {
            1 + os.iter().map(|&o| r[o as usize]).max().unwrap()
        };
        r.push(v);
    }
    r
}

#[test]
fn table_remoteness_and_birthday_columns() {
    let d = tempfile::tempdir().unwrap();
    let sub134 = |n: u64| -> Vec<u64> {
        [1, 3, 4]
            .into_iter()
            .filter(|&s| s <= n)
            .map(|s| n - s)
            .collect()
    };
    for (play, misere) in [("normal", false), ("misere", true)] {
        for name in ["r.csv", "r.parquet"] {
            let v = json(
                d.path(),
                &[
                    "table",
                    "--game",
                    "sub{1,3,4}",
                    "--max",
                    "1000",
                    "--remoteness",
                    "--birthday",
                    "--play",
                    play,
                    "-o",
                    name,
                    "--json",
                ],
            );
            let df = if name.ends_with("csv") {
                read_csv(&d.path().join(name))
            } else {
                read_parquet(&d.path().join(name))
            };
            let names: Vec<&str> = df.get_column_names().iter().map(|c| c.as_str()).collect();
            assert_eq!(names, ["n", "win", "remoteness", "birthday"]);
            let r: Vec<u64> = u64s(&df, "remoteness")
                .into_iter()
                .map(Option::unwrap)
                .collect();
            assert_eq!(r, remoteness_by_recursion(1000, &sub134, misere), "{play}");
            // the longest play removes one token a move
            let b: Vec<Option<u64>> = (0..=1000).map(Some).collect();
            assert_eq!(u64s(&df, "birthday"), b);
            // P-positions: even remoteness in normal play, odd in misère play
            for (n, w) in bools(&df, "win").into_iter().enumerate() {
                assert_eq!(!w, r[n] % 2 == u64::from(misere), "{play} heap {n}");
            }
            assert_eq!(v["max_remoteness"], json!(r.iter().max().unwrap()));
            assert_eq!(v["max_birthday"], json!(1000));
        }
    }
    // sub{1,2} on stdout, checked by hand: 3, 6, 9 are P-positions (even remoteness)
    let out = ok(
        d.path(),
        &["table", "--game", "sub{1,2}", "--max", "6", "--remoteness"],
    );
    assert_eq!(
        out,
        "n,win,remoteness\n0,false,0\n1,true,1\n2,true,1\n3,false,2\n4,true,3\n5,true,3\n6,false,4\n"
    );
    // Kayles: a move removes one or two pins and may split the row; the longest play
    // removes one pin a move, whatever the split
    ok(
        d.path(),
        &[
            "table",
            "--game",
            "0.77",
            "--max",
            "200",
            "--birthday",
            "--grundy",
            "-o",
            "k.csv",
        ],
    );
    let df = read_csv(&d.path().join("k.csv"));
    let b: Vec<Option<u64>> = (0..=200).map(Some).collect();
    assert_eq!(u64s(&df, "birthday"), b);
    assert_eq!(
        df.get_column_names()
            .iter()
            .map(|c| c.as_str())
            .collect::<Vec<_>>(),
        ["n", "win", "grundy", "birthday"]
    );
}

/// `census --per-game`: one row per game with its parameters, periods that match the
/// definition, shards that merge into the whole census, the misère census joined to the
/// normal one, another census's chunks refused, and a two-parameter guess.
#[test]
fn per_game_census_rows_shards_and_joins() {
    let d = tempfile::tempdir().unwrap();
    let w = "2 <= b < c <= 12";
    let whole = json(
        d.path(),
        &[
            "census",
            "--game",
            "sub{1,b,c}",
            "--where",
            w,
            "--per-game",
            "--grundy",
            "-o",
            "n.csv",
            "--json",
        ],
    );
    assert_eq!(whole["items"], 55); // C(11, 2)
    let n = read_csv(&d.path().join("n.csv"));
    assert_eq!(n.height(), 55);
    let games: Vec<String> = (0..n.height())
        .map(|i| {
            n.column("game")
                .unwrap()
                .str()
                .unwrap()
                .get(i)
                .unwrap()
                .to_string()
        })
        .collect();
    let at = |g: &str| games.iter().position(|x| x == g).unwrap();
    // sub{1,2,3}: P-positions are the multiples of 4; Grundy values 0,1,2,3 repeating
    let i = at("sub{1,2,3}");
    assert_eq!(u64s(&n, "b")[i], Some(2));
    assert_eq!(
        (u64s(&n, "preperiod")[i], u64s(&n, "period")[i]),
        (Some(0), Some(4))
    );
    assert_eq!(u64s(&n, "grundy_max")[i], Some(3));
    // sub{1,3,5}: every move odd, so the even heaps lose (period 2)
    assert_eq!(u64s(&n, "period")[at("sub{1,3,5}")], Some(2));
    // sub{2,4,6} is not here (a = 1), but sub{1,2,4} has class itself and scale 1
    assert_eq!(u64s(&n, "scale")[at("sub{1,2,4}")], Some(1));
    // shards merge into the same rows (one shard holds every chunk, the other none)
    for i in ["1", "2"] {
        ok(
            d.path(),
            &[
                "census",
                "--game",
                "sub{1,b,c}",
                "--where",
                w,
                "--per-game",
                "--grundy",
                "--shard",
                &format!("{i}/2"),
                "-o",
                &format!("s{i}.parquet"),
            ],
        );
    }
    ok(
        d.path(),
        &["merge", "s2.parquet", "s1.parquet", "-o", "m.csv"],
    );
    let m = read_csv(&d.path().join("m.csv"));
    assert!(m.equals_missing(&n));
    // only the empty shard: nothing to merge
    let o = heaplab(d.path(), &["merge", "s2.parquet", "-o", "m2.csv"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no rows"));
    // the misère census, joined by parameters: misère play of sub{1,2,3} loses at 1 mod 4
    ok(
        d.path(),
        &[
            "census",
            "--game",
            "sub{1,b,c}",
            "--where",
            w,
            "--per-game",
            "--play",
            "misere",
            "-o",
            "m.parquet",
        ],
    );
    let mis = read_parquet(&d.path().join("m.parquet"));
    assert_eq!(mis.height(), 55);
    assert_eq!(u64s(&mis, "period")[at("sub{1,2,3}")], Some(4));
    // chunks of another census in the way are refused, not mixed in
    std::fs::create_dir(d.path().join("x.parquet.parts")).unwrap();
    std::fs::write(d.path().join("x.parquet.parts/census"), "another").unwrap();
    let o = heaplab(
        d.path(),
        &[
            "census",
            "--game",
            "sub{1,b,c}",
            "--where",
            w,
            "--per-game",
            "-o",
            "x.parquet",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("another census"));
    // other games are refused by name
    let o = heaplab(d.path(), &["census", "--game", "0.?", "--per-game"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a finite subtraction set"));
    // a two-parameter formula: two-move sets have period a + b, or 2a when b is an odd
    // multiple of a (the nim-sequence of {a, b}, Winning Ways ch. 4)
    let g = json(
        d.path(),
        &[
            "guess", "--game", "sub{a,b}", "--param", "a=1..9", "--param", "b=2..30", "--where",
            "a < b", "--max", "1e5", "--json",
        ],
    );
    let claims: Vec<&str> = g["guesses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["claim"].as_str().unwrap())
        .collect();
    assert!(
        claims.contains(&"period = CASE WHEN b % (2*a) = a THEN 2*a ELSE a + b END"),
        "{claims:?}"
    );
}

#[test]
fn per_game_census_repairs_damaged_chunks_and_refuses_what_it_cannot_do() {
    let d = tempfile::tempdir().unwrap();
    let args = |out: &str| -> Vec<String> {
        [
            "census",
            "--game",
            "sub{a,b,c}",
            "--where",
            "1 <= a < b < c <= 15",
            "--per-game",
            "-o",
            out,
            "--json",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let run = |out: &str| {
        let a = args(out);
        heaplab(d.path(), &a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let fresh = run("fresh.parquet");
    assert!(fresh.status.success());
    let id = serde_json::from_slice::<serde_json::Value>(&fresh.stdout).unwrap()["census"]
        .as_str()
        .unwrap()
        .to_string();
    let whole = read_parquet(&d.path().join("fresh.parquet"));
    assert_eq!(whole.height(), 455); // C(15, 3)
                                     // a resumed chunk cut short (a disk that filled, a hand that edited it) is computed again
    let parts = d.path().join("r.parquet.parts");
    std::fs::create_dir(&parts).unwrap();
    std::fs::write(parts.join("census"), &id).unwrap();
    let mut cut = whole.head(Some(100));
    polars_io::parquet::write::ParquetWriter::new(
        std::fs::File::create(parts.join("chunk-000000000.parquet")).unwrap(),
    )
    .finish(&mut cut)
    .unwrap();
    let o = run("r.parquet");
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("damaged (100 rows, not 455)"));
    assert!(read_parquet(&d.path().join("r.parquet")).equals_missing(&whole));
    assert!(!parts.exists());
    // a misère spec inside a per-game census, and per-game options without --per-game
    for (a, why) in [
        (
            vec![
                "census",
                "--game",
                "misere(sub{1,b})",
                "--param",
                "b=2..5",
                "--per-game",
            ],
            "misère game",
        ),
        (
            // (clap's own `requires` lets this through once --max is given)
            vec![
                "census", "--game", "0.?", "--max", "300", "--play", "misere",
            ],
            "--play goes with --per-game",
        ),
    ] {
        let o = heaplab(d.path(), &a);
        assert_eq!(o.status.code(), Some(2), "{a:?}");
        assert!(String::from_utf8_lossy(&o.stderr).contains(why), "{a:?}");
    }
}

#[test]
fn class_census_members_are_one_row_per_game() {
    let d = tempfile::tempdir().unwrap();
    ok(
        d.path(),
        &[
            "census",
            "--game",
            "sub{a,b}",
            "--where",
            "1 <= a < b <= 8",
            "--members",
            "g.csv",
        ],
    );
    let g = read_csv(&d.path().join("g.csv"));
    assert_eq!(g.height(), 28);
    assert_eq!(u64s(&g, "item"), (0..28).map(Some).collect::<Vec<_>>());
    let games: Vec<String> = g
        .column("game")
        .unwrap()
        .str()
        .unwrap()
        .iter()
        .map(|x| x.unwrap().to_string())
        .collect();
    let at = |s: &str| games.iter().position(|x| x == s).unwrap();
    // {a, b}: period a + b, or 2a when b is an odd multiple of a; {2,4} is {1,2} scaled by 2
    let (per, class_per) = (u64s(&g, "period"), u64s(&g, "class_period"));
    assert_eq!(
        (per[at("sub{2,4}")], class_per[at("sub{2,4}")]),
        (Some(6), Some(3))
    );
    assert_eq!(per[at("sub{3,5}")], Some(8));
    assert_eq!(per[at("sub{2,6}")], Some(4));
    assert_eq!(u64s(&g, "a")[at("sub{3,5}")], Some(3));
    // the same file cannot be both
    let o = heaplab(
        d.path(),
        &[
            "census",
            "--game",
            "sub{a,b}",
            "--where",
            "1 <= a < b <= 8",
            "--members",
            "x.csv",
            "-o",
            "x.csv",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
}

/// Games beyond one heap from the command line: who (one position and a mixed sum),
/// losers, table, check, guess and report, with values from the definitions and OEIS, and
/// bad input refused in one line with exit 2.
#[test]
fn games_beyond_one_heap_summarize_in_json_keep_quiet_and_check_their_files_first() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    // --json: a summary instead of the rows (Wythoff's P-positions up to 100: 39 pairs
    // with both coordinates ≤ 100, counted from the Beatty pairs)
    let v = json(
        p,
        &["losers", "--game", "wythoff", "--max", "100", "--json"],
    );
    assert_eq!(
        (v["rows"].clone(), v["files"].clone()),
        (json!(39), json!([]))
    );
    assert_eq!(
        ok(
            p,
            &["losers", "--game", "wythoff", "--max", "100", "--count"]
        )
        .trim(),
        "39"
    );
    let v = json(p, &["table", "--game", "wythoff", "--max", "3", "--json"]);
    assert_eq!(v["rows"], 16);
    let v = json(
        p,
        &[
            "table",
            "--game",
            "fibonacci-nim",
            "--max",
            "3",
            "-o",
            "f.csv",
            "--json",
        ],
    );
    // move memory lists the states (heap, allowance ≤ heap): 1 + 2 + 3 + 4
    assert_eq!(
        (v["rows"].clone(), v["files"].clone()),
        (json!(10), json!(["f.csv"]))
    );
    let v = json(
        p,
        &[
            "plot", "--game", "wythoff", "--max", "20", "-o", "w.png", "--json",
        ],
    );
    assert_eq!(v["files"], json!(["w.png"]));
    // --quiet: nothing on stderr
    for args in [
        &[
            "--quiet", "table", "--game", "wythoff", "--max", "2", "-o", "q.csv",
        ][..],
        &[
            "--quiet",
            "plot",
            "--game",
            "fibonacci-nim",
            "--max",
            "9",
            "-o",
            "q.png",
        ],
        &[
            "--quiet", "losers", "--game", "wythoff", "--max", "50", "-o", "l.csv",
        ],
    ] {
        let o = heaplab(p, args);
        assert!(o.status.success() && o.stderr.is_empty(), "{args:?}: {o:?}");
    }
    // a file that cannot be written is refused before the table is computed
    for out in ["x.txt", "no/such/dir/x.csv"] {
        let o = heaplab(
            p,
            &["table", "--game", "wythoff", "--max", "3000", "-o", out],
        );
        assert_eq!(o.status.code(), Some(2), "{out}");
        assert!(!p.join(out).exists());
    }
    // a row far past --max (the transposed rectangle): g(10^6, b) for b ≤ 3
    let row = ok(
        p,
        &["table", "--game", "wythoff", "--max", "3", "--row", "1e6"],
    );
    let wide = ok(
        p,
        &["table", "--game", "wythoff", "--max", "1e6", "--row", "3"],
    );
    let last: Vec<&str> = row.lines().last().unwrap().split(',').collect();
    let cell: Vec<&str> = wide.lines().last().unwrap().split(',').collect();
    assert_eq!((last[0], last[1]), ("1000000", "3"));
    assert_eq!(last[2], cell[2]);
}

#[test]
fn games_beyond_one_heap_from_the_command_line() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    let v = json(
        p,
        &[
            "who",
            "--game",
            "wythoff",
            "1000000000000000000",
            "999999999999999999",
            "--json",
        ],
    );
    assert_eq!(
        (v["win"].clone(), v["winning_move_to"].clone()),
        (json!(true), json!("(2, 1)"))
    );
    let v = json(
        p,
        &[
            "who",
            "--json",
            "wythoff:3,5 + fibonacci-nim:10 + squares:7",
        ],
    );
    assert_eq!(v["grundy"], 5);
    assert_eq!(v["winning_move"], "term 2 (fibonacci-nim): to 8,2");
    // a two-heap rule restating Wythoff's game has Wythoff's P-positions
    ok(
        p,
        &[
            "losers",
            "--game",
            "pair{x = 0 OR y = 0 OR x = y}",
            "--max",
            "100",
            "-o",
            "r.csv",
        ],
    );
    ok(
        p,
        &["losers", "--game", "wythoff", "--max", "100", "-o", "w.csv"],
    );
    let (r, w) = (read_csv(&p.join("r.csv")), read_csv(&p.join("w.csv")));
    assert_eq!(u64s(&r, "a"), u64s(&w, "a"));
    assert_eq!(u64s(&r, "b"), u64s(&w, "b"));
    // Schwenk's take-away with f(k) = k: the losing start heaps are the powers of 2
    ok(
        p,
        &[
            "losers",
            "--game",
            "takeaway{k}",
            "--max",
            "1000",
            "-o",
            "t.csv",
        ],
    );
    let t = read_csv(&p.join("t.csv"));
    assert_eq!(
        u64s(&t, "n"),
        (0..10).map(|i| Some(1u64 << i)).collect::<Vec<_>>()
    );
    let v = json(
        p,
        &["guess", "--game", "wythoff", "--max", "10000", "--json"],
    );
    assert_eq!(v["holds"], true);
    // the reports: files, the Beatty form, loopy outcomes (OEIS A005240: 34 losses to 1177)
    let v = json(
        p,
        &["report", "--game", "wythoff", "--max", "300", "--json"],
    );
    assert_eq!(v["p_positions"], 115);
    let dir = p.join("reports/wythoff-300");
    for f in [
        "table.parquet",
        "losers.csv",
        "square.png",
        "pairs.png",
        "summary.md",
        "index.html",
    ] {
        assert!(dir.join(f).exists(), "{f} missing");
    }
    assert_eq!(read_parquet(&dir.join("table.parquet")).height(), 301 * 301);
    let md = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(
        md.contains("Beatty form: a = floor_phi(k) AND b = floor_phi2(k)"),
        "{md}"
    );
    let v = json(
        p,
        &[
            "report",
            "--game",
            "put-or-take{squares}",
            "--max",
            "1177",
            "-o",
            "pt",
            "--json",
        ],
    );
    assert_eq!(v["p_positions"], 34);
    assert!(
        v["summary"].to_string().contains("draw: 44 positions"),
        "{v}"
    );
    // a second report replaces the first; a folder of other files is refused
    ok(
        p,
        &[
            "report",
            "--game",
            "fibonacci-nim",
            "--max",
            "1000",
            "-o",
            "pt",
        ],
    );
    std::fs::create_dir(p.join("mine")).unwrap();
    std::fs::write(p.join("mine/notes.txt"), "x").unwrap();
    for args in [
        &["report", "--game", "wythoff", "--max", "10", "-o", "mine"][..],
        &["who", "--game", "pair{n = 1}", "1", "2"],
        &["who", "--game", "takeaway{n}", "5"],
        &["who", "wythoff:3,5 + put-or-take{squares}:3"],
        &[
            "table",
            "--game",
            "pair{x = a}",
            "--max",
            "1000",
            "-o",
            "x.csv",
        ],
    ] {
        let o = heaplab(p, args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
    assert!(!p.join("x.csv").exists());
    assert_eq!(
        std::fs::read_to_string(p.join("mine/notes.txt")).unwrap(),
        "x"
    );
}

/// A snapshot folder names its game (`game.txt`); a run of another game into it is refused
/// in one line and writes nothing there, while a run of the same game goes on in it.
#[test]
fn a_snapshot_folder_keeps_one_game() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    ok(
        p,
        &[
            "record",
            "--game",
            "0.167",
            "--max",
            "2^11",
            "--snapshots",
            "s",
        ],
    );
    assert_eq!(
        std::fs::read_to_string(p.join("s/game.txt")).unwrap(),
        "0.167\n"
    );
    let before: Vec<_> = std::fs::read_dir(p.join("s")).unwrap().collect();
    for args in [
        &[
            "record",
            "--game",
            "0.161",
            "--max",
            "2^12",
            "--snapshots",
            "s",
        ][..],
        &[
            "table",
            "--game",
            "0.161",
            "--max",
            "4096",
            "--grundy",
            "--snapshots",
            "s",
            "-o",
            "t.csv",
        ],
    ] {
        let o = heaplab(p, args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains("holds the snapshots of `0.167`"), "{err}");
        assert_eq!(
            std::fs::read_dir(p.join("s")).unwrap().count(),
            before.len()
        );
        assert!(!p.join("t.csv").exists());
    }
    ok(
        p,
        &[
            "table",
            "--game",
            "0.167",
            "--max",
            "4096",
            "--grundy",
            "--snapshots",
            "s",
            "-o",
            "t.csv",
        ],
    );
    assert!(p.join("s/freq-2^12.txt").exists());
}

/// A record run whose b-file reader goes away (`| head`) dies of SIGPIPE, as Unix tools do,
/// and leaves no temporary spill file behind (it left 4 MiB of one before).
#[cfg(unix)]
#[test]
fn a_closed_pipe_leaves_no_spill_file() {
    let d = tempfile::tempdir().unwrap();
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "'{}' record --game 0.167 --max 2^24 --keep 2^16 --values /dev/stdout | head -2",
            env!("CARGO_BIN_EXE_heaplab")
        ))
        .current_dir(d.path())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&o.stdout), "0 0\n1 1\n");
    let left: Vec<_> = std::fs::read_dir(d.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// `heaplab quotient`: the quotient of 0.75 is R8 (Plambeck–Siegel), its period proved;
/// JSON and CSV carry the same; a game without a quotient is refused in one line, exit 2.
#[test]
fn quotient_prints_r8_for_0_75() {
    let dir = tempfile::tempdir().unwrap();
    let out = ok(dir.path(), &["quotient", "--game", "0.75", "--max", "30"]);
    assert!(
        out.contains("order 8, P-portion of 2 elements: {a, b^2}"),
        "{out}"
    );
    assert!(
        out.contains("relations: a^2 = 1, bc = ab, c^2 = b^2, b^3 = b"),
        "{out}"
    );
    assert!(out.contains("period 2, proved"), "{out}");
    let v = json(
        dir.path(),
        &[
            "quotient",
            "--game",
            "misere(0.75)",
            "--max",
            "30",
            "--json",
            "-o",
            "q.csv",
        ],
    );
    assert_eq!(v["order"], 8);
    assert_eq!(v["p_portion"], json!(["a", "b^2"]));
    assert_eq!(v["period"]["preperiod"], 8);
    assert_eq!(v["period"]["proved"], true);
    assert_eq!(v["products"][1][1], 0);
    let csv = std::fs::read_to_string(dir.path().join("q.csv")).unwrap();
    assert_eq!(csv.lines().count(), 32);
    assert!(csv.lines().nth(2).unwrap().starts_with("1,"), "{csv}");
    for bad in [
        vec!["quotient", "--game", "squares", "--max", "5"],
        vec![
            "quotient", "--game", "0.75", "--max", "5", "--play", "normal",
        ],
        vec!["quotient", "--game", "0.75", "--max", "-3"],
        vec!["quotient", "--game", "0.75", "--with", "0.75", "--max", "5"],
        vec![
            "quotient", "--game", "0.75", "--with", "squares", "--max", "5",
        ],
        vec!["quotient", "--game", "0.75", "--max", "5", "-o", "q.txt"],
    ] {
        let o = heaplab(dir.path(), &bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{bad:?}: {err}");
    }
    // a joint quotient to any --max: every game's period is proved long before (heap
    // 180 for Kayles), so it is the quotient of every heap
    let out = ok(
        dir.path(),
        &[
            "quotient", "--game", "0.75", "--with", "0.77", "--max", "1.8e19",
        ],
    );
    assert!(
        out.contains("it is the quotient of every heap, 18000000000000000000 included"),
        "{out}"
    );
    // the joint quotient of 0.31, 0.52 and 0.75 is R8 again, each game's period proved;
    // with Kayles, order 48, generators named by game and heap
    let out = ok(
        dir.path(),
        &[
            "quotient", "--game", "0.31", "--with", "0.52", "--with", "0.75", "--max", "50",
        ],
    );
    assert!(
        out.contains("joint misère quotient of 0.31, 0.52 and 0.75"),
        "{out}"
    );
    assert!(
        out.contains("generators: a = 0.31:1, b = 0.31:2, c = 0.75:5"),
        "{out}"
    );
    assert!(
        out.contains("relations: a^2 = 1, bc = ab, c^2 = b^2, b^3 = b"),
        "{out}"
    );
    let v = json(
        dir.path(),
        &[
            "quotient", "--game", "0.75", "--with", "0.77", "--max", "200", "--json", "-o", "j.csv",
        ],
    );
    assert_eq!(v["order"], 48);
    assert_eq!(v["games"], json!(["0.75", "0.77"]));
    assert_eq!(v["periods"][1]["preperiod"], 71);
    assert_eq!(v["periods"][1]["proved"], true);
    assert_eq!(
        v["generators"][3],
        json!({"name": "d", "game": "0.77", "heap": 5})
    );
    let csv = std::fs::read_to_string(dir.path().join("j.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 2 * 201);
    assert!(csv.contains("\n0.77,200,"), "{csv}");
}

/// The quotient of an extended code (4!.0 is Grundy's game), the growth limit and its way
/// out (`--grow-to`), refusals that name the reason, the quotient in an outcome analysis,
/// and `who --all --json` on a misère sum saying whether its list is complete.
#[test]
fn quotient_limits_and_reasons() {
    let dir = tempfile::tempdir().unwrap();
    let ext = json(
        dir.path(),
        &["quotient", "--game", "4!.0", "--max", "20", "--json"],
    );
    let gg = json(
        dir.path(),
        &["quotient", "--game", "grundy-game", "--max", "20", "--json"],
    );
    assert_eq!(ext["order"], 48);
    for key in [
        "order",
        "p_portion",
        "relations",
        "heap_elements",
        "heap_words",
    ] {
        assert_eq!(ext[key], gg[key], "{key}");
    }
    // the heap map as ids (`heap_elements`, as in core and Python) and as words
    for n in 0..=20 {
        let id = ext["heap_elements"][n].as_u64().unwrap() as usize;
        assert_eq!(ext["heap_words"][n], ext["elements"][id], "heap {n}");
    }
    // Grundy's game grows again at heap 29, past the quick limit
    let o = heaplab(dir.path(), &["quotient", "--game", "4!.0", "--max", "30"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("grows at heap 29") && err.contains("--grow-to 29"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    // a --grow-to below the quick limit never makes it stricter
    let v = json(
        dir.path(),
        &[
            "quotient",
            "--game",
            "0.75",
            "--max",
            "30",
            "--grow-to",
            "3",
            "--json",
        ],
    );
    assert_eq!(v["order"], 8);
    for (game, why) in [
        ("0.G", "four or more heaps"),
        ("4=.0", "constraint"),
        ("squares", "not a take-and-break game"),
    ] {
        let o = heaplab(dir.path(), &["quotient", "--game", game, "--max", "9"]);
        assert_eq!(o.status.code(), Some(2), "{game}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(why) && err.trim().lines().count() == 1,
            "{game}: {err}"
        );
    }
    // a code whose digits repeat for ever is cut at N: 4.7[4] has order 8 and an observed
    // period; misère Nim (0.[3]) to 20 is tame, order 2^5 + 2; past 10^6, or beside
    // --with, refused in one line
    let v = json(
        dir.path(),
        &["quotient", "--game", "4.7[4]", "--max", "60", "--json"],
    );
    assert_eq!(v["order"], 8, "{v}");
    assert_eq!(v["period"]["preperiod"], 4, "{v}");
    assert_eq!(v["period"]["period"], 2, "{v}");
    assert_eq!(v["period"]["proved"], false, "{v}");
    assert!(v["period"]["proof_needs"].is_null(), "{v}");
    let out = ok(dir.path(), &["quotient", "--game", "4.7[4]", "--max", "60"]);
    assert!(out.contains("digits that repeat for ever"), "{out}");
    assert_eq!(
        json(
            dir.path(),
            &["quotient", "--game", "0.[3]", "--max", "20", "--json"]
        )["order"],
        34
    );
    for args in [
        &["quotient", "--game", "0.[3]", "--max", "2000000"][..],
        &[
            "quotient", "--game", "0.75", "--with", "0.[3]", "--max", "9",
        ],
    ] {
        let o = heaplab(dir.path(), args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("repeat") && err.trim().lines().count() == 1,
            "{args:?}: {err}"
        );
    }
    // a heap whose proof walk passes the quick budget is refused with the option that
    // proves it (0.71[2]: heap 77, in about 5 s)
    let o = heaplab(
        dir.path(),
        &["quotient", "--game", "0.71[2]", "--max", "120"],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("proving heap 77") && err.contains("--grow-to 77 (or more) to prove it"),
        "{err}"
    );
    std::fs::create_dir(dir.path().join("x.csv")).unwrap();
    let o = heaplab(
        dir.path(),
        &["quotient", "--game", "0.75", "--max", "9", "-o", "x.csv"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is a directory"));
    let a = json(
        dir.path(),
        &[
            "analyze", "--game", "0.75", "--play", "misere", "--max", "40", "--values", "outcome",
            "--json",
        ],
    );
    assert_eq!(a["quotient"]["order"], 8, "{a}");
    // 0.75: heap 100 splits 49 ways into a P-position here, all listed
    let v = json(
        dir.path(),
        &[
            "who", "--game", "0.75", "--play", "misere", "--all", "--json", "100", "7", "5",
        ],
    );
    assert_eq!(v["complete"], true);
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 52);
    let v = json(
        dir.path(),
        &[
            "who", "--game", "0.75", "--play", "misere", "--all", "--limit", "3", "--json", "100",
            "7", "5",
        ],
    );
    assert_eq!(v["complete"], false);
    // small heaps whose forms are slow go to a quotient proved at once: 0.75's decides
    // 50 + 60 (lost, both heaps b, b·b = b^2 in P), 0.53's a sum of four heaps
    let v = json(
        dir.path(),
        &[
            "who", "--game", "0.75", "--play", "misere", "--json", "50", "60",
        ],
    );
    assert_eq!(v["win"], false, "{v}");
    assert!(
        v["method"].as_str().unwrap().contains("misère quotient"),
        "{v}"
    );
    let v = json(
        dir.path(),
        &[
            "who", "--game", "0.53", "--play", "misere", "--json", "32", "25", "37", "2",
        ],
    );
    assert!(v["method"].as_str().unwrap().contains("order 16"), "{v}");
    // a rule that leaves three heaps gets no quotient proof, so no try, and its forms'
    // pilot stops at 2e6 options: heap 3 of 0.F (took minutes before) is a P-position
    let out = ok(
        dir.path(),
        &["who", "--game", "0.F", "--play", "misere", "3"],
    );
    assert!(out.contains("lose (P-position)"), "{out}");
}

/// `who --play misere` on heaps near 10^6 of 0.75 and of Kayles, and of both at once,
/// answers through the proved (joint) quotient; the winning move leaves a sum that `who`
/// itself calls lost.
#[test]
fn who_decides_huge_misere_sums_by_the_quotient() {
    let dir = tempfile::tempdir().unwrap();
    // the sum that `v`'s winning move leaves, asked of `who` again: lost
    let loss_of = |game: &str, v: &serde_json::Value| {
        let after: Vec<String> = v["winning_move"]["result"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["n"].to_string())
            .collect();
        let mut args = vec!["who", "--game", game, "--play", "misere", "--json"];
        args.extend(after.iter().map(String::as_str));
        let w = json(dir.path(), &args);
        assert_eq!(w["win"], false, "{w}");
    };
    let leaves_a_loss = |v: &serde_json::Value| loss_of("0.75", v);
    let v = json(
        dir.path(),
        &[
            "who", "--game", "0.75", "--play", "misere", "1000000", "999999", "7", "--json",
        ],
    );
    assert_eq!(v["win"], true);
    assert!(v["method"]
        .as_str()
        .unwrap()
        .contains("misère quotient of order 8"));
    leaves_a_loss(&v);
    // a heap near 10^18 (its splits are tried only up to n0 + 2p), first in the sum
    let v = json(
        dir.path(),
        &[
            "who",
            "--game",
            "0.75",
            "--play",
            "misere",
            "1000000000000000001",
            "6",
            "3",
            "--json",
        ],
    );
    assert_eq!(v["win"], true);
    leaves_a_loss(&v);
    // Kayles near 10^6: its quotient (order 40, period 12 from heap 71) is proved by
    // guesses at heap 180, so the sum is decided and the winning move checked
    let v = json(
        dir.path(),
        &[
            "who", "--game", "0.77", "--play", "misere", "1000000", "999998", "--json",
        ],
    );
    assert_eq!(v["win"], true);
    loss_of("0.77", &v);
    let v = json(
        dir.path(),
        &[
            "who", "--game", "0.77", "--play", "misere", "1000000", "999999", "777777", "123457",
            "--json",
        ],
    );
    assert_eq!(v["win"], false);
    // heaps of two games: their joint quotient (order 48) decides the sum, and the sum the
    // winning move leaves, written back as game:heap terms, is lost
    let v = json(
        dir.path(),
        &[
            "who",
            "--play",
            "misere",
            "0.75:1000000",
            "0.77:999999",
            "0.77:5",
            "--json",
        ],
    );
    assert_eq!(v["win"], true, "{v}");
    let method = v["method"].as_str().unwrap();
    assert!(
        method.contains("joint misère quotient of 0.75 and 0.77, order 48"),
        "{v}"
    );
    let after: Vec<String> = v["winning_move"]["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| format!("{}:{}", r["game"].as_str().unwrap(), r["n"]))
        .collect();
    let mut args = vec!["who", "--json"];
    args.extend(after.iter().map(String::as_str));
    let w = json(dir.path(), &args);
    assert_eq!(w["win"], false, "{w}");
    // a game without a proof (0.F may leave three heaps) beside proved ones: the joint
    // quotient goes only until each game is proved or covers its heap in the sum (74 s
    // before, to heap 4096 of each)
    let v = json(
        dir.path(),
        &[
            "who",
            "--play",
            "misere",
            "0.F:5",
            "0.75:1000000",
            "0.77:7",
            "--json",
        ],
    );
    assert_eq!(v["win"], true, "{v}");
    let method = v["method"].as_str().unwrap();
    assert!(
        method.contains("0.75 periodic from heap 8 with period 2, proved"),
        "{v}"
    );
    // two spellings of Grundy's game are one game of the joint quotient
    let o = heaplab(
        dir.path(),
        &[
            "who",
            "--play",
            "misere",
            "4!.0:1000000",
            "grundy-game:7",
            "0.75:1000",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("joint misère quotient of 4!.0 and 0.75 "),
        "{err}"
    );
    // a heap of a game without a quotient is named as what keeps the quotient out
    let o = heaplab(
        dir.path(),
        &["who", "--play", "misere", "squares:5", "0.75:1000000"],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("squares is not one"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}
