//! Runs that would take the machine: refused up front in one line with exit code 2 (naming
//! the largest size that fits; misère sums are tested in the core, whose budget a test can
//! set), or, under an address-space limit (`ulimit -v`), ended by
//! the one-line refusal with nothing left behind — never an abort or a panic.

use std::path::Path;
use std::process::{Command, Output};

fn heaplab(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_heaplab"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run heaplab")
}

/// `heaplab ARGS` under `ulimit -v KB` (through sh, which sets the limit for the program
/// it runs).
fn limited(dir: &Path, kb: u64, args: &[&str]) -> Output {
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {kb} && exec '{}' {}",
            env!("CARGO_BIN_EXE_heaplab"),
            quoted.join(" ")
        ))
        .current_dir(dir)
        .output()
        .expect("run sh")
}

/// Exit code 2 and one error line on stderr, the last, which contains `needle` (lines
/// before it may announce estimates).
fn refused(o: &Output, needle: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(
        err.lines().filter(|l| l.starts_with("error")).count(),
        1,
        "{err}"
    );
    let last = err.lines().last().unwrap_or("");
    assert!(
        last.starts_with("error: ") && last.contains(needle),
        "{err}"
    );
}

/// The least address-space limit (KB, in steps of 16 MB) under which the binary starts and
/// lists its games: a debug build maps far more than a release one.
fn starting_limit(dir: &Path) -> u64 {
    (0..200)
        .map(|k| 32_768 + k * 16_384)
        .find(|&kb| limited(dir, kb, &["games"]).status.success())
        .expect("heaplab starts under some limit")
}

#[test]
fn wide_coin_turning_is_refused_before_work() {
    let dir = tempfile::tempdir().unwrap();
    let t = std::time::Instant::now();
    let o = heaplab(
        dir.path(),
        &[
            "table",
            "--game",
            "turning{1-30}",
            "--max",
            "34",
            "--grundy",
            "-o",
            "t.csv",
        ],
    );
    refused(&o, "use N <= ");
    let o = heaplab(dir.path(), &["who", "--game", "turning{1-40}", "50"]);
    refused(&o, "use n <= ");
    assert!(t.elapsed().as_secs() < 60, "estimated, not run");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
#[cfg(target_os = "linux")]
fn an_address_space_limit_ends_in_one_line_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    // 32 MB of address space more than it takes to start: not enough for these runs
    let kb = starting_limit(dir.path()) + 32_768;
    for args in [
        &["report", "--game", "squares", "--max", "1e7", "-o", "r"][..],
        &[
            "plot", "--game", "squares", "--max", "1e7", "--kind", "grundy", "-o", "p.png",
        ],
        &[
            "sweep",
            "--game",
            "squares|sub{b}",
            "--param",
            "b=2..40",
            "--max",
            "1e6",
        ],
        &["who", "--game", "0.07", "--play", "misere", "70", "71"],
        &[
            "check",
            "--game",
            "squares",
            "--max",
            "1e7",
            "--claim",
            "grundy < 100",
        ],
        &[
            "table",
            "--game",
            "0.167",
            "--max",
            "1e8",
            "--grundy",
            "-o",
            "t.parquet",
        ],
    ] {
        let o = limited(dir.path(), kb, args);
        refused(&o, "");
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert!(left.is_empty(), "{args:?} left {left:?}");
    }
}

#[test]
fn negative_numbers_are_named_not_taken_for_flags() {
    let dir = tempfile::tempdir().unwrap();
    for (args, says) in [
        (
            &[
                "plot", "--game", "nim", "--max", "10", "--kind", "grundy", "--size", "-100x100",
                "-o", "x.png",
            ][..],
            "--size must look like 1200x600, not `-100x100`",
        ),
        (
            &[
                "plot", "--game", "nim", "--max", "10", "--kind", "fold", "--width", "-5", "-o",
                "x.png",
            ],
            "`-5` is negative",
        ),
        (
            &[
                "table",
                "--game",
                "nim",
                "--max",
                "10",
                "--grundy",
                "--checkpoint",
                "c",
                "--checkpoint-every",
                "-1",
            ],
            "`-1` is not a number of seconds",
        ),
    ] {
        let o = heaplab(dir.path(), args);
        refused(&o, says);
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// `check --witness`: the first counterexample as a minimal proof — the claim with the
/// values the row reads, and the heap's value from one option per smaller value.
#[test]
fn refuted_claims_come_with_a_witness() {
    let dir = tempfile::tempdir().unwrap();
    let o = heaplab(
        dir.path(),
        &[
            "check",
            "--game",
            "squares",
            "--max",
            "1000",
            "--claim",
            "grundy < 5",
            "--witness",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[1],
        "witness: `grundy < 5` at this row is `grundy=5 < 5`, which is not true"
    );
    // subtract-a-square, heap 29: options 28, 25, 20, 13, 4 with values 4, 3, 0, 1, 2
    assert_eq!(
        lines[2],
        "  g(29) = 5: options reach 0 (leave 20), 1 (leave 13), 2 (leave 4), 3 (leave 25), \
         4 (leave 28); none of its 5 options has 5"
    );
    let o = heaplab(
        dir.path(),
        &[
            "check",
            "--game",
            "0.77",
            "--max",
            "100",
            "--claim",
            "win = (n % 4 <> 0)",
            "--witness",
            "--json",
        ],
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v["witness"]["proof"],
        "g(4) = 1: options reach 0 (leave 1 + 1); none of its 4 options has 1"
    );
}
