//! Where a repository's files come from: a plain directory (gitignore-aware walk), the
//! committed tree of a branch of a local git repository, or a git URL (cloned shallowly into
//! a temporary directory). Reading goes through [`Reader`], so the indexer never cares which.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use crate::error::{EngineError, Result};
use crate::location::{self, Admitted, Location};

/// Where to read a file's bytes.
#[derive(Debug, Clone)]
pub enum Blob {
    /// A file on disk.
    Fs(PathBuf),
    /// A git blob id in the source's repository.
    Git(String),
}

/// One candidate file of a repository.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Repository-relative path with `/` separators.
    pub path: String,
    pub size: u64,
    pub blob: Blob,
}

/// A resolved input: what to index and how to describe it.
#[derive(Debug)]
pub struct ResolvedSource {
    /// Default display name (the repository's directory or URL name).
    pub default_name: String,
    /// `owner/name` from the remote, else from the directory.
    pub full_name: String,
    /// Canonical location (the URL given, or the absolute directory path).
    pub url: String,
    pub branch: Option<String>,
    pub commit: Option<String>,
    origin: Origin,
    /// Warnings worth showing the user (e.g. uncommitted edits are not indexed).
    pub warnings: Vec<String>,
}

#[derive(Debug)]
enum Origin {
    Directory(PathBuf),
    Git {
        git_dir: PathBuf,
        _clone: Option<tempfile::TempDir>,
    },
}

fn git(args: &[&str], dir: Option<&Path>) -> Result<String> {
    let mut cmd = Command::new("git");
    if let Some(d) = dir {
        cmd.arg("-C").arg(d);
    }
    cmd.args(args).env("GIT_TERMINAL_PROMPT", "0");
    run_git(cmd)
}

