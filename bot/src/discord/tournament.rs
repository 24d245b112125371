//! `/tournament` and its subcommands, each written as the host's command line like the others.

use poise::serenity_prelude as serenity;

use super::commands::{yes, VariantChoice};
use super::respond::{run, Line};
use super::{Context, Error};

#[derive(Copy, Clone, Debug, poise::ChoiceParameter)]
pub enum FormatChoice {
    #[name = "Swiss"]
    Swiss,
    #[name = "Round robin"]
    RoundRobin,
    #[name = "Knockout"]
    Knockout,
}

impl FormatChoice {
    fn id(self) -> &'static str {
        match self {
            FormatChoice::Swiss => "swiss",
            FormatChoice::RoundRobin => "round-robin",
            FormatChoice::Knockout => "knockout",
        }
    }
}

fn sub(action: &str) -> Line {
    Line::new("tournament").text(action)
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
    #[description = "Which game"] variant: VariantChoice,
    #[description = "How players are paired"] format: FormatChoice,
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
    let line = sub("create")
        .opt("name", Some(name))
        .opt("variant", Some(variant.id()))
        .opt("format", Some(format.id()))
        .opt("rounds", rounds)
        .opt("time", time)
        .opt("rated", yes(rated))
        .opt("starts", starts)
        .opt("double", yes(double));
    run(ctx, line).await
}

/// Join a tournament that has not started
#[poise::command(slash_command, guild_only)]
pub async fn join(
    ctx: Context<'_>,
    #[description = "Which tournament, when there are several"] id: Option<i64>,
) -> Result<(), Error> {
    run(ctx, sub("join").opt("id", id)).await
}

/// Leave a tournament before it starts
#[poise::command(slash_command, guild_only)]
pub async fn leave(
    ctx: Context<'_>,
    #[description = "Which tournament, when there are several"] id: Option<i64>,
) -> Result<(), Error> {
    run(ctx, sub("leave").opt("id", id)).await
}

/// Start a tournament now (its organiser or a server manager)
#[poise::command(slash_command, guild_only)]
pub async fn start(
    ctx: Context<'_>,
    #[description = "Which tournament, when there are several"] id: Option<i64>,
) -> Result<(), Error> {
    run(ctx, sub("start").opt("id", id)).await
}

/// The standings, with tie-breaks, as a table and a picture
#[poise::command(slash_command, guild_only)]
pub async fn standings(
    ctx: Context<'_>,
    #[description = "Which tournament, when there are several"] id: Option<i64>,
) -> Result<(), Error> {
    run(ctx, sub("standings").opt("id", id)).await
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
    run(ctx, sub("pairings").opt("round", round).opt("id", id)).await
}

/// Withdraw a player: their game is forfeited and they are paired no more (organiser or manager)
#[poise::command(slash_command, guild_only)]
pub async fn withdraw(
    ctx: Context<'_>,
    #[description = "Who withdraws"] player: serenity::User,
    #[description = "Which tournament, when there are several"] id: Option<i64>,
) -> Result<(), Error> {
    run(ctx, sub("withdraw").user("player", Some(&player)).opt("id", id)).await
}

/// Cancel a tournament (its organiser or a server manager)
#[poise::command(slash_command, guild_only)]
pub async fn cancel(
    ctx: Context<'_>,
    #[description = "Which tournament, when there are several"] id: Option<i64>,
) -> Result<(), Error> {
    run(ctx, sub("cancel").opt("id", id)).await
}

/// This server's tournaments
#[poise::command(slash_command, guild_only)]
pub async fn list(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, sub("list")).await
}

/// How tournaments work: formats, byes, tie-breaks, withdrawals, deciders
#[poise::command(slash_command, guild_only)]
pub async fn help(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, sub("help")).await
}
