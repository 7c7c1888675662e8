//! Link the `quarry` binary with packed relative relocations (`-z pack-relative-relocs`,
//! DT_RELR) where the C library supports them.
//!
//! `quarry` is a position-independent executable, so at start-up the dynamic loader patches
//! every absolute address in it (vtables, string tables: ~800 000 of them in the dev build).
//! As RELA entries those are a 19 MB table the loader reads whole, and its pages stay resident
//! for the life of the process: 19 MB of every `quarry index`'s peak and of a served index's
//! memory, and ~3 ms of each start (docs/benchmarks.md, session 25). Packed, the same
//! relocations are a bitmap of ~165 KB. The executable stays position-independent (its address
//! is still randomised); only the table's encoding changes.
//!
//! glibc reads DT_RELR from 2.36 on, and a binary that uses it will not start on an older one,
//! so the option is used only when building natively for Linux on a host with glibc ≥ 2.36
//! (Debian 12 and later; the README builds the binary on the machine that runs it). Set
//! `QUARRY_NO_RELR=1` to build without it: for a linker without the option (GNU ld before
//! 2.38), or a binary to copy to a machine with an older glibc.

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=QUARRY_NO_RELR");
    println!("cargo:rerun-if-changed=build.rs");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let for_linux_gnu =
        var("CARGO_CFG_TARGET_OS") == "linux" && var("CARGO_CFG_TARGET_ENV") == "gnu";
    let native = var("HOST") == var("TARGET");
    if for_linux_gnu && native && var("QUARRY_NO_RELR").is_empty() && glibc_at_least(2, 36) {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
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
