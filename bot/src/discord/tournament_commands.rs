//! `/tournament` and its subcommands, each building the host's typed command like the others.

use host::{Command, Format, TimeControl, TournamentCommand, RATED_BY_DEFAULT};
use poise::serenity_prelude as serenity;

use super::commands::{read, VariantOption};
use super::incoming::{person, run};
use super::{Context, Error};

#[derive(Copy, Clone, Debug, poise::ChoiceParameter)]
pub enum FormatOption {
    #[name = "Swiss"]
    Swiss,
    #[name = "Round robin"]
    RoundRobin,
    #[name = "Knockout"]
    Knockout,
}

impl From<FormatOption> for Format {
    fn from(option: FormatOption) -> Format {
        match option {
            FormatOption::Swiss => Format::Swiss,
            FormatOption::RoundRobin => Format::RoundRobin,
            FormatOption::Knockout => Format::Knockout,
        }
    }
}

async fn sub(ctx: Context<'_>, command: TournamentCommand) -> Result<(), Error> {
    run(ctx, Ok(Command::Tournament(command))).await
}

/// Bot-run tournaments: Swiss, round robin and knockout
#[poise::command(
    slash_command,
    guild_only,
    subcommands("create", "join", "leave", "start", "standings", "pairings", "withdraw", "cancel", "list", "help"),
    subcommand_required
)]
pub async fn tournament(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Create a tournament here; players join with /tournament join
#[poise::command(slash_command, guild_only)]
#[allow(clippy::too_many_arguments)] // poise: one parameter per slash option
pub async fn create(
    ctx: Context<'_>,
    #[description = "Its name"]
    #[max_length = 60]
    name: String,
    #[description = "Which game"] variant: VariantOption,
    #[description = "How players are paired"] format: FormatOption,
    #[description = "Swiss only: how many rounds (from the field's size by default)"]
    #[min = 1]
    #[max = 30]
    rounds: Option<u32>,
    #[description = "Days per move (3d) or minutes plus increment (10+5)"] time: Option<String>,
    #[description = "Do the games count for ratings? (yes by default)"] rated: Option<bool>,
    #[description = "When it starts: now, in 2h, 2026-12-01T18:00 (UTC); by /tournament start otherwise"]
    starts: Option<String>,
    #[description = "Round robin only: everyone meets twice"] double: Option<bool>,
) -> Result<(), Error> {
    let typed = read::<TimeControl>(time).and_then(|time| Ok((time, read(starts)?)));
    let command = typed.map(|(time, starts)| {
        Command::Tournament(TournamentCommand::Create {
            name: name.trim().to_string(),
            variant: variant.into(),
            format: format.into(),
            rounds,
            time: time.unwrap_or_default(),
            rated: rated.unwrap_or(RATED_BY_DEFAULT),
            starts,
            double: double.unwrap_or(false),
        })
    });
    run(ctx, command).await
}

/// Join a tournament that has not started
#[poise::command(slash_command, guild_only)]
pub async fn join(
    ctx: Context<'_>,
    #[description = "Which tournament, when there are several"] id: Option<i64>,
) -> Result<(), Error> {
    sub(ctx, TournamentCommand::Join { id }).await
}

/// Leave a tournament before it starts
#[poise::command(slash_command, guild_only)]
pub async fn leave(
    ctx: Context<'_>,
    #[description = "Which tournament, when there are several"] id: Option<i64>,
) -> Result<(), Error> {
    sub(ctx, TournamentCommand::Leave { id }).await
}

/// Start a tournament now (its organiser or a server manager)
#[poise::command(slash_command, guild_only)]
pub async fn start(
    ctx: Context<'_>,
    #[description = "Which tournament, when there are several"] id: Option<i64>,
) -> Result<(), Error> {
    sub(ctx, TournamentCommand::Start { id }).await
}

/// The standings, with tie-breaks, as a table and a picture
#[poise::command(slash_command, guild_only)]
pub async fn standings(
    ctx: Context<'_>,
    #[description = "Which tournament, when there are several"] id: Option<i64>,
) -> Result<(), Error> {
    sub(ctx, TournamentCommand::Standings { id }).await
}

/// The pairings of a round (the current one by default)
#[poise::command(slash_command, guild_only)]
pub async fn pairings(
    ctx: Context<'_>,
    #[description = "Which round"]
    #[min = 1]
    round: Option<u32>,
    #[description = "Which tournament, when there are several"] id: Option<i64>,
) -> Result<(), Error> {
    sub(ctx, TournamentCommand::Pairings { round, id }).await
}

/// Withdraw a player: their game is forfeited and they are paired no more (organiser or manager)
#[poise::command(slash_command, guild_only)]
pub async fn withdraw(
    ctx: Context<'_>,
    #[description = "Who withdraws"] player: serenity::User,
    #[description = "Which tournament, when there are several"] id: Option<i64>,
) -> Result<(), Error> {
    sub(ctx, TournamentCommand::Withdraw { player: person(ctx, &player), id }).await
}

/// Cancel a tournament (its organiser or a server manager)
#[poise::command(slash_command, guild_only)]
pub async fn cancel(
    ctx: Context<'_>,
    #[description = "Which tournament, when there are several"] id: Option<i64>,
) -> Result<(), Error> {
    sub(ctx, TournamentCommand::Cancel { id }).await
}

/// This server's tournaments, ten a page, latest first
#[poise::command(slash_command, guild_only)]
pub async fn list(
    ctx: Context<'_>,
    #[description = "Which page (the first if not given)"]
    #[min = 1]
    page: Option<u32>,
) -> Result<(), Error> {
    sub(ctx, TournamentCommand::List { page }).await
}

/// How tournaments work: formats, byes, tie-breaks, withdrawals, deciders
#[poise::command(slash_command, guild_only)]
pub async fn help(ctx: Context<'_>) -> Result<(), Error> {
    sub(ctx, TournamentCommand::Help).await
}
