//! The Matrix message reader (`chimera::matrix_read`, the bot's `matrix::text`): what a text
//! message says, with its mention pills read as the user ids they link and its reply quote
//! dropped, and whether it is a command behind the room's prefix.
//!
//! Input: a first byte of flags, then the message.
//! - Bits 0-1 pick the room's prefix: `!`, `?`, `chess!` or `ü!` (a prefix is 1 to 8 characters
//!   without spaces; the default is `!`).
//! - Bit 2 clear: raw. The rest is the plain body, then after a NUL byte (if there is one) the
//!   HTML formatted body, both as lossy UTF-8.
//! - Bit 2 set: built. The rest is a message made of parts, written the way clients write them:
//!   text (escaped in the HTML), byte 1 a pill (a byte of choices, the user's localpart up to
//!   byte 2, the name the client shows up to byte 3), byte 4 a line break (`<br>`), byte 5 a
//!   link to a room (its text up to byte 3). Bit 3 puts a reply quote (`<mx-reply>`) first.
//!
//! What must hold, for every message:
//! - reading never panics, and what it says is trimmed;
//! - it is a command exactly when what it says starts with the prefix and something other than
//!   white space follows, and then the host's line is `/` and that rest;
//! - a command the host's reader accepts, its mentions resolved as the adapter resolves a user
//!   id, writes (`Display`) a line that, typed in a room with the prefix, as a plain body or as
//!   an HTML one, reads back as the same command;
//! - built messages: what the reader says is the message's text with each pill replaced by the
//!   user id it links, whatever name it shows (a name that looks like another user, markup,
//!   a quote), each room link by its text and each `<br>` by a new line; the reply quote and
//!   the plain body (the names) are never read.

use chimera::matrix_read::{escape, read, said, Said};
use host::{Command, Mention};

const PREFIXES: [&str; 4] = ["!", "?", "chess!", "ü!"];
const SERVERS: [&str; 4] = ["example.org", "matrix.org:8448", "localhost", "[::1]:8008"];
/// The characters of a user id's localpart (the Matrix spec's historical grammar, lower case).
const LOCALPART: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789._=-/";

pub fn check(data: &[u8]) {
    let Some((&flags, rest)) = data.split_first() else { return };
    let prefix = PREFIXES[usize::from(flags & 3)];
    if flags & 4 == 0 {
        let (body, html) = match rest.iter().position(|&b| b == 0) {
            Some(at) => (String::from_utf8_lossy(&rest[..at]), Some(String::from_utf8_lossy(&rest[at + 1..]))),
            None => (String::from_utf8_lossy(rest), None),
        };
        reads(&body, html.as_deref(), prefix);
    } else {
        let message = build(rest, flags & 8 != 0);
        let (body, html) = (message.body.as_str(), Some(message.html.as_str()));
        assert_eq!(said(body, html), message.meant.trim(), "{message:?}");
        reads(body, html, prefix);
    }
}

/// Reads one message and checks what holds for every message.
pub fn reads(body: &str, html: Option<&str>, prefix: &str) {
    let text = said(body, html);
    assert_eq!(text, text.trim(), "what a message says is trimmed: {body:?} {html:?}");
    let expected = text
        .strip_prefix(prefix)
        .filter(|rest| rest.chars().next().is_some_and(|c| !c.is_whitespace()))
        .map(|rest| format!("/{rest}"));
    let line = match read(body, html, prefix) {
        Said::Command(line) => {
            assert_eq!(Some(&line), expected.as_ref(), "{body:?} {html:?}");
            line
        }
        Said::Text(said) => {
            assert_eq!((said.as_str(), expected), (text.as_str(), None), "{body:?} {html:?}");
            return;
        }
    };
    let Ok(command) = line.parse::<Command<Mention>>() else { return };
    let command = crate::command::resolve(command);
    let written = command.to_string();
    let typed = format!("{prefix}{}", written.strip_prefix('/').expect("a command is written with its slash"));
    for (body, html) in [(typed.clone(), None), (String::new(), Some(escape(&typed)))] {
        let again = match read(&body, html.as_deref(), prefix) {
            Said::Command(again) => again,
            Said::Text(text) => panic!("{line:?} wrote {written:?}, typed {typed:?} reads as text {text:?}"),
        };
        let again = again
            .parse::<Command<Mention>>()
            .map(crate::command::resolve)
            .unwrap_or_else(|e| panic!("{line:?} wrote {written:?}, typed as {body:?} {html:?} it does not read: {e}"));
        assert_eq!(again, command, "{line:?} wrote {written:?}, typed as {body:?} {html:?}");
    }
}

