//! Chimera: chess variants hosted in chat. The `chimera` binary's parts, as a library so the
//! tests can drive the console and the adapters in-process. The game host itself is the `host`
//! crate; everything here speaks to it through its typed `Command` and `Reply`.
//!
//! - [`console`]: a local channel in the terminal, speaking to the host.
//! - [`discord`]: the Discord bot (serenity and poise), speaking to the host.
//! - [`cli`]: the command line (DESIGN.md gives its contract).
//! - [`uci`]: `chimera uci`, the engine for GUIs and match tools.

pub mod cli;
pub mod console;
pub mod discord;
mod render_cmd;
pub mod uci;
