//! The commands players give: the host's typed contract with every adapter.
//!
//! An adapter hands the host a [`Command`] whose people are resolved [`User`]s (a platform id and
//! the name to show). Discord builds one straight from a slash command's typed options, so
//! nothing a player types into one option can set another. Text is read only at the edges that
//! are text (the console, button ids, Matrix messages), through one reader: `str::parse` gives a
//! [`Command<Mention>`], whose mentions the adapter then resolves with
//! [`Command::try_map_users`]. The one writer of command text is `Display`, used for button ids
//! and every "type `/accept challenge:3`" hint; what it writes reads back as the same command.
//!
//! ```
//! use host::{Command, Mention, User};
//!
//! let typed: Command<Mention> = "/challenge @bob variant:golem time:10+5".parse().unwrap();
//! let resolved = typed.try_map_users(|m| match m.0.as_str() {
//!     "@bob" => Ok(User { id: "bob".into(), name: "Bob".into() }),
//!     other => Err(format!("who is {other}?")),
//! });
//! let command = resolved.unwrap();
//! assert_eq!(command.to_string(), "/challenge opponent:@bob variant:golem time:10+5");
//! ```

mod read;
mod read_tournament;
mod write;

#[cfg(test)]
mod tests;

use data::{ChallengeId, GameId, TournamentId};
use engine::Level;
use rules::{Square, Variant};

pub use super::personal::{ThemeChoice, Zone};
pub use data::ColorChoice;
pub use read::{CommandError, CommandSpec, COMMANDS};
pub use read_tournament::NAME_LENGTH;

use super::clock::TimeControl;
use super::team::VoteWindow;
use super::User;

/// A person named in typed text, as typed, before the adapter resolves it to a [`User`]:
/// `@bob` on the console, `<@80351110224678912>` on Discord, `@bob:example.org` on Matrix.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Mention(pub String);

/// A game a button was made for: the command acts only while it is still the channel's game.
pub type GameRef = Option<GameId>;

/// Whether a game counts for ratings when the challenger does not say.
pub const RATED_BY_DEFAULT: bool = true;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command<U = User> {
    /// A challenge to `opponent`, or to anyone in the channel.
    Challenge {
        opponent: Option<U>,
        variant: Variant,
        color: ColorChoice,
        time: TimeControl,
        rated: bool,
    },
    /// A game against Chimera itself at `level`, the player taking `color`; always unrated.
    Play {
        variant: Variant,
        level: Level,
        color: ColorChoice,
        time: TimeControl,
    },
    /// A team game: this channel's members play `against` another channel's (`/challenge
    /// team:#channel`) or Chimera (`/play team:yes`), each side's move the most-voted of its
    /// members' votes when its `window` closes; this channel's side takes `color`. Never rated.
    TeamGame {
        against: TeamOpponent,
        variant: Variant,
        color: ColorChoice,
        window: VoteWindow,
    },
    /// Accept a challenge in this channel: the one named, the one from `challenger`, or the
    /// only one open to you.
    Accept {
        challenger: Option<U>,
        challenge: Option<ChallengeId>,
    },
    /// Decline a challenge made to you, or withdraw your own.
    Decline {
        challenger: Option<U>,
        challenge: Option<ChallengeId>,
    },
    /// A move as the player wrote it; `confirm` plays a Grolman turn that loses on the spot.
    Move {
        text: String,
        confirm: bool,
        game: GameRef,
    },
    /// The board of this channel's game: its picture, or (`text`) its pieces in words.
    Board {
        text: bool,
    },
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
    /// The engine's analysis of a finished game: graph, marked mistakes, accuracy, PGN.
    Analyse {
        game: GameId,
    },
    /// The replay of a finished game, as an animated GIF.
    Gif {
        game: GameId,
    },
    /// A puzzle from the games played here (of `variant`, if named); the player's moves in
    /// the channel then answer it (see `puzzles::command` for when a move is an answer).
    Puzzle {
        variant: Option<Variant>,
    },
    Rules {
        variant: Option<Variant>,
    },
    Rating {
        user: Option<U>,
        variant: Option<Variant>,
    },
    Leaderboard {
        variant: Variant,
    },
    /// The asker's running games in every place: where each is and whose move it is.
    Games,
    History {
        user: Option<U>,
    },
    Help,
    /// `/help play`: how games against Chimera go, and how strong each level is.
    PlayHelp,
    /// `/help puzzle`: where puzzles come from, how to answer, how they are rated.
    PuzzleHelp,
    /// `/help settings`: a player's own settings, and what each does.
    SettingsHelp,
    /// `/tournament <sub> ...` (and `/help tournament`, which is `Tournament(Help)`).
    Tournament(TournamentCommand<U>),
    /// `/settings [web:on|off] [daily-puzzle:#channel time:HH:MM|daily-puzzle:off]` and the
    /// speaker's own (`theme:`, `notify:`, ...): shows the settings, or changes those given.
    Settings(SettingsCommand),
}

