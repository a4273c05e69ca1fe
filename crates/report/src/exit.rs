//! How a run ends: the exit code, and any error as one line on stderr (exit code 2),
//! a stdout that cannot be written included.

use std::process::ExitCode;

/// The message of a panic payload (`&str` or `String`), else "".
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_default()
}

/// Whether a panic message is a thread pool (rayon's, polars') or a thread that could not
/// be started: the process hit a limit, which is the user's to change, not a bug.
fn no_threads(text: &str) -> bool {
    text.contains("ThreadPoolBuildError")
        || text.contains("global thread pool has not been initialized")
        || (text.contains("spawn")
            && (text.contains("WouldBlock") || text.contains("Resource temporarily unavailable")))
}

/// Runs `run` and turns its result into the exit code: an error is printed as one line
/// (its causes in order, each once); a panic from writing stdout (`println!` on a full
/// disk, `> /dev/full`) becomes such an error too.
pub fn report(run: impl FnOnce() -> anyhow::Result<ExitCode> + std::panic::UnwindSafe) -> ExitCode {
    // `println!` panics when stdout cannot be written (a full disk, `> /dev/full`): that
    // panic is caught here and reported as a one-line error like any other.
    const STDOUT_PANIC: &str = "failed printing to stdout";
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = panic_text(info.payload());
        if !text.starts_with(STDOUT_PANIC) && !no_threads(&text) {
            default_hook(info);
        }
    }));
    let result = match std::panic::catch_unwind(run) {
        Ok(r) => r,
        Err(payload) => {
            let text = panic_text(&*payload);
            match text.strip_prefix(STDOUT_PANIC) {
                Some(rest) => Err(anyhow::anyhow!(
                    "cannot write to stdout: {}",
                    rest.trim_start_matches(':').trim()
                )),
                None if no_threads(&text) => {
                    crate::cleanup::remove_pending();
                    Err(anyhow::anyhow!(
                        "cannot start worker threads: a limit on memory or processes \
                         (such as ulimit -v or ulimit -u) leaves too little room"
                    ))
                }
                None => std::panic::resume_unwind(payload),
            }
        }
    };
    match result {
        Ok(code) => code,
        Err(_) if crate::oom::refusing() => crate::oom::wait_for_the_refusal(),
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
