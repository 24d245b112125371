//! Text a user typed (a name, a tournament's name, a move as written), marked inside the host's
//! words so that every transport shows it as it was typed: never as markup, a mention, a link or
//! a command. The host writes `Typed(name)` where it writes a user's words; a transport reads a
//! message's text as [`Span`]s and escapes each typed span in its own way (Discord's markdown,
//! Matrix's HTML); the console shows it as it is.
//!
//! The marks are two characters of Unicode's private use area, which no transport shows and
//! which are taken out of what a user typed, so a user cannot open or close a span.
//!
//! ```
//! use host::{typed::{spans, Span}, Typed};
//!
//! let text = format!("**{}** wins", Typed("**@everyone**"));
//! let read: Vec<Span> = spans(&text).collect();
//! assert_eq!(read, [Span::Ours("**"), Span::Typed("**@everyone**"), Span::Ours("** wins")]);
//! assert_eq!(host::typed::plain(&text), "****@everyone**** wins");
//! ```

use std::fmt;

/// Opens a typed span.
const OPEN: char = '\u{E000}';
/// Closes a typed span.
const CLOSE: char = '\u{E001}';

/// A user's words inside the host's: formats them between the marks, minus any marks they held.
#[derive(Copy, Clone, Debug)]
pub struct Typed<'a>(pub &'a str);

impl fmt::Display for Typed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write as _;
        f.write_char(OPEN)?;
        for part in self.0.split([OPEN, CLOSE]) {
            f.write_str(part)?;
        }
        f.write_char(CLOSE)
    }
}

/// A piece of a message's text: the host's own words (with the host's markup: `code`, **bold**,
/// `#channel`, `/command`), or what a user typed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Span<'a> {
    Ours(&'a str),
    Typed(&'a str),
}

/// `text` as spans, in order, none empty. A span cut short (a message clipped to a network's
/// length) runs to the end of the text; a stray closing mark is dropped.
pub fn spans(text: &str) -> impl Iterator<Item = Span<'_>> {
    let mut rest = text;
    let mut typed = false;
    std::iter::from_fn(move || loop {
        if rest.is_empty() {
            return None;
        }
        let at = rest.find([OPEN, CLOSE]).unwrap_or(rest.len());
        let piece = &rest[..at];
        let span = if typed { Span::Typed(piece) } else { Span::Ours(piece) };
        match rest[at..].chars().next() {
            Some(mark) => {
                // Only the mark that ends the current kind of span switches it.
                if mark == if typed { CLOSE } else { OPEN } {
                    typed = !typed;
                }
                rest = &rest[at + mark.len_utf8()..];
            }
            None => rest = "",
        }
        if !piece.is_empty() {
            return Some(span);
        }
    })
}

/// `text` without the marks, as the console shows it and as files carry it.
pub fn plain(text: &str) -> String {
    text.replace([OPEN, CLOSE], "")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<Span<'_>> {
        spans(text).collect()
    }

    #[test]
    fn a_users_marks_cannot_open_or_close_a_span() {
        let sneaky = format!("a{CLOSE}b{OPEN}c");
        let text = format!("x {} y", Typed(&sneaky));
        assert_eq!(read(&text), [Span::Ours("x "), Span::Typed("abc"), Span::Ours(" y")]);
    }

    #[test]
    fn cut_short_and_stray_marks() {
        let text = format!("{} and {}", Typed("Ann"), Typed("Bob"));
        let clipped: String = text.chars().take(text.chars().count() - 2).collect();
        assert_eq!(read(&clipped), [Span::Typed("Ann"), Span::Ours(" and "), Span::Typed("Bo")]);
        assert_eq!(read(&format!("a{CLOSE}b")), [Span::Ours("a"), Span::Ours("b")]);
        assert_eq!(read(""), []);
        assert_eq!(read(&Typed("").to_string()), []);
    }
}
