//! Link the `quarry` binary with packed relative relocations (`-z pack-relative-relocs`,
//! DT_RELR) where the C library supports them.
//!
//! `quarry` is a position-independent executable, so at start-up the dynamic loader patches
//! every absolute address in it (vtables, string tables: ~800 000 of them in the dev build).
//! As RELA entries those are a 19 MB table the loader reads whole, and its pages stay resident
//! for the life of the process: 19 MB of every `quarry index`'s peak and of a served index's
//! memory, and ~3 ms of each start. Packed, the same
//! relocations are a bitmap of ~165 KB. The executable stays position-independent (its address
//! is still randomised); only the table's encoding changes.
//!
//! glibc reads DT_RELR from 2.36 on, and a binary that uses it will not start on an older one,
//! so the option is used only when building natively for Linux on a host with glibc ≥ 2.36
//! (Debian 12 and later; the README builds the binary on the machine that runs it). Set
//! `QUARRY_NO_RELR=1` to build without it: for a linker without the option (GNU ld before
//! 2.38), or a binary to copy to a machine with an older glibc.
//!
//! Also: place the functions `quarry index`, then `quarry serve`, run together
//! (`hot-functions.txt`, made by `scripts/hot_functions.py`), through LLD's
//! `--symbol-ordering-file`. The binary's code is ~120 MB and an index runs ~6–7 MB of it,
//! scattered; the kernel maps code 64 KiB around every page executed, so a first index of the
//! registry copy held ~50–70 MB of code pages. Placed together, ~30; a served process's 35 →
//! 21 MB. Layout only: a name the binary does not
//! define (code changed since the list was made, or another compiler) is skipped. Used when
//! the build's linker takes the option (an empty program is linked with it first): the
//! toolchain's own LLD does (Rust 1.90 and later on x86-64 Linux), GNU ld does not.
//! `QUARRY_NO_SYMBOL_ORDER=1` builds without it.

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=QUARRY_NO_RELR");
    println!("cargo:rerun-if-changed=build.rs");
    let for_linux_gnu =
        var("CARGO_CFG_TARGET_OS") == "linux" && var("CARGO_CFG_TARGET_ENV") == "gnu";
    let native = var("HOST") == var("TARGET");
    if for_linux_gnu && native && var("QUARRY_NO_RELR").is_empty() && glibc_at_least(2, 36) {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }

    println!("cargo:rerun-if-env-changed=QUARRY_NO_SYMBOL_ORDER");
    println!("cargo:rerun-if-changed=hot-functions.txt");
    let source = std::path::Path::new(&var("CARGO_MANIFEST_DIR")).join("hot-functions.txt");
    // The linker reads a copy in this build's own output directory, not the checkout's: the
    // link argument is kept with the build script's output, which a target directory shared
    // by several clones (the README's `$HOME/.cache/quarry-target`) reuses for a clone in
    // another directory — the first clone may be gone by then.
    let list = std::path::PathBuf::from(var("OUT_DIR")).join("hot-functions.txt");
    if var("QUARRY_NO_SYMBOL_ORDER").is_empty()
        && source.is_file()
        && std::fs::copy(&source, &list).is_ok()
    {
        // `-Xlinker` passes the path as one argument (`-Wl,` would split it at commas).
        let args = [
            "-Xlinker".to_string(),
            format!("--symbol-ordering-file={}", list.display()),
            "-Xlinker".to_string(),
            "--no-warn-symbol-ordering".to_string(),
        ];
        if linker_takes(&args) {
            for arg in args {
                println!("cargo:rustc-link-arg-bins={arg}");
            }
        }
    }
}

/// Whether the linker this build uses takes `link_args`: links an empty program with them, as
/// this build links (same compiler, target, `RUSTFLAGS` and configured linker). LLD, the
/// toolchain's default linker on x86-64 Linux from Rust 1.90 on, takes
/// `--symbol-ordering-file`; GNU ld (a distribution's compiler, another target) does not, and
/// the binary is then linked without it.
fn linker_takes(link_args: &[String]) -> bool {
    let out = std::path::PathBuf::from(var("OUT_DIR"));
    let src = out.join("link_probe.rs");
    if std::fs::write(&src, "fn main() {}\n").is_err() {
        return false;
    }
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let mut cmd = Command::new(rustc);
    cmd.args(["--crate-type=bin", "--target", &var("TARGET"), "-o"])
        .arg(out.join("link_probe"))
        .arg(&src);
    let flags = var("CARGO_ENCODED_RUSTFLAGS");
    cmd.args(flags.split('\x1f').filter(|f| !f.is_empty()));
    let linker = var("RUSTC_LINKER");
    if !linker.is_empty() {
        cmd.arg(format!("-Clinker={linker}"));
    }
    for arg in link_args {
        cmd.arg(format!("-Clink-arg={arg}"));
    }
    cmd.stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// An environment variable cargo gives build scripts, empty when unset.
fn var(name: &str) -> String {
    std::env::var(name).unwrap_or_default()
}

/// Whether the host's glibc (`getconf GNU_LIBC_VERSION`: "glibc 2.36") is at least `major.minor`.
fn glibc_at_least(major: u32, minor: u32) -> bool {
    let Ok(out) = Command::new("getconf").arg("GNU_LIBC_VERSION").output() else {
        return false;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let Some(version) = text.trim().strip_prefix("glibc ") else {
        return false;
    };
    let mut parts = version.split('.').map(|p| p.parse::<u32>().ok());
    match (parts.next().flatten(), parts.next().flatten()) {
        (Some(a), Some(b)) => (a, b) >= (major, minor),
        _ => false,
    }
}
