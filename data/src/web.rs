//! What the web pages need of the store: the unguessable key that is a game's or a tournament's
//! only public address, and whether a place lists its games, tournaments and players.
//!
//! A key is made once, when its row is, and never changes: 96 bits from the operating system's
//! random source, written as 24 lowercase hex digits. Sequential ids stay private, so a page
//! address tells nothing about any other game, and a key is given only where its game is
//! played (the host's visibility rule).

use std::fmt;
use std::str::FromStr;

use crate::db::{ReadTx, WriteTx};
use crate::error::{ColumnError, Result};
use crate::games::Game;
use crate::players::Player;
use crate::ratings::Rating;
use crate::sql::{params, sql, Cell, FromCell, ToValue, Value};
use crate::tournaments::Tournament;
use crate::{GameId, Millis, PlayerId};

/// The random bytes in a key.
const KEY_BYTES: usize = 12;

/// A game's or tournament's web key: 24 lowercase hex digits.
///
/// ```
/// let key = data::WebKey::random();
/// assert_eq!(key.as_str().len(), 24);
/// assert_eq!(key.as_str().parse::<data::WebKey>(), Ok(key.clone()));
/// assert!("1".parse::<data::WebKey>().is_err());
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct WebKey(String);

/// Text that is not a web key (the web answers it as a page that does not exist).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotAWebKey;

impl fmt::Display for NotAWebKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a web key is {} lowercase hex digits", KEY_BYTES * 2)
    }
}

impl std::error::Error for NotAWebKey {}

impl WebKey {
    /// A new key from the operating system's random source.
    pub fn random() -> WebKey {
        let mut bytes = [0u8; KEY_BYTES];
        // The OS source fails only where no program could run (no /dev/urandom, no getrandom).
        getrandom::fill(&mut bytes).expect("the operating system's random source");
        WebKey(bytes.iter().map(|b| format!("{b:02x}")).collect())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for WebKey {
    type Err = NotAWebKey;

    fn from_str(text: &str) -> std::result::Result<WebKey, NotAWebKey> {
        let hex = |c: char| c.is_ascii_digit() || ('a'..='f').contains(&c);
        if text.len() == KEY_BYTES * 2 && text.chars().all(hex) {
            Ok(WebKey(text.to_owned()))
        } else {
            Err(NotAWebKey)
        }
    }
}

impl fmt::Display for WebKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Keys are capabilities: a log line or a `Debug` string shows only their start.
impl fmt::Debug for WebKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "WebKey({}…)", &self.0[..4])
    }
}

impl ToValue for WebKey {
    fn to_value(&self) -> Value<'_> {
        Value::Text(&self.0)
    }
}

impl FromCell for WebKey {
    fn from_cell(cell: Cell<'_>) -> std::result::Result<Self, ColumnError> {
        let text = String::from_cell(cell)?;
        text.parse().map_err(|e: NotAWebKey| ColumnError::Unreadable(e.to_string()))
    }
}

