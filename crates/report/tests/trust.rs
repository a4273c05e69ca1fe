//! Long runs and outputs that can be trusted: damaged checkpoints are refused, outputs
//! never replace what a descriptor points to, modes follow the umask, two runs never share
//! a checkpoint, a kill loses at most seconds of work, and hopeless runs are refused up
//! front with an estimate.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_heaplab");

fn heaplab(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run heaplab")
}

/// A refusal: exit code 2 and one error line on stderr, which contains `says`. (A loaded
/// machine may announce a run's estimate first, before the refusal: that note is not part
/// of the error.)
fn refused(o: &Output, says: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    let error_lines = err
        .trim_end()
        .lines()
        .filter(|l| !(l.starts_with("heaplab: ") && l.contains(" is estimated at about ")))
        .count();
    assert_eq!(error_lines, 1, "{err}");
    assert!(err.contains(says), "expected `{says}` in: {err}");
}

fn sh(dir: &Path, script: &str) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .env("H", BIN)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// Runs `args` until the checkpoint `cp` exists, then kills it (SIGKILL).
fn kill_after_checkpoint(dir: &Path, args: &[&str], cp: &Path) -> bool {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while !cp.exists() && t.elapsed() < Duration::from_secs(60) {
        assert!(
            child.try_wait().unwrap().is_none(),
            "ended before a checkpoint"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    child.wait().unwrap();
    running
}

/// Subtract-a-square's P-positions to 10^9 into `X.txt`, checkpointed to `X.ckpt` every
/// 0.2 s.
const LOSERS_CHECKPOINTED: [&str; 11] = [
    "losers",
    "--game",
    "squares",
    "--max",
    "1e9",
    "-o",
    "X.txt",
    "--checkpoint",
    "X.ckpt",
    "--checkpoint-every",
    "0.2",
];

#[test]
fn damaged_checkpoints_and_partial_files_are_refused() {
    let d = tempfile::tempdir().unwrap();
    let args = LOSERS_CHECKPOINTED;
    kill_after_checkpoint(d.path(), &args, &d.path().join("X.ckpt"));
    let ckpt = std::fs::read(d.path().join("X.ckpt")).unwrap();
    let partial = std::fs::read(d.path().join("X.txt.partial")).unwrap();
    let put = |ck: &[u8], pa: &[u8]| {
        std::fs::write(d.path().join("X.ckpt"), ck).unwrap();
        std::fs::write(d.path().join("X.txt.partial"), pa).unwrap();
    };
    // the checkpoint: a bit flipped at 100 places, truncated at 20 lengths
    for i in 0..100 {
        let mut b = ckpt.clone();
        b[i * ckpt.len() / 100] ^= 1 << (i % 8);
        put(&b, &partial);
        refused(&heaplab(d.path(), &args), "checkpoint `X.ckpt`");
    }
    for i in 0..20 {
        put(&ckpt[..i * ckpt.len() / 20], &partial);
        refused(&heaplab(d.path(), &args), "checkpoint `X.ckpt`");
    }
    // the partial output: one digit changed, truncated below the saved length, removed
    let mut p = partial.clone();
    let i = (p.len() / 2..p.len())
        .find(|&i| p[i].is_ascii_digit())
        .unwrap();
    p[i] = b'0' + (p[i] - b'0' + 1) % 10;
    put(&ckpt, &p);
    refused(&heaplab(d.path(), &args), "does not match checkpoint");
    put(&ckpt, &partial[..partial.len() / 2]);
    refused(&heaplab(d.path(), &args), "does not match checkpoint");
    std::fs::remove_file(d.path().join("X.txt.partial")).unwrap();
    refused(
        &heaplab(d.path(), &args),
        "goes on from `X.txt.partial`, which is missing: copy it with the checkpoint",
    );
    // a checkpoint of another run
    put(&ckpt, &partial);
    let mut other = args;
    other[2] = "cubes";
    refused(
        &heaplab(d.path(), &other),
        "belongs to another run, with game squares",
    );
    // none of this left a final file; the intact pair still resumes, to the end
    assert!(!d.path().join("X.txt").exists());
    // (the output spelled another way is the same output)
    let mut again = args;
    again[6] = "./X.txt";
    let o = heaplab(d.path(), &again[..9]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("resuming squares from checkpoint"));
    let whole = heaplab(
        d.path(),
        &["losers", "--game", "squares", "--max", "1e9", "-o", "Y.txt"],
    );
    assert!(whole.status.success());
    let (x, y) = (
        std::fs::read(d.path().join("X.txt")).unwrap(),
        std::fs::read(d.path().join("Y.txt")).unwrap(),
    );
    assert!(x == y, "resumed {} bytes, whole {} bytes", x.len(), y.len());
}

/// `args` run in `dir` with the checkpoint key kept at `key`.
fn heaplab_keyed(dir: &Path, args: &[&str], key: &Path) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env("HEAPLAB_CHECKPOINT_KEY", key)
        .output()
        .expect("run heaplab")
}

/// `sealed` with byte `at` of its body changed and its xxh3 computed afresh, its keyed
/// seal kept: what someone who edits a checkpoint without the key can make.
fn forged(sealed: &[u8], at: usize) -> Vec<u8> {
    let body = sealed.len() - 40;
    let mut b = sealed[..body].to_vec();
    b[at] ^= 1 << (at % 8);
    let sum = xxhash_rust::xxh3::xxh3_64(&b);
    b.extend_from_slice(&sum.to_le_bytes());
    b.extend_from_slice(&sealed[body + 8..]);
    b
}

/// Forged checkpoints of `losers` and `table --grundy` — any stored field changed, the
/// checksum computed afresh — are refused; so is a checkpoint made under another key, and a
/// key file that holds no key. The key is made on first use, readable by the user only.
#[test]
fn forged_checkpoints_and_other_keys_are_refused() {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    let key = p.join("keys/mine.key");
    let losers = LOSERS_CHECKPOINTED;
    let table = [
        "table",
        "--grundy",
        "--game",
        "0.6",
        "--max",
        "2^22",
        "-o",
        "t.csv",
        "--checkpoint",
        "t.ckpt",
        "--checkpoint-every",
        "0",
    ];
    for (args, cp, out) in [
        (&losers[..], "X.ckpt", "X.txt"),
        (&table[..], "t.ckpt", "t.csv"),
    ] {
        let mut child = Command::new(BIN)
            .args(args)
            .current_dir(p)
            .env("HEAPLAB_CHECKPOINT_KEY", &key)
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let t = Instant::now();
        while !p.join(cp).exists() && t.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(100));
        child.kill().unwrap();
        child.wait().unwrap();
        let sealed = std::fs::read(p.join(cp)).unwrap();
        let mode = std::fs::metadata(&key).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "the key is the user's alone");
        assert_eq!(std::fs::read_to_string(&key).unwrap().trim().len(), 64);
        // every field: 60 places spread over the body, the first and last bytes included
        let body = sealed.len() - 40;
        for i in 0..60 {
            let at = i * (body - 1) / 59;
            std::fs::write(p.join(cp), forged(&sealed, at)).unwrap();
            let o = heaplab_keyed(p, args, &key);
            // (a table checkpoint's first 8 bytes name its type: read first)
            refused(
                &o,
                match cp == "t.ckpt" && at < 8 {
                    true => "is not a heaplab Grundy-table checkpoint",
                    false => "was not sealed with the checkpoint key",
                },
            );
            assert!(!p.join(out).exists(), "no output from a forged checkpoint");
        }
        // no key where one is looked for: none is made (it could not open the checkpoint)
        std::fs::write(p.join(cp), &sealed).unwrap();
        let other = p.join("other.key");
        let _ = std::fs::remove_file(&other);
        refused(
            &heaplab_keyed(p, args, &other),
            &format!("there is no checkpoint key at `{}`", other.display()),
        );
        assert!(!other.exists());
        // the real one under another key is refused the same way as a forged one
        std::fs::write(&other, format!("{}\n", "5a".repeat(32))).unwrap();
        let private =
            |f: &Path| std::fs::set_permissions(f, std::fs::Permissions::from_mode(0o600)).unwrap();
        private(&other);
        refused(
            &heaplab_keyed(p, args, &other),
            &format!(
                "was not sealed with the checkpoint key `{}`",
                other.display()
            ),
        );
        // a key file that holds no key
        std::fs::write(p.join("bad.key"), "not a key\n").unwrap();
        private(&p.join("bad.key"));
        refused(
            &heaplab_keyed(p, args, &p.join("bad.key")),
            "is not 64 hexadecimal digits",
        );
        // a key others may read is refused: they could seal checkpoints
        std::fs::set_permissions(&other, std::fs::Permissions::from_mode(0o644)).unwrap();
        refused(
            &heaplab_keyed(p, args, &other),
            "others may read or change it (mode 644)",
        );
        // under its own key it resumes, to the end
        let o = heaplab_keyed(p, args, &key);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(String::from_utf8_lossy(&o.stderr).contains("resuming"));
        assert!(!p.join(cp).exists() && p.join(out).exists());
    }
}

