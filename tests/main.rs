//! Quarry's integration tests: the real `quarry` binary on real repositories (the fixtures in
//! `tests/fixtures`, copied into temporary directories and committed to real git
//! repositories), and a real HTTP server on an ephemeral port.
//!
//! One test binary on purpose: the dependency stack is heavy and every test binary is a
//! large link.

pub mod api;
mod common;
mod deploy;
mod grep;
pub mod index;
mod security;
mod serve;
mod tenancy;
mod tools;
