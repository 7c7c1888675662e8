//! Indexing progress: an `indicatif` bar on a terminal, plain log lines otherwise.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Instant;

use indicatif::{HumanBytes, ProgressBar, ProgressDrawTarget, ProgressStyle};
use quarry_engine::index::Progress;

/// Chooses the bar or the log lines by whether stderr is a terminal.
pub struct CliProgress {
    bar: Option<ProgressBar>,
    state: Mutex<State>,
}

struct State {
    phase: String,
    total: Option<u64>,
    files: u64,
    bytes: u64,
    last_logged_percent: u64,
    started: Instant,
}

impl CliProgress {
    pub fn new() -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(style(false));
            bar
        });
        CliProgress {
            bar,
            state: Mutex::new(State {
                phase: String::new(),
                total: None,
                files: 0,
                bytes: 0,
                last_logged_percent: 0,
                started: Instant::now(),
            }),
        }
    }

    /// Clear the bar before printing the summary or the error; without a terminal, log the
    /// end of the run: `done`, or `stopped` when it failed (its error follows).
    pub fn finish(&self, succeeded: bool) {
        match &self.bar {
            Some(bar) => bar.finish_and_clear(),
            None => {
                if let (Ok(s), Some(line)) = (self.state.lock(), memory_line()) {
                    let how = if succeeded { "done" } else { "stopped" };
                    eprintln!("[{:>6.1}s] {how}{line}", s.started.elapsed().as_secs_f64());
                }
            }
        }
    }
}

/// The bar's look: with a count of files when the phase has one, else a spinner alone (listing
/// files, the search phase), so a phase without a total never shows a full bar of "0/0 files".
/// `{msg}` is the bytes done so far, with its separator, or nothing.
fn style(counted: bool) -> ProgressStyle {
    let template = if counted {
        "{spinner} {prefix:>22} [{bar:30}] {pos}/{len} files{msg} · {elapsed}"
    } else {
        "{spinner} {prefix:>22} {msg} {elapsed}"
    };
    ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ")
}

impl Default for CliProgress {
    fn default() -> Self {
        Self::new()
    }
}

/// This process's resident memory and its high-water mark so far (Linux: `/proc/self/status`),
/// logged with each phase so an operator sees which phase needs the memory.
fn memory() -> Option<(u64, u64)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = status.lines().find(|l| l.starts_with(name))?;
        let kb: u64 = line[name.len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        Some(kb * 1024)
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

fn memory_line() -> Option<String> {
    let (rss, peak) = memory()?;
    Some(format!(
        " · memory {} (peak so far {})",
        HumanBytes(rss),
        HumanBytes(peak)
    ))
}

/// A counted phase's log line after its time: files done of the total, the bytes read when
/// the phase reads any (the write phases count files only, so no "0 B"), and the percentage.
fn count_line(phase: &str, files: u64, total: u64, bytes: u64, pct: u64) -> String {
    let bytes = match bytes {
        0 => String::new(),
        b => format!(", {}", HumanBytes(b)),
    };
    format!("{phase}: {files}/{total} files{bytes} ({pct}%)")
}

impl Progress for CliProgress {
    fn phase(&self, name: &str, total: Option<u64>) {
        let Ok(mut s) = self.state.lock() else { return };
        s.phase = name.to_string();
        s.total = total;
        s.files = 0;
        s.bytes = 0;
        s.last_logged_percent = 0;
        match &self.bar {
            Some(bar) => {
                // Each call may draw: the counted style goes on only once the counts are the
                // new phase's, and off before they are zeroed, so no frame shows a full bar
                // of "0/0 files" or the last phase's bytes.
                bar.set_message(String::new());
                bar.set_prefix(name.to_string());
                if total.is_none() {
                    bar.set_style(style(false));
                }
                bar.set_position(0);
                bar.set_length(total.unwrap_or(0));
                if total.is_some() {
                    bar.set_style(style(true));
                }
                bar.enable_steady_tick(std::time::Duration::from_millis(120));
            }
            None => eprintln!(
                "[{:>6.1}s] {name}{}{}",
                s.started.elapsed().as_secs_f64(),
                total.map(|t| format!(" ({t} files)")).unwrap_or_default(),
                memory_line().unwrap_or_default()
            ),
        }
    }

    fn advance(&self, files: u64, bytes: u64) {
        let Ok(mut s) = self.state.lock() else { return };
        s.files += files;
        s.bytes += bytes;
        match &self.bar {
            Some(bar) => {
                bar.inc(files);
                if s.bytes > 0 {
                    bar.set_message(format!(" · {}", HumanBytes(s.bytes)));
                }
            }
            None => {
                if let Some(total) = s.total.filter(|t| *t > 0) {
                    let pct = s.files * 100 / total;
                    if pct >= s.last_logged_percent + 10 {
                        s.last_logged_percent = pct - pct % 10;
                        eprintln!(
                            "[{:>6.1}s] {}",
                            s.started.elapsed().as_secs_f64(),
                            count_line(&s.phase, s.files, total, s.bytes, pct)
                        );
                    }
                }
            }
        }
    }

    fn warn(&self, message: &str) {
        match &self.bar {
            Some(bar) => bar.println(format!("warning: {message}")),
            None => eprintln!("warning: {message}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::count_line;

    #[test]
    fn a_count_line_names_bytes_only_when_the_phase_reads_them() {
        assert_eq!(
            count_line("reading and parsing", 3196, 24129, 31_539_200, 13),
            "reading and parsing: 3196/24129 files, 30.08 MiB (13%)"
        );
        assert_eq!(
            count_line("writing edges", 2298, 22087, 0, 10),
            "writing edges: 2298/22087 files (10%)"
        );
    }
}
