//! Chimera: chess variants hosted in chat. The `chimera` binary's parts, as a library so the
//! tests can drive the console and the adapters in-process. The game host itself is the `host`
//! crate; everything here speaks to it through its typed `Command` and `Reply`.
//!
//! - [`adapter`]: what every chat adapter runs alike: the process, the scheduler, the heartbeat.
//! - [`console`]: a local channel in the terminal, speaking to the host.
//! - [`discord`]: the Discord bot (serenity and poise), speaking to the host.
//! - [`matrix`]: the Matrix bot (matrix-sdk, end-to-end encryption), speaking to the host;
//!   [`matrix_read`], its message reader (text, pills, the prefix), has no matrix-sdk in it and
//!   is there without the `matrix` feature too, for the fuzz target `matrix_text`.
//! - [`http`]: the operator's endpoint beside an adapter: `/healthz` and `/metrics`.
//! - [`settings`]: what the chat adapters share: common settings, `.env`, logs, stop signal.
//! - `progress`: a long command's progress shown in chat by editing a message, for Discord and
//!   Matrix.
//! - [`cli`]: the command line (DESIGN.md gives its contract); [`check`], `chimera check`.
//! - [`uci`]: `chimera uci`, the engine for GUIs and match tools.

#[cfg(any(feature = "discord", feature = "matrix"))]
pub mod adapter;
pub mod check;
pub mod cli;
pub mod console;
#[cfg(feature = "discord")]
pub mod discord;
#[cfg(any(feature = "discord", feature = "matrix"))]
pub mod http;
#[cfg(feature = "matrix")]
pub mod matrix;
pub mod matrix_read;
pub mod pages;
#[cfg(any(feature = "discord", feature = "matrix"))]
mod progress;
mod render_cmd;
pub mod settings;
pub mod uci;
