//! Random command scripts against a host on a fresh SQLite file, with a clock the script moves.
//! After every command and every scheduler step the store must hold:
//!
//! - at most one active game per channel;
//! - each game's plies numbered 1, 2, ... without a gap, and they replay from its start: each
//!   stored move is legal where it stands, and its SAN and FEN are what the rules write;
//! - a game that is over stays as it ended;
//! - ratings change only with a rated game that just finished, for its two players in its
//!   variant, one rated game each; and every rated game that finishes changes both.
//!
//! No command may panic, anywhere in the host (a panic caught on a worker thread counts too).
//!
//! Input: a script decoded by [`arbitrary::Unstructured`]: each step a user, a channel and a
//! command (challenges, answers, legal moves picked by index, move text, resignations, offers,
//! queries, tournament commands, raw command text) or a scheduler step after some time.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Once};

use arbitrary::Unstructured;
use async_trait::async_trait;
use data::{Game, GameState};
use host::{
    ColorChoice, Command, DrawAction, Format, Host, ManualClock, OfferAction, PlaceError, Places, Request, Settings,
    Starts, TimeControl, TournamentCommand, User,
};
use rules::{Position, Variant};

/// Bounds the work of one input.
const MAX_STEPS: usize = 48;
const USERS: [&str; 4] = ["ann", "bob", "cat", "dan"];
const T0: i64 = 1_700_000_000_000;
const PLATFORM: &str = "console";

pub fn check(data: &[u8]) {
    run(&script(data));
}

/// The script that `data` encodes.
pub fn script(data: &[u8]) -> Vec<Step> {
    let mut u = Unstructured::new(data);
    let mut steps = Vec::new();
    while steps.len() < MAX_STEPS && !u.is_empty() {
        match Step::read(&mut u) {
            Ok(step) => steps.push(step),
            Err(_) => break,
        }
    }
    steps
}

/// What a script got done: how far into the host it reached.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reached {
    pub games: usize,
    pub moves: usize,
    pub finished: usize,
    pub rated_finished: usize,
}

/// One step of a script.
#[derive(Clone, Debug)]
pub enum Step {
    /// `user` gives a command in `channel` (an index into the channels seen so far).
    Say { user: usize, channel: usize, what: What },
    /// The clock moves on by `ms`, then the scheduler runs.
    Tick { ms: i64 },
}

#[derive(Clone, Debug)]
pub enum What {
    Command(Command),
    /// The `pick`-th legal move of the channel's game, as SAN or in coordinates.
    LegalMove {
        pick: u16,
        coordinates: bool,
        confirm: bool,
        name_game: bool,
    },
    /// Command text, its mentions read as the console reads them.
    Text(String),
}

impl Step {
    pub fn read(u: &mut Unstructured<'_>) -> arbitrary::Result<Step> {
        let user = u.choose_index(USERS.len())?;
        let channel = usize::from(u.arbitrary::<u8>()? % 4);
        let someone = |u: &mut Unstructured<'_>| -> arbitrary::Result<Option<User>> {
            Ok(if u.arbitrary()? { Some(user_of(u.choose_index(USERS.len())?)) } else { None })
        };
        let what = match u.int_in_range(0..=15u8)? {
            0 | 1 => What::Command(Command::Challenge {
                opponent: someone(u)?,
                variant: crate::variant(u.arbitrary()?),
                color: *u.choose(&[ColorChoice::Random, ColorChoice::White, ColorChoice::Black])?,
                time: *u.choose(&[
                    TimeControl::default(),
                    TimeControl::Live { minutes: 1, increment: 0 },
                    TimeControl::Live { minutes: 5, increment: 3 },
                    TimeControl::Correspondence { days: 1 },
                ])?,
                rated: u.arbitrary()?,
            }),
            2 => What::Command(Command::Accept { challenger: someone(u)?, challenge: None }),
            3 => What::Command(Command::Decline { challenger: someone(u)?, challenge: None }),
            4..=7 => What::LegalMove {
                pick: u.arbitrary()?,
                coordinates: u.arbitrary()?,
                confirm: u.arbitrary()?,
                name_game: u.arbitrary()?,
            },
            8 => What::Command(Command::Resign { confirm: u.arbitrary()?, game: None }),
            9 => What::Command(Command::Draw {
                action: *u.choose(&[DrawAction::Offer, DrawAction::Accept, DrawAction::Decline, DrawAction::Claim])?,
                game: None,
            }),
            10 => What::Command(Command::Takeback {
                action: *u.choose(&[OfferAction::Offer, OfferAction::Accept, OfferAction::Decline])?,
                game: None,
            }),
            11 => What::Command(
                u.choose(&[
                    Command::Abort,
                    Command::Board { text: false },
                    Command::Board { text: true },
                    Command::Game,
                    Command::Help,
                ])?
                .clone(),
            ),
            12 => What::Command(match u.int_in_range(0..=4u8)? {
                0 => Command::Pgn { game: None },
                1 => Command::Rating { user: someone(u)?, variant: None },
                2 => Command::History { user: someone(u)? },
                3 => Command::Leaderboard { variant: crate::variant(u.arbitrary()?) },
                _ => Command::Moves { square: None },
            }),
            13 => What::Command(Command::Tournament(tournament(u)?)),
            14 => What::Text(u.arbitrary::<&str>()?.chars().take(120).collect()),
            _ => {
                let ms = *u.choose(&[1_000, 60_000, 3_600_000, 86_400_000, 4 * 86_400_000])?;
                return Ok(Step::Tick { ms });
            }
        };
        Ok(Step::Say { user, channel, what })
    }
}

