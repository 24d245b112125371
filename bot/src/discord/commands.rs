//! The slash commands: one small function each. Every one builds the host's typed [`Command`]
//! straight from its typed options (choice lists convert with `From`, people are the users
//! Discord resolved), so nothing typed into one option can set another, and hands it to
//! [`super::incoming::run`]. `/move` suggests the legal moves as the player types.

use host::{
    ColorChoice, Command, DrawAction, OfferAction, SettingsCommand, TeamOpponent, TimeControl, VoteWindow,
    RATED_BY_DEFAULT,
};
use poise::serenity_prelude as serenity;

use super::incoming::{person, run};
use super::outgoing::clip;
use super::{Context, Error, PLATFORM};

/// Every command Chimera registers, in the order `/help` lists them.
pub fn all() -> Vec<poise::Command<super::Data, Error>> {
    vec![
        challenge(),
        play(),
        accept(),
        decline(),
        r#move(),
        board(),
        moves(),
        resign(),
        draw(),
        takeback(),
        abort(),
        game(),
        pgn(),
        gif(),
        analyse(),
        puzzle(),
        rules(),
        rating(),
        leaderboard(),
        history(),
        games(),
        super::tournament_commands::tournament(),
        settings(),
        help(),
    ]
}

/// The variants, as a choice list named as `rules::Variant::name` names them.
#[derive(Copy, Clone, Debug, poise::ChoiceParameter)]
pub enum VariantOption {
    #[name = "Chess"]
    Chess,
    #[name = "Golem Chess"]
    Golem,
    #[name = "Grolman Chess"]
    Grolman,
    #[name = "Ghost King Chess"]
    GhostKing,
    #[name = "Werewolf Chess"]
    Werewolf,
    #[name = "Unicorn Great Chess"]
    UnicornGreat,
}

impl From<VariantOption> for rules::Variant {
    fn from(option: VariantOption) -> rules::Variant {
        use rules::Variant;
        match option {
            VariantOption::Chess => Variant::Chess,
            VariantOption::Golem => Variant::Golem,
            VariantOption::Grolman => Variant::Grolman,
            VariantOption::GhostKing => Variant::GhostKing,
            VariantOption::Werewolf => Variant::Werewolf,
            VariantOption::UnicornGreat => Variant::UnicornGreat,
        }
    }
}

/// The colour choice as Discord lists it (poise derives a choice list only for its own enums).
#[derive(Copy, Clone, Debug, poise::ChoiceParameter)]
pub enum ColorOption {
    White,
    Black,
    Random,
}

impl From<ColorOption> for ColorChoice {
    fn from(option: ColorOption) -> ColorChoice {
        match option {
            ColorOption::White => ColorChoice::White,
            ColorOption::Black => ColorChoice::Black,
            ColorOption::Random => ColorChoice::Random,
        }
    }
}

#[derive(Copy, Clone, Debug, poise::ChoiceParameter)]
pub enum DrawOption {
    #[name = "offer a draw"]
    Offer,
    #[name = "accept the offer"]
    Accept,
    #[name = "decline the offer"]
    Decline,
    #[name = "claim (repetition, fifty moves)"]
    Claim,
}

impl From<DrawOption> for DrawAction {
    fn from(option: DrawOption) -> DrawAction {
        match option {
            DrawOption::Offer => DrawAction::Offer,
            DrawOption::Accept => DrawAction::Accept,
            DrawOption::Decline => DrawAction::Decline,
            DrawOption::Claim => DrawAction::Claim,
        }
    }
}

#[derive(Copy, Clone, Debug, poise::ChoiceParameter)]
pub enum TakebackOption {
    #[name = "ask to take back your last move"]
    Offer,
    #[name = "accept the request"]
    Accept,
    #[name = "decline the request"]
    Decline,
}

