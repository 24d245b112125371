//! The commands players type, as the host understands them, and how text becomes one.
//!
//! Every transport hands the host a [`Command`]: Discord builds it from a slash command's typed
//! options, the console parses it from a line such as
//! `/challenge @bob variant:golem color:white time:5+3 rated:no`. Options are `key:value`
//! pairs (values may be quoted); the main option of a command may also stand alone.
//!
//! Buttons carry whole command lines that name what they act on (`/accept challenge:12`,
//! `/draw accept game:7`), so a button pressed after a restart, or after the game it belongs to
//! has ended, still means exactly one thing.

use std::fmt;
use std::str::FromStr;

use rules::{Square, Variant};

use super::clock::TimeControl;

/// A user named in a command: on Discord a user id, on the console a name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Mention(pub String);

/// A game a button was made for: the command acts only if it is still the channel's game.
pub type GameRef = Option<data::GameId>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Challenge {
        opponent: Option<Mention>,
        variant: Variant,
        color: ColorChoice,
        time: TimeControl,
        rated: bool,
    },
    /// Accept a challenge in this channel: the one named, the one from `challenger`, or the
    /// only one open to you.
    Accept {
        challenger: Option<Mention>,
        challenge: Option<data::ChallengeId>,
    },
    /// Decline a challenge made to you, or withdraw your own.
    Decline {
        challenger: Option<Mention>,
        challenge: Option<data::ChallengeId>,
    },
    /// A move; `confirm` plays a Grolman turn that loses on the spot.
    Move {
        text: String,
        confirm: bool,
        game: GameRef,
    },
    Board,
    Moves {
        square: Option<Square>,
    },
    /// Resigning asks first; `confirm` resigns.
    Resign {
        confirm: bool,
        game: GameRef,
    },
    Draw {
        action: DrawAction,
        game: GameRef,
    },
    Takeback {
        action: OfferAction,
        game: GameRef,
    },
    Abort,
    Game,
    /// This channel's game as PGN, or any game by its number.
    Pgn {
        game: GameRef,
    },
    Rules {
        variant: Option<Variant>,
    },
    Rating {
        user: Option<Mention>,
        variant: Option<Variant>,
    },
    Leaderboard {
        variant: Variant,
    },
    History {
        user: Option<Mention>,
    },
    Help,
    /// `/tournament <sub> ...` (and `/help tournament`, which is `Tournament(Help)`).
    Tournament(TournamentCommand),
}

/// The subcommands of `/tournament`. `id` names a tournament; without it, the server's one open
/// or running tournament is meant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TournamentCommand {
    Create {
        name: String,
        variant: Variant,
        format: data::Format,
        /// Swiss only; round robin and knockout count their own.
        rounds: Option<u32>,
        time: TimeControl,
        rated: bool,
        /// `None`: when the organiser says `/tournament start`.
        starts: Option<Starts>,
        /// Round robin only: everyone meets twice.
        double: bool,
    },
    Join {
        id: Option<data::TournamentId>,
    },
    Leave {
        id: Option<data::TournamentId>,
    },
    Start {
        id: Option<data::TournamentId>,
    },
    Standings {
        id: Option<data::TournamentId>,
    },
    Pairings {
        round: Option<u32>,
        id: Option<data::TournamentId>,
    },
    Withdraw {
        player: Mention,
        id: Option<data::TournamentId>,
    },
    Cancel {
        id: Option<data::TournamentId>,
    },
    List,
    /// How tournaments work: formats, tie-breaks, byes, withdrawal, the decider.
    Help,
}

