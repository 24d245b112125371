//! The real bot (serenity and poise, `chimera::discord::serve`) against a fake Discord on
//! 127.0.0.1 (`fakecord`): whole games by slash commands, autocomplete, buttons, threads,
//! errors, deferral and restarts, the way they happen in a real server.

mod harness;

mod buttons;
mod direct;
mod errors;
mod escaping;
mod games;
mod operate;
mod opponent;
mod platform;
mod puzzles;
mod setup;
mod team;
mod tournaments;
