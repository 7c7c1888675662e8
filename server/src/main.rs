//! The `quarry` binary.

// The global allocator (jemalloc) and its options: declared in a crate compiled optimised,
// where the allocation entry points are generated (alloc/src/lib.rs).
use quarry_alloc as _;

fn main() -> std::process::ExitCode {
    lance_cpu_threads();
    quarry_server::cli::main()
}

/// Give Lance's encoding pool a thread per core unless the user sized it. Lance's default is
/// the cores less `LANCE_IO_CORE_RESERVATION` (2), at least 1: on a 2-core machine one thread,
/// which every table write's page encoding then waits on (the `symbols` write kept 1.55 of 2
/// cores busy; with two threads 1.85, and a first index of the registry copy took 2 % less
/// wall time at the same CPU). Lance reads the variable once,
/// when its pool is first used.
fn lance_cpu_threads() {
    const THREADS: &str = "LANCE_CPU_THREADS";
    if std::env::var_os(THREADS).is_some()
        || std::env::var_os("LANCE_IO_CORE_RESERVATION").is_some()
    {
        return;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // SAFETY: this is the first thing `main` does, so no thread that could read or write the
    // environment at the same time exists yet: the runtime, rayon's pool and Lance's pools are
    // all started later, by `cli::main`, and jemalloc's background threads (which may already
    // run) read it only once, at jemalloc's initialisation, before `main` (`MALLOC_CONF`).
    #[allow(unsafe_code)]
    unsafe {
        std::env::set_var(THREADS, cores.to_string());
    }
}