impl ReadTx<'_> {
    /// The game whose page is at `key`, if there is one.
    pub fn game_by_web_key(&self, key: &WebKey) -> Result<Option<Game>> {
        let id = self
            .conn()
            .query_opt(sql!("SELECT id FROM games WHERE web_key = $1"), params![key], |row| row.get::<i64>(0))?;
        id.map(|id| self.game(id)).transpose()
    }

    /// The tournament whose page is at `key`, if there is one.
    pub fn tournament_by_web_key(&self, key: &WebKey) -> Result<Option<Tournament>> {
        let id = self
            .conn()
            .query_opt(sql!("SELECT id FROM tournaments WHERE web_key = $1"), params![key], |row| row.get::<i64>(0))?;
        id.map(|id| self.tournament(id)).transpose()
    }

    /// Whether the place `server` of `platform` lists its games, tournaments and players on the
    /// web; off until its managers turn it on.
    pub fn web_listing(&self, platform: &str, server: &str) -> Result<bool> {
        Ok(self
            .conn()
            .query_opt(
                sql!("SELECT web_listing FROM place_settings WHERE platform = $1 AND server = $2"),
                params![platform, server],
                |row| row.get::<bool>(0),
            )?
            .unwrap_or(false))
    }

    /// The best `limit` players of a place in a variant, highest rating first: those with a
    /// rating in it who finished a game of it in the place (`server` of `platform`). The rating
    /// is the player's one rating on the platform (ratings are not kept per place); the games
    /// that made it are not named. For a listing page: the caller checks [`Self::web_listing`].
    pub fn place_leaderboard(
        &self,
        platform: &str,
        server: &str,
        variant: &str,
        limit: u32,
    ) -> Result<Vec<(Player, Rating)>> {
        let ids = self.conn().query(
            sql!(
                "SELECT r.player_id FROM ratings r JOIN players p ON p.id = r.player_id
                 WHERE r.variant = $1 AND p.platform = $2 AND r.games >= 1
                   AND EXISTS (SELECT 1 FROM games g
                               WHERE g.platform = $2 AND g.server = $3 AND g.variant = $1
                                 AND g.state = 'finished'
                                 AND (g.white_id = r.player_id OR g.black_id = r.player_id))
                 ORDER BY r.rating DESC, r.player_id
                 LIMIT $4"
            ),
            params![variant, platform, server, i64::from(limit)],
            |row| row.get::<PlayerId>(0),
        )?;
        let mut rows = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(rating) = self.rating(id, variant)? {
                rows.push((self.player(id)?, rating));
            }
        }
        Ok(rows)
    }

    /// `player`'s games in a place (`server` of `platform`), not aborted, latest first: at
    /// most `limit`. Games anywhere else are never among them.
    pub fn place_games_of(&self, player: PlayerId, platform: &str, server: &str, limit: u32) -> Result<Vec<Game>> {
        let ids = self.conn().query(
            sql!(
                "SELECT id FROM games
                 WHERE platform = $1 AND server = $2 AND state <> 'aborted'
                   AND (white_id = $3 OR black_id = $3)
                 ORDER BY created_at DESC, id DESC
                 LIMIT $4"
            ),
            params![platform, server, player, i64::from(limit)],
            |row| row.get::<GameId>(0),
        )?;
        ids.into_iter().map(|id| self.game(id)).collect()
    }

    /// Whether `player` has a game (of any state) in a place (`server` of `platform`).
    pub fn played_in_place(&self, player: PlayerId, platform: &str, server: &str) -> Result<bool> {
        Ok(self
            .conn()
            .query_opt(
                sql!(
                    "SELECT 1 FROM games WHERE platform = $1 AND server = $2
                       AND (white_id = $3 OR black_id = $3) LIMIT 1"
                ),
                params![platform, server, player],
                |_| Ok(()),
            )?
            .is_some())
    }
}

