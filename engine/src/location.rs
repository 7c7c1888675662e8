//! What a source location string names, by git's own rules, and which locations an admin key
//! may register (docs/operations.md, "Security model").
//!
//! One classifier serves the indexer (which branch reads the input) and the admin API (what
//! it admits), so the two cannot disagree about whether a string is a path on this machine.
//! git's rules, in its order: `<transport>::<address>` is a remote helper; a string with
//! `://` is a URL of that scheme; a string with no `:`, or with a `/` before its first `:`,
//! is a local path; anything else is scp-like `[user@]host:path`, unless it exists as a local
//! path (then `git clone` reads the directory).

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::path::PathBuf;

/// A network transport git can clone over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    Https,
    Http,
    Ssh,
    Git,
}

impl Transport {
    /// git's protocol name (`protocol.<name>.allow`, `GIT_ALLOW_PROTOCOL`).
    pub fn protocol(self) -> &'static str {
        match self {
            Transport::Https => "https",
            Transport::Http => "http",
            Transport::Ssh => "ssh",
            Transport::Git => "git",
        }
    }

    fn default_port(self) -> u16 {
        match self {
            Transport::Https => 443,
            Transport::Http => 80,
            Transport::Ssh => 22,
            Transport::Git => 9418,
        }
    }
}

/// A remote repository's address, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Remote {
    pub transport: Transport,
    /// The user name, kept only where it is not a secret (ssh's login name).
    pub user: Option<String>,
    /// Whether the input carried a secret in its userinfo (a password, or any userinfo of an
    /// http(s) or git URL, where a lone user name is a token).
    pub had_secret: bool,
    /// Host name or address, without IPv6 brackets.
    pub host: String,
    pub port: Option<u16>,
    /// The path on the host, beginning with `/` (scp-like paths are relative to the login
    /// directory: `~/` is kept as the path's start).
    pub path: String,
}

impl Remote {
    /// The port a connection goes to.
    pub fn effective_port(&self) -> u16 {
        self.port.unwrap_or(self.transport.default_port())
    }

    fn host_for_url(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        }
    }

    /// The URL with its secrets removed, in `scheme://` form: what is stored and shown, and
    /// what git is given.
    pub fn url(&self) -> String {
        self.url_with_host(&self.host_for_url())
    }

    fn url_with_host(&self, host: &str) -> String {
        let user = self
            .user
            .as_deref()
            .map(|u| format!("{u}@"))
            .unwrap_or_default();
        let port = self.port.map(|p| format!(":{p}")).unwrap_or_default();
        format!(
            "{}://{user}{host}{port}{}",
            self.transport.protocol(),
            self.path
        )
    }
}

/// What a location string is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A path on this machine, given as a path or as a `file://` URL.
    Local { path: PathBuf, file_url: bool },
    /// A repository on another host.
    Remote(Remote),
    /// A remote helper (`ext::…`, `fd::…`) or a URL scheme Quarry does not clone from.
    Unsupported { scheme: String },
    /// Not a location at all (control characters, an empty host, a bad port).
    Malformed(String),
}

impl Location {
    /// Whether the string names something on this machine's file system.
    pub fn is_local(&self) -> bool {
        matches!(self, Location::Local { .. })
    }
}

/// `scheme::` at the start: git's remote-helper syntax.
fn helper_prefix(s: &str) -> Option<&str> {
    let end = s.find("::")?;
    let scheme = &s[..end];
    let mut chars = scheme.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
    .then_some(scheme)
}