impl From<TakebackOption> for OfferAction {
    fn from(option: TakebackOption) -> OfferAction {
        match option {
            TakebackOption::Offer => OfferAction::Offer,
            TakebackOption::Accept => OfferAction::Accept,
            TakebackOption::Decline => OfferAction::Decline,
        }
    }
}

/// A free-text option the host reads as a typed value (a time control, a square): its error
/// says what is wrong with it.
pub(super) fn read<T: std::str::FromStr>(text: Option<String>) -> Result<Option<T>, String>
where
    T::Err: std::fmt::Display,
{
    text.map(|t| t.parse().map_err(|e: T::Err| e.to_string())).transpose()
}

/// The engine's look at a finished game: graph, mistakes, accuracy, annotated PGN
#[poise::command(slash_command, guild_only)]
pub async fn analyse(
    ctx: Context<'_>,
    #[description = "The game's number"]
    #[min = 1]
    game: i64,
) -> Result<(), Error> {
    run(ctx, Ok(Command::Analyse { game })).await
}

/// Challenge someone (or anyone here) to a game, or another channel to a team game
#[allow(clippy::too_many_arguments)] // one per option, as Discord shows them
#[poise::command(slash_command, guild_only)]
pub async fn challenge(
    ctx: Context<'_>,
    #[description = "Which game"] variant: VariantOption,
    #[description = "Who to play; leave out to let anyone here accept"] opponent: Option<serenity::User>,
    #[description = "Your colour (random by default)"] color: Option<ColorOption>,
    #[description = "Days per move (3d) or minutes plus increment (10+5); 3d by default"] time: Option<String>,
    #[description = "Does the game count for ratings? (yes by default)"] rated: Option<bool>,
    #[description = "A team game: this channel's members against that channel's, each move decided by vote"]
    #[channel_types("Text", "News", "PublicThread", "PrivateThread", "NewsThread")]
    team: Option<serenity::ChannelId>,
    #[description = "A team game's time to vote each move, like 30s, 5m, 12h or 2d; 12h by default"]
    #[max_length = 16]
    window: Option<String>,
) -> Result<(), Error> {
    let color = color.map_or(ColorChoice::Random, ColorChoice::from);
    let command = match team {
        Some(team) => team_game(opponent.is_some(), time.is_some(), rated, window).and_then(|window| {
            let channel = format!("<#{team}>").parse().map_err(|e: host::NotAChannel| e.to_string())?;
            Ok(Command::TeamGame { against: TeamOpponent::Channel(channel), variant: variant.into(), color, window })
        }),
        None if window.is_some() => Err(NO_TEAM.to_string()),
        None => read::<TimeControl>(time).map(|time| Command::Challenge {
            opponent: opponent.as_ref().map(|u| person(ctx, u)),
            variant: variant.into(),
            color,
            time: time.unwrap_or_default(),
            rated: rated.unwrap_or(RATED_BY_DEFAULT),
        }),
    };
    // Challenging Chimera itself is playing against it.
    let bot = ctx.framework().bot_id().to_string();
    run(ctx, command.map(|c| c.with_bot_as_engine(&bot))).await
}

/// What a team game is told when `window` is given without a team.
const NO_TEAM: &str = "`window` is the vote window of a team game: choose the other team with `team`.";

/// The vote window of a team game, refusing what a team game does not take (as the text reader
/// does): an opponent, a clock of its own, ratings.
fn team_game(opponent: bool, time: bool, rated: Option<bool>, window: Option<String>) -> Result<VoteWindow, String> {
    if opponent {
        return Err(
            "A team game is between the members of two channels: choose the other with `team`, and no opponent.".into(),
        );
    }
    if time {
        return Err(
            "A team game's clock is its vote window: give `window` (like 30s or 12h) rather than `time`.".into()
        );
    }
    if rated == Some(true) {
        return Err("Team games are never rated.".into());
    }
    Ok(read::<VoteWindow>(window)?.unwrap_or_default())
}

