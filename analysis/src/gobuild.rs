//! Go's build constraints: as file names state them (`os_linux.go`, `asm_arm64.s`,
//! `zerrors_linux_amd64.go`, `x_windows_test.go`), the rule of `go/build`'s `goodOSArchFile`;
//! and as a file's `//go:build` line (or older `// +build` lines) states them, read as
//! `go/build/constraint` reads them.
//!
//! One Go package may define a name once per build: `sigblock` in `os_linux.go` and again in
//! `os_darwin.go` is one function for each platform; `lock` in `lock_futex.go` (`//go:build
//! dragonfly || freebsd || linux`) and again in `lock_sema.go`. Resolution reads which of a
//! package's definitions are built beside the file that names them, for one platform: the
//! first that the caller's own name and build line admit, trying `linux`/`amd64` (the
//! platform most Go is built for) first. A tag is true as `go/build`'s `matchTag` has it for
//! a default `go build` on that platform: its operating system and architecture, `unix` on
//! Unix systems, `cgo`, `gc` and every `go1.N` release; any other tag (`ignore`, `purego`,
//! `faketime`, `race`, a project's own `integration`) is false.

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

/// Operating systems `unix` holds for (`go/build`'s `unixOS`).
const UNIX_OS: &[&str] = &[
    "aix",
    "android",
    "darwin",
    "dragonfly",
    "freebsd",
    "hurd",
    "illumos",
    "ios",
    "linux",
    "netbsd",
    "openbsd",
    "solaris",
];

/// The expression of a Go file's build constraint, in `//go:build` syntax: its `//go:build`
/// line's, else its `// +build` lines' (each line's space-separated options, of
/// comma-separated terms, joined as `go/build/constraint` does: `a,b c` is `(a && b) || c`,
/// and several lines must all hold). Only the file's header is read: blank lines and
/// comments before the first other text, where the go command reads them. `None` when the
/// file states none.
pub fn build_line(content: &str) -> Option<String> {
    let mut plus: Vec<String> = Vec::new();
    let mut in_block = false;
    for line in content.lines() {
        let mut line = line.trim();
        if in_block {
            match line.find("*/") {
                Some(end) => {
                    in_block = false;
                    line = line[end + 2..].trim();
                }
                None => continue,
            }
        }
        if line.is_empty() {
            continue;
        }
        if let Some(comment) = line.strip_prefix("//") {
            if let Some(expr) = comment.strip_prefix("go:build")
                && (expr.is_empty() || expr.starts_with([' ', '\t']))
            {
                return Some(expr.trim().to_string());
            }
            if let Some(options) = comment.trim_start().strip_prefix("+build")
                && (options.is_empty() || options.starts_with([' ', '\t']))
            {
                let options: Vec<String> = options
                    .split_whitespace()
                    .map(|o| o.split(',').collect::<Vec<_>>().join(" && "))
                    .map(|o| format!("({o})"))
                    .collect();
                if !options.is_empty() {
                    plus.push(format!("({})", options.join(" || ")));
                }
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix("/*") {
            match rest.find("*/") {
                Some(end) if rest[end + 2..].trim().is_empty() => continue,
                Some(_) => break,
                None => {
                    in_block = true;
                    continue;
                }
            }
        }
        break;
    }
    (!plus.is_empty()).then(|| plus.join(" && "))
}

/// A parsed build constraint expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Constraint {
    Tag(Box<str>),
    Not(Box<Constraint>),
    And(Box<Constraint>, Box<Constraint>),
    Or(Box<Constraint>, Box<Constraint>),
}

impl Constraint {
    /// The expression `text` ([`build_line`]'s) parsed: `||`, `&&`, `!`, parentheses and tags
    /// (letters, digits, `_` and `.`). `None` when it does not parse, or has more than
    /// [`MAX_TERMS`] tags, `!`s and parentheses in all (the go command rejects such a file;
    /// here it constrains nothing).
    pub fn parse(text: &str) -> Option<Constraint> {
        let mut p = Parser {
            s: text.as_bytes(),
            at: 0,
            left: MAX_TERMS,
        };
        let c = p.or()?;
        p.skip_space();
        (p.at == p.s.len()).then_some(c)
    }

    /// Whether a default `go build` for some platform satisfies it: not `ignore`, nor a
    /// project's own tag (`integration`) alone, nor `faketime && !windows`.
    pub fn holds_anywhere(&self) -> bool {
        KNOWN_OS.iter().any(|&os| {
            KNOWN_ARCH
                .iter()
                .any(|&arch| self.holds(&Platform { os, arch }))
        })
    }

    /// Whether a default `go build` for `platform` satisfies it.
    pub fn holds(&self, platform: &Platform<'_>) -> bool {
        match self {
            Constraint::Tag(t) => platform.has_tag(t),
            Constraint::Not(c) => !c.holds(platform),
            Constraint::And(a, b) => a.holds(platform) && b.holds(platform),
            Constraint::Or(a, b) => a.holds(platform) || b.holds(platform),
        }
    }
}

/// The most tags, `!`s and parentheses a build line may have: the parse, the evaluation and
/// the drop of an expression recurse through it, and a file's header is its author's to make
/// (`go/build/constraint` likewise refuses expressions past a size).
pub const MAX_TERMS: usize = 1000;

struct Parser<'s> {
    s: &'s [u8],
    at: usize,
    /// How many more tags, `!`s and parentheses may come.
    left: usize,
}

