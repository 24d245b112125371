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

    /// Whether `id` is one of Chimera's own players.
    pub(crate) fn is_engine_id(id: &str) -> bool {
        id.starts_with(ENGINE_ID)
    }
}
