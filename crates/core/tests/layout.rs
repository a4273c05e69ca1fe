//! docs/engines.md's layout tables list every file under `crates/` and `scripts/` (by its
//! path in a row's first cell, or by a folder row ending in `/`), and no file that is gone.

use std::path::{Path, PathBuf};

/// The checkout's root (two folders above this crate).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Build output and caches a checkout may hold but git does not.
fn generated(name: &str) -> bool {
    name.starts_with('.')
        || matches!(name, "target" | "__pycache__" | "venv" | "dist" | "build")
        || name.ends_with(".egg-info")
        || [".so", ".pyd", ".dylib", ".pyc", ".whl"]
            .iter()
            .any(|e| name.ends_with(e))
}

fn walk(dir: &Path, rel: &str, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a folder entry"))
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().into_owned();
        if generated(&name) {
            continue;
        }
        let path = format!("{rel}/{name}");
        if e.file_type().expect("a file type").is_dir() {
            walk(&e.path(), &path, out);
        } else {
            out.push(path);
        }
    }
}

/// The paths the layout tables list: the backticked paths in the first cell of each table
/// row (`a/b.rs`, and folders `a/b/`), several in one cell included.
fn listed(doc: &str) -> Vec<String> {
    doc.lines()
        .filter(|l| l.starts_with("| `"))
        .filter_map(|l| l.split(" | ").next())
        .flat_map(|cell| cell.split('`').skip(1).step_by(2))
        .filter(|t| t.starts_with("crates/") || t.starts_with("scripts/"))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_layout_table_lists_every_file() {
    let root = root();
    let doc = std::fs::read_to_string(root.join("docs/engines.md")).expect("docs/engines.md");
    let names = listed(&doc);
    let mut files = vec![];
    for top in ["crates", "scripts"] {
        walk(&root.join(top), top, &mut files);
    }
    assert!(files.len() > 150, "only {} files found", files.len());
    let missing: Vec<&String> = files
        .iter()
        .filter(|f| {
            !names
                .iter()
                .any(|n| n == *f || (n.ends_with('/') && f.starts_with(n.as_str())))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "docs/engines.md's layout table does not list: {missing:?}"
    );
    let gone: Vec<&String> = names
        .iter()
        .filter(|n| !root.join(n.trim_end_matches('/')).exists())
        .collect();
    assert!(
        gone.is_empty(),
        "docs/engines.md names files that do not exist: {gone:?}"
    );
}
