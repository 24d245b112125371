//! Where the database is: a SQLite file, or a PostgreSQL server named by its URL.

use std::fmt;
use std::path::{Path, PathBuf};

/// Where the store keeps its data, read from the operator's `CHIMERA_DB` (or `--db`): a
/// `postgres://` or `postgresql://` URL names a PostgreSQL database, anything else is the path
/// of a SQLite file.
///
/// ```
/// use data::Location;
///
/// let pg = Location::parse("postgres://chimera:secret@db.internal/chimera");
/// assert!(matches!(pg, Location::Postgres(_)));
/// // Shown without its password, as in logs.
/// assert_eq!(pg.to_string(), "postgres://chimera:***@db.internal/chimera");
/// assert_eq!(Location::parse("games/chimera.db"), Location::Sqlite("games/chimera.db".into()));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub enum Location {
    Sqlite(PathBuf),
    /// A libpq-style URL: `postgres://user:password@host:port/database?options=...`. The store
    /// uses the schema of the connection's `search_path` (`public` by default; set it with
    /// `options=-csearch_path%3Dname`).
    Postgres(String),
}

impl Location {
    pub fn parse(text: &str) -> Location {
        let scheme = text.split_once("://").map(|(scheme, _)| scheme.to_ascii_lowercase());
        match scheme.as_deref() {
            Some("postgres" | "postgresql") => Location::Postgres(text.to_owned()),
            _ => Location::Sqlite(PathBuf::from(text)),
        }
    }
}

impl From<&str> for Location {
    fn from(text: &str) -> Location {
        Location::parse(text)
    }
}

impl From<String> for Location {
    fn from(text: String) -> Location {
        Location::parse(&text)
    }
}

impl From<&Path> for Location {
    fn from(path: &Path) -> Location {
        // A path that is not UTF-8 is no URL.
        path.to_str().map_or_else(|| Location::Sqlite(path.to_path_buf()), Location::parse)
    }
}

impl From<PathBuf> for Location {
    fn from(path: PathBuf) -> Location {
        Location::from(path.as_path())
    }
}

impl From<&PathBuf> for Location {
    fn from(path: &PathBuf) -> Location {
        Location::from(path.as_path())
    }
}

impl From<&Location> for Location {
    fn from(location: &Location) -> Location {
        location.clone()
    }
}

/// The path, or the URL without its password.
impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Sqlite(path) => write!(f, "{}", path.display()),
            Location::Postgres(url) => f.write_str(&redacted(url)),
        }
    }
}

impl fmt::Debug for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Sqlite(path) => f.debug_tuple("Sqlite").field(path).finish(),
            Location::Postgres(_) => f.debug_tuple("Postgres").field(&self.to_string()).finish(),
        }
    }
}

/// `scheme://user:password@host...` with the password replaced by `***`.
fn redacted(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_owned() };
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    match authority.rsplit_once('@') {
        Some((userinfo, host)) => match userinfo.split_once(':') {
            Some((user, _password)) => format!("{scheme}://{user}:***@{host}{tail}"),
            None => url.to_owned(),
        },
        None => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::Location;

    #[test]
    fn urls_name_postgres_and_everything_else_is_a_file() {
        for url in ["postgres://localhost/test", "postgresql://u@h:5433/db?options=-csearch_path%3Ds", "POSTGRES://h/d"]
        {
            assert_eq!(Location::parse(url), Location::Postgres(url.into()), "{url}");
        }
        for path in ["chimera.db", "/var/lib/chimera/chimera.db", "mysql://h/d", "postgres.db", ""] {
            assert_eq!(Location::parse(path), Location::Sqlite(path.into()), "{path}");
        }
        let from_path: Location = std::path::Path::new("postgres://h/d").into();
        assert!(matches!(from_path, Location::Postgres(_)));
    }

    #[test]
    fn a_password_is_never_shown() {
        let shown = |url: &str| Location::parse(url).to_string();
        assert_eq!(shown("postgres://u:p%40ss@h:5432/db?x=1"), "postgres://u:***@h:5432/db?x=1");
        assert_eq!(shown("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(shown("postgres://h/db"), "postgres://h/db");
        assert!(!format!("{:?}", Location::parse("postgres://u:secret@h/db")).contains("secret"));
    }
}