impl Parser<'_> {
    fn skip_space(&mut self) {
        while self.s.get(self.at).is_some_and(|b| b.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn eat(&mut self, token: &str) -> bool {
        self.skip_space();
        let found = self.s[self.at..].starts_with(token.as_bytes());
        if found {
            self.at += token.len();
        }
        found
    }

    fn or(&mut self) -> Option<Constraint> {
        let mut c = self.and()?;
        while self.eat("||") {
            c = Constraint::Or(Box::new(c), Box::new(self.and()?));
        }
        Some(c)
    }

    fn and(&mut self) -> Option<Constraint> {
        let mut c = self.not()?;
        while self.eat("&&") {
            c = Constraint::And(Box::new(c), Box::new(self.not()?));
        }
        Some(c)
    }

    fn not(&mut self) -> Option<Constraint> {
        self.left = self.left.checked_sub(1)?;
        if self.eat("!") {
            return Some(Constraint::Not(Box::new(self.not()?)));
        }
        if self.eat("(") {
            let c = self.or()?;
            return self.eat(")").then_some(c);
        }
        self.skip_space();
        let start = self.at;
        while self
            .s
            .get(self.at)
            .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
        {
            self.at += 1;
        }
        let tag = std::str::from_utf8(&self.s[start..self.at]).ok()?;
        (!tag.is_empty()).then(|| Constraint::Tag(tag.into()))
    }
}

/// A platform to build for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Platform<'a> {
    os: &'a str,
    arch: &'a str,
}