#[test]
fn descriptors_are_written_through_and_closed_stdout_is_an_error() {
    let d = tempfile::tempdir().unwrap();
    let o = sh(
        d.path(),
        "echo keep > a.txt; $H losers --game squares --max 10 -o /dev/stdout --format bfile >> a.txt",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let a = std::fs::read_to_string(d.path().join("a.txt")).unwrap();
    assert!(a.starts_with("keep\n0 0\n1 2\n2 5\n"), "{a}");
    let o = sh(
        d.path(),
        "{ echo header; $H table --game squares --max 3 -o /dev/stdout --format csv; echo footer; } > g.csv",
    );
    assert!(o.status.success());
    let g = std::fs::read_to_string(d.path().join("g.csv")).unwrap();
    assert!(
        g.starts_with("header\nn,win\n0,false\n") && g.ends_with("3,true\nfooter\n"),
        "{g}"
    );
    // without --format a descriptor takes CSV, as stdout does
    let o = sh(
        d.path(),
        "$H table --game squares --max 2 -o /dev/stdout > c.csv",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let c = std::fs::read_to_string(d.path().join("c.csv")).unwrap();
    assert!(c.starts_with("n,win\n0,false\n"), "{c}");
    for cmd in [
        "$H table --game squares --max 1000 >&-",
        "$H losers --game squares --max 1000 >&-",
        "$H who --game squares 1000 >&-",
        "$H count --game squares --heaps 2 --max 100 >&-",
        "$H analyze --game kayles --max 100 >&-",
        "$H games >&-",
        "$H who --game squares 1000 --json >&-",
        "$H table --game squares --max 1000 -o t.csv --json >&-",
        "$H losers --game squares --max 1000 --count >&-",
        "$H losers --game squares --max 1000 -o l.txt --json >&-",
        "$H sweep --game 'sub{1,k}' --param k=2..4 --max 100 >&-",
        "$H census --game 'sub{1,a}' --param a=2..4 --max 100 --list >&-",
        "$H census --game 'sub{1,a}' --param a=2..4 --max 100 >&-",
        "$H plot --game 0.77 --max 100 --kind fold -o p.png --json >&-",
        "$H report --game 0.77 --max 100 -o r --json >&-",
    ] {
        let o = sh(d.path(), cmd);
        refused(&o, "stdout");
    }
    // a file written to stdout beside a JSON answer there: refused, nothing written
    for cmd in [
        "$H table --game 0.77 --max 10 -o /dev/stdout --json",
        "$H losers --game squares --max 100 -o /dev/stdout --json",
        "$H table --game 0.77 --max 10 -o same.csv --json > same.csv",
    ] {
        let o = sh(d.path(), cmd);
        refused(&o, "where --json prints too");
        assert!(o.stdout.is_empty(), "{cmd}");
    }
    assert_eq!(std::fs::read(d.path().join("same.csv")).unwrap(), b"");
    assert!(!d.path().join("t.csv").exists() && !d.path().join("p.png").exists());
    // a file-size limit ends a run in one line with nothing left behind (no SIGXFSZ)
    std::fs::create_dir(d.path().join("big")).unwrap();
    let o = sh(
        &d.path().join("big"),
        "ulimit -f 64; exec $H table --game squares --max 1e6 --grundy -o t.csv",
    );
    refused(&o, "cannot write `t.csv`: File too large");
    assert_eq!(std::fs::read_dir(d.path().join("big")).unwrap().count(), 0);
}

#[cfg(unix)]
#[test]
fn modes_follow_the_umask_and_replaced_files_keep_theirs() {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    let mode = |n: &str| {
        std::fs::metadata(d.path().join(n))
            .unwrap()
            .permissions()
            .mode()
            & 0o777
    };
    let o = sh(
        d.path(),
        "umask 077; $H table --game squares --max 3 -o a.csv",
    );
    assert!(o.status.success());
    assert_eq!(mode("a.csv"), 0o600);
    let o = sh(
        d.path(),
        "umask 022; $H table --game squares --max 3 -o b.csv",
    );
    assert!(o.status.success());
    assert_eq!(mode("b.csv"), 0o644);
    std::fs::set_permissions(
        d.path().join("b.csv"),
        std::fs::Permissions::from_mode(0o640),
    )
    .unwrap();
    let o = sh(
        d.path(),
        "umask 022; $H table --game squares --max 5 -o b.csv",
    );
    assert!(o.status.success());
    assert_eq!(mode("b.csv"), 0o640, "a replaced file keeps its mode");
    let o = sh(
        d.path(),
        "umask 027; $H report --game squares --max 30 -o rep",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(mode("rep"), 0o750);
    assert_eq!(mode("rep/summary.md"), 0o640);
}

#[test]
fn two_runs_never_share_a_checkpoint_and_the_first_save_comes_early() {
    let d = tempfile::tempdir().unwrap();
    let args = [
        "losers",
        "--game",
        "squares",
        "--max",
        "1e11",
        "-o",
        "L.txt",
        "--checkpoint",
        "L.ckpt",
    ];
    let mut first = Command::new(BIN)
        .args(args)
        .current_dir(d.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let lock = d.path().join("L.ckpt.lock");
    let t = Instant::now();
    while !lock.exists() && t.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(20));
    }
    refused(&heaplab(d.path(), &args), "in use by another heaplab run");
    // the default interval is 300 s, but the first checkpoint comes after 10 s
    let cp = d.path().join("L.ckpt");
    while !cp.exists() && t.elapsed() < Duration::from_secs(40) {
        std::thread::sleep(Duration::from_millis(100));
    }
    let saved = cp.exists();
    first.kill().unwrap();
    first.wait().unwrap();
    assert!(saved, "no checkpoint after {:?}", t.elapsed());
    // the killed run's lock goes with it
    let o = heaplab(
        d.path(),
        &[
            "losers",
            "--game",
            "squares",
            "--max",
            "1e7",
            "--count",
            "--checkpoint",
            "M.ckpt",
        ],
    );
    assert!(o.status.success());
}

#[test]
fn hopeless_runs_are_refused_up_front_with_the_largest_n_that_fits() {
    let d = tempfile::tempdir().unwrap();
    let sevens = format!("0.{}", "7".repeat(40));
    let t = Instant::now();
    for args in [
        vec!["who", "--game", sevens.as_str(), "1e18"],
        vec![
            "table",
            "--game",
            sevens.as_str(),
            "--max",
            "1e9",
            "--grundy",
        ],
        vec!["losers", "--game", "primes", "--max", "1e9", "--count"],
        vec![
            "check",
            "--game",
            "primes",
            "--max",
            "1e9",
            "--claim",
            "n >= 0 AND win",
        ],
    ] {
        let o = heaplab(d.path(), &args);
        refused(&o, "<=");
        let err = String::from_utf8_lossy(&o.stderr).to_lowercase();
        assert!(err.contains("use n <="), "{err}");
    }
    assert!(t.elapsed() < Duration::from_secs(120), "{:?}", t.elapsed());
}

#[test]
fn messages_stay_one_clear_line() {
    let d = tempfile::tempdir().unwrap();
    let long = "x".repeat(100_000);
    let ctrl = "foo\u{1b}[31mbar\u{7}";
    let name = format!("{}.csv", "a".repeat(246));
    for (args, says) in [
        (
            vec!["table", "--game", long.as_str(), "--max", "3"],
            "unknown game family",
        ),
        (
            vec!["table", "--game", ctrl, "--max", "3"],
            "invalid game spec",
        ),
        (
            vec![
                "check",
                "--game",
                "sub{1,2,3}",
                "--max",
                "10",
                "--claim",
                "n = 0 OR 1",
            ],
            "true/false",
        ),
        (
            vec![
                "sweep", "--game", "sub{1,k}", "--param", "k=", "--max", "10",
            ],
            "no values",
        ),
        (
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
                "--random",
                "0",
            ],
            "at least 1",
        ),
        (
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
                "--random",
                "5",
                "--seed",
                "-1",
            ],
            "negative",
        ),
        (
            vec![
                "table", "--game", "squares", "--max", "10", "--format", "bfile",
            ],
            "invalid value 'bfile'",
        ),
    ] {
        let o = heaplab(d.path(), &args);
        refused(&o, says);
        assert!(
            !String::from_utf8_lossy(&o.stderr)
                .chars()
                .any(|c| c.is_control() && c != '\n'),
            "{args:?}"
        );
        assert!(o.stderr.len() < 2000, "{args:?}: {} bytes", o.stderr.len());
    }
    // a file name of 250 bytes is written (its temporary name is shorter)
    let o = heaplab(
        d.path(),
        &["table", "--game", "squares", "--max", "3", "-o", &name],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // a claim may start with '-'
    let o = heaplab(
        d.path(),
        &[
            "check", "--game", "squares", "--max", "10", "--claim", "-n <= 0",
        ],
    );
    assert!(o.status.success());
    std::fs::write(d.path().join("FILE"), "x").unwrap();
    refused(
        &heaplab(
            d.path(),
            &["report", "--game", "squares", "--max", "10", "-o", "FILE"],
        ),
        "exists and is not a folder",
    );
}

#[test]
fn attack_pass_reproductions_are_fixed() {
    let d = tempfile::tempdir().unwrap();
    // a report folder whose report-named entry is a folder holding notes is refused
    assert!(heaplab(
        d.path(),
        &["report", "--game", "sub{1,2,3}", "--max", "100", "-o", "r"]
    )
    .status
    .success());
    std::fs::remove_file(d.path().join("r/table.csv")).unwrap();
    std::fs::create_dir(d.path().join("r/table.csv")).unwrap();
    std::fs::write(d.path().join("r/table.csv/notes.txt"), "notes").unwrap();
    refused(
        &heaplab(
            d.path(),
            &["report", "--game", "sub{1,2,3}", "--max", "100", "-o", "r"],
        ),
        "not part of a report",
    );
    assert!(d.path().join("r/table.csv/notes.txt").exists());
    // checkpoints that are no regular files are refused at once, whatever they hold
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("/dev/zero", d.path().join("z.ckpt")).unwrap();
        let t = Instant::now();
        let o = heaplab(
            d.path(),
            &[
                "losers",
                "--game",
                "squares",
                "--max",
                "1e6",
                "-o",
                "l.csv",
                "--checkpoint",
                "z.ckpt",
            ],
        );
        refused(&o, "not a regular file");
        assert!(t.elapsed() < Duration::from_secs(10));
        let fifo = d.path().join("f.ckpt");
        assert!(Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        let o = heaplab(
            d.path(),
            &[
                "losers",
                "--game",
                "squares",
                "--max",
                "1e6",
                "-o",
                "l.csv",
                "--checkpoint",
                "f.ckpt",
            ],
        );
        refused(&o, "not a regular file");
    }
    // a row of two billion piles is refused, not allocated
    let o = heaplab(
        d.path(),
        &[
            "stone-check",
            "--variant",
            "3",
            "--len",
            "2e9",
            "--values",
            "5..5",
            "--claim",
            "true",
            "--random",
            "1",
        ],
    );
    refused(&o, "longer than");
    let t = Instant::now();
    let o = heaplab(
        d.path(),
        &[
            "stone-check",
            "--variant",
            "3",
            "--len",
            "1..1e9",
            "--values",
            "5..5",
            "--claim",
            "true",
        ],
    );
    refused(&o, "longer than");
    assert!(t.elapsed() < Duration::from_secs(10));
    // piles between commas and spaces, in any mix
    std::fs::write(d.path().join("piles.txt"), "1 , 2\n3,4  5\n").unwrap();
    let o = heaplab(
        d.path(),
        &["stone", "--variant", "3", "--piles", "@piles.txt", "--json"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("\"piles\":[1,2,3,4,5]"));
    // a checkpoint behind a link goes with the link when the run ends
    #[cfg(unix)]
    {
        std::fs::create_dir(d.path().join("cps")).unwrap();
        std::os::unix::fs::symlink("cps/real.ckpt", d.path().join("link.ckpt")).unwrap();
        let args = [
            "losers",
            "--game",
            "squares",
            "--max",
            "3e8",
            "-o",
            "m.txt",
            "--checkpoint",
            "link.ckpt",
            "--checkpoint-every",
            "0.1",
        ];
        let o = heaplab(d.path(), &args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(
            !d.path().join("cps/real.ckpt").exists(),
            "the checkpoint is gone"
        );
    }
}

/// `table --grundy --checkpoint`: a run killed after a checkpoint resumes to a table
/// byte-identical to an uninterrupted one, with the same frequency snapshots; checkpoints
/// of another game or damaged are refused, and games whose engines
/// cannot continue a table are refused up front.
#[test]
fn grundy_table_checkpoints_resume_to_identical_tables() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    let mut resumed = 0;
    for (game, max) in [("0.6", "2^19"), ("primes", "2e6"), ("sub{2,5,7}", "2e6")] {
        let full = ["table", "--grundy", "--game", game, "--max", max];
        let o = heaplab(
            p,
            &[&full[..], &["-o", "ref.csv", "--snapshots", "ref"]].concat(),
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let args = [
            &full[..],
            &[
                "-o",
                "run.csv",
                "--snapshots",
                "run",
                "--checkpoint",
                "t.ckpt",
            ],
            &["--checkpoint-every", "0"],
        ]
        .concat();
        kill_after_checkpoint(p, &args, &p.join("t.ckpt"));
        let killed_early = !p.join("run.csv").exists();
        let o = heaplab(p, &args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        if killed_early {
            resumed += 1;
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(err.contains("heaplab: resuming"), "{err}");
        }
        assert_eq!(
            std::fs::read(p.join("run.csv")).unwrap(),
            std::fs::read(p.join("ref.csv")).unwrap(),
            "{game}"
        );
        assert!(
            !p.join("t.ckpt").exists(),
            "a finished run removes its checkpoint"
        );
        let names = |dir: &str| {
            let mut v: Vec<_> = std::fs::read_dir(p.join(dir))
                .unwrap()
                .map(|e| e.unwrap().file_name())
                .collect();
            v.sort();
            v
        };
        assert_eq!(names("run"), names("ref"));
        for f in names("ref") {
            assert_eq!(
                std::fs::read(p.join("run").join(&f)).unwrap(),
                std::fs::read(p.join("ref").join(&f)).unwrap()
            );
        }
        std::fs::remove_dir_all(p.join("run")).unwrap();
        std::fs::remove_dir_all(p.join("ref")).unwrap();
    }
    assert!(resumed >= 1, "no run was killed before its end");
    // 0.6 to 2^10: 1025 values, and its snapshot has them all
    let o = heaplab(
        p,
        &[
            "table",
            "--grundy",
            "--game",
            "0.6",
            "--max",
            "1024",
            "--snapshots",
            "s",
        ],
    );
    assert!(o.status.success());
    let snap = std::fs::read_to_string(p.join("s/freq-2^10.txt")).unwrap();
    // heaps 1..=2^10, every value from 0 to the largest on its own line, as record tables
    let mut total = 0u64;
    for (v, l) in snap.lines().enumerate() {
        let (value, count) = l.split_once(' ').unwrap();
        assert_eq!(value.parse::<usize>().unwrap(), v);
        total += count.parse::<u64>().unwrap();
    }
    assert_eq!(total, 1024);
    // a checkpoint of another game, damaged, of another version
    let args = |game: &str, max: &str| {
        [
            "table",
            "--grundy",
            "--game",
            game,
            "--max",
            max,
            "-o",
            "x.csv",
            "--checkpoint",
            "o.ckpt",
            "--checkpoint-every",
            "0",
        ]
        .map(String::from)
    };
    // (a larger table when the run ended before the kill: a loaded machine is slow)
    let mut max = 19;
    let a6 = loop {
        let a6: Vec<String> = args("0.6", &format!("2^{max}")).to_vec();
        let a: Vec<&str> = a6.iter().map(|s| s.as_str()).collect();
        if kill_after_checkpoint(p, &a, &p.join("o.ckpt")) && p.join("o.ckpt").exists() {
            break a6;
        }
        max += 1;
        assert!(max <= 23, "every run ended before its kill");
    };
    let a6: Vec<&str> = a6.iter().map(|s| s.as_str()).collect();
    let other: Vec<String> = args("0.16", &format!("2^{max}")).to_vec();
    let other: Vec<&str> = other.iter().map(|s| s.as_str()).collect();
    refused(&heaplab(p, &other), "belongs to game 0.6, not 0.16");
    let mut bytes = std::fs::read(p.join("o.ckpt")).unwrap();
    let keep = bytes.clone();
    // (a value: the last 40 bytes are the seal)
    let last = bytes.len() - 50;
    bytes[last] ^= 1;
    std::fs::write(p.join("o.ckpt"), &bytes).unwrap();
    refused(&heaplab(p, &a6), "is damaged");
    // (another version: the unit tests of `segments`)
    std::fs::write(p.join("o.ckpt"), &keep).unwrap();
    assert!(heaplab(p, &a6).status.success());
    // what cannot be continued, or is not asked for right
    refused(
        &heaplab(
            p,
            &[
                "table",
                "--grundy",
                "--game",
                "allbut{1,2}",
                "--max",
                "100",
                "--checkpoint",
                "a.ckpt",
            ],
        ),
        "--checkpoint works for take-and-break codes",
    );
    refused(
        &heaplab(
            p,
            &[
                "table",
                "--game",
                "0.6",
                "--max",
                "100",
                "--checkpoint",
                "a.ckpt",
            ],
        ),
        "add --grundy",
    );
    refused(
        &heaplab(
            p,
            &[
                "table",
                "--grundy",
                "--game",
                "0.6",
                "--max",
                "100",
                "--snapshots",
                "x.csv",
            ],
        ),
        "is not a folder",
    );
    // a checkpoint inside the snapshot folder would be removed with a snapshot's name
    let o = heaplab(
        p,
        &[
            "table",
            "--grundy",
            "--game",
            "0.6",
            "--max",
            "2^11",
            "-o",
            "y.csv",
            "--snapshots",
            "fresh",
            "--checkpoint",
            "fresh/freq-2^11.txt",
        ],
    );
    refused(&o, "is in the snapshot folder `fresh`");
    assert!(
        !p.join("fresh").exists(),
        "the folder made is removed again"
    );
}

/// After SIGTERM no `.lock` stays; after `kill -9` the next run for the same output removes
/// the killed run's temporary file; a run with a smaller N reads a longer run's checkpoint
/// and leaves it in place for that run.
#[test]
fn killed_runs_leave_nothing_the_next_run_does_not_clean() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    let long = [
        "table",
        "--grundy",
        "--game",
        "0.167",
        "--max",
        "3e8",
        "-o",
        "t.parquet",
        "--checkpoint",
        "t.ckpt",
        "--checkpoint-every",
        "0",
    ];
    // SIGTERM: the interrupt handler removes the temporary table and the lock
    let mut child = Command::new(BIN)
        .args(long)
        .current_dir(p)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while !p.join("t.ckpt").exists() && t.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: sends SIGTERM to the child we started (still ours: not yet waited for)
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    assert_eq!(child.wait().unwrap().code(), Some(130));
    let names = || {
        let mut v: Vec<String> = std::fs::read_dir(p)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    assert_eq!(names(), ["t.ckpt"], "only the checkpoint stays");
    // kill -9: the temporary file stays until the next run writing t.parquet
    kill_after_checkpoint(p, &long, &p.join("t.ckpt"));
    assert!(
        names().iter().any(|n| n.ends_with(".tmp.parquet")),
        "{:?}",
        names()
    );
    // a smaller N: the longer run's checkpoint is read and kept
    let small = [
        "table",
        "--grundy",
        "--game",
        "0.167",
        "--max",
        "1000",
        "-o",
        "t.parquet",
        "--checkpoint",
        "t.ckpt",
    ];
    let o = heaplab(p, &small);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("it is kept for the longer run"));
    assert_eq!(
        names(),
        ["t.ckpt", "t.parquet"],
        "the stale temporary file is gone"
    );
    let fresh = heaplab(
        p,
        &["table", "--grundy", "--game", "0.167", "--max", "1000"],
    );
    let table = heaplab(
        p,
        &[
            "table",
            "--grundy",
            "--game",
            "0.167",
            "--max",
            "1000",
            "--checkpoint",
            "t.ckpt",
        ],
    );
    assert_eq!(fresh.stdout, table.stdout);
    assert!(p.join("t.ckpt").exists());
}

/// The value-frequency snapshots equal the record tables' published ones byte for byte:
/// the sparse-space solver's results (github rogalski-wmii-uni-lodz-pl/octal, files
/// `results/CODE/N`, copied into tests/fixtures/record with their commit) for 0.014, 0.034,
/// 0.161, 0.167 and 0.172 at 2^16, and 0.161 and 0.167 at 2^20.
#[test]
fn snapshots_equal_the_published_record_tables() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    for (code, k, want) in [
        ("0.014", 16, include_str!("fixtures/record/0.014-2^16.txt")),
        ("0.034", 16, include_str!("fixtures/record/0.034-2^16.txt")),
        ("0.161", 16, include_str!("fixtures/record/0.161-2^16.txt")),
        ("0.167", 16, include_str!("fixtures/record/0.167-2^16.txt")),
        ("0.172", 16, include_str!("fixtures/record/0.172-2^16.txt")),
        ("0.161", 20, include_str!("fixtures/record/0.161-2^20.txt")),
        ("0.167", 20, include_str!("fixtures/record/0.167-2^20.txt")),
    ] {
        let dir = format!("s-{code}-{k}");
        let max = format!("2^{k}");
        let o = heaplab(
            p,
            &[
                "table",
                "--grundy",
                "--game",
                code,
                "--max",
                &max,
                "--snapshots",
                &dir,
                "-o",
                "t.parquet",
                "-q",
            ],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let got = std::fs::read_to_string(p.join(&dir).join(format!("freq-2^{k}.txt"))).unwrap();
        assert_eq!(got, want, "{code} at 2^{k}");
    }
}

/// `heaplab record` keeps a prefix of 2^14 values (and a window as long) and its snapshots
/// still equal the published record tables (fixtures above: 0.167 and 0.161 at 2^16 and
/// 2^20); its rare positions and largest value are those of the whole table.
#[test]
fn record_runs_in_a_small_prefix_equal_the_published_record_tables() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    for (code, rare, largest, w16, w20) in [
        (
            "0.167",
            59,
            56,
            include_str!("fixtures/record/0.167-2^16.txt"),
            include_str!("fixtures/record/0.167-2^20.txt"),
        ),
        (
            "0.161",
            488,
            141,
            include_str!("fixtures/record/0.161-2^16.txt"),
            include_str!("fixtures/record/0.161-2^20.txt"),
        ),
    ] {
        let dir = format!("r-{code}");
        let o = heaplab(
            p,
            &[
                "record",
                "--game",
                code,
                "--max",
                "2^20",
                "--keep",
                "2^15",
                "--snapshots",
                &dir,
                "--json",
                "-q",
            ],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(j["rare_count"], rare, "{code}");
        assert_eq!(j["mask"]["type"], "range", "{code}");
        assert!(j["mask"]["bits"].as_u64().unwrap() > 0, "{code}");
        assert_eq!(j["largest_value"], largest, "{code}");
        let snap = |k: u32| std::fs::read_to_string(p.join(&dir).join(format!("freq-2^{k}.txt")));
        assert_eq!(snap(16).unwrap(), w16, "{code} at 2^16");
        assert_eq!(snap(20).unwrap(), w20, "{code} at 2^20");
        let rare_file = std::fs::read_to_string(p.join(&dir).join("rare.txt")).unwrap();
        assert_eq!(rare_file.lines().count(), rare as usize);
    }
    // 0.034 with a prefix of 2^12: heaps needing values no longer in memory are read back
    // from the spill file (which goes when the run completes), and the snapshot still
    // equals the published one; without the spill file the run stops at the first of them
    let args = [
        "record", "--game", "0.034", "--max", "2^16", "--keep", "2^12",
    ];
    let o = heaplab(
        p,
        &[&args[..], &["--snapshots", "r-034", "--json", "-q"]].concat(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(!j["fallbacks"].as_array().unwrap().is_empty(), "{j}");
    let got = std::fs::read_to_string(p.join("r-034/freq-2^16.txt")).unwrap();
    assert_eq!(got, include_str!("fixtures/record/0.034-2^16.txt"));
    let left: Vec<_> = std::fs::read_dir(p)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".spill"))
        .collect();
    assert!(
        left.is_empty(),
        "the spill file goes when the run completes"
    );
    refused(
        &heaplab(p, &[&args[..], &["--no-spill"]].concat()),
        "beyond the prefix",
    );
    // outputs inside the snapshot folder are refused before any work
    refused(
        &heaplab(
            p,
            &[&args[..], &["--snapshots", "sY", "--values", "sY/rare.txt"]].concat(),
        ),
        "is in the snapshot folder",
    );
    // a spill file that is another output, or a file heaplab did not make
    std::fs::write(p.join("mine.txt"), "keep me").unwrap();
    for (extra, says) in [
        (
            &["--values", "x.b", "--spill", "x.b"][..],
            "--spill must be another file than --values",
        ),
        (
            &["--checkpoint", "c.ckpt", "--spill", "c.ckpt"][..],
            "--spill must be another file than --checkpoint",
        ),
        (
            &["--spill", "mine.txt"][..],
            "a fresh run makes its spill file itself",
        ),
    ] {
        refused(&heaplab(p, &[&args[..], extra].concat()), says);
    }
    assert_eq!(
        std::fs::read_to_string(p.join("mine.txt")).unwrap(),
        "keep me"
    );
    // not a record game, a prefix too small
    refused(
        &heaplab(p, &["record", "--game", "nondivisors", "--max", "2^20"]),
        "take-and-break",
    );
    refused(
        &heaplab(
            p,
            &[
                "record", "--game", "0.167", "--max", "2^20", "--keep", "100",
            ],
        ),
        "--keep 100 is below 4096",
    );
}

/// `heaplab record --game squares` keeps the whole table, grown in checkpointed segments:
/// its b-file begins with OEIS A014586 (Grundy values of subtract-a-square, the fixture of
/// the core tests), its snapshots count the b-file's values over heaps 1..=2^k, and a
/// run saving checkpoints writes the same b-file.
#[test]
fn squares_record_runs_write_the_published_values_as_a_b_file() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    let run = |max: &str, extra: &[&str]| {
        let mut a = vec![
            "record", "--game", "squares", "--max", max, "--values", "sq.b", "--json", "-q",
        ];
        a.extend_from_slice(extra);
        heaplab(p, &a)
    };
    let o = run("2^14", &["--snapshots", "s"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["whole_table"], true);
    let b = std::fs::read_to_string(p.join("sq.b")).unwrap();
    let lines: Vec<&str> = b.lines().collect();
    assert_eq!(lines.len(), (1 << 14) + 1);
    let published: Vec<&str> = include_str!("../../core/tests/fixtures/A014586.txt")
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    assert_eq!(published.len(), 99);
    assert_eq!(&lines[..99], &published[..]);
    let values: Vec<usize> = lines
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse().unwrap())
        .collect();
    let largest = *values.iter().max().unwrap();
    assert_eq!(j["largest_value"], largest);
    let first = values.iter().position(|&v| v == largest).unwrap();
    assert_eq!(j["largest_first_at"], first);
    for k in 10..=14 {
        let mut freq = vec![0u64; values[1..=1 << k].iter().max().unwrap() + 1];
        values[1..=1 << k].iter().for_each(|&v| freq[v] += 1);
        let want: String = freq
            .iter()
            .enumerate()
            .map(|(v, f)| format!("{v} {f}\n"))
            .collect();
        let got = std::fs::read_to_string(p.join(format!("s/freq-2^{k}.txt"))).unwrap();
        assert_eq!(got, want, "2^{k}");
    }
    // saved after every segment (the checkpoints of `table --grundy`, whose resume the
    // table tests try): the same b-file, and the checkpoint goes when the run completes
    std::fs::write(p.join("sq.b"), "").unwrap();
    let o = run(
        "2^14",
        &["--checkpoint", "sq.ckpt", "--checkpoint-every", "0"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read_to_string(p.join("sq.b")).unwrap(), b);
    assert!(
        !p.join("sq.ckpt").exists(),
        "a completed run removes its checkpoint"
    );
    refused(
        &heaplab(
            p,
            &["record", "--game", "squares", "--max", "2^14", "--no-spill"],
        ),
        "--spill and --no-spill are for take-and-break codes",
    );
}

/// A record run killed (SIGKILL) after its first checkpoints resumes to the same snapshots
/// and rare positions as an uninterrupted run; one stopped by SIGTERM saves a checkpoint
/// first and resumes the same way.
#[cfg(unix)]
#[test]
fn a_killed_record_run_resumes_to_identical_snapshots() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    let key = p.join("k.key");
    let args = |dir: &str, cp: &str| -> Vec<String> {
        let mut v: Vec<String> = [
            "record", "--game", "0.167", "--max", "2^23", "--keep", "2^14",
        ]
        .map(String::from)
        .to_vec();
        v.extend([
            "--snapshots".into(),
            dir.into(),
            "--json".into(),
            "-q".into(),
        ]);
        if !cp.is_empty() {
            v.extend([
                "--checkpoint".into(),
                cp.into(),
                "--checkpoint-every".into(),
                "0".into(),
            ]);
        }
        v
    };
    let run = |a: &[String]| {
        let a: Vec<&str> = a.iter().map(|s| s.as_str()).collect();
        heaplab_keyed(p, &a, &key)
    };
    let whole = run(&args("whole", ""));
    assert!(
        whole.status.success(),
        "{}",
        String::from_utf8_lossy(&whole.stderr)
    );
    // killed once a checkpoint exists
    let a = args("cut", "r.ckpt");
    let mut child = Command::new(BIN)
        .args(&a)
        .current_dir(p)
        .env("HEAPLAB_CHECKPOINT_KEY", &key)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t0 = std::time::Instant::now();
    while !p.join("r.ckpt").exists() && t0.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    std::thread::sleep(std::time::Duration::from_millis(200));
    child.kill().unwrap();
    let killed = child.wait().unwrap();
    assert!(
        !killed.success(),
        "the run ended before it was killed: make it longer"
    );
    assert!(p.join("r.ckpt").exists());
    // the resumed run `a` (snapshots in `dir`) ends as the uninterrupted one did
    let w: serde_json::Value = serde_json::from_slice(&whole.stdout).unwrap();
    let resumes_to_whole = |a: &[String], dir: &str| {
        let again = run(a);
        assert!(
            again.status.success(),
            "{}",
            String::from_utf8_lossy(&again.stderr)
        );
        let j: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
        assert!(j["resumed_at"].as_u64().unwrap() > 0, "{j}");
        assert_eq!(j["rare"], w["rare"]);
        assert_eq!(j["frequencies"], w["frequencies"]);
        for k in 10..=23 {
            let f = format!("freq-2^{k}.txt");
            let a = std::fs::read(p.join("whole").join(&f)).unwrap();
            let b = std::fs::read(p.join(dir).join(&f)).unwrap();
            assert_eq!(a, b, "{f}");
        }
    };
    resumes_to_whole(&a, "cut");
    assert!(
        !p.join("r.ckpt").exists(),
        "a finished run removes its checkpoint"
    );
    // SIGTERM: the run saves a checkpoint at the end of its segment and stops with code
    // 130 (no checkpoint was due: one every 1000 s); the resumed run is the same again
    let mut a = args("term", "t.ckpt");
    let every = a.iter().position(|x| x == "--checkpoint-every").unwrap();
    a[every + 1] = "1000".into();
    let child = Command::new(BIN)
        .args(&a)
        .current_dir(p)
        .env("HEAPLAB_CHECKPOINT_KEY", &key)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let spilled = || std::fs::metadata(p.join("t.ckpt.spill")).map_or(0, |m| m.len());
    let t0 = std::time::Instant::now();
    while spilled() < 1 << 22 && t0.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(
        !p.join("t.ckpt").exists(),
        "no checkpoint before the signal"
    );
    let sent = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let stopped = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&stopped.stderr);
    assert_eq!(
        stopped.status.code(),
        Some(130),
        "the run ended before the signal: make it longer; {err}"
    );
    assert!(
        err.contains("saved: rerun the same command to resume"),
        "{err}"
    );
    assert!(p.join("t.ckpt").exists());
    // a damaged spill file is refused (its hash at the checkpoint is kept beside it)
    let spill = p.join("t.ckpt.spill");
    let good = std::fs::read(&spill).unwrap();
    let mut bad = good.clone();
    bad[2 * 40_000] ^= 1;
    std::fs::write(&spill, &bad).unwrap();
    refused(&run(&a), "does not hold the values it held at heap");
    std::fs::write(&spill, &good).unwrap();
    resumes_to_whole(&a, "term");
}