/// The other side of a team game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TeamOpponent {
    /// The members of another channel, as named in the command.
    Channel(ChannelMention),
    /// Chimera itself, at this level.
    Chimera(Level),
}

/// What `/settings` changes: one field per option, `None` where it was not given; with none
/// given it shows the settings. A setting belongs to the place (a server manager's to change,
/// such as `web`) or to the user who speaks (their board theme, their direct messages): a new
/// one is a new field, read and written beside the others.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SettingsCommand {
    /// The place's web listing (leaderboards, tournament lists, player pages): on or off.
    pub web: Option<bool>,
    /// The speaker's board theme.
    pub theme: Option<ThemeChoice>,
    /// Coordinates around the speaker's boards.
    pub coordinates: Option<bool>,
    /// Which side the speaker's boards show at the bottom.
    pub bottom: Option<data::Bottom>,
    /// Whether the speaker's boards come with the pieces written out.
    pub text: Option<bool>,
    /// Whether Chimera writes to the speaker directly on their turn in a correspondence game.
    pub dm: Option<bool>,
    /// The speaker's quiet hours (`Some(None)`: none).
    pub quiet: Option<Option<data::QuietHours>>,
    /// The time zone of the speaker's quiet hours.
    pub zone: Option<Zone>,
    /// The place's daily puzzle (`daily-puzzle:#channel time:18:00`, or `daily-puzzle:off`).
    pub daily_puzzle: Option<DailyPuzzleSetting>,
}

/// The daily puzzle as `/settings` sets it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DailyPuzzleSetting {
    /// Posted in `channel` every day at `time` (UTC).
    At {
        channel: ChannelMention,
        time: data::TimeOfDay,
    },
    Off,
}

impl DailyPuzzleSetting {
    /// The setting the options `daily-puzzle` and `time` give, as typed (`daily-puzzle:off`
    /// stops it); `None` when neither is given. The text reader and the Discord adapter both
    /// read them here, so both refuse the same things in the same words.
    ///
    /// ```
    /// use host::DailyPuzzleSetting;
    ///
    /// let set = DailyPuzzleSetting::from_options(Some("#puzzles"), Some("18:00")).unwrap();
    /// assert!(matches!(set, Some(DailyPuzzleSetting::At { .. })));
    /// assert_eq!(DailyPuzzleSetting::from_options(Some("OFF"), None), Ok(Some(DailyPuzzleSetting::Off)));
    /// assert_eq!(DailyPuzzleSetting::from_options(None, None), Ok(None));
    /// assert!(DailyPuzzleSetting::from_options(Some("#puzzles"), None).is_err(), "no time");
    /// assert!(DailyPuzzleSetting::from_options(None, Some("18:00")).is_err(), "no channel");
    /// assert!(DailyPuzzleSetting::from_options(Some("off"), Some("18:00")).is_err());
    /// assert!(DailyPuzzleSetting::from_options(Some("puzzles"), Some("18:00")).is_err(), "not a channel");
    /// assert!(DailyPuzzleSetting::from_options(Some("#puzzles"), Some("6pm")).is_err());
    /// ```
    pub fn from_options(channel: Option<&str>, time: Option<&str>) -> Result<Option<DailyPuzzleSetting>, CommandError> {
        const EXAMPLE: &str = "/settings daily-puzzle:#puzzles time:18:00";
        match (channel, time) {
            (None, None) => Ok(None),
            (None, Some(_)) => Err(CommandError::Missing {
                command: "settings",
                what: "the channel of the daily puzzle",
                example: EXAMPLE,
            }),
            (Some(off), time) if off.eq_ignore_ascii_case("off") => match time {
                None => Ok(Some(DailyPuzzleSetting::Off)),
                Some(_) => {
                    Err(CommandError::Value("`daily-puzzle:off` stops the daily puzzle, and takes no time".into()))
                }
            },
            (Some(_), None) => Err(CommandError::Missing {
                command: "settings",
                what: "the time of the daily puzzle, in UTC",
                example: EXAMPLE,
            }),
            (Some(channel), Some(time)) => {
                let channel = channel.parse().map_err(|e: NotAChannel| CommandError::Value(e.to_string()))?;
                let time = time.parse().map_err(|e: data::NotATimeOfDay| CommandError::Value(e.to_string()))?;
                Ok(Some(DailyPuzzleSetting::At { channel, time }))
            }
        }
    }
}

/// A channel named in a command, as typed or as its adapter writes it: `#general` on the
/// console, `<#80351110224678912>` on Discord (a channel option is written so),
/// `#chess:example.org` or `!room:example.org` on Matrix. It starts with `#`, `<#` or `!` and
/// holds no white space. Which channel it is, the host asks the adapter
/// ([`crate::Places::find_channel`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ChannelMention(String);

