//! Quarry's server crate: the `quarry` command line and the HTTP surfaces.
//!
//! - [`cli`]: every command (`index`, `workspace`, `sources`, `sql`, `keys`, `serve`, `up`);
//! - [`progress`]: progress bars on a terminal, log lines elsewhere;
//! - [`auth`]: API keys and JWTs; [`limits`]: rate limits by plan; [`admin`]: `/api/admin`;
//! - [`http`]: the HTTP server;
//! - [`query`]: running ArtifactQuery statements for a caller;
//! - [`tools`]: the Tool API (eleven tools, their schemas, the OpenAPI document);
//! - [`rest`]: REST search, ontology and artifact routes (docs/api.md, "Routes");
//! - [`connectors`]: the Dify retrieval connector and OpenAI-compatible chat completions;
//! - [`mcp`]: MCP over streamable HTTP (rmcp) at `/api/mcp`;
//! - [`chat`]: question answering (retrieval, then an LLM or an extractive answer).

pub mod admin;
pub mod auth;
pub mod chat;
pub mod cli;
pub mod connectors;
pub mod http;
pub mod limits;
/// Rate-limit counters shared by replicas, in Redis.
pub mod limits_redis;
pub mod mcp;
pub mod progress;
pub mod query;
pub mod rest;
pub mod sources;
pub mod tools;
