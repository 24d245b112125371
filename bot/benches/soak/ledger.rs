//! What the players were told: every move the bot acknowledged (its public answer that the move
//! was played), and the fate of every request they made. Compared with the store at the end.

use std::collections::BTreeMap;
use std::sync::Mutex;

/// A move the bot told the players it played.
#[derive(Clone, Debug)]
pub struct Ack {
    pub platform: &'static str,
    pub channel: String,
    /// The request's id as the store keeps it: the interaction id, or the Matrix event id.
    pub request: String,
    pub ply: u32,
    pub san: String,
    /// The words of the answer, for the report of a difference.
    pub said: String,
}

#[derive(Default)]
pub struct Ledger {
    pub acks: Mutex<Vec<Ack>>,
    counts: Mutex<BTreeMap<&'static str, u64>>,
    /// Longest wait for Chimera's move in a game against it, in seconds, by game.
    pub engine_waits: Mutex<BTreeMap<i64, f64>>,
    /// Why moves were refused: the refusal's first sentence, digits and names aside, counted.
    refusals: Mutex<BTreeMap<String, u64>>,
}

impl Ledger {
    pub fn count(&self, what: &'static str) {
        *self.counts.lock().unwrap().entry(what).or_default() += 1;
    }

    pub fn set(&self, what: &'static str, n: u64) {
        self.counts.lock().unwrap().insert(what, n);
    }

    pub fn get(&self, what: &str) -> u64 {
        self.counts.lock().unwrap().get(what).copied().unwrap_or(0)
    }

    pub fn counts(&self) -> BTreeMap<&'static str, u64> {
        self.counts.lock().unwrap().clone()
    }

    pub fn refused(&self, platform: &str, text: &str) {
        let first = text.split(['.', '!', '?', ':', '\n']).next().unwrap_or_default();
        let words: Vec<String> = first
            .split_whitespace()
            .map(|w| if w.chars().any(|c| c.is_ascii_digit() || c == '@' || c == '<') { "…".into() } else { w.into() })
            .collect();
        let key = format!("{platform}: {}", words.join(" "));
        *self.refusals.lock().unwrap().entry(key).or_default() += 1;
    }

    pub fn refusals(&self) -> Vec<(String, u64)> {
        let mut all: Vec<(String, u64)> = self.refusals.lock().unwrap().clone().into_iter().collect();
        all.sort_by_key(|r| std::cmp::Reverse(r.1));
        all
    }

    pub fn ack(&self, ack: Ack) {
        self.acks.lock().unwrap().push(ack);
    }

    pub fn engine_wait(&self, game: i64, seconds: f64) {
        let mut waits = self.engine_waits.lock().unwrap();
        let longest = waits.entry(game).or_default();
        *longest = longest.max(seconds);
    }
}

/// Reads a move announcement: `alice (White) played 12... Nf6. bob (Black) to move.` gives
/// `(24, "Nf6")`. `None` for anything else.
pub fn played(text: &str) -> Option<(u32, String)> {
    let rest = &text[text.find(" played ")? + " played ".len()..];
    let (number, rest) = rest.split_once(' ')?;
    let (full, black) = match number.strip_suffix("...") {
        Some(full) => (full, true),
        None => (number.strip_suffix('.')?, false),
    };
    let full: u32 = full.parse().ok()?;
    let ply = if black { full * 2 } else { full * 2 - 1 };
    let san = match rest.find(". ") {
        Some(end) => &rest[..end],
        None => rest.trim_end().strip_suffix('.')?,
    };
    (!san.is_empty() && full >= 1).then(|| (ply, san.to_string()))
}

/// The id of the game a message opens: `Game 12 begins: ...`.
pub fn begins(text: &str) -> Option<u64> {
    let at = text.find(" begins")?;
    let before = text[..at].rsplit("Game ").next()?;
    before.trim().parse().ok()
}
