//! Downtime is credited as it really happened: a game's clock runs only while its platform's
//! adapter is connected and serving. Three ways the bot's own downtime used to cost a player
//! the game: a crash loop (each start reset the heartbeat before the adapter connected), one
//! heartbeat shared by every platform, and a heartbeat that kept beating while the connection
//! was broken.

mod common;

use std::sync::Arc;

use common::{Club, Place, MINUTE, SECOND};
use host::{Host, Settings};

/// A host of `platform` that waits for its adapter to connect, on the manual clock.
async fn waiting(platform: &'static str) -> Club {
    Club::open_with(move |s| {
        s.platform = platform.into();
        s.adapter_connects = true;
    })
    .await
}

/// A host of `platform` on `club`'s database and clock, its adapter connected.
async fn connected_beside(club: &Club, platform: &str) -> Host {
    let mut settings = Settings::new(club.dir.path().join("chimera.db"), platform);
    settings.clock = Arc::new(club.clock.clone());
    settings.adapter_connects = true;
    let host = Host::open(settings).await.unwrap();
    host.connected().await.unwrap();
    host
}

/// ann (White, to move) and bo start a 5-minute game at `place`.
async fn five_minutes(club: &Club, place: &Place) {
    for (user, line) in [("ann", "/challenge @bo variant:chess color:white rated:no time:5+0"), ("bo", "/accept")] {
        let reply = club.at(place, user, line).await;
        assert!(!reply.is_error(), "{line}: {}", common::text(&reply));
    }
}

fn time_ups(said: &[host::Message]) -> usize {
    said.iter().filter(|m| m.text.contains("Time is up")).count()
}

/// Ticks once a second for `ms`; the announcements said meanwhile.
async fn tick_for(club: &Club, ms: i64) -> Vec<host::Message> {
    let mut said = Vec::new();
    for _ in 0..ms / SECOND {
        said.extend(club.pass(SECOND).await);
    }
    said
}

#[tokio::test]
async fn a_crash_loop_before_connecting_is_credited_in_full() {
    let mut club = waiting("discord").await;
    club.host.connected().await.unwrap();
    let place = Place::new("discord", Some("guild"), "chan");
    five_minutes(&club, &place).await;
    club.pass(MINUTE).await;
    // The process dies, then keeps starting and running for a while without ever reaching the
    // gateway, for an hour.
    for _ in 0..6 {
        club.clock.advance(9 * MINUTE);
        club = club.restart().await;
        let said = tick_for(&club, 30 * SECOND).await;
        assert_eq!(time_ups(&said), 0, "nobody runs out of time while the bot cannot serve: {said:?}");
    }
    club.host.connected().await.unwrap();
    // ann had four minutes left when the bot went down, and has them now.
    let said = tick_for(&club, 3 * MINUTE + 50 * SECOND).await;
    assert_eq!(time_ups(&said), 0, "{said:?}");
    let said = tick_for(&club, 20 * SECOND).await;
    assert_eq!(time_ups(&said), 1, "then the clock runs as before");
}

#[tokio::test]
async fn each_platform_has_its_own_downtime() {
    let club = waiting("matrix").await;
    club.host.connected().await.unwrap();
    let room = Place::new("matrix", Some("!room"), "!room");
    five_minutes(&club, &room).await;
    // Discord shares the database and keeps serving while Matrix is down for an hour.
    let discord = connected_beside(&club, "discord").await;
    let club = club.restart().await;
    for _ in 0..60 {
        club.clock.advance(MINUTE);
        discord.tick(&club.rooms).await;
    }
    club.host.connected().await.unwrap();
    let said = tick_for(&club, 4 * MINUTE + 50 * SECOND).await;
    assert_eq!(time_ups(&said), 0, "Matrix's hour is credited to Matrix games: {said:?}");
    // And a Discord restart does not move Matrix clocks: Discord's downtime is its own.
    drop(discord);
    club.clock.advance(30 * MINUTE);
    let _discord = connected_beside(&club, "discord").await;
    let said = tick_for(&club, 20 * SECOND).await;
    assert_eq!(time_ups(&said), 1, "ann's time ran out on Matrix meanwhile: {said:?}");
}

#[tokio::test]
async fn a_broken_connection_stops_the_clocks_until_it_is_back() {
    let club = waiting("discord").await;
    club.host.connected().await.unwrap();
    let place = Place::new("discord", Some("guild"), "chan");
    five_minutes(&club, &place).await;
    club.pass(MINUTE).await;
    club.host.disconnected();
    assert!(!club.host.is_serving());
    // Half an hour of a failing gateway: the process runs and ticks, but nobody can move.
    let said = tick_for(&club, 30 * MINUTE).await;
    assert_eq!(time_ups(&said), 0, "{said:?}");
    club.host.connected().await.unwrap();
    let said = tick_for(&club, 3 * MINUTE + 50 * SECOND).await;
    assert_eq!(time_ups(&said), 0, "ann still has the four minutes she had: {said:?}");
    let said = tick_for(&club, 20 * SECOND).await;
    assert_eq!(time_ups(&said), 1, "{said:?}");
}
