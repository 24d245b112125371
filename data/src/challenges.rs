//! Challenges: an offer to play, to one player or to anyone in the channel, until it expires or
//! someone accepts (which starts the game in the same commit) or declines.

use crate::db::{ReadTx, WriteTx};
use crate::error::{Error, Result};
use crate::games::{Color, Game, NewGame, TimeControl};
use crate::sql::{params, sql, Row};
use crate::text::text_enum;
use crate::{ChallengeId, Millis, PlayerId};

text_enum! {
    /// The colour the challenger asks for.
    pub enum ColorChoice ("colour choice") {
        White => "white",
        Black => "black",
        Random => "random",
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewChallenge {
    pub platform: String,
    pub server: Option<String>,
    pub channel: String,
    pub challenger: PlayerId,
    /// `None`: open to anyone in the channel.
    pub challenged: Option<PlayerId>,
    pub variant: String,
    pub color: ColorChoice,
    pub time_control: Option<TimeControl>,
    pub rated: bool,
    pub expires_at: Millis,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    pub id: ChallengeId,
    pub platform: String,
    pub server: Option<String>,
    pub channel: String,
    pub challenger: PlayerId,
    pub challenged: Option<PlayerId>,
    pub variant: String,
    pub color: ColorChoice,
    pub time_control: Option<TimeControl>,
    pub rated: bool,
    pub created_at: Millis,
    pub expires_at: Millis,
}

impl Challenge {
    fn from_row(row: &Row<'_, '_>) -> Result<Challenge> {
        Ok(Challenge {
            id: row.get(0)?,
            platform: row.get(1)?,
            server: row.get(2)?,
            channel: row.get(3)?,
            challenger: row.get(4)?,
            challenged: row.get(5)?,
            variant: row.get(6)?,
            color: row.get(7)?,
            time_control: TimeControl::from_columns(row.get(8)?, row.get(9)?, row.get(10)?),
            rated: row.get(11)?,
            created_at: row.get(12)?,
            expires_at: row.get(13)?,
        })
    }
}

/// The columns `Challenge::from_row` reads, in its order.
macro_rules! columns {
    () => {
        "id, platform, server, channel, challenger_id, challenged_id, variant, color, clock_kind, \
         base_ms, increment_ms, rated, created_at, expires_at"
    };
}

/// What the host adds when a challenge is accepted: what storage cannot know or must not draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Acceptance {
    pub acceptor: PlayerId,
    /// The challenger's colour if the challenge leaves it to chance (the host tosses the coin).
    pub toss: Color,
    /// The variant's start position (from the rules crate).
    pub start_fen: String,
    /// Where the game is played, if not in the challenge's channel (e.g. a new thread).
    pub channel: Option<String>,
    /// When white runs out of time for the first move.
    pub deadline: Option<Millis>,
}

impl ReadTx<'_> {
    pub fn challenge(&self, id: ChallengeId) -> Result<Challenge> {
        self.conn()
            .query_opt(sql!("SELECT ", columns!(), " FROM challenges WHERE id = $1"), params![id], Challenge::from_row)?
            .ok_or(Error::NotFound { what: "challenge", id })
    }

    /// The unexpired challenges made in a channel, oldest first.
    pub fn channel_challenges(&self, platform: &str, channel: &str, now: Millis) -> Result<Vec<Challenge>> {
        self.conn().query(
            sql!(
                "SELECT ",
                columns!(),
                " FROM challenges WHERE platform = $1 AND channel = $2 AND expires_at > $3 ORDER BY id"
            ),
            params![platform, channel, now],
            Challenge::from_row,
        )
    }

    /// The unexpired challenges `player` made or received, oldest first.
    pub fn challenges_of(&self, player: PlayerId, now: Millis) -> Result<Vec<Challenge>> {
        self.conn().query(
            sql!(
                "SELECT ",
                columns!(),
                " FROM challenges WHERE challenger_id = $1 AND expires_at > $2
                  UNION
                  SELECT ",
                columns!(),
                " FROM challenges WHERE challenged_id = $1 AND expires_at > $2
                  ORDER BY id"
            ),
            params![player, now],
            Challenge::from_row,
        )
    }
}

