//! What the players see of a game: the board as it stands, read from the bot's database while
//! the bot runs (a reader beside SQLite's writer, never a writer). The players of the soak pick
//! their moves from it as people pick theirs from the board picture, and find their place again
//! after the bot was killed mid-answer; what they were *told* is recorded apart, in the ledger,
//! and compared with the store only at the end.

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use rules::{Position, Variant};
use rusqlite::{Connection, OpenFlags, OptionalExtension};

/// An active game as the board shows it.
#[derive(Clone, Debug)]
pub struct Live {
    pub id: i64,
    pub channel: String,
    pub white: String,
    pub black: String,
    pub position: Position,
    /// Plies played.
    pub ply: u32,
    pub clocked: bool,
    pub tournament: bool,
}

impl Live {
    /// The platform user id of the side to move.
    pub fn mover(&self) -> &str {
        match self.position.turn() {
            rules::Color::White => &self.white,
            rules::Color::Black => &self.black,
        }
    }
}

pub struct Look {
    conn: Connection,
}

const ACTIVE: &str = "SELECT g.id, g.channel, g.variant, pw.user_id, pb.user_id, g.start_fen, g.base_ms,
        (SELECT m.fen_after FROM moves m WHERE m.game_id = g.id ORDER BY m.ply DESC LIMIT 1),
        (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id), g.pairing_id
    FROM games g JOIN players pw ON pw.id = g.white_id JOIN players pb ON pb.id = g.black_id
    WHERE g.state = 'active' AND g.platform = ?1";

impl Look {
    /// Opens the database read-only, waiting for the bot to have made it.
    pub async fn open(path: &Path) -> Look {
        for _ in 0..600 {
            if path.exists() {
                if let Ok(conn) = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY) {
                    conn.busy_timeout(Duration::from_secs(10)).expect("a busy timeout");
                    // The schema is there once the bot has migrated it.
                    if conn.prepare("SELECT pairing_id FROM games LIMIT 0").is_ok() {
                        return Look { conn };
                    }
                }
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("the bot never made its database at {}", path.display());
    }

    fn live(row: &rusqlite::Row<'_>) -> rusqlite::Result<Option<Live>> {
        let variant: String = row.get(2)?;
        let start: String = row.get(5)?;
        let last: Option<String> = row.get(7)?;
        let Ok(variant) = Variant::from_str(&variant) else { return Ok(None) };
        let Ok(position) = Position::from_fen(variant, last.as_deref().unwrap_or(&start)) else { return Ok(None) };
        Ok(Some(Live {
            id: row.get(0)?,
            channel: row.get(1)?,
            white: row.get(3)?,
            black: row.get(4)?,
            position,
            ply: row.get(8)?,
            clocked: row.get::<_, Option<i64>>(6)?.is_some(),
            tournament: row.get::<_, Option<i64>>(9)?.is_some(),
        }))
    }

    /// The active game in a channel, if any. A read that fails (the bot holds a lock past the
    /// busy timeout) reads as no answer: `Err`, and the player looks again later.
    pub fn active_in(&self, platform: &str, channel: &str) -> Result<Option<Live>, rusqlite::Error> {
        let sql = format!("{ACTIVE} AND g.channel = ?2");
        let found = self.conn.query_row(&sql, (platform, channel), Self::live).optional()?;
        Ok(found.flatten())
    }

    /// The active games a user plays.
    pub fn active_of(&self, platform: &str, user: &str) -> Result<Vec<Live>, rusqlite::Error> {
        let sql = format!("{ACTIVE} AND (pw.user_id = ?2 OR pb.user_id = ?2) ORDER BY g.id");
        let mut statement = self.conn.prepare(&sql)?;
        let rows = statement.query_map((platform, user), Self::live)?;
        Ok(rows.filter_map(|r| r.ok().flatten()).collect())
    }

    /// The newest tournament run in a channel: its id and state.
    pub fn tournament_in(&self, channel: &str) -> Result<Option<(i64, String)>, rusqlite::Error> {
        self.conn
            .query_row(
                "SELECT id, state FROM tournaments WHERE channel = ?1 ORDER BY id DESC LIMIT 1",
                [channel],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .optional()
    }

    /// The platform user ids of a tournament's entrants.
    pub fn entrants(&self, tournament: i64) -> Result<Vec<String>, rusqlite::Error> {
        let mut statement = self.conn.prepare(
            "SELECT p.user_id FROM entrants e JOIN players p ON p.id = e.player_id WHERE e.tournament_id = ?1",
        )?;
        let rows = statement.query_map([tournament], |row| row.get(0))?;
        Ok(rows.filter_map(Result::ok).collect())
    }
}
