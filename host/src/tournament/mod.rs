//! Tournaments run by the bot: the pure engines that decide who plays whom ([`pairing`]) and who
//! finished where ([`tiebreak`]). Both work on the stored rounds alone, so the host can recompute
//! anything after a restart.

pub mod pairing;
pub mod tiebreak;
