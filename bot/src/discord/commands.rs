//! The slash commands: one small function each. Every one writes its typed options as the
//! host's command line (the same text the console reads and the buttons carry) and hands it to
//! [`super::respond::run`], so Discord, the console and a button click share one parser.

use poise::serenity_prelude as serenity;

use super::respond::{run, Line};
use super::{Context, Error};

/// Every command Chimera registers, in the order `/help` lists them.
pub fn all() -> Vec<poise::Command<super::Data, Error>> {
    vec![
        challenge(),
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
        rules(),
        rating(),
        leaderboard(),
        history(),
        super::tournament::tournament(),
        help(),
    ]
}

/// The variants, as a choice list named as `rules::Variant::name` names them.
#[derive(Copy, Clone, Debug, poise::ChoiceParameter)]
pub enum VariantChoice {
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

impl VariantChoice {
    pub fn id(self) -> &'static str {
        self.variant().id()
    }

    pub fn variant(self) -> rules::Variant {
        use rules::Variant;
        match self {
            VariantChoice::Chess => Variant::Chess,
            VariantChoice::Golem => Variant::Golem,
            VariantChoice::Grolman => Variant::Grolman,
            VariantChoice::GhostKing => Variant::GhostKing,
            VariantChoice::Werewolf => Variant::Werewolf,
            VariantChoice::UnicornGreat => Variant::UnicornGreat,
        }
    }
}

#[derive(Copy, Clone, Debug, poise::ChoiceParameter)]
pub enum ColorChoice {
    White,
    Black,
    Random,
}

#[derive(Copy, Clone, Debug, poise::ChoiceParameter)]
pub enum DrawChoice {
    #[name = "offer a draw"]
    Offer,
    #[name = "accept the offer"]
    Accept,
    #[name = "decline the offer"]
    Decline,
    #[name = "claim (repetition, fifty moves)"]
    Claim,
}

#[derive(Copy, Clone, Debug, poise::ChoiceParameter)]
pub enum TakebackChoice {
    #[name = "ask to take back your last move"]
    Offer,
    #[name = "accept the request"]
    Accept,
    #[name = "decline the request"]
    Decline,
}

/// A yes/no option as the host's command line writes it.
pub(super) fn yes(flag: Option<bool>) -> Option<&'static str> {
    flag.map(|on| if on { "yes" } else { "no" })
}

/// Challenge someone (or anyone here) to a game
#[poise::command(slash_command, guild_only)]
pub async fn challenge(
    ctx: Context<'_>,
    #[description = "Which game"] variant: VariantChoice,
    #[description = "Who to play; leave out to let anyone here accept"] opponent: Option<serenity::User>,
    #[description = "Your colour (random by default)"] color: Option<ColorChoice>,
    #[description = "Days per move (3d) or minutes plus increment (10+5); 3d by default"] time: Option<String>,
    #[description = "Does the game count for ratings? (yes by default)"] rated: Option<bool>,
) -> Result<(), Error> {
    let color = color.map(|c| format!("{c:?}").to_ascii_lowercase());
    let line = Line::new("challenge")
        .user("opponent", opponent.as_ref())
        .opt("variant", Some(variant.id()))
        .opt("color", color)
        .opt("time", time)
        .opt("rated", yes(rated));
    run(ctx, line).await
}

/// Accept a challenge made in this channel
#[poise::command(slash_command, guild_only)]
pub async fn accept(
    ctx: Context<'_>,
    #[description = "Whose challenge, when there are several"] challenger: Option<serenity::User>,
) -> Result<(), Error> {
    run(ctx, Line::new("accept").user("challenger", challenger.as_ref())).await
}

/// Decline a challenge made to you, or withdraw your own
#[poise::command(slash_command, guild_only)]
pub async fn decline(
    ctx: Context<'_>,
    #[description = "Whose challenge, when there are several"] challenger: Option<serenity::User>,
) -> Result<(), Error> {
    run(ctx, Line::new("decline").user("challenger", challenger.as_ref())).await
}

