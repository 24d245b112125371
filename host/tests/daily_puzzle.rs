//! The daily puzzle: `/settings daily-puzzle:#channel time:HH:MM` (managers only, a channel of
//! the server itself), the post once a day at that time (UTC) with the manual clock, never
//! twice (a restart, a post that failed), late the same day but never a backlog, only puzzles
//! the channel may see, and the answers of everyone there, each rated.

mod common;

use common::{text, Answer, Club, Place, DAY, HOUR, MINUTE, T0};
use data::{AttemptState, Day, Glicko, NewPuzzle, PuzzleId};
use host::{Message, PlaceKind};

/// Rd8+ Rxd8 Rxd8#: White is a rook up whatever it plays, but only this mates.
const BACK_RANK: &str = "1r4k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1";
const BACK_RANK_LINE: [&str; 3] = ["d2d8", "b8d8", "d1d8"];

/// The server's channels: where games are played, and where the daily puzzle goes.
fn lobby() -> Place {
    Place::new("console", Some("guild"), "lobby")
}

fn puzzles() -> Place {
    Place::new("console", Some("guild"), "puzzles")
}

/// A club whose server `guild` has the channels `lobby` and `puzzles` (and a category), and
/// whose server `other` has `quiz`.
async fn club() -> Club {
    let club = Club::open().await;
    club.rooms.add_channel("guild", "lobby");
    club.rooms.add_channel("guild", "puzzles");
    club.rooms.add_category("guild", "archive");
    club.rooms.add_channel("other", "quiz");
    club
}

/// 23:00 UTC on the day of T0 (2023-11-14, T0 being 22:13:20), `days` later.
fn eleven_pm(days: i64) -> i64 {
    Day::of(T0).start() + days * DAY + 23 * HOUR
}

/// Moves the clock to `at` and runs the scheduler's step once: what it posted.
async fn tick_at(club: &Club, at: i64) -> Vec<Message> {
    let now = club.host.now();
    assert!(at >= now, "the clock only goes forward");
    club.clock.advance(at - now);
    club.host.tick(&club.rooms).await;
    club.rooms.fresh()
}

/// A game at `place` between alice and bob, ended by alice's resignation, with the back-rank
/// puzzle planted in it as the puzzle job would have found it: the puzzle's number.
async fn planted(club: &Club, place: &Place) -> PuzzleId {
    for (user, line) in [
        ("alice", "/challenge @bob variant:chess color:white rated:no"),
        ("bob", "/accept"),
        ("alice", "/move e4"),
        ("alice", "/resign confirm:yes"),
    ] {
        let reply = club.at(place, user, line).await;
        assert!(!reply.is_error(), "{user}: {line}: {}", text(&reply));
    }
    let puzzle = NewPuzzle {
        ply: 10,
        fen: BACK_RANK.into(),
        solution: BACK_RANK_LINE.map(String::from).to_vec(),
        glicko: Glicko { rating: 1500.0, deviation: 350.0, volatility: 0.06 },
    };
    let now = club.host.now();
    let game = club.host.store().read(|tx| tx.games_to_scan(1)).await.unwrap()[0];
    club.host.store().write(move |tx| tx.record_scan(game, std::slice::from_ref(&puzzle), 5, now)).await.unwrap();
    let db = rusqlite::Connection::open(club.dir.path().join("chimera.db")).unwrap();
    db.query_row("SELECT id FROM puzzles WHERE game_id = ?1", [game], |row| row.get(0)).unwrap()
}

async fn daily_setting(club: &Club) -> Option<data::DailyPuzzle> {
    club.host.store().read(|tx| tx.daily_puzzle("console", "guild")).await.unwrap()
}

async fn manager(club: &Club, place: &Place, line: &str) -> String {
    let reply = club.as_manager(place, "admin", line).await;
    assert!(!reply.is_error(), "{line} was refused: {}", text(&reply));
    text(&reply)
}

async fn refused_to_manager(club: &Club, place: &Place, line: &str) -> String {
    let reply = club.as_manager(place, "admin", line).await;
    assert!(reply.is_error(), "{line} was not refused: {}", text(&reply));
    text(&reply)
}

/// The one post in `posted`, checked to be a daily puzzle's in #puzzles: its text.
fn the_post(posted: &[Message], puzzle: PuzzleId) -> String {
    assert_eq!(posted.len(), 1, "{posted:?}");
    let post = &posted[0];
    assert_eq!(post.channel.as_deref(), Some("puzzles"));
    let image = post.images.first().expect("the board");
    assert!(image.alt.contains(&format!("Chess board of puzzle {puzzle}, White to move")), "{}", image.alt);
    assert_eq!(image.board.as_ref().map(|b| b.fen.as_str()), Some(BACK_RANK));
    assert!(post.key.is_some(), "posted with its idempotency key");
    host::typed::plain(&post.text)
}

