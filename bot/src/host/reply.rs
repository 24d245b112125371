//! What the host answers: messages of text and images, with mentions and buttons. The host
//! decides what to say; each transport decides how to show it.

use rules::{Square, Variant};

/// A user as the host knows them: a stable id on their platform, and a display name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct User {
    pub id: String,
    pub name: String,
}

/// A PNG picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    pub file_name: String,
    pub png: Vec<u8>,
    /// What the picture shows, for screen readers and text-only transports.
    pub alt: String,
    /// The board the picture shows, for transports that draw it themselves (the console
    /// prints it as text).
    pub board: Option<ShownBoard>,
}

/// A board picture's content, as data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShownBoard {
    pub variant: Variant,
    pub fen: String,
    /// Black at the bottom.
    pub flipped: bool,
    /// The squares of the last move.
    pub highlight: Vec<Square>,
    /// Squares marked as reachable (`/moves`).
    pub marks: Vec<Square>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ButtonStyle {
    Primary,
    Secondary,
    Danger,
}

/// A button. Pressing it runs `command` (a command line such as `/accept challenge:12`) as
/// the user who pressed it, so a button keeps working after a restart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Button {
    pub label: String,
    pub command: String,
    pub style: ButtonStyle,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Message {
    pub text: String,
    pub images: Vec<Image>,
    /// Users this message calls (it is their move, their challenge).
    pub mentions: Vec<User>,
    pub buttons: Vec<Button>,
    /// Shown only to the user who asked (errors, private listings).
    pub private: bool,
    /// Posted in another channel than the one the command came from (a new game's thread).
    pub channel: Option<String>,
}

impl Message {
    pub fn text(text: impl Into<String>) -> Message {
        Message { text: text.into(), ..Message::default() }
    }

    /// A private error: what went wrong, and what would work instead.
    pub fn error(text: impl Into<String>) -> Message {
        Message { text: text.into(), private: true, ..Message::default() }
    }

    pub fn with_image(mut self, image: Image) -> Message {
        self.images.push(image);
        self
    }

    pub fn mentioning(mut self, user: &User) -> Message {
        if !self.mentions.contains(user) {
            self.mentions.push(user.clone());
        }
        self
    }

    pub fn with_button(mut self, label: &str, command: String, style: ButtonStyle) -> Message {
        self.buttons.push(Button { label: label.to_string(), command, style });
        self
    }

    pub fn in_channel(mut self, channel: &str) -> Message {
        self.channel = Some(channel.to_string());
        self
    }
}

/// Everything the host answers to one command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    pub messages: Vec<Message>,
}

impl Reply {
    pub fn one(message: Message) -> Reply {
        Reply { messages: vec![message] }
    }

    pub fn error(text: impl Into<String>) -> Reply {
        Reply::one(Message::error(text))
    }

    pub fn push(mut self, message: Message) -> Reply {
        self.messages.push(message);
        self
    }

    /// Whether the command failed (its only answer is a private error).
    pub fn is_error(&self) -> bool {
        matches!(self.messages.as_slice(), [m] if m.private && m.images.is_empty() && m.buttons.is_empty())
    }
}