/// Play a move in this channel's game
#[poise::command(slash_command, guild_only, rename = "move")]
pub async fn r#move(
    ctx: Context<'_>,
    #[description = "SAN (Nf3, exd5, O-O) or coordinates (g1f3); start typing for the legal moves"]
    #[autocomplete = "super::respond::suggest_moves"]
    r#move: String,
    #[description = "Play a Grolman turn that loses on the spot"] confirm: Option<bool>,
) -> Result<(), Error> {
    run(ctx, Line::new("move").opt("confirm", yes(confirm)).text(&r#move)).await
}

/// Show the board of this channel's game
#[poise::command(slash_command, guild_only)]
pub async fn board(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Line::new("board")).await
}

/// List the legal moves, or those of the piece on a square, marked on the board
#[poise::command(slash_command, guild_only)]
pub async fn moves(ctx: Context<'_>, #[description = "A square, like e2"] square: Option<String>) -> Result<(), Error> {
    run(ctx, Line::new("moves").opt("square", square)).await
}

/// Resign your game in this channel (asks to confirm)
#[poise::command(slash_command, guild_only)]
pub async fn resign(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Line::new("resign")).await
}

/// Offer, accept or decline a draw, or claim one
#[poise::command(slash_command, guild_only)]
pub async fn draw(ctx: Context<'_>, #[description = "What to do"] action: DrawChoice) -> Result<(), Error> {
    run(ctx, Line::new("draw").opt("action", Some(format!("{action:?}").to_ascii_lowercase()))).await
}

/// Ask to take back your last move, or answer such a request
#[poise::command(slash_command, guild_only)]
pub async fn takeback(ctx: Context<'_>, #[description = "What to do"] action: TakebackChoice) -> Result<(), Error> {
    run(ctx, Line::new("takeback").opt("action", Some(format!("{action:?}").to_ascii_lowercase()))).await
}

/// Call off the game before both players have moved
#[poise::command(slash_command, guild_only)]
pub async fn abort(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Line::new("abort")).await
}

/// Players, clocks and moves of this channel's game
#[poise::command(slash_command, guild_only)]
pub async fn game(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Line::new("game")).await
}

/// This channel's game, or any game by its number, as PGN
#[poise::command(slash_command, guild_only)]
pub async fn pgn(
    ctx: Context<'_>,
    #[description = "The game's number"]
    #[min = 1]
    game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, Line::new("pgn").opt("game", game)).await
}

/// The rules of a variant, with diagrams
#[poise::command(slash_command)]
pub async fn rules(
    ctx: Context<'_>,
    #[description = "Which variant"] variant: Option<VariantChoice>,
) -> Result<(), Error> {
    run(ctx, Line::new("rules").opt("variant", variant.map(VariantChoice::id))).await
}

/// Ratings of a player (you, by default)
#[poise::command(slash_command, guild_only)]
pub async fn rating(
    ctx: Context<'_>,
    #[description = "Whose ratings"] user: Option<serenity::User>,
    #[description = "One variant only"] variant: Option<VariantChoice>,
) -> Result<(), Error> {
    run(ctx, Line::new("rating").user("user", user.as_ref()).opt("variant", variant.map(VariantChoice::id))).await
}

/// The best rated players of a variant
#[poise::command(slash_command, guild_only)]
pub async fn leaderboard(
    ctx: Context<'_>,
    #[description = "Which variant"] variant: VariantChoice,
) -> Result<(), Error> {
    run(ctx, Line::new("leaderboard").opt("variant", Some(variant.id()))).await
}

/// Recent finished games of a player (you, by default)
#[poise::command(slash_command, guild_only)]
pub async fn history(
    ctx: Context<'_>,
    #[description = "Whose games"] user: Option<serenity::User>,
) -> Result<(), Error> {
    run(ctx, Line::new("history").user("user", user.as_ref())).await
}

#[derive(Copy, Clone, Debug, poise::ChoiceParameter)]
pub enum HelpTopic {
    #[name = "tournament"]
    Tournament,
}

/// What Chimera can do
#[poise::command(slash_command)]
pub async fn help(ctx: Context<'_>, #[description = "A topic"] topic: Option<HelpTopic>) -> Result<(), Error> {
    run(ctx, Line::new("help").opt("topic", topic.map(|_| "tournament"))).await
}

#[cfg(test)]
mod tests {
    use poise::ChoiceParameter;

    use super::*;

    #[test]
    fn variant_choices_are_named_as_the_rules_name_them() {
        for (i, variant) in rules::Variant::ALL.into_iter().enumerate() {
            let choice = VariantChoice::from_index(i).expect("a choice per variant");
            assert_eq!(choice.variant(), variant);
            assert_eq!(choice.name(), variant.name());
        }
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
            let known = crate::host::COMMANDS.iter().any(|c| c.name == command.name);
            assert!(known, "/{} is not a host command", command.name);
        }
    }
}