/// When a tournament starts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Starts {
    /// At the scheduler's next step.
    Now,
    /// This many milliseconds after the command.
    In(i64),
    /// At this time (milliseconds since the Unix epoch, UTC).
    At(i64),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    White,
    Black,
    Random,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DrawAction {
    Offer,
    Accept,
    Decline,
    Claim,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OfferAction {
    Offer,
    Accept,
    Decline,
}

/// What is wrong with a command line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    #[error("commands start with `/`, like `/help`")]
    NoSlash,
    #[error("unknown command `/{0}`; `/help` lists them")]
    Unknown(String),
    #[error("`/{command}` needs {what}; for example `{example}`")]
    Missing { command: &'static str, what: &'static str, example: &'static str },
    #[error("`/{command}` has no option `{option}`")]
    UnknownOption { command: &'static str, option: String },
    #[error("{0}")]
    Value(String),
    #[error("a quote is not closed")]
    OpenQuote,
}

/// One option as typed: `key:value`, or a bare value.
pub(super) struct Arg {
    pub(super) key: Option<String>,
    pub(super) value: String,
}

/// The arguments of one command, consumed as the command's parser asks for them.
pub(super) struct Args {
    pub(super) command: &'static str,
    pub(super) args: Vec<Arg>,
}

impl Args {
    /// Takes the option named `key`, or else (when `positional`) the first bare value.
    pub(super) fn take(&mut self, key: &str, positional: bool) -> Option<String> {
        let at = self
            .args
            .iter()
            .position(|a| a.key.as_deref() == Some(key))
            .or_else(|| positional.then(|| self.args.iter().position(|a| a.key.is_none())).flatten())?;
        Some(self.args.remove(at).value)
    }

    pub(super) fn parse<T: FromStr>(&mut self, key: &str, positional: bool) -> Result<Option<T>, CommandError>
    where
        T::Err: fmt::Display,
    {
        self.take(key, positional).map(|v| v.parse::<T>().map_err(|e| CommandError::Value(e.to_string()))).transpose()
    }

    /// A number that names a game or a challenge (`game:12`).
    pub(super) fn id(&mut self, key: &'static str) -> Result<Option<i64>, CommandError> {
        self.take(key, false)
            .map(|v| {
                v.trim_start_matches('#')
                    .parse()
                    .map_err(|_| CommandError::Value(format!("`{key}:{v}` needs a number, like `{key}:12`")))
            })
            .transpose()
    }

    fn confirm(&mut self) -> Result<bool, CommandError> {
        Ok(self.take("confirm", false).map(|v| yes_no(&v)).transpose()?.unwrap_or(false))
    }

    /// Fails on anything left over: a misspelt option must not be silently ignored.
    pub(super) fn done(self) -> Result<(), CommandError> {
        match self.args.into_iter().next() {
            None => Ok(()),
            Some(Arg { key: Some(key), .. }) => Err(CommandError::UnknownOption { command: self.command, option: key }),
            Some(Arg { value, .. }) => Err(CommandError::UnknownOption { command: self.command, option: value }),
        }
    }
}

impl FromStr for Command {
    type Err = CommandError;

    fn from_str(line: &str) -> Result<Command, CommandError> {
        let line = line.trim();
        let rest = line.strip_prefix('/').ok_or(CommandError::NoSlash)?;
        let (name, rest) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let words = split_words(rest)?;
        let name = name.to_ascii_lowercase();
        let command = COMMANDS.iter().find(|c| c.name == name).ok_or_else(|| CommandError::Unknown(name.clone()))?;
        let args = words
            .into_iter()
            .map(|w| match w.split_once(':') {
                // `e2:e4`-like move text and `@user` mentions are values, not options.
                Some((key, value)) if is_option_key(key) => {
                    Arg { key: Some(key.to_ascii_lowercase()), value: value.to_string() }
                }
                _ => Arg { key: None, value: w },
            })
            .collect();
        (command.parse)(Args { command: command.name, args })
    }
}

fn is_option_key(key: &str) -> bool {
    key.len() > 2 && key.chars().all(|c| c.is_ascii_alphabetic())
}

/// Splits on white space, keeping "quoted text" together.
fn split_words(s: &str) -> Result<Vec<String>, CommandError> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    for c in s.chars() {
        match c {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !current.is_empty() {
                    words.push(std::mem::take(&mut current));
                }
            }
            c => current.push(c),
        }
    }
    if quoted {
        return Err(CommandError::OpenQuote);
    }
    if !current.is_empty() {
        words.push(current);
    }
    Ok(words)
}

/// A command's name, what `/help` says of it, and its parser.
pub struct CommandSpec {
    pub name: &'static str,
    pub usage: &'static str,
    pub about: &'static str,
    parse: fn(Args) -> Result<Command, CommandError>,
}

pub(super) fn mention(value: String) -> Mention {
    Mention(value.trim_start_matches("<@").trim_start_matches('@').trim_end_matches('>').to_string())
}

pub(super) fn yes_no(value: &str) -> Result<bool, CommandError> {
    match value.to_ascii_lowercase().as_str() {
        "yes" | "y" | "true" | "on" => Ok(true),
        "no" | "n" | "false" | "off" => Ok(false),
        _ => Err(CommandError::Value(format!("`{value}` is not yes or no"))),
    }
}