#[tokio::test]
async fn a_manager_sets_it_in_a_channel_of_the_server_and_everyone_sees_it() {
    let club = club().await;
    let shown = text(&club.at(&lobby(), "eve", "/settings").await);
    assert!(shown.contains("daily puzzle: off (a server manager has one posted every day with `/settings daily-puzzle:#puzzles time:18:00`, the time in UTC)"), "{shown}");

    let line = "/settings daily-puzzle:#puzzles time:23:00";
    let why = text(&club.at(&lobby(), "eve", line).await);
    assert!(why.contains("Only a manager of this server"), "{why}");
    assert_eq!(daily_setting(&club).await, None, "a refused change writes nothing");
    for (line, expected) in [
        ("/settings daily-puzzle:#nowhere time:23:00", "Chimera sees no channel #nowhere here"),
        ("/settings daily-puzzle:#quiz time:23:00", "#quiz is not a channel of this server"),
        ("/settings daily-puzzle:#archive time:23:00", "#archive holds no messages of its own"),
        ("/settings web:on daily-puzzle:#nowhere time:23:00", "Chimera sees no channel #nowhere here"),
    ] {
        let why = refused_to_manager(&club, &lobby(), line).await;
        assert!(why.contains(expected), "{line}: {why}");
    }
    assert_eq!(daily_setting(&club).await, None, "nothing written");
    let listed = club.host.store().read(|tx| tx.web_listing("console", "guild")).await.unwrap();
    assert!(!listed, "a command refused for one setting changes none");

    let said = manager(&club, &lobby(), line).await;
    assert_eq!(
        said,
        "admin sets this server's daily puzzle: a puzzle from its games, posted in #puzzles every day at 23:00 UTC, \
         the first on 2023-11-14 (UTC)."
    );
    let set = daily_setting(&club).await.expect("set");
    assert_eq!((set.channel.as_str(), set.time.to_string(), set.set_at), ("puzzles", "23:00".into(), T0));
    // Anyone sees it, in any channel of the server.
    let shown = text(&club.at(&puzzles(), "eve", "/settings").await);
    assert!(shown.contains("daily puzzle: in #puzzles every day at 23:00 UTC"), "{shown}");
    assert!(shown.contains("or stops it with `/settings daily-puzzle:off`"), "{shown}");
    // Set after its time: from tomorrow.
    let said = manager(&club, &lobby(), "/settings daily-puzzle:#lobby time:22:00").await;
    assert!(said.contains("posted in #lobby every day at 22:00 UTC, the first on 2023-11-15 (UTC)."), "{said}");

    let why = text(&club.at(&lobby(), "eve", "/settings daily-puzzle:off").await);
    assert!(why.contains("Only a manager"), "{why}");
    assert!(daily_setting(&club).await.is_some(), "still on");
    assert_eq!(manager(&club, &lobby(), "/settings daily-puzzle:off").await, "admin stops this server's daily puzzle.");
    assert_eq!(daily_setting(&club).await, None);
    let again = manager(&club, &lobby(), "/settings daily-puzzle:off").await;
    assert_eq!(again, "This server has no daily puzzle to stop: it is off.");
}

#[tokio::test]
async fn the_console_and_direct_chats_have_no_daily_puzzle() {
    let club = club().await;
    for place in [Place::console("general"), Place::new("console", None, "dm-1")] {
        let why = refused_to_manager(&club, &place, "/settings daily-puzzle:#puzzles time:23:00").await;
        assert!(why.contains("the console and direct messages have only your own settings"), "{place:?}: {why}");
    }
    // A Matrix direct chat is a room of its own, and has settings, but no daily puzzle.
    let direct = Place::new("console", Some("!dm:example.org"), "!dm:example.org").of_kind(PlaceKind::Direct);
    let why = refused_to_manager(&club, &direct, "/settings daily-puzzle:#puzzles time:23:00").await;
    assert!(why.contains("A direct chat has no daily puzzle"), "{why}");
    let shown = text(&club.at(&direct, "eve", "/settings").await);
    assert!(shown.contains("daily puzzle: off (never in a direct chat)"), "{shown}");
    let none = club.host.store().read(|tx| tx.daily_puzzle("console", "!dm:example.org")).await.unwrap();
    assert_eq!(none, None);
}