/// Classify a location string. `exists` says whether a string exists as a local path (git
/// prefers a local directory over an scp-like reading of the same string); the indexer passes
/// the file system's answer.
pub fn classify_with(input: &str, exists: impl Fn(&str) -> bool) -> Location {
    if input.is_empty() {
        return Location::Malformed("the location is empty".into());
    }
    if input.chars().any(|c| c.is_control()) {
        return Location::Malformed("the location contains a control character".into());
    }
    if let Some(scheme) = helper_prefix(input) {
        return Location::Unsupported {
            scheme: format!("{scheme}::"),
        };
    }
    if let Some((scheme, _)) = input.split_once("://") {
        return classify_url(input, &scheme.to_ascii_lowercase());
    }
    let colon = input.find(':');
    let slash = input.find('/');
    let local = match (colon, slash) {
        (None, _) => true,
        (Some(c), Some(s)) => s < c,
        (Some(_), None) => false,
    };
    if local || exists(input) {
        return Location::Local {
            path: PathBuf::from(input),
            file_url: false,
        };
    }
    classify_scp(input)
}

/// Classify against this machine's file system.
pub fn classify(input: &str) -> Location {
    classify_with(input, |s| std::path::Path::new(s).exists())
}

fn classify_url(input: &str, scheme: &str) -> Location {
    let transport = match scheme {
        "https" => Transport::Https,
        "http" => Transport::Http,
        "ssh" | "git+ssh" | "ssh+git" => Transport::Ssh,
        "git" => Transport::Git,
        "file" => {
            return match url::Url::parse(input) {
                Ok(u) => match u.to_file_path() {
                    Ok(path) => Location::Local {
                        path,
                        file_url: true,
                    },
                    // A file URL naming another host: still no network transport.
                    Err(()) => Location::Local {
                        path: PathBuf::from(u.path()),
                        file_url: true,
                    },
                },
                Err(_) => Location::Local {
                    path: PathBuf::from(&input[7..]),
                    file_url: true,
                },
            };
        }
        other => {
            return Location::Unsupported {
                scheme: format!("{other}://"),
            };
        }
    };
    // WHATWG parsing treats `\` as `/` for special schemes where git would not: refuse what
    // the two could read differently.
    if input.contains('\\') || input.contains(char::is_whitespace) {
        return Location::Malformed("the URL contains a backslash or white space".into());
    }
    // `url` parses ssh and git URLs as opaque authorities; the http form of the same string
    // gives the same host, port and userinfo rules for all four.
    let rest = &input[scheme.len() + 3..];
    if rest.is_empty() || rest.starts_with(['/', '?', '#']) {
        return Location::Malformed("the URL names no host".into());
    }
    let parsed = match url::Url::parse(&format!("http://{rest}")) {
        Ok(u) => u,
        Err(e) => return Location::Malformed(format!("not a URL: {e}")),
    };
    let Some(host) = parsed.host() else {
        return Location::Malformed("the URL names no host".into());
    };
    let host = match host {
        url::Host::Domain(d) => d.to_string(),
        url::Host::Ipv4(a) => a.to_string(),
        url::Host::Ipv6(a) => a.to_string(),
    };
    // `url` reports the http default port as none; an explicit ":80" on an ssh URL is not it.
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let hostport = authority.rsplit('@').next().unwrap_or("");
    let explicit = match hostport.strip_prefix('[') {
        Some(v6) => v6.split_once("]:").map(|(_, p)| p),
        None => hostport.split_once(':').map(|(_, p)| p),
    };
    let port = parsed
        .port()
        .or_else(|| explicit.and_then(|p| p.parse().ok()));
    let user = (!parsed.username().is_empty()).then(|| parsed.username().to_string());
    let had_password = parsed.password().is_some();
    let (user, had_secret) = match transport {
        Transport::Ssh => (user, had_password),
        _ => (None, user.is_some() || had_password),
    };
    let mut path = parsed.path().to_string();
    if let Some(q) = parsed.query() {
        path.push('?');
        path.push_str(q);
    }
    remote_or_malformed(Remote {
        transport,
        user,
        had_secret,
        host,
        port,
        path,
    })
}

