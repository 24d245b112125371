//! What the bot sets up in Discord: its commands with typed options, where they are registered,
//! and what it asks for.

use crate::harness::World;

#[tokio::test]
async fn commands_are_registered_in_the_guild_with_typed_options() {
    let world = World::new().await;
    let commands = world.fake.registered_commands();
    let names: Vec<&str> = commands.iter().map(|c| c.name.as_str()).collect();
    for host_command in host::COMMANDS {
        assert!(names.contains(&host_command.name), "/{} is registered", host_command.name);
    }
    assert!(commands.iter().all(|c| c.guild == Some(world.guild)), "DISCORD_GUILD_ID registers in that guild only");

    let option = |command: &str, option: &str| {
        let command = commands.iter().find(|c| c.name == command).unwrap();
        let options = command.json["options"].as_array().cloned().unwrap_or_default();
        options.into_iter().find(|o| o["name"] == option).unwrap_or_else(|| panic!("/{} {option}", command.name))
    };
    // Application Command Option Type: 3 STRING, 4 INTEGER, 5 BOOLEAN, 6 USER.
    let variant = option("challenge", "variant");
    assert_eq!(variant["required"], true);
    assert_eq!(variant["choices"].as_array().map(Vec::len), Some(6));
    assert_eq!(option("challenge", "opponent")["type"], 6);
    assert_eq!(option("challenge", "rated")["type"], 5);
    let mv = option("move", "move");
    assert_eq!((mv["type"].clone(), mv["autocomplete"].clone()), (3.into(), true.into()));
    assert_eq!(option("pgn", "game")["type"], 4);
    let puzzle = option("puzzle", "variant");
    assert_eq!(
        (puzzle["required"].as_bool().unwrap_or(false), puzzle["choices"].as_array().map(Vec::len)),
        (false, Some(6))
    );
    let web = option("settings", "web");
    let choices: Vec<&str> = web["choices"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!((web["required"].as_bool().unwrap_or(false), choices), (false, vec!["on", "off"]));
    // The daily puzzle: a channel option (7, CHANNEL) offering text channels (0), announcement
    // channels (5) and threads (10, 11, 12); its time as text; and a switch that only stops it.
    let daily = option("settings", "daily-puzzle");
    let mut kinds: Vec<u64> = daily["channel_types"].as_array().unwrap().iter().map(|k| k.as_u64().unwrap()).collect();
    kinds.sort();
    assert_eq!((daily["type"].clone(), kinds), (7.into(), vec![0, 5, 10, 11, 12]));
    assert_eq!(option("settings", "time")["type"], 3);
    let off = option("settings", "daily-puzzle-off");
    let choices: Vec<&str> = off["choices"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(choices, vec!["off"]);
    let settings = commands.iter().find(|c| c.name == "settings").unwrap();
    // Everyone has settings of their own: the command is shown to all, and the host refuses a
    // change of the server's from anyone without Manage Server.
    assert!(settings.json["default_member_permissions"].is_null(), "{}", settings.json);
    let (theme, zone) = (option("settings", "theme"), option("settings", "zone"));
    assert_eq!((theme["type"].clone(), theme["autocomplete"].clone()), (3.into(), true.into()));
    assert_eq!((zone["type"].clone(), zone["autocomplete"].clone()), (3.into(), true.into()));
    let bottom = option("settings", "bottom");
    assert_eq!(bottom["choices"].as_array().map(Vec::len), Some(2));
}

#[tokio::test]
async fn without_a_guild_the_commands_are_global() {
    let world = World::with(&[("DISCORD_GUILD_ID", "")]).await;
    let commands = world.fake.registered_commands();
    assert!(!commands.is_empty() && commands.iter().all(|c| c.guild.is_none()));
}

/// `chimera discord` as an operator runs it: settings from the environment, connected until
/// SIGTERM, then a clean exit.
#[tokio::test]
async fn the_binary_runs_until_sigterm_and_exits_cleanly() {
    let fake = fakecord::FakeDiscord::start().await.unwrap();
    let guild = fake.add_guild("Ops");
    let dir = tempfile::tempdir().unwrap();
    let mut bot = tokio::process::Command::new(env!("CARGO_BIN_EXE_chimera"))
        .arg("discord")
        .current_dir(dir.path())
        .env("DISCORD_TOKEN", fake.token())
        .env("DISCORD_PROXY_URL", fake.base_url())
        .env("DISCORD_GUILD_ID", guild.get().to_string())
        .env("CHIMERA_DB", dir.path().join("ops.db"))
        .env("RUST_LOG", "warn")
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    fake.wait_ready().await.expect("the bot connects");
    fake.wait_command("tournament").await.expect("and registers its commands");
    let pid = bot.id().expect("running").to_string();
    let sent = std::process::Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(sent.success());
    let status = tokio::time::timeout(std::time::Duration::from_secs(20), bot.wait()).await.expect("stops").unwrap();
    assert!(status.success(), "{status}");
    assert!(dir.path().join("ops.db").exists(), "the database it was told to use");
}

#[test]
fn the_binary_without_a_token_says_what_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chimera"))
        .arg("discord")
        .current_dir(dir.path())
        .env_remove("DISCORD_TOKEN")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("DISCORD_TOKEN is not set"), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "one clear line: {stderr}");
}