#[tokio::test]
async fn the_post_comes_at_its_time_once_and_not_again_after_a_restart() {
    let club = club().await;
    let first = planted(&club, &lobby()).await;
    let second = planted(&club, &lobby()).await;
    manager(&club, &lobby(), "/settings daily-puzzle:#puzzles time:23:00").await;

    assert_eq!(tick_at(&club, eleven_pm(0) - MINUTE).await, vec![], "not before its time");
    let post = the_post(&tick_at(&club, eleven_pm(0)).await, first);
    let head = format!("**Daily puzzle** of 2023-11-14 (UTC): puzzle {first} (Chess, rated 1500?), from game 1.");
    assert!(post.starts_with(&head), "{post}");
    assert!(post.contains("White to move: find the winning move. Answer with `/move`"), "{post}");
    assert!(post.contains("The next one comes tomorrow at 23:00 UTC."), "{post}");
    assert_eq!(tick_at(&club, eleven_pm(0) + MINUTE).await, vec![], "once a day");

    let club = club.restart().await;
    assert_eq!(tick_at(&club, eleven_pm(0) + 2 * MINUTE).await, vec![], "claimed: not again after a restart");
    // The next day, the next puzzle: never the same one twice.
    the_post(&tick_at(&club, eleven_pm(1)).await, second);
    // The day after, none is left: nothing is posted, and nothing said.
    assert_eq!(tick_at(&club, eleven_pm(2)).await, vec![]);
    let claimed = club.host.store().read(|tx| tx.daily_post("console", "guild", Day::of(eleven_pm(2)))).await.unwrap();
    assert_eq!(claimed.map(|post| post.puzzle), Some(None), "the day is claimed, with no puzzle");
}

#[tokio::test]
async fn a_post_the_network_refused_is_posted_once_by_the_next_process() {
    let club = club().await;
    let id = planted(&club, &lobby()).await;
    manager(&club, &lobby(), "/settings daily-puzzle:#puzzles time:23:00").await;
    // The claim and the post commit together; posting fails, and the process dies.
    club.rooms.posts(Answer::Fails(usize::MAX));
    assert_eq!(tick_at(&club, eleven_pm(0)).await, vec![]);
    assert!(club.rooms.post_attempts() >= 1, "it tried");
    let club = club.restart().await;
    club.rooms.posts(Answer::Takes);
    // The new process waits out the dead one's hold, then posts it: once.
    let mut posted = Vec::new();
    for minutes in 1..=3 {
        posted.extend(tick_at(&club, eleven_pm(0) + minutes * MINUTE).await);
    }
    the_post(&posted, id);
}

#[tokio::test]
async fn a_host_down_at_the_time_posts_later_that_day_but_never_a_backlog() {
    let club = club().await;
    let first = planted(&club, &lobby()).await;
    let second = planted(&club, &lobby()).await;
    manager(&club, &lobby(), "/settings daily-puzzle:#puzzles time:23:00").await;
    // Down from before 23:00 until 23:45: posted on its return.
    the_post(&tick_at(&club, eleven_pm(0) + 45 * MINUTE).await, first);
    // Down for two whole days, back at 22:00 on the third: the missed day is not made up.
    assert_eq!(tick_at(&club, eleven_pm(2) - HOUR).await, vec![]);
    the_post(&tick_at(&club, eleven_pm(2)).await, second);
    let missed = club.host.store().read(|tx| tx.daily_post("console", "guild", Day::of(eleven_pm(1)))).await.unwrap();
    assert_eq!(missed, None);
}

#[tokio::test]
async fn a_puzzle_from_a_direct_chat_or_another_server_is_never_posted() {
    let club = club().await;
    planted(&club, &Place::new("console", None, "puzzles")).await;
    planted(&club, &Place::new("console", Some("other"), "quiz")).await;
    planted(&club, &Place::new("discord", Some("guild"), "lobby")).await;
    manager(&club, &lobby(), "/settings daily-puzzle:#puzzles time:23:00").await;
    assert_eq!(tick_at(&club, eleven_pm(0)).await, vec![], "none of them may be seen in #puzzles");
    // One of the server's own: posted the next day.
    let own = planted(&club, &lobby()).await;
    the_post(&tick_at(&club, eleven_pm(1)).await, own);
}

async fn attempt(club: &Club, user: &'static str, puzzle: PuzzleId) -> Option<data::Attempt> {
    club.host
        .store()
        .read(move |tx| match tx.find_player("console", user)? {
            Some(player) => tx.attempt_at(puzzle, player.id),
            None => Ok(None),
        })
        .await
        .unwrap()
}

