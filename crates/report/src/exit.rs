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

/// Runs `run` and turns its result into the exit code: an error is printed as one line
/// (its causes in order, each once); a panic from writing stdout (`println!` on a full
/// disk, `> /dev/full`) becomes such an error too.
pub fn report(run: impl FnOnce() -> anyhow::Result<ExitCode> + std::panic::UnwindSafe) -> ExitCode {
    // `println!` panics when stdout cannot be written (a full disk, `> /dev/full`): that
    // panic is caught here and reported as a one-line error like any other.
    const STDOUT_PANIC: &str = "failed printing to stdout";
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !panic_text(info.payload()).starts_with(STDOUT_PANIC) {
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