fn tournament(u: &mut Unstructured<'_>) -> arbitrary::Result<TournamentCommand> {
    let id = if u.arbitrary()? { Some(i64::from(u.int_in_range(1..=3u8)?)) } else { None };
    Ok(match u.int_in_range(0..=7u8)? {
        0 | 1 => TournamentCommand::Create {
            name: "Fuzz Cup".into(),
            variant: crate::variant(u.arbitrary()?),
            format: *u.choose(&[Format::Swiss, Format::RoundRobin, Format::Knockout])?,
            rounds: if u.arbitrary()? { Some(u.int_in_range(1..=3)?) } else { None },
            time: *u.choose(&[TimeControl::Live { minutes: 1, increment: 0 }, TimeControl::default()])?,
            rated: u.arbitrary()?,
            starts: *u.choose(&[None, Some(Starts::Now), Some(Starts::In(60_000))])?,
            double: u.arbitrary()?,
        },
        2 => TournamentCommand::Join { id },
        3 => TournamentCommand::Leave { id },
        4 => TournamentCommand::Start { id },
        5 => TournamentCommand::Withdraw { player: user_of(u.choose_index(USERS.len())?), id },
        6 => TournamentCommand::Cancel { id },
        _ => u
            .choose(&[
                TournamentCommand::List { page: None },
                TournamentCommand::Standings { id: None },
                TournamentCommand::Pairings { round: None, id: None },
            ])?
            .clone(),
    })
}

fn user_of(index: usize) -> User {
    let name = USERS[index % USERS.len()];
    User { id: name.into(), name: name.into() }
}

/// Places for games in new channels (tournament games), and a network that takes every post.
#[derive(Default)]
struct Channels {
    opened: Mutex<Vec<String>>,
}

#[async_trait]
impl Places for Channels {
    async fn open_place(&self, parent: &str, _title: &str) -> Result<String, PlaceError> {
        let mut opened = self.opened.lock().unwrap_or_else(|e| e.into_inner());
        let name = format!("{parent}-{}", opened.len() + 1);
        opened.push(name.clone());
        Ok(name)
    }

    async fn post(&self, _: &host::Message) -> Result<(), PlaceError> {
        Ok(())
    }
}

/// Panics anywhere in the process while a script runs, caught or not.
static PANICS: AtomicUsize = AtomicUsize::new(0);

fn count_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICS.fetch_add(1, Ordering::SeqCst);
            previous(info);
        }));
    });
}