fn classify_scp(input: &str) -> Location {
    // `[user@]host:path`, or `[user@][host:port]:path`.
    let (authority, path) = if let Some(rest) = input.strip_prefix('[') {
        match rest.split_once("]:") {
            Some((inside, path)) => (inside.to_string(), path),
            None => return Location::Malformed("an unclosed '[' in an scp-like address".into()),
        }
    } else {
        match input.split_once(':') {
            Some((a, p)) => (a.to_string(), p),
            None => return Location::Malformed("no ':' in an scp-like address".into()),
        }
    };
    let (user, hostport) = match authority.rsplit_once('@') {
        Some((u, h)) => (Some(u.to_string()), h.to_string()),
        None => (None, authority.clone()),
    };
    let (user, had_secret) = match user {
        Some(u) => match u.split_once(':') {
            Some((name, _)) => (Some(name.to_string()), true),
            None => (Some(u), false),
        },
        None => (None, false),
    };
    // Inside brackets, `host:port` (git's `[host:port]:path`); a bare IPv6 address otherwise.
    let (host, port) = match hostport.rsplit_once(':') {
        Some((h, p)) if input.starts_with('[') && !h.contains(':') => match p.parse() {
            Ok(p) => (h.to_string(), Some(p)),
            Err(_) => return Location::Malformed(format!("bad port '{p}'")),
        },
        _ => (hostport.clone(), None),
    };
    let path = if path.starts_with('/') {
        path.to_string()
    } else {
        format!("/~/{path}")
    };
    remote_or_malformed(Remote {
        transport: Transport::Ssh,
        user,
        had_secret,
        host: host.trim_matches(['[', ']']).to_ascii_lowercase(),
        port,
        path,
    })
}

fn remote_or_malformed(r: Remote) -> Location {
    if r.host.is_empty() {
        return Location::Malformed("the address names no host".into());
    }
    // A host or user beginning with '-' would reach ssh as an option.
    if r.host.starts_with('-') || r.user.as_deref().is_some_and(|u| u.starts_with('-')) {
        return Location::Malformed("a host or user name may not begin with '-'".into());
    }
    if r.host.parse::<IpAddr>().is_err()
        && !r
            .host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
    {
        return Location::Malformed(format!("'{}' is not a host name", r.host));
    }
    Location::Remote(r)
}

/// The location as it may be stored and shown: without the secrets of its userinfo (a remote
/// keeps ssh's login name; any other URL loses its userinfo); anything else as given.
pub fn redacted(input: &str) -> String {
    match classify_with(input, |_| false) {
        Location::Remote(r) if r.had_secret => return r.url(),
        Location::Remote(_) => return input.to_string(),
        _ => {}
    }
    if let Some(i) = input.find("://") {
        let rest = &input[i + 3..];
        let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        if let Some(at) = rest[..end].rfind('@') {
            return format!("{}{}", &input[..i + 3], &rest[at + 1..]);
        }
    }
    input.to_string()
}

/// `text` (a git message) with `url` replaced by its shown form, for messages about a URL
/// that carried credentials.
pub fn redact_text(text: &str, url: &str, shown: &str) -> String {
    if url == shown || url.is_empty() {
        text.to_string()
    } else {
        text.replace(url, shown)
    }
}

/// Whether connecting to this address could reach this machine or its private network:
/// loopback, private, link-local (cloud metadata services among them), shared, reserved,
/// documentation, multicast and unspecified ranges, IPv4 embedded in IPv6 included.
pub fn is_internal(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(a) => is_internal_v4(a),
        IpAddr::V6(a) => is_internal_v6(a),
    }
}

fn is_internal_v4(a: Ipv4Addr) -> bool {
    let [b0, b1, b2, _] = a.octets();
    a.is_loopback()
        || a.is_private()
        || a.is_link_local()
        || a.is_unspecified()
        || a.is_broadcast()
        || a.is_multicast()
        || a.is_documentation()
        || b0 == 0
        || (b0 == 100 && (64..128).contains(&b1)) // shared address space (carrier NAT)
        || (b0 == 192 && b1 == 0 && b2 == 0) // IETF protocol assignments
        || (b0 == 198 && (18..20).contains(&b1)) // benchmarking
        || b0 >= 240 // reserved
}

