//! Reading command text: `/challenge @bob variant:golem color:white time:5+3 rated:no`.
//!
//! Options are `key:value` pairs, in any order; a value with spaces is quoted
//! (`name:"Friday Swiss"`, with `\"` and `\\` inside quotes), and a quoted word is always a
//! value, never an option. The main option of a command may also stand alone (`/rules golem`).
//! People are read as [`Mention`]s, as typed, for the adapter to resolve.

use std::fmt;
use std::str::FromStr;

use engine::Level;

use crate::personal;

use super::{
    ColorChoice, Command, DailyPuzzleSetting, DrawAction, Mention, NotAChannel, OfferAction, SettingsCommand,
    TeamOpponent, TournamentCommand, RATED_BY_DEFAULT,
};
use crate::clock::TimeControl;
use crate::team::VoteWindow;

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
    /// Written in quotes: a value whatever it looks like.
    pub(super) quoted: bool,
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
        self.number(key, false)
    }

    /// Like [`Args::id`], and the number may also stand alone (`/gif 12`).
    pub(super) fn id_at(&mut self, key: &'static str) -> Result<Option<i64>, CommandError> {
        self.number(key, true)
    }

    pub(super) fn number(&mut self, key: &'static str, positional: bool) -> Result<Option<i64>, CommandError> {
        self.take(key, positional)
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

impl FromStr for Command<Mention> {
    type Err = CommandError;

    fn from_str(line: &str) -> Result<Command<Mention>, CommandError> {
        let line = line.trim();
        let rest = line.strip_prefix('/').ok_or(CommandError::NoSlash)?;
        let (name, rest) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let name = name.to_ascii_lowercase();
        let command = COMMANDS.iter().find(|c| c.name == name).ok_or_else(|| CommandError::Unknown(name.clone()))?;
        (command.parse)(Args { command: command.name, args: split_args(rest)? })
    }
}

/// Whether `key` names an option: letters, in words of two or more joined by hyphens
/// (`daily-puzzle`). Shorter words before a colon are move text (`e2:e4`, `Nb:d4`, `O-O:`).
pub(super) fn is_option_key(key: &str) -> bool {
    key.len() > 2 && key.split('-').all(|word| word.len() >= 2 && word.chars().all(|c| c.is_ascii_alphabetic()))
}

/// Splits on white space outside quotes. A word's text up to its first colon, when it is an
/// option key and nothing of it was quoted, is the option's name.
fn split_args(s: &str) -> Result<Vec<Arg>, CommandError> {
    let mut args = Vec::new();
    let mut word = Arg { key: None, value: String::new(), quoted: false };
    let mut in_quotes = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                in_quotes = !in_quotes;
                word.quoted = true;
            }
            '\\' if in_quotes => match chars.next() {
                Some(escaped) => word.value.push(escaped),
                None => return Err(CommandError::OpenQuote),
            },
            ':' if !in_quotes && !word.quoted && word.key.is_none() && is_option_key(&word.value) => {
                word.key = Some(std::mem::take(&mut word.value).to_ascii_lowercase());
            }
            c if c.is_whitespace() && !in_quotes => {
                if word.quoted || word.key.is_some() || !word.value.is_empty() {
                    args.push(std::mem::replace(&mut word, Arg { key: None, value: String::new(), quoted: false }));
                }
            }
            c => word.value.push(c),
        }
    }
    if in_quotes {
        return Err(CommandError::OpenQuote);
    }
    if word.quoted || word.key.is_some() || !word.value.is_empty() {
        args.push(word);
    }
    Ok(args)
}

/// A command's name, what `/help` says of it, and its parser.
pub struct CommandSpec {
    pub name: &'static str,
    pub usage: &'static str,
    pub about: &'static str,
    parse: fn(Args) -> Result<Command<Mention>, CommandError>,
}

/// Refuses what a team game does not take: a clock of its own (its clock is the vote window) and
/// ratings.
fn team_terms(time: bool, rated: Option<bool>) -> Result<(), CommandError> {
    if time {
        return Err(CommandError::Value(
            "a team game's clock is its vote window: give `window:30s` (or `5m`, `12h`, `2d`) rather than `time:`"
                .into(),
        ));
    }
    if rated == Some(true) {
        return Err(CommandError::Value("team games are never rated".into()));
    }
    Ok(())
}

/// A person as typed; the adapter resolves it.
pub(super) fn mention(value: String) -> Mention {
    Mention(value)
}

/// The `color` option: the colour the speaker plays (random when not given).
fn color(a: &mut Args) -> Result<ColorChoice, CommandError> {
    Ok(match a.take("color", false).as_deref().map(str::to_ascii_lowercase).as_deref() {
        None | Some("random") => ColorChoice::Random,
        Some("white") | Some("w") => ColorChoice::White,
        Some("black") | Some("b") => ColorChoice::Black,
        Some(other) => return Err(CommandError::Value(format!("`{other}` is not a colour: white, black or random"))),
    })
}