/// Runs `steps` against a fresh host and checks the store after each.
pub fn run(steps: &[Step]) -> Reached {
    count_panics();
    let panics_before = PANICS.load(Ordering::SeqCst);
    let dir = scratch();
    let path = dir.path().join("chimera.db");
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    // The colour toss of a random challenge is the only chance in the host: fixed, so that an
    // input always replays the same.
    fastrand::seed(0x17);
    let reached = runtime.block_on(async {
        let clock = ManualClock::new(T0);
        let mut settings = Settings::new(&path, PLATFORM);
        settings.clock = Arc::new(clock.clone());
        settings.board_size = 160;
        let host = Host::open(settings).await.expect("the host opens");
        let places = Channels::default();
        // One connection for every look, kept for the whole script as the host keeps its own.
        let store = data::Store::open(&path).expect("the store opens");
        let mut seen = Snapshot::take(&store);
        for (i, step) in steps.iter().enumerate() {
            match step {
                Step::Tick { ms } => {
                    clock.advance(*ms);
                    host.tick(&places).await;
                }
                Step::Say { user, channel, what } => {
                    // Nobody types faster than this, so the command rate never refuses.
                    clock.advance(1_000);
                    let mut channels = vec!["c0".to_string(), "c1".to_string()];
                    channels.extend(places.opened.lock().unwrap_or_else(|e| e.into_inner()).iter().cloned());
                    let channel = &channels[channel % channels.len()];
                    let Some(command) = command(&store, channel, what) else { continue };
                    let request = Request {
                        platform: PLATFORM.into(),
                        server: None,
                        channel: channel.clone(),
                        user: user_of(*user),
                        manager: *user == 0,
                        place: host::PlaceKind::Direct,
                        request_id: format!("step-{i}"),
                        command,
                    };
                    host.handle(request, &places).await;
                }
            }
            let now = Snapshot::take(&store);
            now.check(&seen, &format!("step {i}: {step:?}"));
            seen = now;
        }
        seen.reached()
    });
    assert_eq!(PANICS.load(Ordering::SeqCst), panics_before, "the host panicked (see above)");
    reached
}

/// A temporary directory of its own, in memory where the system has one. Its name is unique
/// by a counter, not by chance alone: the check seeds the thread's generator, which tempfile
/// draws names from, so random names repeat from one script to the next, and a script's host
/// (whose database thread may still be closing the previous file, deleting its `-wal` and
/// `-shm` by name) must never share a path with the one before.
fn scratch() -> tempfile::TempDir {
    static SCRIPTS: AtomicUsize = AtomicUsize::new(0);
    let prefix = format!("chimera-host-check-{}-{}-", std::process::id(), SCRIPTS.fetch_add(1, Ordering::SeqCst));
    let builder = {
        let mut b = tempfile::Builder::new();
        b.prefix(&prefix);
        b
    };
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        if let Ok(dir) = builder.tempdir_in(shm) {
            return dir;
        }
    }
    builder.tempdir().expect("a temporary directory")
}

/// The command a step gives, or `None` when it names nothing (a legal move where no game is).
fn command(store: &data::Store, channel: &str, what: &What) -> Option<Command> {
    match what {
        What::Command(command) => Some(command.clone()),
        What::Text(text) => chimera::console::read_command(text).ok(),
        What::LegalMove { pick, coordinates, confirm, name_game } => {
            let record = store.read(|tx| tx.active_game(PLATFORM, channel)).expect("the store reads")?;
            let variant: Variant = record.game.variant.parse().expect("a stored variant");
            let pos = Position::from_fen(variant, record.fen()).expect("a stored position");
            let legal = pos.legal_moves();
            let m = legal.get(usize::from(*pick) % legal.len().max(1))?;
            let text = if *coordinates { pos.coord(m) } else { pos.san(m) };
            let game = name_game.then_some(record.game.id);
            Some(Command::Move { text, confirm: *confirm, game })
        }
    }
}

/// What the invariants compare: every game with its moves, and every rating.
struct Snapshot {
    games: Vec<(Game, Vec<data::Move>)>,
    /// (player, variant) to (rated games, rating).
    ratings: BTreeMap<(i64, String), (i64, f64)>,
}

impl Snapshot {
    fn take(store: &data::Store) -> Snapshot {
        store
            .read(|tx| {
                let mut games = Vec::new();
                for id in 1.. {
                    match tx.game(id) {
                        Ok(game) => games.push((game, tx.moves(id)?)),
                        Err(data::Error::NotFound { .. }) => break,
                        Err(e) => return Err(e),
                    }
                }
                let mut ratings = BTreeMap::new();
                for name in USERS {
                    let Some(player) = tx.find_player(PLATFORM, name)? else { continue };
                    for r in tx.ratings_of(player.id)? {
                        ratings.insert((player.id, r.variant.clone()), (r.games, r.glicko.rating));
                    }
                }
                Ok(Snapshot { games, ratings })
            })
            .expect("the store reads")
    }