/// Play a game against Chimera itself (never rated), alone or with this channel as a team
#[poise::command(slash_command, guild_only)]
pub async fn play(
    ctx: Context<'_>,
    #[description = "Which game"] variant: VariantOption,
    #[description = "How strong Chimera plays: 1 (gentle) to 8 (strongest); 4 by default"]
    #[min = 1]
    #[max = 8]
    level: Option<u8>,
    #[description = "Your colour (random by default)"] color: Option<ColorOption>,
    #[description = "Days per move (3d) or minutes plus increment (10+5); 3d by default"] time: Option<String>,
    #[description = "Play as a team: this channel's members vote each move"] team: Option<bool>,
    #[description = "A team game's time to vote each move, like 30s, 5m, 12h or 2d; 12h by default"]
    #[max_length = 16]
    window: Option<String>,
) -> Result<(), Error> {
    let level = host::Level::new(i64::from(level.unwrap_or(host::DEFAULT_LEVEL))).map_err(|e| e.to_string());
    let color = color.map_or(ColorChoice::Random, ColorChoice::from);
    let command = level.and_then(|level| match team {
        Some(true) => team_game(false, time.is_some(), None, window).map(|window| Command::TeamGame {
            against: TeamOpponent::Chimera(level),
            variant: variant.into(),
            color,
            window,
        }),
        _ if window.is_some() => {
            Err("`window` is the vote window of a team game: add `team` to play Chimera together.".into())
        }
        _ => read::<TimeControl>(time).map(|time| Command::Play {
            variant: variant.into(),
            level,
            color,
            time: time.unwrap_or_default(),
        }),
    });
    run(ctx, command).await
}

/// Accept a challenge made in this channel
#[poise::command(slash_command, guild_only)]
pub async fn accept(
    ctx: Context<'_>,
    #[description = "Whose challenge, when there are several"] challenger: Option<serenity::User>,
) -> Result<(), Error> {
    let challenger = challenger.as_ref().map(|u| person(ctx, u));
    run(ctx, Ok(Command::Accept { challenger, challenge: None })).await
}

/// Decline a challenge made to you, or withdraw your own
#[poise::command(slash_command, guild_only)]
pub async fn decline(
    ctx: Context<'_>,
    #[description = "Whose challenge, when there are several"] challenger: Option<serenity::User>,
) -> Result<(), Error> {
    let challenger = challenger.as_ref().map(|u| person(ctx, u));
    run(ctx, Ok(Command::Decline { challenger, challenge: None })).await
}

