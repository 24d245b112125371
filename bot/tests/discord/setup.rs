//! What the bot sets up in Discord: its commands with typed options, where they are registered,
//! and what it asks for.

use crate::harness::World;

#[tokio::test]
async fn commands_are_registered_in_the_guild_with_typed_options() {
    let world = World::new().await;
    let commands = world.fake.registered_commands();
    let names: Vec<&str> = commands.iter().map(|c| c.name.as_str()).collect();
    for host_command in chimera::host::COMMANDS {
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
}

#[tokio::test]
async fn without_a_guild_the_commands_are_global() {
    let world = World::with(&[("DISCORD_GUILD_ID", "")]).await;
    let commands = world.fake.registered_commands();
    assert!(!commands.is_empty() && commands.iter().all(|c| c.guild.is_none()));
}
