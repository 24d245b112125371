//! Opening the host: a database that cannot be opened is named in the error, and a PostgreSQL
//! URL is named without its password (the error goes to logs and terminals).

#[tokio::test]
async fn a_postgres_url_that_cannot_be_opened_is_named_without_its_password() {
    // Nothing listens on port 1, so the connection is refused at once.
    let settings =
        host::Settings::new(host::Location::parse("postgres://chimera:hunter2@127.0.0.1:1/chimera").unwrap(), "test");
    let Err(error) = host::Host::open(settings).await else { panic!("nothing listens on port 1") };
    let text = error.to_string();
    assert!(text.contains("postgres://chimera:***@127.0.0.1:1/chimera"), "{text}");
    assert!(!text.contains("hunter2"), "{text}");
    assert!(!format!("{error:?}").contains("hunter2"), "{error:?}");
}