fn is_internal_v6(a: Ipv6Addr) -> bool {
    if let Some(v4) = a.to_ipv4_mapped() {
        return is_internal_v4(v4);
    }
    let s = a.segments();
    // IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::/96) carry an IPv4 address.
    if s[..6] == [0, 0, 0, 0, 0, 0] || s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        let v4 = Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
        return a.is_loopback() || a.is_unspecified() || is_internal_v4(v4);
    }
    a.is_loopback()
        || a.is_unspecified()
        || a.is_multicast()
        || (s[0] & 0xfe00) == 0xfc00 // unique local
        || (s[0] & 0xffc0) == 0xfe80 // link-local
        || (s[0] & 0xffc0) == 0xfec0 // site-local (deprecated)
        || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation
        || (s[0] == 0x2002) // 6to4 (embeds any IPv4 address)
        || (s[0] == 0x2001 && s[1] == 0) // Teredo
}

/// Why an admin-registered location was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// A path on the server (or a `file://` URL) without `--admin-local-sources`.
    Local,
    /// A remote helper or a scheme other than https, http, ssh and git.
    Unsupported(String),
    /// Not parseable as a location.
    Malformed(String),
    /// Credentials in the URL (they would be stored and shown).
    Credentials,
    /// The host is not among `--admin-allowed-hosts`.
    HostNotAllowed { host: String, allowed: Vec<String> },
    /// The host resolves to an internal address.
    Internal { host: String, addr: IpAddr },
    /// The host does not resolve.
    Unresolvable { host: String, error: String },
}

impl Refusal {
    /// Whether the refusal is the server's policy (403) rather than a malformed request (400).
    pub fn is_forbidden(&self) -> bool {
        matches!(
            self,
            Refusal::Local | Refusal::HostNotAllowed { .. } | Refusal::Internal { .. }
        )
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Local => write!(
                f,
                "this location is a path on the server: only remote git URLs (https://, ssh://, git://, or user@host:path) can be registered here; local paths and file:// URLs need the server's --admin-local-sources"
            ),
            Refusal::Unsupported(s) => write!(
                f,
                "'{s}' locations cannot be registered: use an https://, http://, ssh:// or git:// URL, or user@host:path"
            ),
            Refusal::Malformed(why) => write!(f, "not a git location: {why}"),
            Refusal::Credentials => write!(
                f,
                "the URL carries credentials, which would be stored and shown: register it without them; the server supplies credentials for private remotes from git's credential helpers (docs/operations.md, \"Credentials for private remotes\")"
            ),
            Refusal::HostNotAllowed { host, allowed } => write!(
                f,
                "host '{host}' is not among the server's --admin-allowed-hosts ({})",
                allowed.join(", ")
            ),
            Refusal::Internal { host, addr } => write!(
                f,
                "host '{host}' resolves to {addr}, an internal address (loopback, private, link-local or reserved): refused; an operator can allow a host by name with --admin-allowed-hosts"
            ),
            Refusal::Unresolvable { host, error } => {
                write!(f, "host '{host}' does not resolve: {error}")
            }
        }
    }
}

/// What the operator lets admin keys register.
#[derive(Debug, Clone, Default)]
pub struct AdminPolicy {
    /// `--admin-local-sources`: paths on the server and `file://` URLs.
    pub allow_local: bool,
    /// `--admin-allowed-hosts`: when non-empty, the only hosts admitted (`*.example.com`
    /// admits subdomains); a listed host is trusted whatever it resolves to.
    pub allowed_hosts: Vec<String>,
}

/// A location the policy admitted, with how its clone is confined.
#[derive(Debug, Clone)]
pub struct Admitted {
    /// The location as given (it carries no secrets): what is stored and shown.
    pub url: String,
    /// For a remote: the transport git may use, and the addresses checked, which the clone
    /// connects to instead of resolving the host again.
    pub remote: Option<(Remote, Vec<IpAddr>)>,
}

fn host_matches(pattern: &str, host: &str) -> bool {
    let (p, h) = (pattern.to_ascii_lowercase(), host.to_ascii_lowercase());
    match p.strip_prefix("*.") {
        Some(suffix) => h.ends_with(&format!(".{suffix}")),
        None => p == h,
    }
}

