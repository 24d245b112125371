//! What the operator of a Discord bot sees: `/healthz` and `/metrics` while people play, and
//! `chimera check` asking Discord about the token.

use std::process::Output;

use serde_json::json;

use crate::harness::World;

#[path = "../support/scrape.rs"]
mod scrape;

#[tokio::test]
async fn the_endpoint_reports_health_and_counts_what_players_do() {
    let addr = scrape::free_addr();
    let world = World::with(&[("CHIMERA_HTTP_ADDR", &addr.to_string())]).await;
    // READY reaches the bot's handler a moment after the fake sent it.
    let (status, health) = scrape::healthy(addr).await;
    assert_eq!(status, 200, "{health}");
    assert_eq!(health, "connection: ok\ndatabase: ok\noutbox: ok (0 waiting)\n");

    world.start_game(world.lobby, "chess").await;
    world.play(world.lobby, &["e4", "e5"]).await;
    let refused = world.slash(world.alice, world.lobby, "move", json!({ "move": "Ke3" })).await.message;
    assert!(refused.is_ephemeral(), "{}", refused.content);

    let (status, metrics) = scrape::get(addr, "/metrics").await;
    assert_eq!(status, 200);
    let value = |series: &str| scrape::value(&metrics, series).unwrap_or_else(|| panic!("no {series} in\n{metrics}"));
    assert_eq!(value(r#"chimera_commands_total{network="discord",kind="challenge"}"#), 1.0);
    assert_eq!(value(r#"chimera_commands_total{network="discord",kind="accept"}"#), 1.0);
    assert_eq!(value(r#"chimera_commands_total{network="discord",kind="move"}"#), 3.0);
    assert_eq!(value(r#"chimera_refusals_total{network="discord",reason="told"}"#), 1.0);
    assert_eq!(value(r#"chimera_answer_seconds_count{network="discord"}"#), 5.0);
    assert_eq!(value(r#"chimera_connected{network="discord"}"#), 1.0);
    assert_eq!(value("chimera_outbox_depth"), 0.0);
    assert_eq!(value("chimera_engine_queue"), 0.0);
    assert!(metrics.contains("chimera_deferrals_total{network=\"discord\"}"), "{metrics}");
    assert!(metrics.trim_end().ends_with("# EOF"), "an OpenMetrics exposition ends so");

    let (status, _) = scrape::get(addr, "/nothing").await;
    assert_eq!(status, 404);
}

/// `chimera check discord` run as an operator runs it, in a directory of its own, with only
/// `settings` in its environment.
async fn check(dir: &std::path::Path, settings: &[(&str, String)]) -> Output {
    tokio::process::Command::new(env!("CARGO_BIN_EXE_chimera"))
        .args(["check", "discord"])
        .env_clear()
        .envs(settings.iter().map(|(k, v)| (*k, v.as_str())))
        .current_dir(dir)
        .output()
        .await
        .expect("chimera check runs")
}

#[tokio::test]
async fn check_asks_discord_about_the_token_and_gives_the_invite_link() {
    let fake = fakecord::FakeDiscord::start().await.expect("the fake binds 127.0.0.1");
    let dir = tempfile::tempdir().expect("a directory");
    let db = dir.path().join("chimera.db");
    let mut settings = vec![
        ("DISCORD_TOKEN", fake.token()),
        ("DISCORD_PROXY_URL", fake.base_url()),
        ("CHIMERA_DB", db.display().to_string()),
    ];

    let ok = check(dir.path(), &settings).await;
    let out = String::from_utf8_lossy(&ok.stdout);
    assert!(ok.status.success(), "{out}{}", String::from_utf8_lossy(&ok.stderr));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].starts_with("ok       settings:"), "{out}");
    assert!(lines[1].starts_with("ok       database:") && lines[1].contains("schema version"), "{out}");
    let invite = format!("client_id={}&scope=bot+applications.commands", fake.application_id());
    assert!(lines[2].starts_with("ok       discord: logged in as") && lines[2].contains(&invite), "{out}");
    assert!(db.exists(), "the database is created and migrated");
    assert!(fake.registered_commands().is_empty(), "a check registers nothing");

    settings[0].1 = "not-the-token".into();
    let refused = check(dir.path(), &settings).await;
    let out = String::from_utf8_lossy(&refused.stdout);
    assert_eq!(refused.status.code(), Some(1), "{out}");
    assert!(out.contains("problem  discord: DISCORD_TOKEN is not accepted by Discord (401)"), "{out}");
    assert!(out.contains("ok       database:"), "the other checks still run: {out}");
}