/// Play a move in this channel's game
#[poise::command(slash_command, guild_only, rename = "move")]
pub async fn r#move(
    ctx: Context<'_>,
    #[description = "SAN (Nf3, exd5, O-O) or coordinates (g1f3); start typing for the legal moves"]
    #[autocomplete = "suggest_moves"]
    r#move: String,
    #[description = "Play a Grolman turn that loses on the spot"] confirm: Option<bool>,
) -> Result<(), Error> {
    run(ctx, Ok(move_command(&r#move, confirm))).await
}

/// Discord's limits on autocomplete ("Autocomplete"): choices, and each one's name and value.
const CHOICE_LIMIT: usize = 25;
const CHOICE_TEXT_LIMIT: usize = 100;

/// `/move` autocomplete: the legal moves matching what the player typed.
async fn suggest_moves(ctx: Context<'_>, typed: &str) -> serenity::CreateAutocompleteResponse {
    let user = ctx.author().id.to_string();
    let found =
        ctx.data().host.suggest_moves(PLATFORM, &ctx.channel_id().to_string(), &user, typed, CHOICE_LIMIT).await;
    let suggestions = found.unwrap_or_else(|e| {
        tracing::warn!("move suggestions failed: {e:#}");
        Vec::new()
    });
    let choices = suggestions
        .into_iter()
        .filter(|s| !s.value.is_empty() && s.value.len() <= CHOICE_TEXT_LIMIT)
        .map(|s| serenity::AutocompleteChoice::new(clip(&s.label, CHOICE_TEXT_LIMIT), s.value))
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// The move field is move text, whatever it holds: `e4 confirm:yes` typed there is a move
/// the host refuses, not a confirmation.
fn move_command(text: &str, confirm: Option<bool>) -> Command {
    Command::Move { text: text.trim().to_string(), confirm: confirm.unwrap_or(false), game: None }
}

/// Your running games in every channel: a link to each, and whose move it is (shown to you only)
#[poise::command(slash_command)]
pub async fn games(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Ok(Command::Games)).await
}

/// Show the board of this channel's game
#[poise::command(slash_command, guild_only)]
pub async fn board(
    ctx: Context<'_>,
    #[description = "True: the pieces in words, square by square, instead of a picture"] text: Option<bool>,
) -> Result<(), Error> {
    run(ctx, Ok(Command::Board { text: text.unwrap_or(false) })).await
}

/// List the legal moves, or those of the piece on a square, marked on the board
#[poise::command(slash_command, guild_only)]
pub async fn moves(ctx: Context<'_>, #[description = "A square, like e2"] square: Option<String>) -> Result<(), Error> {
    run(ctx, read(square).map(|square| Command::Moves { square })).await
}

/// Resign your game in this channel (asks to confirm)
#[poise::command(slash_command, guild_only)]
pub async fn resign(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Ok(Command::Resign { confirm: false, game: None })).await
}

/// Offer, accept or decline a draw, or claim one
#[poise::command(slash_command, guild_only)]
pub async fn draw(ctx: Context<'_>, #[description = "What to do"] action: DrawOption) -> Result<(), Error> {
    run(ctx, Ok(Command::Draw { action: action.into(), game: None })).await
}

/// Ask to take back your last move, or answer such a request
#[poise::command(slash_command, guild_only)]
pub async fn takeback(ctx: Context<'_>, #[description = "What to do"] action: TakebackOption) -> Result<(), Error> {
    run(ctx, Ok(Command::Takeback { action: action.into(), game: None })).await
}

/// Call off the game before both players have moved
#[poise::command(slash_command, guild_only)]
pub async fn abort(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Ok(Command::Abort)).await
}

/// Players, clocks and moves of this channel's game
#[poise::command(slash_command, guild_only)]
pub async fn game(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Ok(Command::Game)).await
}

/// This channel's game, or any game by its number, as PGN
#[poise::command(slash_command, guild_only)]
pub async fn pgn(
    ctx: Context<'_>,
    #[description = "The game's number"]
    #[min = 1]
    game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, Ok(Command::Pgn { game })).await
}

/// The replay of a finished game, as an animated picture
#[poise::command(slash_command, guild_only)]
pub async fn gif(
    ctx: Context<'_>,
    #[description = "The game's number"]
    #[min = 1]
    game: i64,
) -> Result<(), Error> {
    run(ctx, Ok(Command::Gif { game })).await
}

/// A puzzle from the games played here; answer it with /move
#[poise::command(slash_command, guild_only)]
pub async fn puzzle(
    ctx: Context<'_>,
    #[description = "One variant only (any, by default)"] variant: Option<VariantOption>,
) -> Result<(), Error> {
    run(ctx, Ok(Command::Puzzle { variant: variant.map(Into::into) })).await
}

/// The rules of a variant, with diagrams
#[poise::command(slash_command)]
pub async fn rules(
    ctx: Context<'_>,
    #[description = "Which variant"] variant: Option<VariantOption>,
) -> Result<(), Error> {
    run(ctx, Ok(Command::Rules { variant: variant.map(Into::into) })).await
}

/// Ratings of a player (you, by default)
#[poise::command(slash_command, guild_only)]
pub async fn rating(
    ctx: Context<'_>,
    #[description = "Whose ratings"] user: Option<serenity::User>,
    #[description = "One variant only"] variant: Option<VariantOption>,
) -> Result<(), Error> {
    let user = user.as_ref().map(|u| person(ctx, u));
    run(ctx, Ok(Command::Rating { user, variant: variant.map(Into::into) })).await
}