impl AdminPolicy {
    /// Admit or refuse a location an admin key asks to register.
    pub async fn admit(&self, input: &str) -> Result<Admitted, Refusal> {
        let remote = match classify(input) {
            Location::Local { .. } if self.allow_local => {
                return Ok(Admitted {
                    url: input.to_string(),
                    remote: None,
                });
            }
            Location::Local { .. } => return Err(Refusal::Local),
            Location::Unsupported { scheme } => return Err(Refusal::Unsupported(scheme)),
            Location::Malformed(why) => return Err(Refusal::Malformed(why)),
            Location::Remote(r) => r,
        };
        if remote.had_secret {
            return Err(Refusal::Credentials);
        }
        let listed = self
            .allowed_hosts
            .iter()
            .any(|p| host_matches(p, &remote.host));
        if !self.allowed_hosts.is_empty() && !listed {
            return Err(Refusal::HostNotAllowed {
                host: remote.host.clone(),
                allowed: self.allowed_hosts.clone(),
            });
        }
        let port = remote.effective_port();
        let addrs: Vec<IpAddr> = match remote.host.parse::<IpAddr>() {
            Ok(ip) => vec![ip],
            Err(_) => match tokio::net::lookup_host((remote.host.as_str(), port)).await {
                Ok(found) => found.map(|a| a.ip()).collect(),
                Err(e) => {
                    return Err(Refusal::Unresolvable {
                        host: remote.host.clone(),
                        error: e.to_string(),
                    });
                }
            },
        };
        if addrs.is_empty() {
            return Err(Refusal::Unresolvable {
                host: remote.host.clone(),
                error: "no addresses".into(),
            });
        }
        if !listed && let Some(&addr) = addrs.iter().find(|a| is_internal(**a)) {
            return Err(Refusal::Internal {
                host: remote.host.clone(),
                addr,
            });
        }
        Ok(Admitted {
            url: input.to_string(),
            remote: Some((remote, addrs)),
        })
    }
}

