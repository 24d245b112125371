//! The real bot (`chimera::matrix::serve`, matrix-sdk with end-to-end encryption) against a real
//! Synapse on 127.0.0.1, with people who are matrix-sdk clients: games in plain and encrypted
//! rooms, challenges by pill and by user id, reactions as buttons, refusals as replies, bare
//! moves, restarts that replay nothing, threads and a knockout tournament; and the `chimera
//! matrix` process itself killed with moves in hand, stopped with its homeserver gone.

// matrix-sdk's futures are deep; proving them `Send` needs more than the default 128.
#![recursion_limit = "256"]

mod harness;
mod synapse;

mod direct;
mod games;
mod operate;
mod removal;
mod rooms;
mod team;
mod threads;
mod trust;
