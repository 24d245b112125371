//! What the host answers: messages of text and images, with mentions and buttons. The host
//! decides what to say; each transport decides how to show it.

use rules::{Square, Variant};

use super::{Command, Link, User};

/// A picture: a PNG still, or an animated GIF (a game's replay).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    pub file_name: String,
    pub bytes: Vec<u8>,
    pub format: ImageFormat,
    /// Its size in pixels, for transports that announce it (Matrix's `m.image`).
    pub width: u32,
    pub height: u32,
    /// What the picture shows, for screen readers and text-only transports.
    pub alt: String,
    /// The board the picture shows, for transports that draw it themselves (the console
    /// prints it as text).
    pub board: Option<ShownBoard>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ImageFormat {
    Png,
    Gif,
}

impl ImageFormat {
    pub fn mime(self) -> &'static str {
        match self {
            ImageFormat::Png => "image/png",
            ImageFormat::Gif => "image/gif",
        }
    }
}

impl Image {
    /// A PNG the renderer drew; its size is read from its header.
    pub(crate) fn png(file_name: String, bytes: Vec<u8>, alt: String) -> Image {
        // The IHDR chunk follows the 8-byte signature: length, type, then width and height.
        let (width, height) = match bytes.get(16..24) {
            Some(b) => (u32::from_be_bytes([b[0], b[1], b[2], b[3]]), u32::from_be_bytes([b[4], b[5], b[6], b[7]])),
            None => (0, 0),
        };
        Image { file_name, bytes, format: ImageFormat::Png, width, height, alt, board: None }
    }

    /// A GIF the renderer made; its size is read from its logical screen descriptor.
    pub(crate) fn gif(file_name: String, bytes: Vec<u8>, alt: String) -> Image {
        let (width, height) = match bytes.get(6..10) {
            Some(b) => (u32::from(u16::from_le_bytes([b[0], b[1]])), u32::from(u16::from_le_bytes([b[2], b[3]]))),
            None => (0, 0),
        };
        Image { file_name, bytes, format: ImageFormat::Gif, width, height, alt, board: None }
    }
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

/// A button. Pressing it runs `command` as the user who pressed it. Its command names what it
/// acts on (`/accept challenge:12`), so written as text (a Discord custom id) it keeps working
/// after a restart, and means nothing once what it named is gone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Button {
    pub label: String,
    pub command: Command,
    pub style: ButtonStyle,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Message {
    pub text: String,
    pub images: Vec<Image>,
    /// Users this message calls (it is their move, their challenge).
    pub mentions: Vec<User>,
    pub buttons: Vec<Button>,
    /// Links to web pages (a game's, a tournament's), each shown as the adapter shows a link:
    /// never part of `text`, so no transport has to find them in it.
    pub links: Vec<Link>,
    /// Shown only to the user who asked (errors, private listings).
    pub private: bool,
    /// A refusal's answer ([`Message::error`]): the command changed nothing. A private listing
    /// (`/games`) is private without being one.
    pub error: bool,
    /// Posted in another channel than the one the command came from (a new game's thread).
    pub channel: Option<String>,
    /// Posted to this user alone, in a direct chat the adapter finds or opens with them (a
    /// Discord DM, a Matrix direct room; the console prints it marked as theirs): a turn's
    /// notice. `channel` is then unused.
    pub to: Option<User>,
    /// An announcement's idempotency key, unique in the deployment: the adapter hands it to
    /// the network (Discord's nonce, Matrix's transaction id) so that an announcement posted
    /// twice (its process died between posting it and recording that) shows once.
    pub key: Option<String>,
}

impl Message {
    pub fn text(text: impl Into<String>) -> Message {
        Message { text: text.into(), ..Message::default() }
    }

    /// A private error: what went wrong, and what would work instead.
    pub fn error(text: impl Into<String>) -> Message {
        Message { text: text.into(), private: true, error: true, ..Message::default() }
    }

    pub fn with_image(mut self, image: Image) -> Message {
        self.images.push(image);
        self
    }

    /// Calls `user` to the message (nobody calls Chimera itself, nor a team: a team is its
    /// channel, where the message is said).
    pub fn mentioning(mut self, user: &User) -> Message {
        if !self.mentions.contains(user) && user.engine_level().is_none() && user.team_channel().is_none() {
            self.mentions.push(user.clone());
        }
        self
    }

    pub fn with_button(mut self, label: &str, command: Command, style: ButtonStyle) -> Message {
        self.buttons.push(Button { label: label.to_string(), command, style });
        self
    }

    /// Adds `link`, unless the message has it already; `None` (no web address set) adds nothing.
    pub fn with_link(mut self, link: Option<Link>) -> Message {
        if let Some(link) = link {
            if !self.links.contains(&link) {
                self.links.push(link);
            }
        }
        self
    }

    pub fn in_channel(mut self, channel: &str) -> Message {
        self.channel = Some(channel.to_string());
        self
    }

    /// The message for `user` alone, in a direct chat with them.
    pub fn to_user(mut self, user: &User) -> Message {
        self.to = Some(user.clone());
        self
    }
}

/// Everything the host answers to one command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    pub messages: Vec<Message>,
    /// A refusal the user has already been given (a command over the rate, again within the
    /// window): a transport that answers in public (Matrix, where a refusal is a reply in the
    /// room) leaves it unsaid, so that a user who floods gets one answer, not one per message;
    /// one that answers privately (Discord's ephemeral messages, the console) may show it.
    pub quiet: bool,
}

impl Reply {
    pub fn one(message: Message) -> Reply {
        Reply { messages: vec![message], quiet: false }
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
        matches!(self.messages.as_slice(), [m] if m.error)
    }
}
