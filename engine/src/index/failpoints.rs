//! Failpoints for tests: `QUARRY_FAILPOINT` names a step where a run aborts, as a crash
//! would, or fails, as the fault it stands for would.

/// Crash-test hook: when `QUARRY_FAILPOINT` names this point, the process aborts here, as a
/// crash would. Points: `files_written`, `symbols_written`, `edges_written` (each after that
/// table's new version is written, before anything publishes it).
pub(super) fn failpoint(name: &str) {
    if fault(name) {
        eprintln!("failpoint '{name}': aborting");
        std::process::abort();
    }
}

/// Fault-injection hook: whether `QUARRY_FAILPOINT` names this point, where the caller then
/// fails as the fault it stands for would. Points: `search_frames` (this run's packed
/// analyses do not decode when the search index reads them, as with a damaged scratch file),
/// `stalled_holder` (the run hangs for a minute after taking its lease, never renewing it).
pub(crate) fn fault(name: &str) -> bool {
    std::env::var("QUARRY_FAILPOINT").is_ok_and(|v| v == name)
}