#[tokio::test]
async fn everyone_in_the_channel_answers_the_daily_puzzle_once_each_rated() {
    let club = club().await;
    let id = planted(&club, &lobby()).await;
    manager(&club, &lobby(), "/settings daily-puzzle:#puzzles time:23:00").await;
    the_post(&tick_at(&club, eleven_pm(0)).await, id);
    let channel = puzzles();
    let said = |user: &'static str, line: &'static str| club.at(&channel, user, line);

    // Not a move there: nothing is opened.
    let reply = said("erin", "/move Qz9").await;
    assert!(reply.is_error(), "{}", text(&reply));
    assert!(text(&reply).contains(&format!("That was not played in the daily puzzle {id}")), "{}", text(&reply));
    assert_eq!(attempt(&club, "erin", id).await, None);
    // Suggestions offer its moves; a plain message is not an answer.
    let offered = club.host.suggest_moves("console", "puzzles", "erin", "Rd8", 5).await.unwrap();
    assert!(offered.iter().any(|s| s.value.contains("d8")), "{offered:?}");
    assert!(!club.host.is_bare_move("console", "puzzles", "erin", "Rd8+").await.unwrap());

    // carol solves it in two moves; dave gets it wrong.
    let right = text(&said("carol", "/move Rd8+").await);
    assert!(right.contains("Right: Rd8+! Black replies Rxd8. White to move: find the next move."), "{right}");
    assert_eq!(attempt(&club, "carol", id).await.map(|a| (a.state, a.progress)), Some((AttemptState::Open, 2)));
    // Opened by her `/move`, her attempt now takes plain messages too, as any open puzzle does.
    assert!(club.host.is_bare_move("console", "puzzles", "carol", "Rxd8#").await.unwrap());
    let solved = text(&said("carol", "/move Rxd8#").await);
    assert!(solved.contains(&format!("Solved: Rxd8#! Puzzle {id} is done.")), "{solved}");
    let wrong = text(&said("dave", "/move Rd7").await);
    assert!(wrong.contains(&format!("Wrong: Rd7 is not it, and puzzle {id} is over.")), "{wrong}");
    let (carol, dave) = (club.puzzle_rating("carol").await.unwrap(), club.puzzle_rating("dave").await.unwrap());
    assert!(carol.glicko.rating > 1500.0 && dave.glicko.rating < 1500.0, "{carol:?} {dave:?}");
    assert_eq!((carol.attempts, dave.attempts), (1, 1));
    let puzzle = club.host.store().read(move |tx| tx.puzzle(id)).await.unwrap();
    assert_eq!(puzzle.attempts, 2, "rated by both");

    // Played: told so, and nothing changes.
    let again = said("carol", "/move Rd8+").await;
    assert!(again.is_error());
    assert!(
        text(&again).contains(&format!("carol, you have played puzzle {id}, the daily puzzle here, and solved it.")),
        "{}",
        text(&again)
    );
    assert_eq!(club.puzzle_rating("carol").await.map(|r| r.attempts), Some(1));
    let over = text(&said("dave", "/move Rd8+").await);
    assert!(over.contains("and it is over"), "{over}");
    // Only in its channel: elsewhere a move is an ordinary one.
    let elsewhere = text(&club.at(&lobby(), "frank", "/move Rd8+").await);
    assert!(elsewhere.contains("There is no game in #lobby"), "{elsewhere}");

    // A player's own game in the channel comes first.
    club.at(&puzzles(), "alice", "/challenge @bob variant:chess color:white rated:no").await;
    club.at(&puzzles(), "bob", "/accept").await;
    let moved = text(&said("alice", "/move e4").await);
    assert!(moved.contains("played 1. e4"), "{moved}");
    assert_eq!(attempt(&club, "alice", id).await, None);
    // Someone not in that game still answers the daily puzzle there.
    let frank = text(&said("frank", "/move Rd8+").await);
    assert!(frank.contains("Right: Rd8+!"), "{frank}");

    // A day after its post, with no new one, it is no longer the channel's to answer.
    manager(&club, &lobby(), "/settings daily-puzzle:off").await;
    tick_at(&club, eleven_pm(1) + MINUTE).await;
    let late = text(&said("gina", "/move Rd8+").await);
    assert!(late.contains("Only alice and bob play in this game"), "an ordinary move, refused as one: {late}");
    assert_eq!(attempt(&club, "gina", id).await, None);
}

#[tokio::test]
async fn help_tells_of_the_daily_puzzle() {
    let club = club().await;
    let help = club.ok("carol", "general", "/help").await;
    assert!(help.contains("[web:on|off] [daily-puzzle:#channel time:HH:MM|daily-puzzle:off]"), "{help}");
    let puzzles = club.ok("carol", "general", "/help puzzle").await;
    assert!(puzzles.contains("daily puzzle"), "{puzzles}");
}
