//! The `quarry` binary.

fn main() -> std::process::ExitCode {
    quarry_server::cli::main()
}
