//! The command-text reader behind the console and button ids: a command it reads, once its
//! mentions are resolved, writes (`Display`) as text that reads back as the same command, and
//! writes the same text again. Text it refuses gets an error that says something.
//!
//! Input: the bytes as text, one command line.

use host::{Command, Mention, User};

pub fn check(data: &[u8]) {
    let line = String::from_utf8_lossy(data);
    round_trip(&line);
}

/// Reads `line`; when it is a command, checks that its text reads back as itself.
pub fn round_trip(line: &str) {
    let command = match line.parse::<Command<Mention>>() {
        Ok(command) => resolve(command),
        Err(e) => {
            assert!(!e.to_string().trim().is_empty(), "an empty error for {line:?}");
            return;
        }
    };
    let written = command.to_string();
    let again = written
        .parse::<Command<Mention>>()
        .map(resolve)
        .unwrap_or_else(|e| panic!("{line:?} wrote {written:?}, which does not read: {e}"));
    assert_eq!(again, command, "{line:?} wrote {written:?}");
    assert_eq!(again.to_string(), written, "{line:?}");
}

/// Resolves mentions as an adapter would: `@name` is the user whose id is `name`, and an id that
/// itself starts with `@` (a Matrix id) is written whole.
pub fn resolve(command: Command<Mention>) -> Command {
    command
        .try_map_users(|Mention(text)| {
            let id = match text.strip_prefix('@') {
                Some(rest) if !rest.starts_with('@') => rest.to_string(),
                _ => text,
            };
            Ok::<_, std::convert::Infallible>(User { name: id.clone(), id })
        })
        .unwrap_or_else(|never| match never {})
}