impl ChannelMention {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Text that does not name a channel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotAChannel(pub String);

impl std::fmt::Display for NotAChannel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}` does not name a channel: name one as you mention it, like `#puzzles`", self.0)
    }
}

impl std::error::Error for NotAChannel {}

impl std::str::FromStr for ChannelMention {
    type Err = NotAChannel;

    fn from_str(text: &str) -> Result<ChannelMention, NotAChannel> {
        let rest = text.strip_prefix("<#").or_else(|| text.strip_prefix(['#', '!']));
        match rest {
            Some(rest) if !rest.is_empty() && !text.contains(char::is_whitespace) => Ok(ChannelMention(text.into())),
            _ => Err(NotAChannel(text.into())),
        }
    }
}

impl std::fmt::Display for ChannelMention {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl SettingsCommand {
    /// Whether it changes nothing, and so only shows.
    pub fn is_show(&self) -> bool {
        self == &SettingsCommand::default()
    }

    /// Whether it changes any of the speaker's own settings.
    pub fn is_personal(&self) -> bool {
        let SettingsCommand { web: _, daily_puzzle: _, theme, coordinates, bottom, text, dm, quiet, zone } = self;
        theme.is_some()
            || coordinates.is_some()
            || bottom.is_some()
            || text.is_some()
            || dm.is_some()
            || quiet.is_some()
            || zone.is_some()
    }

    /// Whether it changes any of the place's settings.
    pub fn is_place(&self) -> bool {
        self.web.is_some() || self.daily_puzzle.is_some()
    }
}

/// The subcommands of `/tournament`. `id` names a tournament; without it, the server's one open
/// or running tournament is meant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TournamentCommand<U = User> {
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
        id: Option<TournamentId>,
    },
    Leave {
        id: Option<TournamentId>,
    },
    Start {
        id: Option<TournamentId>,
    },
    Standings {
        id: Option<TournamentId>,
    },
    Pairings {
        round: Option<u32>,
        id: Option<TournamentId>,
    },
    Withdraw {
        player: U,
        id: Option<TournamentId>,
    },
    Cancel {
        id: Option<TournamentId>,
    },
    /// The server's tournaments, a page at a time, latest first.
    List {
        /// From 1; `None` is the first.
        page: Option<u32>,
    },
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

impl<U> Command<U> {
    /// The same command with each person it names replaced by `f`'s answer: how an adapter
    /// resolves the mentions of a command read from text.
    pub fn try_map_users<V, E>(self, mut f: impl FnMut(U) -> Result<V, E>) -> Result<Command<V>, E> {
        let mut person = |u: Option<U>| u.map(&mut f).transpose();
        Ok(match self {
            Command::Challenge { opponent, variant, color, time, rated } => {
                Command::Challenge { opponent: person(opponent)?, variant, color, time, rated }
            }
            Command::Play { variant, level, color, time } => Command::Play { variant, level, color, time },
            Command::TeamGame { against, variant, color, window } => {
                Command::TeamGame { against, variant, color, window }
            }
            Command::Accept { challenger, challenge } => Command::Accept { challenger: person(challenger)?, challenge },
            Command::Decline { challenger, challenge } => {
                Command::Decline { challenger: person(challenger)?, challenge }
            }
            Command::Rating { user, variant } => Command::Rating { user: person(user)?, variant },
            Command::History { user } => Command::History { user: person(user)? },
            Command::Games => Command::Games,
            Command::Tournament(t) => Command::Tournament(t.try_map_users(&mut f)?),
            Command::Settings(s) => Command::Settings(s),
            Command::Move { text, confirm, game } => Command::Move { text, confirm, game },
            Command::Board { text } => Command::Board { text },
            Command::Moves { square } => Command::Moves { square },
            Command::Resign { confirm, game } => Command::Resign { confirm, game },
            Command::Draw { action, game } => Command::Draw { action, game },
            Command::Takeback { action, game } => Command::Takeback { action, game },
            Command::Abort => Command::Abort,
            Command::Game => Command::Game,
            Command::Pgn { game } => Command::Pgn { game },
            Command::Gif { game } => Command::Gif { game },
            Command::Analyse { game } => Command::Analyse { game },
            Command::Rules { variant } => Command::Rules { variant },
            Command::Puzzle { variant } => Command::Puzzle { variant },
            Command::PuzzleHelp => Command::PuzzleHelp,
            Command::SettingsHelp => Command::SettingsHelp,
            Command::Leaderboard { variant } => Command::Leaderboard { variant },
            Command::Help => Command::Help,
            Command::PlayHelp => Command::PlayHelp,
        })
    }

