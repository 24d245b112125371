//! `chimera backup`: a consistent copy of a SQLite database that a bot may be writing to.
//!
//! What it guarantees:
//! - The copy is one snapshot: every transaction committed before the copy began is in it, and
//!   none is in it half. SQLite's online backup API copies every page in one step, inside one
//!   read transaction; in WAL mode that read neither blocks the bot's writes nor sees them.
//! - The source is opened read-only and never migrated, so a backup taken before an upgrade
//!   holds the schema the old build wrote.
//! - The copy appears under its name only once it is whole and has passed SQLite's integrity
//!   check; an existing file is never overwritten. On any failure nothing is left behind.
//!
//! PostgreSQL has its own tools for this (`pg_dump`), which the operator's guide names.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

/// How long the copy waits for the bot's write lock at most (it needs it only to start).
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// Tries of the copy's one step, 50 ms apart, while SQLite says the database is locked.
const LOCKED_TRIES: u32 = 200;

/// What went wrong with a backup, said so that the operator knows what to do.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("CHIMERA_DB is a PostgreSQL database: back it up with pg_dump (docs/operate.md)")]
    Postgres,
    #[error("there is no database at {}", .0.display())]
    NoSource(PathBuf),
    #[error("{} exists already: give the backup a new name, or remove the old file first", .0.display())]
    Exists(PathBuf),
    #[error("cannot write the backup at {}: {source}", path.display())]
    Write { path: PathBuf, source: std::io::Error },
    #[error("the database stayed locked for 10 s; try again")]
    Busy,
    #[error("the copy failed: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("the copy failed: {0}")]
    Store(#[from] crate::Error),
    #[error("the copy failed its integrity check, so it was not kept: {0}")]
    Corrupt(String),
}

/// What was copied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BackupSummary {
    pub schema_version: usize,
    pub games: u64,
    pub moves: u64,
    pub bytes: u64,
}

/// Copies the SQLite database at `source` to `dest` (see the module's guarantees).
pub fn backup(source: &crate::Location, dest: &Path) -> Result<BackupSummary, BackupError> {
    let source = match source {
        crate::Location::Sqlite(path) => path,
        crate::Location::Postgres(_) => return Err(BackupError::Postgres),
    };
    if !source.is_file() {
        return Err(BackupError::NoSource(source.clone()));
    }
    if dest.exists() {
        return Err(BackupError::Exists(dest.to_path_buf()));
    }
    let partial = partial_path(dest);
    let copied = copy(source, &partial);
    if copied.is_err() {
        let _ = std::fs::remove_file(&partial);
        return copied;
    }
    // Renaming a file onto a name that appeared meanwhile would replace it; a hard link fails
    // instead, so an existing file is never lost.
    let linked = std::fs::hard_link(&partial, dest);
    let _ = std::fs::remove_file(&partial);
    linked.map_err(|source| match source.kind() {
        std::io::ErrorKind::AlreadyExists => BackupError::Exists(dest.to_path_buf()),
        _ => BackupError::Write { path: dest.to_path_buf(), source },
    })?;
    copied
}

/// The copy's name while it is being written: beside it, so that linking it into place stays
/// on one file system.
fn partial_path(dest: &Path) -> PathBuf {
    let mut name = dest.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".partial");
    dest.with_file_name(name)
}