impl WriteTx<'_> {
    pub fn create_challenge(&self, new: &NewChallenge, now: Millis) -> Result<Challenge> {
        let (clock_kind, base_ms, increment_ms) = TimeControl::columns(new.time_control);
        let id: ChallengeId = self.conn().value(
            sql!(
                "INSERT INTO challenges (platform, server, channel, challenger_id, challenged_id,
                     variant, color, base_ms, increment_ms, rated, created_at, expires_at,
                     clock_kind)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
                 RETURNING id"
            ),
            params![
                new.platform,
                new.server,
                new.channel,
                new.challenger,
                new.challenged,
                new.variant,
                new.color,
                base_ms,
                increment_ms,
                new.rated,
                now,
                new.expires_at,
                clock_kind
            ],
        )?;
        self.challenge(id)
    }

    /// Accepts a challenge: it goes and its game starts, in one commit. Refused with
    /// `ChallengeExpired`, `OwnChallenge`, `NotChallenged` (someone else was challenged), or
    /// `ChannelBusy` (the channel's game is still on; the challenge then stays).
    pub fn accept_challenge(&self, id: ChallengeId, acceptance: &Acceptance, now: Millis) -> Result<Game> {
        let challenge = self.challenge(id)?;
        let acceptor = acceptance.acceptor;
        if challenge.expires_at <= now {
            return Err(Error::ChallengeExpired { challenge_id: id, expires_at: challenge.expires_at });
        }
        if acceptor == challenge.challenger {
            return Err(Error::OwnChallenge { challenge_id: id, player: acceptor });
        }
        if let Some(challenged) = challenge.challenged {
            if challenged != acceptor {
                return Err(Error::NotChallenged { challenge_id: id, challenged, player: acceptor });
            }
        }
        let challenger_color = match challenge.color {
            ColorChoice::White => Color::White,
            ColorChoice::Black => Color::Black,
            ColorChoice::Random => acceptance.toss,
        };
        let (white, black) = match challenger_color {
            Color::White => (challenge.challenger, acceptor),
            Color::Black => (acceptor, challenge.challenger),
        };
        let game = self.create_game(
            &NewGame {
                platform: challenge.platform.clone(),
                server: challenge.server.clone(),
                channel: acceptance.channel.clone().unwrap_or_else(|| challenge.channel.clone()),
                variant: challenge.variant.clone(),
                white,
                black,
                start_fen: acceptance.start_fen.clone(),
                time_control: challenge.time_control,
                time_odds: None,
                deadline: acceptance.deadline,
                rated: challenge.rated,
            },
            now,
        )?;
        self.delete_challenge(id)?;
        Ok(game)
    }

    /// Declines (by the challenged player) or withdraws (by the challenger) a challenge; an
    /// open challenge only its challenger can withdraw. Returns the challenge, now gone.
    pub fn decline_challenge(&self, id: ChallengeId, by: PlayerId) -> Result<Challenge> {
        let challenge = self.challenge(id)?;
        if by != challenge.challenger && challenge.challenged != Some(by) {
            return Err(Error::NotParty { challenge_id: id, player: by });
        }
        self.delete_challenge(id)?;
        Ok(challenge)
    }

    /// Removes every challenge expired at `now` and returns them, so the host can say so.
    pub fn expire_challenges(&self, now: Millis) -> Result<Vec<Challenge>> {
        let mut expired = self.conn().query(
            sql!("DELETE FROM challenges WHERE expires_at <= $1 RETURNING ", columns!()),
            params![now],
            Challenge::from_row,
        )?;
        expired.sort_by_key(|c| c.id);
        Ok(expired)
    }

    /// Like [`WriteTx::expire_challenges`], for one platform: each host expires its own.
    pub fn expire_challenges_on(&self, platform: &str, now: Millis) -> Result<Vec<Challenge>> {
        let mut expired = self.conn().query(
            sql!("DELETE FROM challenges WHERE platform = $1 AND expires_at <= $2 RETURNING ", columns!()),
            params![platform, now],
            Challenge::from_row,
        )?;
        expired.sort_by_key(|c| c.id);
        Ok(expired)
    }

    /// Removes up to `limit` challenges of `platform` expired at `now`, oldest first, and
    /// returns them: [`WriteTx::expire_challenges_on`] for several processes (see "Several
    /// processes" in the crate's docs). On PostgreSQL the challenges another process is
    /// expiring at that moment are skipped, not waited for, so each is expired (and announced)
    /// by one process.
    pub fn claim_expired_challenges(&self, platform: &str, now: Millis, limit: u32) -> Result<Vec<Challenge>> {
        let mut expired = self.conn().query(
            sql!(
                postgres: concat!(
                    "DELETE FROM challenges WHERE id IN (
                         SELECT id FROM challenges WHERE platform = $1 AND expires_at <= $2
                         ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
                     RETURNING ",
                    columns!()
                ),
                sqlite: concat!(
                    "DELETE FROM challenges WHERE id IN (
                         SELECT id FROM challenges WHERE platform = $1 AND expires_at <= $2
                         ORDER BY id LIMIT $3)
                     RETURNING ",
                    columns!()
                ),
            ),
            params![platform, now, limit],
            Challenge::from_row,
        )?;
        expired.sort_by_key(|c| c.id);
        Ok(expired)
    }

    fn delete_challenge(&self, id: ChallengeId) -> Result<()> {
        self.conn().execute(sql!("DELETE FROM challenges WHERE id = $1"), params![id])?;
        Ok(())
    }
}

#[cfg(test)]
mod tests;