pub(super) fn yes_no(value: &str) -> Result<bool, CommandError> {
    match value.to_ascii_lowercase().as_str() {
        "yes" | "y" | "true" | "on" => Ok(true),
        "no" | "n" | "false" | "off" => Ok(false),
        _ => Err(CommandError::Value(format!("`{value}` is not yes or no"))),
    }
}

/// A switch: `on` or `off` (`yes`, `no` too).
fn on_off(key: &str, value: &str) -> Result<bool, CommandError> {
    match value.to_ascii_lowercase().as_str() {
        "on" | "yes" | "true" => Ok(true),
        "off" | "no" | "false" => Ok(false),
        _ => Err(CommandError::Value(format!("`{key}:{value}` is not a switch: `{key}:on` or `{key}:off`"))),
    }
}

pub const COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        name: "challenge",
        usage: "/challenge [opponent:@user] variant:<id> [color:white|black|random] [time:3d|10+5] [rated:yes|no] \
                [team:#channel window:30s|12h]",
        about: "challenge someone (or anyone, without an opponent) to a game; with `team:#channel`, this channel's \
                members challenge that channel's (anyone there accepts), each side's move decided by its members' \
                votes",
        parse: |mut a| {
            let team = a.take("team", false);
            let window = a.parse::<VoteWindow>("window", false)?;
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
            let color = color(&mut a)?;
            let time: Option<TimeControl> = a.parse("time", false)?;
            let rated = a.take("rated", false).map(|v| yes_no(&v)).transpose()?;
            a.done()?;
            let Some(team) = team else {
                if window.is_some() {
                    return Err(CommandError::Value(
                        "`window:` is the vote window of a team game: name the other team with `team:#channel`".into(),
                    ));
                }
                let (time, rated) = (time.unwrap_or_default(), rated.unwrap_or(RATED_BY_DEFAULT));
                return Ok(Command::Challenge { opponent, variant, color, time, rated });
            };
            if opponent.is_some() {
                return Err(CommandError::Value(
                    "a team game is between the members of two channels: name the other with `team:#channel`, \
                     and no opponent"
                        .into(),
                ));
            }
            team_terms(time.is_some(), rated)?;
            let channel = team.parse().map_err(|e: NotAChannel| CommandError::Value(e.to_string()))?;
            let window = window.unwrap_or_default();
            Ok(Command::TeamGame { against: TeamOpponent::Channel(channel), variant, color, window })
        },
    },
    CommandSpec {
        name: "play",
        usage: "/play variant:<id> [level:1-8] [color:white|black|random] [time:3d|10+5] [team:yes window:30s|12h]",
        about: "play a game against Chimera itself, at level 1 (gentle) to 8 (strongest); never rated; with \
                `team:yes`, this channel's members play it together, each move decided by their votes",
        parse: |mut a| {
            let variant = a.parse("variant", true)?.ok_or(CommandError::Missing {
                command: "play",
                what: "a variant",
                example: "/play variant:golem level:4",
            })?;
            let level = match a.number("level", false)? {
                None => Level::new(i64::from(crate::opponent::DEFAULT_LEVEL)).expect("the default level exists"),
                Some(n) => Level::new(n).map_err(|e| CommandError::Value(e.to_string()))?,
            };
            let color = color(&mut a)?;
            let time: Option<TimeControl> = a.parse("time", false)?;
            let team = a.take("team", false).map(|v| yes_no(&v)).transpose()?.unwrap_or(false);
            let window = a.parse::<VoteWindow>("window", false)?;
            a.done()?;
            if team {
                team_terms(time.is_some(), None)?;
                let window = window.unwrap_or_default();
                return Ok(Command::TeamGame { against: TeamOpponent::Chimera(level), variant, color, window });
            }
            if window.is_some() {
                return Err(CommandError::Value(
                    "`window:` is the vote window of a team game: add `team:yes` to play Chimera together".into(),
                ));
            }
            Ok(Command::Play { variant, level, color, time: time.unwrap_or_default() })
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
        usage: "/board [text]",
        about: "show the board of this channel's game (`text`: its pieces in words, square by square)",
        parse: |mut a| {
            let text = match a.take("show", true).map(|v| v.to_ascii_lowercase()) {
                None => false,
                Some(v) if v == "text" => true,
                Some(v) if v == "picture" => false,
                Some(v) => {
                    return Err(CommandError::Value(format!(
                        "`{v}`: `/board` shows a picture, or with `/board text` the pieces in words"
                    )))
                }
            };
            a.done()?;
            Ok(Command::Board { text })
        },
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
        about: "this channel's game (or a game you may see, by its number) as PGN",
        parse: |mut a| {
            let game = a.id("game")?;
            a.done()?;
            Ok(Command::Pgn { game })
        },
    },
    CommandSpec {
        name: "gif",
        usage: "/gif game:<number>",
        about: "the replay of a finished game, as an animated picture",
        parse: |mut a| {
            let game = a.id_at("game")?.ok_or(CommandError::Missing {
                command: "gif",
                what: "a game's number",
                example: "/gif game:12",
            })?;
            a.done()?;
            Ok(Command::Gif { game })
        },
    },
    CommandSpec {
        name: "analyse",
        usage: "/analyse game:<number>",
        about: "the engine's look at a finished game: graph, mistakes, accuracy, annotated PGN",
        parse: |mut a| {
            let game = a.id_at("game")?.ok_or(CommandError::Missing {
                command: "analyse",
                what: "a game number",
                example: "/analyse game:12",
            })?;
            a.done()?;
            Ok(Command::Analyse { game })
        },
    },
    CommandSpec {
        name: "puzzle",
        usage: "/puzzle [variant]",
        about: "a puzzle from the games played here; answer with `/move` (`/help puzzle` says how)",
        parse: |mut a| {
            let variant = a.parse("variant", true)?;
            a.done()?;
            Ok(Command::Puzzle { variant })
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
        name: "games",
        usage: "/games",
        about: "your running games in every channel: a link to each, and whose move it is (shown to you only)",
        parse: |a| a.done().map(|_| Command::Games),
    },
    CommandSpec {
        name: "tournament",
        usage: "/tournament create|join|leave|start|standings|pairings|withdraw|cancel|list|help",
        about: "bot-run Swiss, round-robin and knockout tournaments; `/help tournament` explains them",
        parse: |a| super::read_tournament::read(a).map(Command::Tournament),
    },
    CommandSpec {
        name: "settings",
        usage: "/settings [theme:<name>] [coordinates:on|off] [bottom:own|to-move] [text:on|off] [notify:on|off] \
                [quiet:22:00-07:00|off] [zone:<time zone>] [web:on|off] [daily-puzzle:#channel time:HH:MM|daily-puzzle:off]",
        about: "your own settings (board theme, coordinates, which side is at the bottom, the pieces in words, a \
                direct message on your turn with quiet hours), and this server's; its managers turn its web \
                listing on or off, and have a daily puzzle posted in a channel at a time of day (UTC)",
        parse: |mut a| {
            let value = |e: String| CommandError::Value(e);
            let switch = |a: &mut Args, key: &str| a.take(key, false).map(|v| on_off(key, &v)).transpose();
            let (channel, time) = (a.take("daily-puzzle", false), a.take("time", false));
            let command = SettingsCommand {
                web: switch(&mut a, "web")?,
                daily_puzzle: DailyPuzzleSetting::from_options(channel.as_deref(), time.as_deref())?,
                theme: a.take("theme", false).map(|v| v.parse()).transpose().map_err(value)?,
                coordinates: switch(&mut a, "coordinates")?,
                bottom: a.take("bottom", false).map(|v| personal::read_bottom(&v)).transpose().map_err(value)?,
                text: switch(&mut a, "text")?,
                dm: switch(&mut a, "notify")?,
                quiet: a.take("quiet", false).map(|v| personal::read_quiet(&v)).transpose().map_err(value)?,
                zone: a.take("zone", false).map(|v| v.parse()).transpose().map_err(value)?,
            };
            a.done()?;
            Ok(Command::Settings(command))
        },
    },
    CommandSpec {
        name: "help",
        usage: "/help [tournament|play|puzzle|settings]",
        about: "this list (or how tournaments, playing Chimera, puzzles or your settings work)",
        parse: |mut a| {
            let topic = a.take("topic", true);
            a.done()?;
            match topic.as_deref().map(str::to_ascii_lowercase).as_deref() {
                None => Ok(Command::Help),
                Some("tournament" | "tournaments") => Ok(Command::Tournament(TournamentCommand::Help)),
                Some("play" | "chimera" | "engine") => Ok(Command::PlayHelp),
                Some("puzzle" | "puzzles") => Ok(Command::PuzzleHelp),
                Some("settings" | "setting") => Ok(Command::SettingsHelp),
                Some(other) => Err(CommandError::Value(format!(
                    "there is no help on `{other}`: `/help` lists the commands, `/help tournament` explains tournaments, \
                     `/help play` games against Chimera, `/help puzzle` puzzles, `/help settings` your settings"
                ))),
            }
        },
    },
];
