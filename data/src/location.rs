//! Where the database is: a SQLite file, or a PostgreSQL server named by its URL.
//!
//! What it guarantees: operator text that names a database in a way this build does not read (a
//! libpq `key=value` string, a scheme that is not `postgres://`) is refused with an error that
//! says what to write instead, never taken for the name of a new SQLite file; and neither
//! `Display` nor `Debug` shows a password, in the URL's user part or as `?password=`.

use std::fmt;
use std::path::{Path, PathBuf};

/// Where the store keeps its data, read from the operator's `CHIMERA_DB` (or `--db`): a
/// `postgres://` or `postgresql://` URL names a PostgreSQL database, a path a SQLite file.
///
/// ```
/// use data::Location;
///
/// let pg = Location::parse("postgres://chimera:secret@db.internal/chimera").unwrap();
/// assert!(matches!(pg, Location::Postgres(_)));
/// // Shown without its password, as in logs.
/// assert_eq!(pg.to_string(), "postgres://chimera:***@db.internal/chimera");
/// assert_eq!(Location::parse("games/chimera.db").unwrap(), Location::Sqlite("games/chimera.db".into()));
/// // Not a file name: refused.
/// assert!(Location::parse("host=db.internal dbname=chimera").is_err());
/// assert!(Location::parse("postgress://db.internal/chimera").is_err());
/// ```
///
/// A [`Path`] converts without parsing: it is a file (`Store::open(&path)`).
#[derive(Clone, PartialEq, Eq)]
pub enum Location {
    Sqlite(PathBuf),
    /// A libpq-style URL: `postgres://user:password@host:port/database?options=...`. The store
    /// uses the schema of the connection's `search_path` (`public` by default; set it with
    /// `options=-csearch_path%3Dname`). `sslmode` and `sslrootcert` choose TLS (see `pg_tls`).
    Postgres(String),
}

/// Text that names no database this build can open.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LocationError {
    #[error("no database named: give a SQLite file path or a postgres:// URL")]
    Empty,
    /// `mysql://`, `postgress://`, `sqlite://`: a URL, but not one of PostgreSQL's.
    #[error(
        "`{scheme}://` is no database this build opens: write postgres://USER:PASSWORD@HOST:PORT/DATABASE \
         for PostgreSQL, or a plain file path (no scheme) for SQLite"
    )]
    UnknownScheme { scheme: String },
    /// `host=db dbname=chimera`: libpq's other form, which this build does not read.
    #[error(
        "`{key}=...` is a libpq key=value connection string; write it as a URL instead: \
         postgres://USER:PASSWORD@HOST:PORT/DATABASE?sslmode=verify-full (see docs/operate.md)"
    )]
    KeyValue { key: String },
}

/// libpq's connection keywords: text with `keyword=` in it is a connection string, not a file.
const LIBPQ_KEYWORDS: &[&str] = &[
    "host",
    "hostaddr",
    "port",
    "dbname",
    "user",
    "password",
    "passfile",
    "sslmode",
    "sslrootcert",
    "sslcert",
    "sslkey",
    "application_name",
    "options",
    "connect_timeout",
    "service",
    "target_session_attrs",
    "channel_binding",
];

impl Location {
    /// Reads the operator's text (see the type's docs): a `postgres://` or `postgresql://` URL
    /// (any case), or else a file path; anything that looks like another way of naming a
    /// database is an error.
    pub fn parse(text: &str) -> Result<Location, LocationError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(LocationError::Empty);
        }
        if let Some((scheme, _)) = text.split_once("://") {
            let valid =
                !scheme.is_empty() && scheme.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
            return match scheme.to_ascii_lowercase().as_str() {
                "postgres" | "postgresql" => Ok(Location::Postgres(text.to_owned())),
                // `scheme` is the text before `://`: it holds no password, and is shown only if
                // it looks like a scheme (a path with `://` inside is shown as no scheme at all).
                _ if valid => Err(LocationError::UnknownScheme { scheme: scheme.to_owned() }),
                _ => Err(LocationError::UnknownScheme { scheme: String::new() }),
            };
        }
        let keyword = text.split_whitespace().find_map(|word| {
            let (key, _) = word.split_once('=')?;
            LIBPQ_KEYWORDS.contains(&key.to_ascii_lowercase().as_str()).then(|| key.to_owned())
        });
        if let Some(key) = keyword {
            return Err(LocationError::KeyValue { key });
        }
        Ok(Location::Sqlite(PathBuf::from(text)))
    }
}

impl std::str::FromStr for Location {
    type Err = LocationError;

