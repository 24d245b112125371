//! The transposition table: a fixed array of entries indexed by the Zobrist key, each holding
//! the best move found (as a [`MoveKey`]), a score bound and the depth it was searched to.
//! Replacement prefers the deeper result for the same key and always takes a new key.

use crate::order::MoveKey;

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact,
    /// The score is at least this (a cut-off).
    Lower,
    /// The score is at most this (no move reached alpha).
    Upper,
}

#[derive(Copy, Clone, Debug)]
pub struct Entry {
    pub key: u64,
    pub best: MoveKey,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
}

pub struct Table {
    entries: Vec<Option<Entry>>,
}

impl Table {
    /// A table of about `megabytes` MiB (at least one entry).
    pub fn new(megabytes: usize) -> Table {
        let count = (megabytes * 1024 * 1024 / std::mem::size_of::<Option<Entry>>()).max(1);
        Table { entries: vec![None; count] }
    }

    /// Bytes the table holds.
    pub fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Option<Entry>>()
    }

    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = None);
    }

    fn slot(&self, key: u64) -> usize {
        ((u128::from(key) * self.entries.len() as u128) >> 64) as usize
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.entries[self.slot(key)].filter(|e| e.key == key)
    }

    pub fn store(&mut self, entry: Entry) {
        let slot = self.slot(entry.key);
        let keep_old = self.entries[slot]
            .is_some_and(|old| old.key == entry.key && old.depth > entry.depth && entry.bound != Bound::Exact);
        if !keep_old {
            self.entries[slot] = Some(entry);
        }
    }
}