pub const COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        name: "challenge",
        usage: "/challenge [opponent:@user] variant:<id> [color:white|black|random] [time:3d|10+5] [rated:yes|no]",
        about: "challenge someone (or anyone, without an opponent) to a game",
        parse: |mut a| {
            let mut opponent = a.take("opponent", false).map(mention);
            if opponent.is_none() {
                let at = a.args.iter().position(|x| x.key.is_none() && x.value.starts_with(['@', '<']));
                opponent = at.map(|i| mention(a.args.remove(i).value));
            }
            let variant = a.parse("variant", true)?.ok_or(CommandError::Missing {
                command: "challenge",
                what: "a variant",
                example: "/challenge @bob variant:golem",
            })?;
            let color = match a.take("color", false).as_deref().map(str::to_ascii_lowercase).as_deref() {
                None | Some("random") => ColorChoice::Random,
                Some("white") | Some("w") => ColorChoice::White,
                Some("black") | Some("b") => ColorChoice::Black,
                Some(other) => {
                    return Err(CommandError::Value(format!("`{other}` is not a colour: white, black or random")))
                }
            };
            let time = a.parse("time", false)?.unwrap_or_default();
            let rated = a.take("rated", false).map(|v| yes_no(&v)).transpose()?.unwrap_or(true);
            a.done()?;
            Ok(Command::Challenge { opponent, variant, color, time, rated })
        },
    },
    CommandSpec {
        name: "accept",
        usage: "/accept [challenger:@user]",
        about: "accept a challenge made in this channel",
        parse: |mut a| {
            let challenge = a.id("challenge")?;
            let challenger = a.take("challenger", true).map(mention);
            a.done()?;
            Ok(Command::Accept { challenger, challenge })
        },
    },
    CommandSpec {
        name: "decline",
        usage: "/decline [challenger:@user]",
        about: "decline a challenge addressed to you (or withdraw your own)",
        parse: |mut a| {
            let challenge = a.id("challenge")?;
            let challenger = a.take("challenger", true).map(mention);
            a.done()?;
            Ok(Command::Decline { challenger, challenge })
        },
    },
    CommandSpec {
        name: "move",
        usage: "/move <move> [confirm:yes]",
        about: "play a move: SAN (Nf3, exd5, O-O) or coordinates (g1f3)",
        parse: |mut a| {
            let confirm = a.confirm()?;
            let game = a.id("game")?;
            let words: Vec<String> = a
                .args
                .drain(..)
                .map(|x| match x.key {
                    Some(k) => format!("{k}:{}", x.value),
                    None => x.value,
                })
                .collect();
            if words.is_empty() {
                return Err(CommandError::Missing { command: "move", what: "a move", example: "/move e4" });
            }
            Ok(Command::Move { text: words.join(" "), confirm, game })
        },
    },
    CommandSpec {
        name: "board",
        usage: "/board",
        about: "show the board of this channel's game",
        parse: |a| a.done().map(|_| Command::Board),
    },
    CommandSpec {
        name: "moves",
        usage: "/moves [square]",
        about: "list the legal moves (of the piece on a square), marked on the board",
        parse: |mut a| {
            let square = a.parse("square", true)?;
            a.done()?;
            Ok(Command::Moves { square })
        },
    },
    CommandSpec {
        name: "resign",
        usage: "/resign",
        about: "resign your game in this channel (asks to confirm)",
        parse: |mut a| {
            let confirm = a.confirm()?;
            let game = a.id("game")?;
            a.done()?;
            Ok(Command::Resign { confirm, game })
        },
    },
    CommandSpec {
        name: "draw",
        usage: "/draw offer|accept|decline|claim",
        about: "offer, accept or decline a draw, or claim one (repetition, fifty moves)",
        parse: |mut a| {
            let game = a.id("game")?;
            let action = match a.take("action", true).as_deref().map(str::to_ascii_lowercase).as_deref() {
                Some("offer") => DrawAction::Offer,
                Some("accept") => DrawAction::Accept,
                Some("decline") => DrawAction::Decline,
                Some("claim") => DrawAction::Claim,
                _ => {
                    return Err(CommandError::Missing {
                        command: "draw",
                        what: "offer, accept, decline or claim",
                        example: "/draw offer",
                    })
                }
            };
            a.done()?;
            Ok(Command::Draw { action, game })
        },
    },
    CommandSpec {
        name: "takeback",
        usage: "/takeback offer|accept|decline",
        about: "ask to take back your last move, or answer such a request",
        parse: |mut a| {
            let game = a.id("game")?;
            let action = match a.take("action", true).as_deref().map(str::to_ascii_lowercase).as_deref() {
                Some("offer") => OfferAction::Offer,
                Some("accept") => OfferAction::Accept,
                Some("decline") => OfferAction::Decline,
                _ => {
                    return Err(CommandError::Missing {
                        command: "takeback",
                        what: "offer, accept or decline",
                        example: "/takeback offer",
                    })
                }
            };
            a.done()?;
            Ok(Command::Takeback { action, game })
        },
    },
    CommandSpec {
        name: "abort",
        usage: "/abort",
        about: "call off the game before both players have moved",
        parse: |a| a.done().map(|_| Command::Abort),
    },
    CommandSpec {
        name: "game",
        usage: "/game",
        about: "players, clocks and moves of this channel's game",
        parse: |a| a.done().map(|_| Command::Game),
    },
    CommandSpec {
        name: "pgn",
        usage: "/pgn [game:<number>]",
        about: "this channel's game (or any game by its number) as PGN",
        parse: |mut a| {
            let game = a.id("game")?;
            a.done()?;
            Ok(Command::Pgn { game })
        },
    },
    CommandSpec {
        name: "rules",
        usage: "/rules [variant]",
        about: "the rules of a variant, with diagrams",
        parse: |mut a| {
            let variant = a.parse("variant", true)?;
            a.done()?;
            Ok(Command::Rules { variant })
        },
    },
    CommandSpec {
        name: "rating",
        usage: "/rating [user:@user] [variant]",
        about: "ratings of a player (you, by default)",
        parse: |mut a| {
            let user = a.take("user", false).map(mention);
            let user = user.or_else(|| {
                let at = a.args.iter().position(|x| x.key.is_none() && x.value.starts_with(['@', '<']));
                at.map(|i| mention(a.args.remove(i).value))
            });
            let variant = a.parse("variant", true)?;
            a.done()?;
            Ok(Command::Rating { user, variant })
        },
    },
    CommandSpec {
        name: "leaderboard",
        usage: "/leaderboard <variant>",
        about: "the best rated players of a variant",
        parse: |mut a| {
            let variant = a.parse("variant", true)?.ok_or(CommandError::Missing {
                command: "leaderboard",
                what: "a variant",
                example: "/leaderboard werewolf",
            })?;
            a.done()?;
            Ok(Command::Leaderboard { variant })
        },
    },
    CommandSpec {
        name: "history",
        usage: "/history [user:@user]",
        about: "recent finished games of a player (you, by default)",
        parse: |mut a| {
            let user = a.take("user", true).map(mention);
            a.done()?;
            Ok(Command::History { user })
        },
    },
    CommandSpec {
        name: "tournament",
        usage: "/tournament create|join|leave|start|standings|pairings|withdraw|cancel|list|help",
        about: "bot-run Swiss, round-robin and knockout tournaments; `/help tournament` explains them",
        parse: |a| super::arbiter::parse_command(a).map(Command::Tournament),
    },
    CommandSpec {
        name: "help",
        usage: "/help [tournament]",
        about: "this list (or how tournaments work)",
        parse: |mut a| {
            let topic = a.take("topic", true);
            a.done()?;
            match topic.as_deref().map(str::to_ascii_lowercase).as_deref() {
                None => Ok(Command::Help),
                Some("tournament" | "tournaments") => Ok(Command::Tournament(TournamentCommand::Help)),
                Some(other) => Err(CommandError::Value(format!(
                    "there is no help on `{other}`: `/help` lists the commands, `/help tournament` explains tournaments"
                ))),
            }
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Command {
        line.parse().unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    #[test]
    fn challenges_read_their_options_in_any_order() {
        let tc = TimeControl::Live { minutes: 5, increment: 3 };
        let expected = Command::Challenge {
            opponent: Some(Mention("bob".into())),
            variant: Variant::Golem,
            color: ColorChoice::White,
            time: tc,
            rated: false,
        };
        assert_eq!(parse("/challenge @bob variant:golem color:white time:5+3 rated:no"), expected);
        assert_eq!(parse("/challenge rated:no golem time:5+3 color:w opponent:<@bob>"), expected);
        let open = parse("/challenge variant:chess");
        assert!(matches!(open, Command::Challenge { opponent: None, rated: true, color: ColorChoice::Random, .. }));
    }

    #[test]
    fn button_commands_name_what_they_act_on() {
        assert_eq!(parse("/accept challenge:12"), Command::Accept { challenger: None, challenge: Some(12) });
        assert_eq!(parse("/resign confirm:yes game:7"), Command::Resign { confirm: true, game: Some(7) });
        assert_eq!(parse("/draw accept game:7"), Command::Draw { action: DrawAction::Accept, game: Some(7) });
        assert_eq!(
            parse("/move e2e3 (c3e2 c2c3 d1c2 e1d1) confirm:yes game:3"),
            Command::Move { text: "e2e3 (c3e2 c2c3 d1c2 e1d1)".into(), confirm: true, game: Some(3) }
        );
        assert_eq!(parse("/move e2:e4"), Command::Move { text: "e2:e4".into(), confirm: false, game: None });
        let err = "/draw offer game:seven".parse::<Command>().unwrap_err();
        assert_eq!(err.to_string(), "`game:seven` needs a number, like `game:12`");
    }
}