fn run_git(mut cmd: Command) -> Result<String> {
    let out = cmd
        .output()
        .map_err(|e| EngineError::Source(format!("cannot run git (is it installed?): {e}")))?;
    if !out.status.success() {
        return Err(EngineError::Git(
            String::from_utf8_lossy(&out.stderr).trim().to_string(),
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// `https://host/owner/name.git` → (owner, name).
pub fn owner_and_name(url: &str) -> Option<(String, String)> {
    let trimmed = url.trim_end_matches('/').trim_end_matches(".git");
    let mut parts = trimmed.rsplit(['/', ':']).filter(|s| !s.is_empty());
    let name = parts.next()?.to_string();
    let owner = parts.next().unwrap_or(&name).to_string();
    Some((owner, name))
}

impl ResolvedSource {
    /// Resolve a path or URL (and optional branch) to something indexable. `admitted`, when
    /// given, is what the admin policy let through for this input: a remote is then cloned
    /// confined to its transport and its checked addresses.
    pub fn resolve(input: &str, branch: Option<&str>, admitted: Option<&Admitted>) -> Result<Self> {
        if let Some(Admitted {
            url,
            remote: Some((remote, addrs)),
        }) = admitted
        {
            let (config, env, git_url) = location::confined_git(remote, addrs);
            return Self::clone_url(&git_url, url, branch, &config, &env);
        }
        match location::classify(input) {
            Location::Local {
                file_url: false, ..
            } => Self::local(input, branch),
            Location::Local { file_url: true, .. } => {
                Self::clone_url(input, &location::redacted(input), branch, &[], &[])
            }
            Location::Remote(_) => {
                Self::clone_url(input, &location::redacted(input), branch, &[], &[])
            }
            Location::Unsupported { scheme } => Err(EngineError::Source(format!(
                "cannot index '{scheme}' locations: give a directory, or an https://, ssh://, git:// or file:// URL"
            ))),
            Location::Malformed(why) => Err(EngineError::Source(format!(
                "'{input}' is not a location: {why}"
            ))),
        }
    }

    fn local(input: &str, branch: Option<&str>) -> Result<Self> {
        let path = Path::new(input);
        if !path.exists() {
            return Err(EngineError::Source(format!(
                "path '{input}' does not exist"
            )));
        }
        if !path.is_dir() {
            return Err(EngineError::Source(format!(
                "'{input}' is not a directory: index a repository or directory"
            )));
        }
        let dir = path
            .canonicalize()
            .map_err(|e| EngineError::Source(format!("cannot open '{input}': {e}")))?;
        let (dir_name, dir_full_name) = names_of_dir(&dir);
        let toplevel = git(&["rev-parse", "--show-toplevel"], Some(&dir)).ok();
        let is_git_top = toplevel
            .as_deref()
            .and_then(|t| Path::new(t).canonicalize().ok())
            .is_some_and(|t| t == dir);
        let bare = git(&["rev-parse", "--is-bare-repository"], Some(&dir))
            .ok()
            .as_deref()
            == Some("true");
        let full_name_from_remote = || {
            git(&["config", "--get", "remote.origin.url"], Some(&dir))
                .ok()
                .and_then(|u| owner_and_name(&u))
                .map(|(o, n)| format!("{o}/{n}"))
        };
        if is_git_top || bare {
            let has_commits = git(
                &["rev-parse", "--verify", "-q", "HEAD^{commit}"],
                Some(&dir),
            )
            .is_ok();
            if has_commits || branch.is_some() {
                let git_dir = PathBuf::from(git(&["rev-parse", "--absolute-git-dir"], Some(&dir))?);
                let (branch, commit) = resolve_branch(&git_dir, branch)?;
                let mut warnings = Vec::new();
                if !bare
                    && git(
                        &["status", "--porcelain", "--untracked-files=no"],
                        Some(&dir),
                    )
                    .is_ok_and(|s| !s.is_empty())
                {
                    warnings.push(format!(
                        "uncommitted changes are not indexed: indexing the committed tree of '{branch}'"
                    ));
                }
                return Ok(ResolvedSource {
                    full_name: full_name_from_remote().unwrap_or(dir_full_name),
                    default_name: dir_name,
                    url: dir.to_string_lossy().to_string(),
                    branch: Some(branch),
                    commit: Some(commit),
                    origin: Origin::Git {
                        git_dir,
                        _clone: None,
                    },
                    warnings,
                });
            }
            return Ok(ResolvedSource {
                default_name: dir_name,
                full_name: full_name_from_remote().unwrap_or(dir_full_name),
                url: dir.to_string_lossy().to_string(),
                branch: None,
                commit: None,
                origin: Origin::Directory(dir),
                warnings: vec![
                    "the git repository has no commits yet: indexing the working directory".into(),
                ],
            });
        }
        Ok(ResolvedSource {
            default_name: dir_name,
            full_name: dir_full_name,
            url: dir.to_string_lossy().to_string(),
            branch: None,
            commit: None,
            origin: Origin::Directory(dir),
            warnings: Vec::new(),
        })
    }

    /// Clone `url` shallowly; `shown` is the location stored and shown (no secrets), `config`
    /// and `env` confine git (an admin-registered remote's).
    fn clone_url(
        url: &str,
        shown: &str,
        branch: Option<&str>,
        config: &[String],
        env: &[(String, String)],
    ) -> Result<Self> {
        let (owner, name) = owner_and_name(shown).ok_or_else(|| {
            EngineError::Source(format!("cannot tell a repository name from '{shown}'"))
        })?;
        let tmp = tempfile::Builder::new()
            .prefix("quarry-clone-")
            .tempdir()
            .map_err(|e| {
                EngineError::Source(format!("cannot create a temporary directory: {e}"))
            })?;
        let target = tmp.path().join("repo.git");
        let target_s = target.to_string_lossy().to_string();
        let mut args: Vec<&str> = Vec::new();
        for c in config {
            args.extend(["-c", c.as_str()]);
        }
        args.extend([
            "clone",
            "--quiet",
            "--bare",
            "--depth",
            "1",
            "--single-branch",
        ]);
        if let Some(b) = branch {
            args.extend(["--branch", b]);
        }
        args.extend(["--", url, &target_s]);
        // Run in the empty temporary directory: git reads an scp-like string that exists as a
        // relative path as that directory, and nothing exists there.
        let mut cmd = Command::new("git");
        cmd.current_dir(tmp.path())
            .args(&args)
            .env("GIT_TERMINAL_PROMPT", "0")
            .envs(env.iter().map(|(k, v)| (k, v)));
        if let Err(e) = run_git(cmd) {
            let msg = e.to_string();
            if let Some(b) = branch
                && (msg.contains("not found in upstream") || msg.contains("Remote branch"))
            {
                return Err(EngineError::UnknownBranch {
                    branch: b.to_string(),
                    available: Vec::new(),
                });
            }
            return Err(EngineError::Source(format!(
                "cannot clone '{shown}': {}",
                location::redact_text(&msg, url, shown)
            )));
        }
        let (branch, commit) = resolve_branch(&target, branch)?;
        Ok(ResolvedSource {
            default_name: name.clone(),
            full_name: format!("{owner}/{name}"),
            url: shown.to_string(),
            branch: Some(branch),
            commit: Some(commit),
            origin: Origin::Git {
                git_dir: target,
                _clone: Some(tmp),
            },
            warnings: Vec::new(),
        })
    }

    /// List candidate files, sorted by path. Symlinks, submodules and special files (pipes,
    /// sockets, devices) are reported in `skipped`.
    pub fn entries(&self, skipped: &mut Vec<(String, &'static str)>) -> Result<Vec<Entry>> {
        let mut out = Vec::new();
        match &self.origin {
            Origin::Directory(root) => {
                let walker = ignore::WalkBuilder::new(root)
                    .follow_links(false)
                    .require_git(false)
                    .filter_entry(|e| e.file_name() != ".git")
                    .build();
                for item in walker {
                    let entry = match item {
                        Ok(e) => e,
                        Err(e) => {
                            skipped.push((e.to_string(), "unreadable"));
                            continue;
                        }
                    };
                    let Some(ft) = entry.file_type() else {
                        continue;
                    };
                    if ft.is_dir() {
                        continue;
                    }
                    let rel = match entry.path().strip_prefix(root) {
                        Ok(r) => match r.to_str() {
                            // A '\\' is a separator on Windows only; elsewhere it is part of
                            // a file's name, stored as it is.
                            Some(r) if std::path::MAIN_SEPARATOR == '\\' => r.replace('\\', "/"),
                            Some(r) => r.to_string(),
                            // Its path cannot be stored as text without colliding with
                            // another's (`a\xff.py` and `a\xfe.py` both read `a\u{fffd}.py`).
                            None => {
                                skipped.push((r.to_string_lossy().into(), "non_utf8_path"));
                                continue;
                            }
                        },
                        Err(_) => continue,
                    };
                    if ft.is_symlink() {
                        skipped.push((rel, "symlink"));
                        continue;
                    }
                    // A named pipe, socket or device: reading one can block forever or
                    // never end.
                    if !ft.is_file() {
                        skipped.push((rel, "special"));
                        continue;
                    }
                    let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
                    out.push(Entry {
                        path: rel,
                        size,
                        blob: Blob::Fs(entry.path().to_path_buf()),
                    });
                }
            }
            Origin::Git { git_dir, .. } => {
                let commit = self.commit.as_deref().unwrap_or("HEAD");
                let listing = Command::new("git")
                    .arg("--git-dir")
                    .arg(git_dir)
                    .args(["ls-tree", "-r", "-z", "--long", "--full-tree", commit])
                    .output()
                    .map_err(|e| EngineError::Source(format!("cannot run git: {e}")))?;
                if !listing.status.success() {
                    return Err(EngineError::Git(
                        String::from_utf8_lossy(&listing.stderr).trim().into(),
                    ));
                }
                for rec in listing.stdout.split(|&b| b == 0).filter(|r| !r.is_empty()) {
                    let rec = match std::str::from_utf8(rec) {
                        Ok(rec) => rec,
                        // (The mode, type, id and size are ASCII: the path is not UTF-8.)
                        Err(_) => {
                            let rec = String::from_utf8_lossy(rec);
                            if let Some((_, path)) = rec.split_once('\t') {
                                skipped.push((path.to_string(), "non_utf8_path"));
                            }
                            continue;
                        }
                    };
                    // "<mode> <type> <oid> <size>\t<path>"
                    let Some((meta, path)) = rec.split_once('\t') else {
                        continue;
                    };
                    let fields: Vec<&str> = meta.split_whitespace().collect();
                    let [mode, kind, oid, size] = fields[..] else {
                        continue;
                    };
                    if kind == "commit" {
                        skipped.push((path.to_string(), "submodule"));
                        continue;
                    }
                    if mode == "120000" {
                        skipped.push((path.to_string(), "symlink"));
                        continue;
                    }
                    if kind != "blob" {
                        continue;
                    }
                    out.push(Entry {
                        path: path.to_string(),
                        size: size.parse().unwrap_or(0),
                        blob: Blob::Git(oid.to_string()),
                    });
                }
            }
        }
        out.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(out)
    }

    /// A reader for this source's blobs.
    pub fn reader(&self) -> Result<Reader> {
        Ok(match &self.origin {
            Origin::Directory(_) => Reader { git: None },
            Origin::Git { git_dir, .. } => Reader {
                git: Some(CatFile::start(git_dir)?),
            },
        })
    }
}

fn resolve_branch(git_dir: &Path, branch: Option<&str>) -> Result<(String, String)> {
    let gd = git_dir.to_string_lossy().to_string();
    let run = |args: &[&str]| {
        let mut full = vec!["--git-dir", gd.as_str()];
        full.extend_from_slice(args);
        git(&full, None)
    };
    let branch = match branch {
        Some(b) => b.to_string(),
        None => run(&["symbolic-ref", "--short", "-q", "HEAD"]).unwrap_or_else(|_| "HEAD".into()),
    };
    match run(&[
        "rev-parse",
        "--verify",
        "-q",
        &format!("{branch}^{{commit}}"),
    ]) {
        Ok(commit) if !commit.is_empty() => Ok((branch, commit)),
        _ => {
            let available = run(&[
                "for-each-ref",
                "--format=%(refname:short)",
                "refs/heads",
                "refs/tags",
            ])
            .map(|s| s.lines().map(String::from).take(20).collect())
            .unwrap_or_default();
            Err(EngineError::UnknownBranch { branch, available })
        }
    }
}

/// Reads blob contents, keeping one `git cat-file --batch` process for git sources.
pub struct Reader {
    git: Option<CatFile>,
}

impl Reader {
    /// The bytes of a blob.
    pub fn read(&mut self, entry: &Entry) -> std::io::Result<Vec<u8>> {
        match (&entry.blob, &mut self.git) {
            (Blob::Fs(p), _) => std::fs::read(p),
            (Blob::Git(oid), Some(cat)) => cat.read(oid),
            (Blob::Git(_), None) => Err(std::io::Error::other("git blob without a git reader")),
        }
    }
}

struct CatFile {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl CatFile {
    fn start(git_dir: &Path) -> Result<Self> {
        let mut child = Command::new("git")
            .arg("--git-dir")
            .arg(git_dir)
            .args(["cat-file", "--batch"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| EngineError::Source(format!("cannot run git cat-file: {e}")))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| EngineError::Source("git stdin".into()))?;
        let stdout = BufReader::new(
            child
                .stdout
                .take()
                .ok_or_else(|| EngineError::Source("git stdout".into()))?,
        );
        Ok(CatFile {
            child,
            stdin,
            stdout,
        })
    }

    fn read(&mut self, oid: &str) -> std::io::Result<Vec<u8>> {
        writeln!(self.stdin, "{oid}")?;
        self.stdin.flush()?;
        let mut header = String::new();
        self.stdout.read_line(&mut header)?;
        let parts: Vec<&str> = header.split_whitespace().collect();
        if parts.len() != 3 || parts[1] != "blob" {
            return Err(std::io::Error::other(format!(
                "git cat-file: unexpected '{}'",
                header.trim()
            )));
        }
        let size: usize = parts[2].parse().map_err(std::io::Error::other)?;
        let mut buf = vec![0; size + 1];
        self.stdout.read_exact(&mut buf)?;
        buf.pop(); // trailing newline
        Ok(buf)
    }
}

impl Drop for CatFile {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Directory names that say how a checkout is kept, not what it holds.
const GENERIC_DIR_NAMES: &[&str] = &[
    "repo",
    "repository",
    "git",
    "src",
    "source",
    "checkout",
    "mirror",
];

/// The default source name and the full name (`owner/name`) of a directory that has no remote
/// to name it: its own name without `.git`, or its parent's when its own is a generic word
/// (`…/google+gson/repo`); a name written `owner+name` (a mirror's layout) gives both; else the
/// owner is the directory above.
pub fn names_of_dir(dir: &Path) -> (String, String) {
    let names: Vec<String> = dir
        .components()
        .rev()
        .filter_map(|c| match c {
            std::path::Component::Normal(s) => Some(s.to_string_lossy().to_string()),
            _ => None,
        })
        .take(3)
        .collect();
    let mut names = names.iter().map(|n| n.strip_suffix(".git").unwrap_or(n));
    let mut name = names.next().unwrap_or("root");
    let mut owner = names.next();
    if GENERIC_DIR_NAMES.contains(&name.to_ascii_lowercase().as_str())
        && let Some(parent) = owner
    {
        (name, owner) = (parent, names.next());
    }
    if let Some((o, n)) = name.split_once('+')
        && !o.is_empty()
        && !n.is_empty()
    {
        return (n.to_string(), format!("{o}/{n}"));
    }
    (
        name.to_string(),
        format!("{}/{name}", owner.unwrap_or(name)),
    )
}

#[cfg(test)]
mod tests {

    #[test]
    fn directory_names_give_sensible_full_names() {
        let names = |p: &str| names_of_dir(Path::new(p));
        assert_eq!(
            names("/w/.mirror/google+gson/repo"),
            ("gson".into(), "google/gson".into())
        );
        assert_eq!(
            names("/srv/git/flask.git"),
            ("flask".into(), "git/flask".into())
        );
        assert_eq!(
            names("/home/me/code/tokio/repo"),
            ("tokio".into(), "code/tokio".into())
        );
        assert_eq!(
            names("/tmp/corpus/zod"),
            ("zod".into(), "corpus/zod".into())
        );
        assert_eq!(names("/"), ("root".into(), "root/root".into()));
    }
    use super::*;

    #[test]
    fn owner_and_name_from_urls() {
        assert_eq!(
            owner_and_name("https://github.com/acme/tool.git"),
            Some(("acme".into(), "tool".into()))
        );
        assert_eq!(
            owner_and_name("git@github.com:acme/tool.git"),
            Some(("acme".into(), "tool".into()))
        );
        assert_eq!(
            owner_and_name("file:///tmp/x/repo"),
            Some(("x".into(), "repo".into()))
        );
    }

    #[test]
    fn missing_path_is_a_clear_error() {
        let e = ResolvedSource::resolve("/definitely/not/here", None, None).unwrap_err();
        assert!(e.to_string().contains("does not exist"), "{e}");
    }
}