    /// What kind of command this is, as `/metrics` counts it: its name (a tournament's with its
    /// subcommand), never anything a user typed.
    pub fn kind(&self) -> &'static str {
        match self {
            Command::Challenge { .. } => "challenge",
            Command::Play { .. } => "play",
            Command::TeamGame { .. } => "team game",
            Command::Accept { .. } => "accept",
            Command::Decline { .. } => "decline",
            Command::Move { .. } => "move",
            Command::Board { .. } => "board",
            Command::Moves { .. } => "moves",
            Command::Resign { .. } => "resign",
            Command::Draw { .. } => "draw",
            Command::Takeback { .. } => "takeback",
            Command::Abort => "abort",
            Command::Game => "game",
            Command::Pgn { .. } => "pgn",
            Command::Analyse { .. } => "analyse",
            Command::Gif { .. } => "gif",
            Command::Rules { .. } => "rules",
            Command::Puzzle { .. } => "puzzle",
            Command::PuzzleHelp => "help puzzle",
            Command::SettingsHelp => "help settings",
            Command::Rating { .. } => "rating",
            Command::Leaderboard { .. } => "leaderboard",
            Command::History { .. } => "history",
            Command::Games => "games",
            Command::Help => "help",
            Command::PlayHelp => "help play",
            Command::Settings(s) if s.is_show() => "settings",
            Command::Settings(_) => "settings change",
            Command::Tournament(t) => match t {
                TournamentCommand::Create { .. } => "tournament create",
                TournamentCommand::Join { .. } => "tournament join",
                TournamentCommand::Leave { .. } => "tournament leave",
                TournamentCommand::Start { .. } => "tournament start",
                TournamentCommand::Standings { .. } => "tournament standings",
                TournamentCommand::Pairings { .. } => "tournament pairings",
                TournamentCommand::Withdraw { .. } => "tournament withdraw",
                TournamentCommand::Cancel { .. } => "tournament cancel",
                TournamentCommand::List { .. } => "tournament list",
                TournamentCommand::Help => "tournament help",
            },
        }
    }

    /// The people the command names, in the order it names them.
    pub fn people(&self) -> Vec<&U> {
        match self {
            Command::Challenge { opponent: u, .. }
            | Command::Accept { challenger: u, .. }
            | Command::Decline { challenger: u, .. }
            | Command::Rating { user: u, .. }
            | Command::History { user: u } => u.iter().collect(),
            Command::Tournament(TournamentCommand::Withdraw { player, .. }) => vec![player],
            _ => Vec::new(),
        }
    }
}

impl Command {
    /// A challenge to `bot`, the adapter's own account (`@Chimera`), is a game against
    /// Chimera itself at the default level; every other command stays as it is.
    ///
    /// ```
    /// use host::{Command, Mention, User};
    ///
    /// let typed: Command<Mention> = "/challenge @chimera variant:golem time:10+5".parse().unwrap();
    /// let command = typed.try_map_users(|m| Ok::<_, ()>(User { id: m.0[1..].into(), name: "Chimera".into() })).unwrap();
    /// assert_eq!(command.with_bot_as_engine("chimera").to_string(), "/play variant:golem level:4 time:10+5");
    /// ```
    pub fn with_bot_as_engine(self, bot: &str) -> Command {
        match self {
            Command::Challenge { opponent: Some(opponent), variant, color, time, .. } if opponent.id == bot => {
                let level = Level::new(i64::from(crate::opponent::DEFAULT_LEVEL)).expect("the default level exists");
                Command::Play { variant, level, color, time }
            }
            command => command,
        }
    }
}

impl<U> TournamentCommand<U> {
    /// The same subcommand with the person it names (if any) replaced by `f`'s answer.
    pub fn try_map_users<V, E>(self, f: impl FnOnce(U) -> Result<V, E>) -> Result<TournamentCommand<V>, E> {
        Ok(match self {
            TournamentCommand::Create { name, variant, format, rounds, time, rated, starts, double } => {
                TournamentCommand::Create { name, variant, format, rounds, time, rated, starts, double }
            }
            TournamentCommand::Join { id } => TournamentCommand::Join { id },
            TournamentCommand::Leave { id } => TournamentCommand::Leave { id },
            TournamentCommand::Start { id } => TournamentCommand::Start { id },
            TournamentCommand::Standings { id } => TournamentCommand::Standings { id },
            TournamentCommand::Pairings { round, id } => TournamentCommand::Pairings { round, id },
            TournamentCommand::Withdraw { player, id } => TournamentCommand::Withdraw { player: f(player)?, id },
            TournamentCommand::Cancel { id } => TournamentCommand::Cancel { id },
            TournamentCommand::List { page } => TournamentCommand::List { page },
            TournamentCommand::Help => TournamentCommand::Help,
        })
    }
}