impl<'a> Platform<'a> {
    /// The platform the file at `path`, with build constraint `constraint`, is taken to be
    /// built for: the first of the operating systems and architectures its name allows
    /// (`linux`, `darwin`, `windows`, then the others; `amd64`, `arm64`, then the others)
    /// whose build includes it; else, when none does, the first its name allows.
    pub fn of(path: &'a str, constraint: Option<&Constraint>) -> Platform<'a> {
        let named = name_constraint(path);
        let default_arch = |os: &str| match os {
            "js" | "wasip1" => "wasm",
            _ => "amd64",
        };
        let first = |os: &'a str| Platform {
            os,
            arch: named.arch.unwrap_or(default_arch(os)),
        };
        let default = first(named.os.unwrap_or("linux"));
        let Some(c) = constraint.filter(|c| !c.holds(&default)) else {
            return default;
        };
        // The one the name states, else all known, the common ones first.
        let choices =
            |named: Option<&'a str>, common: &[&'static str], known: &[&'static str]| match named {
                Some(one) => vec![one],
                None => common
                    .iter()
                    .chain(known.iter().filter(|k| !common.contains(k)))
                    .copied()
                    .collect::<Vec<&'a str>>(),
            };
        let oses = choices(named.os, &["linux", "darwin", "windows"], KNOWN_OS);
        let arches = choices(named.arch, &["amd64", "arm64"], KNOWN_ARCH);
        oses.iter()
            .flat_map(|&os| {
                // An operating system's usual architecture first (`wasm` for `js`).
                std::iter::once(default_arch(os))
                    .filter(|a| named.arch.is_none_or(|n| n == *a))
                    .chain(arches.iter().copied())
                    .map(move |arch| Platform { os, arch })
            })
            .find(|p| c.holds(p))
            .unwrap_or(default)
    }

    /// Whether a build for this platform includes the file at `path` whose build constraint
    /// is `constraint`: its name's operating system and architecture, and its constraint.
    pub fn builds(&self, path: &str, constraint: Option<&Constraint>) -> bool {
        let named = name_constraint(path);
        named.os.is_none_or(|os| self.has_os(os))
            && named.arch.is_none_or(|a| a == self.arch)
            && constraint.is_none_or(|c| c.holds(self))
    }

    /// An operating system tag, as `go/build`'s `matchTag` has it: `linux` also on Android,
    /// `solaris` on illumos, `darwin` on iOS.
    fn has_os(&self, tag: &str) -> bool {
        tag == self.os
            || matches!(
                (self.os, tag),
                ("android", "linux") | ("illumos", "solaris") | ("ios", "darwin")
            )
    }

    /// Whether a default build for this platform has `tag` ([`Constraint::holds`]).
    fn has_tag(&self, tag: &str) -> bool {
        self.has_os(tag)
            || tag == self.arch
            || matches!(tag, "cgo" | "gc")
            || (tag == "unix" && UNIX_OS.contains(&self.os))
            || tag
                .strip_prefix("go1.")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
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
        let linux = Platform::of("runtime/proc.go", None);
        assert!(linux.builds("runtime/os_linux.go", None));
        assert!(linux.builds("runtime/lock_futex.go", None));
        assert!(linux.builds("runtime/sys_linux_amd64.s", None));
        assert!(!linux.builds("runtime/os_darwin.go", None));
        assert!(!linux.builds("runtime/sys_linux_arm64.s", None));
        let darwin = Platform::of("runtime/os_darwin.go", None);
        assert!(darwin.builds("runtime/sys_darwin.go", None));
        assert!(darwin.builds("runtime/stubs_amd64.go", None));
        assert!(!darwin.builds("runtime/os_linux.go", None));
        // Android builds `linux` files; `js` is built for `wasm` only.
        assert!(Platform::of("os/x_android.go", None).builds("os/y_linux.go", None));
        let js = Platform::of("runtime/os_js.go", None);
        assert!(js.builds("runtime/mem_js_wasm.go", None));
        assert!(!js.builds("runtime/stubs_amd64.go", None));
    }

    fn platform(os: &'static str, arch: &'static str) -> Platform<'static> {
        Platform { os, arch }
    }

    fn constraint(content: &str) -> Option<Constraint> {
        Constraint::parse(&build_line(content)?)
    }

    #[test]
    fn build_lines_are_read_from_the_header_only() {
        let go =
            "// Copyright 2022.\n\n//go:build dragonfly || freebsd || linux\n\npackage runtime\n";
        assert_eq!(
            build_line(go).as_deref(),
            Some("dragonfly || freebsd || linux")
        );
        // Block comments may come first; text ends the header.
        let block = "/* licence\n   text */\n//go:build !windows\npackage x\n";
        assert_eq!(build_line(block).as_deref(), Some("!windows"));
        let late = "package x\n\n//go:build linux\n";
        assert_eq!(build_line(late), None);
        // `//go:buildx` is no build line; nor is `// go:build` (with a space).
        assert_eq!(build_line("//go:buildx linux\npackage x\n"), None);
        assert_eq!(build_line("// go:build linux\npackage x\n"), None);
        // Older files' `+build` lines: options ORed, terms ANDed, lines ANDed.
        let plus = "// +build linux,cgo darwin\n// +build !ignore\n\npackage x\n";
        assert_eq!(
            build_line(plus).as_deref(),
            Some("((linux && cgo) || (darwin)) && ((!ignore))")
        );
        // `//go:build` wins over `+build` lines, as the go command has it.
        let both = "//go:build windows\n// +build windows\n\npackage x\n";
        assert_eq!(build_line(both).as_deref(), Some("windows"));
        assert_eq!(Constraint::parse("linux &&"), None);
        assert_eq!(Constraint::parse("(linux"), None);
        assert_eq!(Constraint::parse(""), None);
    }

    #[test]
    fn constraints_hold_as_a_default_go_build_has_its_tags() {
        let linux = Platform::of("net/fd.go", None);
        let holds = |expr: &str| Constraint::parse(expr).unwrap().holds(&linux);
        assert!(holds("dragonfly || freebsd || linux"));
        assert!(!holds(
            "aix || darwin || netbsd || openbsd || plan9 || solaris || windows"
        ));
        assert!(holds("unix || (js && wasm) || wasip1 || windows"));
        assert!(!holds("js || wasip1"));
        assert!(!holds("faketime && !windows"));
        assert!(holds("cgo && !netgo && unix"));
        assert!(holds("go1.18 && amd64"));
        assert!(!holds("ignore"));
        assert!(holds("!(arm || 386)"));
        assert!(!holds("linux && !amd64"));
    }

    #[test]
    fn a_file_is_built_for_the_first_platform_its_constraint_admits() {
        // `lock_sema.go` is not built on Linux: its own platform is the first that builds it.
        let sema = constraint(
            "//go:build aix || darwin || netbsd || openbsd || plan9 || solaris || windows\n",
        );
        let p = Platform::of("runtime/lock_sema.go", sema.as_ref());
        assert_eq!(p, platform("darwin", "amd64"));
        assert!(p.builds("runtime/lock_sema.go", sema.as_ref()));
        let futex = constraint("//go:build dragonfly || freebsd || linux\n");
        assert!(!p.builds("runtime/lock_futex.go", futex.as_ref()));
        assert!(
            Platform::of("runtime/proc.go", None).builds("runtime/lock_futex.go", futex.as_ref())
        );
        // The name and the line together: `os_js.go`-like names keep their OS.
        let wasm = constraint("//go:build js && wasm\n");
        assert_eq!(
            Platform::of("syscall/fs_js.go", wasm.as_ref()),
            platform("js", "wasm")
        );
        let arm = constraint("//go:build linux && arm64\n");
        assert_eq!(
            Platform::of("x/y.go", arm.as_ref()),
            platform("linux", "arm64")
        );
        // A constraint no default build satisfies (`ignore`): the file's name's platform.
        let ignore = constraint("//go:build ignore\n");
        assert_eq!(
            Platform::of("x/gen.go", ignore.as_ref()),
            Platform::of("x/gen.go", None)
        );
    }

    #[test]
    fn outsized_build_lines_constrain_nothing_and_do_not_overflow() {
        let deep = format!("{}linux{}", "(".repeat(100_000), ")".repeat(100_000));
        assert_eq!(Constraint::parse(&deep), None);
        assert_eq!(Constraint::parse(&"!".repeat(100_000)), None);
        let wide = vec!["linux"; 100_000].join(" || ");
        assert_eq!(Constraint::parse(&wide), None);
        let fits = vec!["linux"; MAX_TERMS].join(" || ");
        assert!(Constraint::parse(&fits).is_some());
    }
}