fn copy(source: &Path, partial: &Path) -> Result<BackupSummary, BackupError> {
    let from = Connection::open_with_flags(source, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)?;
    from.busy_timeout(BUSY_TIMEOUT)?;
    let _ = std::fs::remove_file(partial);
    let mut to = Connection::open(partial)?;
    {
        use rusqlite::backup::StepResult;
        let backup = rusqlite::backup::Backup::new(&from, &mut to)?;
        // Every page in one step (-1): one read transaction, so one snapshot. A step that finds
        // the database locked (a checkpoint resetting the log) is tried again, for a while.
        let mut tries = 0;
        loop {
            match backup.step(-1)? {
                StepResult::Done => break,
                StepResult::More | StepResult::Busy | StepResult::Locked if tries < LOCKED_TRIES => {
                    tries += 1;
                    std::thread::sleep(Duration::from_millis(50));
                }
                _ => return Err(BackupError::Busy),
            }
        }
    }
    // A single file that any SQLite opens as it is, without a write-ahead log beside it.
    let _: String = to.query_row("PRAGMA journal_mode = DELETE", [], |row| row.get(0))?;
    let problems = crate::sqlite::integrity_problems(&to)?;
    if !problems.is_empty() {
        return Err(BackupError::Corrupt(problems.join("; ")));
    }
    let summary = BackupSummary {
        schema_version: crate::sqlite::schema_version(&to)?,
        games: count(&to, "games")?,
        moves: count(&to, "moves")?,
        bytes: 0,
    };
    drop(to);
    let file = std::fs::File::open(partial).map_err(|source| BackupError::Write { path: partial.into(), source })?;
    file.sync_all().map_err(|source| BackupError::Write { path: partial.into(), source })?;
    let bytes = file.metadata().map_err(|source| BackupError::Write { path: partial.into(), source })?.len();
    Ok(BackupSummary { bytes, ..summary })
}

fn count(conn: &Connection, table: &str) -> Result<u64, BackupError> {
    // An empty database from before the table existed counts none.
    let exists: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1)",
        [table],
        |row| row.get(0),
    )?;
    if !exists {
        return Ok(0);
    }
    let n: i64 = conn.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |row| row.get(0))?;
    Ok(n as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_backup_is_refused_rather_than_overwrite_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("chimera.db");
        crate::Store::open(db.clone()).unwrap();
        let dest = dir.path().join("copy.db");
        std::fs::write(&dest, "keep me").unwrap();
        let err = backup(&crate::Location::Sqlite(db), &dest).unwrap_err();
        assert!(matches!(err, BackupError::Exists(_)), "{err}");
        assert_eq!(std::fs::read_to_string(&dest).unwrap(), "keep me");
        assert!(!partial_path(&dest).exists());
    }

    #[test]
    fn a_copy_left_half_written_by_a_killed_backup_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("chimera.db");
        crate::Store::open(db.clone()).unwrap();
        let dest = dir.path().join("copy.db");
        // What a backup killed mid-copy leaves: a partial file, and no copy under its name.
        std::fs::write(partial_path(&dest), "half a page").unwrap();
        let summary = backup(&crate::Location::Sqlite(db), &dest).unwrap();
        assert_eq!(summary.schema_version, crate::SCHEMA_VERSION);
        assert!(!partial_path(&dest).exists());
        crate::Store::open(dest).unwrap().check_integrity().unwrap();
    }

    #[test]
    fn a_missing_database_is_not_created_by_a_backup() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("none.db");
        let err = backup(&crate::Location::Sqlite(db.clone()), &dir.path().join("copy.db")).unwrap_err();
        assert!(matches!(err, BackupError::NoSource(_)), "{err}");
        assert!(!db.exists());
    }

    #[test]
    fn postgres_is_pointed_to_pg_dump() {
        let location = crate::Location::parse("postgres://chimera@localhost/chimera").unwrap();
        let err = backup(&location, Path::new("x.db")).unwrap_err();
        assert!(err.to_string().contains("pg_dump"), "{err}");
    }

    #[test]
    fn a_backup_of_an_old_schema_is_not_migrated() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("old.db");
        let conn = Connection::open(&db).unwrap();
        conn.execute_batch("PRAGMA user_version = 3; CREATE TABLE games (id INTEGER PRIMARY KEY);").unwrap();
        drop(conn);
        let dest = dir.path().join("copy.db");
        let summary = backup(&crate::Location::Sqlite(db.clone()), &dest).unwrap();
        assert_eq!(summary.schema_version, 3);
        assert_eq!(crate::sqlite::schema_version(&Connection::open(&db).unwrap()).unwrap(), 3);
    }
}