    fn reached(&self) -> Reached {
        let finished = || self.games.iter().filter(|(g, _)| g.state == GameState::Finished);
        Reached {
            games: self.games.len(),
            moves: self.games.iter().map(|(_, m)| m.len()).sum(),
            finished: finished().count(),
            rated_finished: finished().filter(|(g, _)| g.rated).count(),
        }
    }

    fn check(&self, before: &Snapshot, step: &str) {
        let mut active: HashMap<(&str, &str), i64> = HashMap::new();
        for (game, moves) in &self.games {
            if game.state == GameState::Active {
                let place = (game.platform.as_str(), game.channel.as_str());
                if let Some(other) = active.insert(place, game.id) {
                    panic!("{step}: games {other} and {} are both active in {}", game.id, game.channel);
                }
            }
            assert_eq!(game.result.is_some(), game.state == GameState::Finished, "{step}: game {game:?}");
            replays(game, moves, step);
        }
        for (old, old_moves) in &before.games {
            let (new, new_moves) = self
                .games
                .iter()
                .find(|(g, _)| g.id == old.id)
                .unwrap_or_else(|| panic!("{step}: game {} vanished", old.id));
            if old.state != GameState::Active {
                assert_eq!((new.state, new.result, &new.reason), (old.state, old.result, &old.reason), "{step}");
                assert_eq!(new_moves, old_moves, "{step}: moves of game {} changed after its end", old.id);
            }
        }
        // Rated games that finished with this step: each rates both its players once.
        let mut expected: BTreeMap<(i64, String), i64> = BTreeMap::new();
        for (game, _) in &self.games {
            let was_active = before.games.iter().all(|(g, _)| g.id != game.id || g.state == GameState::Active);
            if game.rated && game.state == GameState::Finished && was_active {
                for player in [game.white, game.black] {
                    *expected.entry((player, game.variant.clone())).or_default() += 1;
                }
            }
        }
        let keys: std::collections::BTreeSet<_> = self.ratings.keys().chain(before.ratings.keys()).collect();
        for key in keys {
            let (games_before, rating_before) = before.ratings.get(key).copied().unwrap_or((0, f64::NAN));
            let (games_now, rating_now) = self.ratings.get(key).copied().unwrap_or((0, f64::NAN));
            let rated = expected.get(key).copied().unwrap_or(0);
            assert_eq!(
                games_now - games_before,
                rated,
                "{step}: the rating of player {} in {} counts {games_before} then {games_now} games",
                key.0,
                key.1
            );
            if rated == 0 && !rating_before.is_nan() {
                assert_eq!(rating_now, rating_before, "{step}: the rating of {key:?} moved with no rated result");
            }
        }
    }
}

/// A game's stored moves are plies 1, 2, ... and replay from its start as the rules write them.
fn replays(game: &Game, moves: &[data::Move], step: &str) {
    let variant: Variant = game.variant.parse().unwrap_or_else(|_| panic!("{step}: game {} variant", game.id));
    let mut pos = Position::from_fen(variant, &game.start_fen)
        .unwrap_or_else(|e| panic!("{step}: game {} starts at {}: {e}", game.id, game.start_fen));
    for (i, stored) in moves.iter().enumerate() {
        let at = format!("{step}: game {} ply {}", game.id, stored.ply);
        assert_eq!(stored.ply as usize, i + 1, "{at}: plies are not contiguous");
        let m = pos.parse_coord(&stored.coord).unwrap_or_else(|e| panic!("{at}: {}: {e}", stored.coord));
        assert_eq!(stored.san, pos.san(&m), "{at}");
        pos.play_unchecked(&m);
        assert_eq!(stored.fen_after, pos.fen(), "{at}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Finding 1 (docs/fuzzing.md): with the thread's generator seeded the same before each
    /// script, tempfile's random names repeated, and one script's database was deleted under
    /// the next. Scratch directories are unique whatever the generator says.
    #[test]
    fn scripts_never_share_a_directory() {
        fastrand::seed(0x17);
        let first = scratch();
        fastrand::seed(0x17);
        let second = scratch();
        assert_ne!(first.path(), second.path());
        assert_ne!(first.path().file_name(), second.path().file_name());
    }
}
