//! What the operator of a Matrix bot sees: `chimera check` logging in (and refusing a wrong
//! password), and `/healthz` and `/metrics` while people play.

use std::process::Output;

use crate::games::notice;
use crate::harness::{table, Bot, Person};

#[path = "../support/scrape.rs"]
mod scrape;

/// `chimera check matrix` on the bot's settings, in its directory, with nothing else set.
async fn check(bot: &Bot, password: &str) -> Output {
    let mut env = bot.env_vars();
    env.insert("MATRIX_PASSWORD".into(), password.into());
    tokio::process::Command::new(env!("CARGO_BIN_EXE_chimera"))
        .args(["check", "matrix"])
        .env_clear()
        .envs(env)
        .current_dir(bot.dir())
        .output()
        .await
        .expect("chimera check runs")
}

fn matrix_line(output: &Output) -> String {
    let out = String::from_utf8_lossy(&output.stdout);
    out.lines().find(|l| l.contains(" matrix: ")).unwrap_or_else(|| panic!("no matrix line in {out}")).to_string()
}

#[tokio::test]
async fn check_logs_in_and_the_endpoint_counts_what_players_do() {
    let mut bot = Bot::register().await;
    let refused = check(&bot, "not the password").await;
    assert_eq!(refused.status.code(), Some(1));
    let line = matrix_line(&refused);
    assert!(
        line.starts_with("problem  matrix: MATRIX_USER and MATRIX_PASSWORD are not accepted by the homeserver"),
        "{line}"
    );
    let password = bot.env_vars()["MATRIX_PASSWORD"].clone();
    let ok = check(&bot, &password).await;
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stdout));
    assert_eq!(matrix_line(&ok), format!("ok       matrix: {} logs in with MATRIX_PASSWORD", bot.id));
    assert!(!bot.dir().join("store").exists(), "a check keeps no session and makes no store");

    let addr = scrape::free_addr();
    bot.set_env("CHIMERA_HTTP_ADDR", &addr.to_string());
    bot.resume();
    let alice = Person::new("alice").await;
    let room = table(&bot, &alice, &[], false).await;
    alice.say(&room, "!board").await;
    notice(&alice, &bot, &room, "There is no game").await;

    let health = scrape::healthy(addr).await;
    assert_eq!(health, (200, "connection: ok\ndatabase: ok\noutbox: ok (0 waiting)\n".to_string()));
    let (status, metrics) = scrape::get(addr, "/metrics").await;
    assert_eq!(status, 200);
    let value = |series: &str| scrape::value(&metrics, series).unwrap_or_else(|| panic!("no {series} in\n{metrics}"));
    assert_eq!(value(r#"chimera_commands_total{network="matrix",kind="board"}"#), 1.0);
    assert_eq!(value(r#"chimera_refusals_total{network="matrix",reason="told"}"#), 1.0);
    assert_eq!(value(r#"chimera_answer_seconds_count{network="matrix"}"#), 1.0);
    assert_eq!(value(r#"chimera_connected{network="matrix"}"#), 1.0);

    // With a session kept, the check uses it and logs in no new device.
    let kept = check(&bot, "not the password").await;
    assert!(kept.status.success(), "{}", String::from_utf8_lossy(&kept.stdout));
    assert_eq!(
        matrix_line(&kept),
        format!("ok       matrix: {} is logged in with the session kept in MATRIX_STORE_DIR", bot.id)
    );
    bot.stop().await;
}