/// git options and environment that confine a clone of an admitted remote: only its own
/// transport, no redirects, and connections to the checked addresses only.
pub fn confined_git(
    remote: &Remote,
    addrs: &[IpAddr],
) -> (Vec<String>, Vec<(String, String)>, String) {
    let proto = remote.transport.protocol();
    let mut config = vec![
        "protocol.allow=never".to_string(),
        format!("protocol.{proto}.allow=always"),
        "http.followRedirects=false".to_string(),
    ];
    let env = vec![("GIT_ALLOW_PROTOCOL".to_string(), proto.to_string())];
    let first = addrs[0];
    let literal = match first {
        IpAddr::V4(a) => a.to_string(),
        IpAddr::V6(a) => format!("[{a}]"),
    };
    let url = match remote.transport {
        Transport::Https | Transport::Http => {
            let list: Vec<String> = addrs
                .iter()
                .map(|a| match a {
                    IpAddr::V4(a) => a.to_string(),
                    IpAddr::V6(a) => format!("[{a}]"),
                })
                .collect();
            config.push(format!(
                "http.curloptResolve={}:{}:{}",
                remote.host,
                remote.effective_port(),
                list.join(",")
            ));
            remote.url()
        }
        Transport::Git => remote.url_with_host(&literal),
        Transport::Ssh => {
            config.push(format!(
                "core.sshCommand=ssh -o HostName={} -o HostKeyAlias={}",
                first, remote.host
            ));
            remote.url()
        }
    };
    (config, env, url)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local(s: &str) -> bool {
        classify_with(s, |_| false).is_local()
    }

    #[test]
    fn paths_are_local_by_gits_rule() {
        // The probe's string: a '/' before the first ':' makes it a path, '@' or not.
        assert!(local(
            "/usr/share/locale/en@quot/../../../../sys/dev/char/1:3/../../../../etc"
        ));
        for s in [
            "/etc",
            "../secret",
            "etc",
            "./a:b",
            "%2Fetc",
            "a/b@c:d",
            "~/x",
        ] {
            assert!(local(s), "{s}");
        }
        assert!(local("file:///etc"));
        assert!(local("FILE://localhost/etc"));
        // scp-like, unless it exists on disk.
        assert!(!local("git@github.com:o/r.git"));
        assert!(classify_with("host:o/r", |_| true).is_local());
    }

    #[test]
    fn remotes_parse_with_secrets_separated() {
        let Location::Remote(r) =
            classify_with("https://u:S3CRET@Example.com:8443/o/r.git", |_| false)
        else {
            panic!()
        };
        assert_eq!(
            (r.host.as_str(), r.port, r.had_secret),
            ("example.com", Some(8443), true)
        );
        assert_eq!(r.url(), "https://example.com:8443/o/r.git");
        let Location::Remote(r) = classify_with("git@github.com:o/r.git", |_| false) else {
            panic!()
        };
        assert_eq!(r.url(), "ssh://git@github.com/~/o/r.git");
        assert!(!r.had_secret);
        let Location::Remote(r) = classify_with("ssh://git:pw@[::1]:2222/r", |_| false) else {
            panic!()
        };
        assert_eq!(
            (r.host.as_str(), r.port, r.had_secret),
            ("::1", Some(2222), true)
        );
        assert_eq!(r.url(), "ssh://git@[::1]:2222/r");
        assert_eq!(
            redacted("https://tok@github.com/o/r"),
            "https://github.com/o/r"
        );
        assert_eq!(redacted("/srv/x"), "/srv/x");
        assert_eq!(
            redacted("file://user:S3CRET@host/srv/x"),
            "file://host/srv/x"
        );
        assert_eq!(redacted("ftp://a:b@h/x"), "ftp://h/x");
    }

    #[test]
    fn helpers_and_odd_schemes_are_unsupported() {
        for s in [
            "ext::sh -c id",
            "fd::3",
            "ftp://h/r",
            "persistent-https::x",
            "HTTPS::h",
        ] {
            assert!(
                matches!(classify_with(s, |_| false), Location::Unsupported { .. }),
                "{s}"
            );
        }
        for s in [
            "ssh://-oProxyCommand=x/r",
            "https://a\\@b/r",
            "-oX:y",
            "https:///r",
            "a\nb:c",
        ] {
            assert!(
                matches!(classify_with(s, |_| false), Location::Malformed(_)),
                "{s}: {:?}",
                classify_with(s, |_| false)
            );
        }
    }

    #[test]
    fn internal_addresses() {
        for s in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "100.64.0.1",
            "::1",
            "::",
            "fd00:ec2::254",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "64:ff9b::a00:1",
            "2002:7f00:1::",
            "224.0.0.1",
            "255.255.255.255",
        ] {
            assert!(is_internal(s.parse().unwrap()), "{s}");
        }
        for s in ["140.82.121.4", "8.8.8.8", "2606:4700::1111"] {
            assert!(!is_internal(s.parse().unwrap()), "{s}");
        }
    }

    #[tokio::test]
    async fn the_policy_refuses_internal_and_local() {
        let p = AdminPolicy::default();
        for s in [
            "/etc",
            "file:///etc",
            "http://127.0.0.1:9/x.git",
            "http://[::1]/x",
            "git://localhost/x",
        ] {
            assert!(p.admit(s).await.unwrap_err().is_forbidden(), "{s}");
        }
        assert_eq!(
            p.admit("https://u:p@8.8.8.8/x").await.unwrap_err(),
            Refusal::Credentials
        );
        let listed = AdminPolicy {
            allow_local: false,
            allowed_hosts: vec!["localhost".into(), "*.example.com".into()],
        };
        assert!(listed.admit("http://localhost:9/x.git").await.is_ok());
        assert!(matches!(
            listed.admit("https://8.8.8.8/x").await.unwrap_err(),
            Refusal::HostNotAllowed { .. }
        ));
        assert!(host_matches("*.example.com", "git.Example.com"));
        assert!(!host_matches("*.example.com", "example.com.evil"));
    }
}