/// The best rated players of a variant
#[poise::command(slash_command, guild_only)]
pub async fn leaderboard(
    ctx: Context<'_>,
    #[description = "Which variant"] variant: VariantOption,
) -> Result<(), Error> {
    run(ctx, Ok(Command::Leaderboard { variant: variant.into() })).await
}

/// Recent finished games of a player (you, by default)
#[poise::command(slash_command, guild_only)]
pub async fn history(
    ctx: Context<'_>,
    #[description = "Whose games"] user: Option<serenity::User>,
) -> Result<(), Error> {
    let user = user.as_ref().map(|u| person(ctx, u));
    run(ctx, Ok(Command::History { user })).await
}

/// A setting's switch.
#[derive(Copy, Clone, Debug, poise::ChoiceParameter)]
pub enum Switch {
    #[name = "on"]
    On,
    #[name = "off"]
    Off,
}

/// Which side is at the bottom of your boards.
#[derive(Copy, Clone, Debug, poise::ChoiceParameter)]
pub enum BottomOption {
    #[name = "your own side, in your games"]
    Own,
    #[name = "the side to move"]
    ToMove,
}

impl From<BottomOption> for host::Bottom {
    fn from(option: BottomOption) -> host::Bottom {
        match option {
            BottomOption::Own => host::Bottom::Own,
            BottomOption::ToMove => host::Bottom::ToMove,
        }
    }
}

/// Your own settings (boards, direct messages on your turn), and this server's
///
/// Everyone changes their own; the host refuses a change of the server's (`web`, the daily
/// puzzle) from anyone without Manage Server, and in direct messages. The daily puzzle's channel
/// is a channel option (Discord's picker, text channels and threads only), written as the host
/// reads a channel mention (`<#id>`); its time is text, read as the console reads `time:18:00`.
#[poise::command(slash_command)]
#[allow(clippy::too_many_arguments)] // one per option, as Discord shows them
pub async fn settings(
    ctx: Context<'_>,
    #[description = "Your board theme"]
    #[autocomplete = "suggest_themes"]
    theme: Option<String>,
    #[description = "Letters and numbers around your boards"] coordinates: Option<Switch>,
    #[description = "Which side is at the bottom of your boards"] bottom: Option<BottomOption>,
    #[description = "Your boards come with every piece written out by square"] text: Option<Switch>,
    #[description = "A direct message when it is your move in a correspondence game"] notify: Option<Switch>,
    #[description = "No direct messages in these hours, like 22:00-07:00, or off"] quiet: Option<String>,
    #[description = "The time zone of your quiet hours, like Europe/Berlin"]
    #[autocomplete = "suggest_zones"]
    zone: Option<String>,
    #[description = "Managers: list this server's leaderboards, tournaments and players on the web pages"] web: Option<
        Switch,
    >,
    #[description = "Managers: post a puzzle from this server's games in this channel every day (with time)"]
    #[rename = "daily-puzzle"]
    #[channel_types("Text", "News", "PublicThread", "PrivateThread", "NewsThread")]
    daily_puzzle: Option<serenity::ChannelId>,
    #[description = "Managers: when the daily puzzle is posted, HH:MM in UTC, like 18:00"]
    #[max_length = 5]
    time: Option<String>,
    #[description = "Managers: stop the daily puzzle"]
    #[rename = "daily-puzzle-off"]
    daily_puzzle_off: Option<Stop>,
) -> Result<(), Error> {
    let on = |switch: Option<Switch>| switch.map(|switch| matches!(switch, Switch::On));
    let command = (|| {
        let channel = match (daily_puzzle, daily_puzzle_off) {
            (Some(_), Some(Stop::Off)) => {
                return Err("Choose a channel for the daily puzzle, or stop it: not both.".to_string())
            }
            (Some(channel), None) => Some(format!("<#{channel}>")),
            (None, Some(Stop::Off)) => Some("off".to_string()),
            (None, None) => None,
        };
        let daily_puzzle =
            host::DailyPuzzleSetting::from_options(channel.as_deref(), time.as_deref()).map_err(|e| e.to_string())?;
        Ok(SettingsCommand {
            web: on(web),
            daily_puzzle,
            theme: read(theme)?,
            coordinates: on(coordinates),
            bottom: bottom.map(Into::into),
            text: on(text),
            dm: on(notify),
            quiet: quiet.map(|q| host::read_quiet(&q)).transpose()?,
            zone: read(zone)?,
        })
    })();
    run(ctx, command.map(Command::Settings)).await
}