impl WriteTx<'_> {
    /// Turns the web listing of a place on or off.
    pub fn set_web_listing(&self, platform: &str, server: &str, on: bool, now: Millis) -> Result<()> {
        self.conn().execute(
            sql!(
                "INSERT INTO place_settings (platform, server, web_listing, updated_at)
                 VALUES ($1, $2, $3, $4)
                 ON CONFLICT (platform, server) DO UPDATE SET web_listing = $3, updated_at = $4"
            ),
            params![platform, server, on, now],
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::WebKey;
    use crate::games::{Finish, GameResult};
    use crate::testing::{new_game, on_both_backends, TestDb};

    fn every_game_has_its_own_key_and_is_found_by_it_alone(db: &TestDb) {
        let mut store = db.store();
        let (a, b) = store
            .write(|tx| {
                let white = tx.upsert_player("discord", "1", "ann", 0)?.id;
                let black = tx.upsert_player("discord", "2", "bob", 0)?.id;
                Ok((
                    tx.create_game(&new_game("c1", white, black), 1)?,
                    tx.create_game(&new_game("c2", white, black), 2)?,
                ))
            })
            .unwrap();
        assert_ne!(a.web_key, b.web_key);
        store
            .read(|tx| {
                assert_eq!(tx.game_by_web_key(&a.web_key)?.map(|g| g.id), Some(a.id));
                assert_eq!(tx.game_by_web_key(&b.web_key)?.map(|g| g.id), Some(b.id));
                assert_eq!(tx.game_by_web_key(&WebKey::random())?, None);
                // A game's key is not a tournament's.
                assert_eq!(tx.tournament_by_web_key(&a.web_key)?, None);
                Ok(())
            })
            .unwrap();
    }

    fn a_place_lists_on_the_web_only_once_turned_on(db: &TestDb) {
        let mut store = db.store();
        assert!(!store.read(|tx| tx.web_listing("discord", "g")).unwrap(), "off by default");
        store.write(|tx| tx.set_web_listing("discord", "g", true, 5)).unwrap();
        store
            .read(|tx| {
                assert!(tx.web_listing("discord", "g")?);
                assert!(!tx.web_listing("matrix", "g")?, "per platform");
                assert!(!tx.web_listing("discord", "h")?, "per server");
                Ok(())
            })
            .unwrap();
        store.write(|tx| tx.set_web_listing("discord", "g", false, 9)).unwrap();
        assert!(!store.read(|tx| tx.web_listing("discord", "g")).unwrap());
    }

    fn a_place_lists_only_its_own_games_and_players(db: &TestDb) {
        let mut store = db.store();
        let (ann, here, elsewhere) = store
            .write(|tx| {
                let ann = tx.upsert_player("test", "1", "ann", 0)?.id;
                let bob = tx.upsert_player("test", "2", "bob", 0)?.id;
                let here = tx.create_game(&new_game("c1", ann, bob), 1)?;
                let mut other = new_game("c2", ann, bob);
                other.server = Some("other".into());
                let elsewhere = tx.create_game(&other, 2)?;
                let finish =
                    Finish { result: GameResult::WhiteWins, reason: "resignation".into(), ratings: Vec::new() };
                tx.finish_game(elsewhere.id, &finish, 3)?;
                Ok((ann, here, elsewhere))
            })
            .unwrap();
        store
            .read(|tx| {
                let ids = |server| -> crate::Result<Vec<_>> {
                    Ok(tx.place_games_of(ann, "test", server, 10)?.into_iter().map(|g| g.id).collect())
                };
                assert_eq!(ids("server")?, vec![here.id]);
                assert_eq!(ids("other")?, vec![elsewhere.id]);
                assert!(ids("none")?.is_empty());
                assert!(tx.played_in_place(ann, "test", "server")?);
                assert!(!tx.played_in_place(ann, "test", "none")?);
                assert!(!tx.played_in_place(ann, "other-platform", "server")?);
                // No rating yet (the finish carried none): nobody on the leaderboard.
                assert!(tx.place_leaderboard("test", "other", "chess", 10)?.is_empty());
                Ok(())
            })
            .unwrap();
    }

    on_both_backends!(
        every_game_has_its_own_key_and_is_found_by_it_alone,
        a_place_lists_on_the_web_only_once_turned_on,
        a_place_lists_only_its_own_games_and_players
    );

    #[test]
    fn a_key_is_24_lowercase_hex_digits_and_nothing_else_parses() {
        let key = WebKey::random();
        assert!(key.as_str().chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
        assert_eq!(key.as_str().parse::<WebKey>().as_ref(), Ok(&key));
        for bad in [
            "",
            "1",
            "0123456789abcdef0123456",
            "0123456789abcdef012345678",
            "0123456789ABCDEF01234567",
            "0123456789abcdef0123456g",
            "../../etc/passwd",
        ] {
            assert!(bad.parse::<WebKey>().is_err(), "{bad:?}");
        }
        assert!(!format!("{key:?}").contains(key.as_str()), "Debug keeps the key out of logs");
    }
}
