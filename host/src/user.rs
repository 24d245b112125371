//! The people the host deals with.

/// A person, resolved by their adapter: a stable id on their platform, and the name to show.
/// Messages meant for people name them by `name`, never by `id`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct User {
    pub id: String,
    pub name: String,
}

/// Chimera's own players start their ids with this: no network gives a person such an id
/// (Discord's are numbers, Matrix's start with `@`, console names have no colon).
const ENGINE_ID: &str = "chimera:level-";

/// A team's id is this and its channel's id: no network gives a person such an id either.
const TEAM_ID: &str = "team:";

/// The channel of the team whose player id is `id`, when it is a team's.
pub(crate) fn team_channel(id: &str) -> Option<&str> {
    id.strip_prefix(TEAM_ID).filter(|channel| !channel.is_empty())
}

impl User {
    /// Chimera itself at `level`, the opponent of `/play` games.
    pub fn engine(level: engine::Level) -> User {
        User { id: format!("{ENGINE_ID}{level}"), name: format!("Chimera (level {level})") }
    }

    /// The level, when this is Chimera itself.
    pub fn engine_level(&self) -> Option<engine::Level> {
        let n: i64 = self.id.strip_prefix(ENGINE_ID)?.parse().ok()?;
        engine::Level::new(n).ok()
    }

    /// The team of the channel `channel` (its id on the platform), shown as `#name (team)`: a
    /// side of a team game, whose moves its members vote (see `team`).
    pub fn team(channel: &str, name: &str) -> User {
        User { id: format!("{TEAM_ID}{channel}"), name: format!("#{} (team)", name.trim_start_matches('#')) }
    }

    /// The channel whose team this is, when it is a team.
    pub fn team_channel(&self) -> Option<&str> {
        team_channel(&self.id)
    }

    /// Whether `id` is one of Chimera's own players.
    pub(crate) fn is_engine_id(id: &str) -> bool {
        id.starts_with(ENGINE_ID)
    }
}
