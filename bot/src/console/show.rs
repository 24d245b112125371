//! Printing the host's replies on the terminal: the channel and who may see a message (or the
//! user it is for alone, where a chat network would write to them directly), its text with
//! mentions as `@name`, buttons as the commands they run, links as `Watch: URL`,
//! boards as text, and each picture written to the boards folder.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use host::typed::{spans, Span};
use host::{Message, Reply};

use super::board;

pub struct Printer {
    boards: PathBuf,
    /// Whether to draw boards with terminal colours.
    colour: bool,
}

impl Printer {
    pub fn new(boards: &Path, colour: bool) -> Printer {
        Printer { boards: boards.to_path_buf(), colour }
    }

    /// Prints a reply to a line spoken in `channel`.
    pub fn reply(&mut self, out: &mut impl Write, channel: &str, reply: &Reply) -> io::Result<()> {
        self.messages(out, channel, &reply.messages)
    }

    pub fn messages(&mut self, out: &mut impl Write, channel: &str, messages: &[Message]) -> io::Result<()> {
        for message in messages {
            self.message(out, channel, message)?;
        }
        out.flush()
    }

    fn message(&mut self, out: &mut impl Write, channel: &str, message: &Message) -> io::Result<()> {
        let place = match &message.to {
            Some(user) => format!("to {}, privately", user.name),
            None => {
                let channel = message.channel.as_deref().unwrap_or(channel);
                let audience = if message.private { ", only you see this" } else { "" };
                format!("#{channel}{audience}")
            }
        };
        // The host's bold marks go; what a user typed shows exactly as typed.
        let mut text: String = spans(&message.text)
            .map(|span| match span {
                Span::Ours(ours) => ours.replace("**", ""),
                Span::Typed(typed) => typed.to_string(),
            })
            .collect();
        if !message.mentions.is_empty() {
            let names: Vec<String> = message.mentions.iter().map(|u| format!("@{}", u.name)).collect();
            text.push_str(&format!("  → {}", names.join(" ")));
        }
        let mut lines = text.lines();
        writeln!(out, "[{place}] {}", lines.next().unwrap_or(""))?;
        for line in lines {
            writeln!(out, "    {line}")?;
        }
        for button in &message.buttons {
            writeln!(out, "    [{}] {}", button.label, button.command)?;
        }
        for link in &message.links {
            writeln!(out, "    {}: {}", link.label, link.url)?;
        }
        for image in &message.images {
            if let Some(drawn) = image.board.as_ref().and_then(|b| board::draw(b, self.colour)) {
                write!(out, "{drawn}")?;
            }
            let path = self.boards.join(&image.file_name);
            match std::fs::create_dir_all(&self.boards).and_then(|_| std::fs::write(&path, &image.bytes)) {
                Ok(()) => writeln!(out, "    picture: {}", path.display())?,
                Err(e) => writeln!(out, "    (cannot write the picture {}: {e})", path.display())?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use host::User;

    fn printed(messages: &[Message]) -> String {
        let dir = tempfile::tempdir().unwrap();
        let mut out = Vec::new();
        Printer::new(dir.path(), false).messages(&mut out, "general", messages).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_message_for_one_user_is_marked_as_theirs_and_names_no_channel() {
        let bob = User { id: "bob".into(), name: "bob".into() };
        let notice = Message::text("bob, it is your move in game 1 (Chess) against alice.\nThe game: #general-2")
            .in_channel("general-2")
            .to_user(&bob);
        assert_eq!(
            printed(&[notice]),
            "[to bob, privately] bob, it is your move in game 1 (Chess) against alice.\n    The game: #general-2\n"
        );
        // Beside it, what everyone in a channel sees, and what only the asker sees.
        let public = Message::text("Round 2 is paired.").in_channel("general-2");
        assert_eq!(
            printed(&[public, Message::error("No.")]),
            "[#general-2] Round 2 is paired.\n[#general, only you see this] No.\n"
        );
    }
}
