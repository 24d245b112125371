//! Chimera: chess variants hosted in chat. The `chimera` binary's parts, as a library so the
//! tests can drive the host and the console in-process.
//!
//! - [`host`]: the game host, transport-neutral (commands in, replies out).
//! - [`console`]: a local channel in the terminal, speaking to the host.
//! - [`discord`]: the Discord bot (serenity and poise), speaking to the host.
//! - [`cli`]: the command line (DESIGN.md gives its contract).

pub mod cli;
pub mod console;
pub mod discord;
pub mod host;
mod render_cmd;