    fn from_str(text: &str) -> Result<Location, LocationError> {
        Location::parse(text)
    }
}

impl TryFrom<&str> for Location {
    type Error = LocationError;

    fn try_from(text: &str) -> Result<Location, LocationError> {
        Location::parse(text)
    }
}

/// A path is a SQLite file, whatever it looks like: operator text is read with
/// [`Location::parse`].
impl From<&Path> for Location {
    fn from(path: &Path) -> Location {
        Location::Sqlite(path.to_path_buf())
    }
}

impl From<PathBuf> for Location {
    fn from(path: PathBuf) -> Location {
        Location::Sqlite(path)
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

/// Query parameters whose values are secrets.
const SECRET_PARAMETERS: &[&str] = &["password", "sslpassword"];

/// `scheme://user:password@host...?password=...` with every password replaced by `***`.
fn redacted(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_owned() };
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    let authority = match authority.rsplit_once('@') {
        Some((userinfo, host)) => match userinfo.split_once(':') {
            Some((user, _password)) => format!("{user}:***@{host}"),
            None => authority.to_owned(),
        },
        None => authority.to_owned(),
    };
    let tail = match tail.split_once('?') {
        Some((path, query)) => {
            let pairs: Vec<String> = query
                .split('&')
                .map(|pair| match pair.split_once('=') {
                    Some((key, _)) if SECRET_PARAMETERS.contains(&key.to_ascii_lowercase().as_str()) => {
                        format!("{key}=***")
                    }
                    _ => pair.to_owned(),
                })
                .collect();
            format!("{path}?{}", pairs.join("&"))
        }
        None => tail.to_owned(),
    };
    format!("{scheme}://{authority}{tail}")
}

#[cfg(test)]
mod tests {
    use super::{Location, LocationError};

    #[test]
    fn urls_name_postgres_and_paths_name_files() {
        for url in ["postgres://localhost/test", "postgresql://u@h:5433/db?options=-csearch_path%3Ds", "POSTGRES://h/d"]
        {
            assert_eq!(Location::parse(url), Ok(Location::Postgres(url.into())), "{url}");
        }
        for path in ["chimera.db", "/var/lib/chimera/chimera.db", "postgres.db", "a=b.db", "./host.db"] {
            assert_eq!(Location::parse(path), Ok(Location::Sqlite(path.into())), "{path}");
        }
        // A path is a file without being read.
        let from_path: Location = std::path::Path::new("games/x.db").into();
        assert_eq!(from_path, Location::Sqlite("games/x.db".into()));
    }

    #[test]
    fn a_misspelt_scheme_or_a_libpq_string_is_refused_not_taken_for_a_file() {
        for (text, scheme) in
            [("postgress://u:pw@h/d", "postgress"), ("mysql://h/d", "mysql"), ("sqlite://chimera.db", "sqlite")]
        {
            let err = Location::parse(text).unwrap_err();
            assert_eq!(err, LocationError::UnknownScheme { scheme: scheme.into() }, "{text}");
            assert!(err.to_string().contains("postgres://USER:PASSWORD@HOST"), "{err}");
            assert!(!err.to_string().contains("pw"), "{err}");
        }
        for text in ["host=db.internal dbname=chimera user=chimera password=pw", "dbname=chimera", "  port=5432 "] {
            let err = Location::parse(text).unwrap_err();
            assert!(matches!(err, LocationError::KeyValue { .. }), "{text}: {err:?}");
            assert!(err.to_string().contains("key=value"), "{err}");
            assert!(!err.to_string().contains("pw"), "{err}");
        }
        assert_eq!(Location::parse("  "), Err(LocationError::Empty));
    }

    #[test]
    fn a_password_is_never_shown() {
        let shown = |url: &str| Location::parse(url).unwrap().to_string();
        assert_eq!(shown("postgres://u:p%40ss@h:5432/db?x=1"), "postgres://u:***@h:5432/db?x=1");
        assert_eq!(shown("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(shown("postgres://h/db"), "postgres://h/db");
        assert_eq!(
            shown("postgres://u@h/db?sslmode=require&password=hunter2&PASSWORD=x"),
            "postgres://u@h/db?sslmode=require&password=***&PASSWORD=***"
        );
        assert_eq!(shown("postgres://h?password=hunter2"), "postgres://h?password=***");
        for url in
            ["postgres://u:secret@h/db", "postgres://u@h/db?password=secret", "postgresql://h?sslpassword=secret"]
        {
            let location = Location::parse(url).unwrap();
            assert!(!format!("{location:?}").contains("secret"), "{location:?}");
            assert!(!location.to_string().contains("secret"), "{location}");
        }
    }
}
