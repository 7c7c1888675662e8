//! Quarry's server crate: the `quarry` command line and the HTTP surfaces.
//!
//! - [`cli`]: every command (`index`, `workspace`, `sources`, `sql`, `keys`, `serve`, `up`);
//! - [`progress`]: progress bars on a terminal, log lines elsewhere;
//! - [`auth`]: API keys and the caller's visible data sources;
//! - [`http`]: the HTTP server;
//! - [`query`]: running ArtifactQuery statements for a caller.

pub mod auth;
pub mod cli;
pub mod http;
pub mod progress;
pub mod query;
pub mod sources;