/// `/settings theme` autocomplete: the themes whose name starts with what was typed.
async fn suggest_themes(_ctx: Context<'_>, typed: &str) -> serenity::CreateAutocompleteResponse {
    let typed = typed.trim().to_ascii_lowercase();
    let names = host::Theme::ALL.iter().map(|t| t.name()).chain(["default"]);
    let choices =
        names.filter(|name| name.starts_with(&typed)).map(|name| serenity::AutocompleteChoice::new(name, name));
    serenity::CreateAutocompleteResponse::new().set_choices(choices.collect())
}

/// `/settings zone` autocomplete: time zones whose name contains what was typed.
async fn suggest_zones(_ctx: Context<'_>, typed: &str) -> serenity::CreateAutocompleteResponse {
    let choices = host::zones_matching(typed, CHOICE_LIMIT)
        .into_iter()
        .map(|name| serenity::AutocompleteChoice::new(name, name))
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// An option that only stops something.
#[derive(Copy, Clone, Debug, poise::ChoiceParameter)]
pub enum Stop {
    #[name = "off"]
    Off,
}

#[derive(Copy, Clone, Debug, poise::ChoiceParameter)]
pub enum HelpTopic {
    #[name = "tournament"]
    Tournament,
    #[name = "playing Chimera"]
    Play,
    #[name = "puzzles"]
    Puzzle,
    #[name = "your settings"]
    Settings,
}

/// What Chimera can do
#[poise::command(slash_command)]
pub async fn help(ctx: Context<'_>, #[description = "A topic"] topic: Option<HelpTopic>) -> Result<(), Error> {
    let command = match topic {
        None => Command::Help,
        Some(HelpTopic::Tournament) => Command::Tournament(host::TournamentCommand::Help),
        Some(HelpTopic::Play) => Command::PlayHelp,
        Some(HelpTopic::Puzzle) => Command::PuzzleHelp,
        Some(HelpTopic::Settings) => Command::SettingsHelp,
    };
    run(ctx, Ok(command)).await
}

#[cfg(test)]
mod tests {
    use poise::ChoiceParameter;

    use super::*;

    #[test]
    fn variant_choices_are_named_as_the_rules_name_them() {
        for (i, variant) in rules::Variant::ALL.into_iter().enumerate() {
            let choice = VariantOption::from_index(i).expect("a choice per variant");
            assert_eq!(rules::Variant::from(choice), variant);
            assert_eq!(choice.name(), variant.name());
        }
    }

    #[test]
    fn a_move_field_holding_an_option_is_move_text() {
        let command = move_command(" e4 confirm:yes ", None);
        assert_eq!(command, Command::Move { text: "e4 confirm:yes".into(), confirm: false, game: None });
    }

    #[test]
    fn every_command_has_a_description_and_so_does_every_option() {
        for command in all() {
            assert!(command.description.as_deref().is_some_and(|d| !d.is_empty()), "/{}", command.name);
            for option in &command.parameters {
                assert!(
                    option.description.as_deref().is_some_and(|d| !d.is_empty()),
                    "/{} {}",
                    command.name,
                    option.name
                );
            }
            let known = host::COMMANDS.iter().any(|c| c.name == command.name);
            assert!(known, "/{} is not a host command", command.name);
        }
    }
}