/// A message as a client sends it: the plain body, the HTML body, and what it means.
#[derive(Debug, Default)]
pub struct Message {
    pub body: String,
    pub html: String,
    /// The text with each pill as its user id.
    pub meant: String,
}

impl Message {
    fn text(&mut self, text: &str) {
        self.body.push_str(text);
        self.html.push_str(&escape(text));
        self.meant.push_str(text);
    }
}

/// Builds the message the bytes describe (see the module's docs).
pub fn build(bytes: &[u8], reply: bool) -> Message {
    let mut m = Message::default();
    if reply {
        m.body.push_str("> <@someone:example.org> an earlier message\n\n");
        m.html.push_str(
            "<mx-reply><blockquote><a href=\"https://matrix.to/#/!room:example.org/$event\">In reply to</a> \
             <a href=\"https://matrix.to/#/@someone:example.org\">@someone:example.org</a><br>an earlier \
             message</blockquote></mx-reply>",
        );
    }
    let mut rest = bytes;
    while let Some((&first, after)) = rest.split_first() {
        rest = after;
        match first {
            1 => {
                let (&choice, after) = rest.split_first().unwrap_or((&0, &[][..]));
                let (local, after) = until(after, 2);
                let (name, after) = until(after, 3);
                rest = after;
                let local: String =
                    local.iter().map(|&b| char::from(LOCALPART[usize::from(b) % LOCALPART.len()])).collect();
                let local = if local.is_empty() { "u".to_string() } else { local };
                let id = format!("@{local}:{}", SERVERS[usize::from(choice & 3)]);
                // Clients write the id as it is or percent-encoded, sometimes with `?via=`, in
                // either quotes.
                let mut href = if choice & 4 != 0 { id.replace('@', "%40").replace(':', "%3A") } else { id.clone() };
                if choice & 8 != 0 {
                    href.push_str("?via=example.org");
                }
                let quote = if choice & 16 != 0 { '\'' } else { '"' };
                let name = String::from_utf8_lossy(name);
                m.body.push_str(&name);
                m.html.push_str(&format!("<a href={quote}https://matrix.to/#/{href}{quote}>{}</a>", escape(&name)));
                m.meant.push_str(&id);
            }
            4 => {
                m.body.push('\n');
                m.html.push_str("<br>");
                m.meant.push('\n');
            }
            5 => {
                let (name, after) = until(rest, 3);
                rest = after;
                let name = String::from_utf8_lossy(name);
                m.body.push_str(&name);
                m.html.push_str(&format!("<a href=\"https://matrix.to/#/#room:example.org\">{}</a>", escape(&name)));
                m.meant.push_str(&name);
            }
            _ => {
                let end = rest.iter().position(|b| matches!(b, 1 | 4 | 5)).unwrap_or(rest.len());
                let mut text = vec![first];
                text.extend_from_slice(&rest[..end]);
                rest = &rest[end..];
                m.text(&String::from_utf8_lossy(&text));
            }
        }
    }
    m
}

/// The bytes up to `end` (not included), and those after it.
fn until(bytes: &[u8], end: u8) -> (&[u8], &[u8]) {
    match bytes.iter().position(|&b| b == end) {
        Some(at) => (&bytes[..at], &bytes[at + 1..]),
        None => (bytes, &[][..]),
    }
}
