//! Go's build constraints as file names state them (`os_linux.go`, `asm_arm64.s`,
//! `zerrors_linux_amd64.go`, `x_windows_test.go`), the rule of `go/build`'s `goodOSArchFile`.
//!
//! One Go package may define a name once per build: `sigblock` in `os_linux.go` and again in
//! `os_darwin.go` is one function for each platform. Resolution reads which of a package's
//! definitions are built beside the file that names them — the platform the caller's own name
//! states, else `linux`/`amd64`, the platform most Go is built for. (`//go:build` lines are
//! not read: `lock_futex.go` and `lock_sema.go` both fit any platform by name.)

/// Values of `GOOS` that a file name's suffix may state (`go/build`'s `knownOS`).
const KNOWN_OS: &[&str] = &[
    "aix",
    "android",
    "darwin",
    "dragonfly",
    "freebsd",
    "hurd",
    "illumos",
    "ios",
    "js",
    "linux",
    "nacl",
    "netbsd",
    "openbsd",
    "plan9",
    "solaris",
    "wasip1",
    "windows",
    "zos",
];

/// Values of `GOARCH` that a file name's suffix may state (`go/build`'s `knownArch`).
const KNOWN_ARCH: &[&str] = &[
    "386",
    "amd64",
    "amd64p32",
    "arm",
    "armbe",
    "arm64",
    "arm64be",
    "loong64",
    "mips",
    "mipsle",
    "mips64",
    "mips64le",
    "mips64p32",
    "mips64p32le",
    "ppc",
    "ppc64",
    "ppc64le",
    "riscv",
    "riscv64",
    "s390",
    "s390x",
    "sparc",
    "sparc64",
    "wasm",
];

/// What a file's name constrains: the operating system and the architecture, each if stated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameConstraint<'a> {
    pub os: Option<&'a str>,
    pub arch: Option<&'a str>,
}

/// Whether `path` names a Go test file (`x_test.go`), built only with its package's tests.
pub fn is_test_file(path: &str) -> bool {
    path.ends_with("_test.go")
}

/// The constraint `path`'s file name states: the part after the first `_` of the name up to
/// its first `.`, less a final `_test`, ends with `_GOOS_GOARCH`, `_GOOS` or `_GOARCH`.
pub fn name_constraint(path: &str) -> NameConstraint<'_> {
    let none = NameConstraint {
        os: None,
        arch: None,
    };
    let name = path.rsplit('/').next().unwrap_or(path);
    let name = name.split('.').next().unwrap_or(name);
    let Some(at) = name.find('_') else {
        return none;
    };
    let mut parts: Vec<&str> = name[at + 1..].split('_').collect();
    if parts.last() == Some(&"test") {
        parts.pop();
    }
    let (os, arch) = match parts.as_slice() {
        [.., os, arch] if KNOWN_OS.contains(os) && KNOWN_ARCH.contains(arch) => {
            (Some(*os), Some(*arch))
        }
        [.., last] if KNOWN_OS.contains(last) => (Some(*last), None),
        [.., last] if KNOWN_ARCH.contains(last) => (None, Some(*last)),
        _ => (None, None),
    };
    NameConstraint { os, arch }
}

/// A platform to build for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Platform<'a> {
    os: &'a str,
    arch: &'a str,
}

impl<'a> Platform<'a> {
    /// The platform the file at `path` is built for, as far as its name says: its own
    /// operating system and architecture, else `linux` and `amd64` (`wasm` for `js` and
    /// `wasip1`, which have no other).
    pub fn of(path: &'a str) -> Platform<'a> {
        let named = name_constraint(path);
        let os = named.os.unwrap_or("linux");
        let arch = named.arch.unwrap_or(match os {
            "js" | "wasip1" => "wasm",
            _ => "amd64",
        });
        Platform { os, arch }
    }

    /// Whether a build for this platform includes the file at `path`, by its name. A tag
    /// matches as `go/build`'s `matchTag` has it: `linux` also on Android, `solaris` on
    /// illumos, `darwin` on iOS.
    pub fn builds(&self, path: &str) -> bool {
        let os_tag = |tag: &str| {
            tag == self.os
                || matches!(
                    (self.os, tag),
                    ("android", "linux") | ("illumos", "solaris") | ("ios", "darwin")
                )
        };
        let named = name_constraint(path);
        named.os.is_none_or(os_tag) && named.arch.is_none_or(|a| a == self.arch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_state_platforms_as_go_build_reads_them() {
        let c = |p| {
            let n = name_constraint(p);
            (n.os, n.arch)
        };
        assert_eq!(c("runtime/os_linux.go"), (Some("linux"), None));
        assert_eq!(
            c("runtime/sys_linux_amd64.s"),
            (Some("linux"), Some("amd64"))
        );
        assert_eq!(c("runtime/asm_arm64.s"), (None, Some("arm64")));
        assert_eq!(c("net/fd_windows_test.go"), (Some("windows"), None));
        assert_eq!(
            c("syscall/zerrors_linux_386.go"),
            (Some("linux"), Some("386"))
        );
        // No `_`, or a suffix that is no platform: no constraint. The part before the first
        // `_` is the name (`linux.go` is built everywhere), and so is `_test` alone.
        assert_eq!(c("os/linux.go"), (None, None));
        assert_eq!(c("runtime/lock_futex.go"), (None, None));
        assert_eq!(c("os/exec_test.go"), (None, None));
        assert_eq!(c("a/b_linux/x.go"), (None, None));
        // `windows_amd64` is an OS and an architecture; `amd64_linux`, only the last.
        assert_eq!(c("x/y_amd64_linux.go"), (Some("linux"), None));
    }

    #[test]
    fn a_platform_builds_the_files_named_for_it() {
        let linux = Platform::of("runtime/proc.go");
        assert!(linux.builds("runtime/os_linux.go"));
        assert!(linux.builds("runtime/lock_futex.go"));
        assert!(linux.builds("runtime/sys_linux_amd64.s"));
        assert!(!linux.builds("runtime/os_darwin.go"));
        assert!(!linux.builds("runtime/sys_linux_arm64.s"));
        let darwin = Platform::of("runtime/os_darwin.go");
        assert!(darwin.builds("runtime/sys_darwin.go"));
        assert!(darwin.builds("runtime/stubs_amd64.go"));
        assert!(!darwin.builds("runtime/os_linux.go"));
        // Android builds `linux` files; `js` is built for `wasm` only.
        assert!(Platform::of("os/x_android.go").builds("os/y_linux.go"));
        let js = Platform::of("runtime/os_js.go");
        assert!(js.builds("runtime/mem_js_wasm.go"));
        assert!(!js.builds("runtime/stubs_amd64.go"));
    }
}
