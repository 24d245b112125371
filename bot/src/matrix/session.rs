//! Logging in once, then coming back as the same device: the session (user, device, access
//! token) is kept in `session.json` in the store directory beside the SDK's SQLite stores, which
//! hold the sync token, the room state and the device's encryption keys. A restart restores the
//! session into the same stores, so the bot keeps its identity and its keys.

use std::path::Path;

use anyhow::{bail, Context as _};
use matrix_sdk::authentication::matrix::MatrixSession;
use matrix_sdk::{Client, SessionMeta, SessionTokens};
use tracing::info;

use super::{Credentials, Settings};

const SESSION_FILE: &str = "session.json";

/// A client logged in as the settings' user, its stores in the store directory.
pub async fn connect(settings: &Settings) -> anyhow::Result<Client> {
    let client = build(settings).await?;
    if let Some(session) = kept(settings)? {
        client.restore_session(session).await.context("cannot restore the stored Matrix session")?;
        info!(device = ?client.device_id(), "restored the stored Matrix session");
        return Ok(client);
    }
    let session = match &settings.credentials {
        Credentials::Password(password) => {
            client
                .matrix_auth()
                .login_username(&settings.user, password)
                .initial_device_display_name("Chimera")
                .await
                .context("cannot log in to Matrix with MATRIX_USER and MATRIX_PASSWORD")?;
            client.matrix_auth().session().context("logged in, but the SDK holds no session")?
        }
        Credentials::AccessToken(token) => {
            // A token names a device already; ask the homeserver which, before the stores are
            // tied to it.
            let tokens = SessionTokens { access_token: token.clone(), refresh_token: None };
            let whoami = whoami(settings, tokens.clone(), "MATRIX_ACCESS_TOKEN").await?;
            let device_id = whoami.device_id.context("MATRIX_ACCESS_TOKEN has no device; log in with a password")?;
            let session = MatrixSession { meta: SessionMeta { user_id: whoami.user_id, device_id }, tokens };
            client.restore_session(session.clone()).await.context("cannot use MATRIX_ACCESS_TOKEN")?;
            session
        }
    };
    save(&settings.store_dir.join(SESSION_FILE), &session)?;
    info!(device = ?client.device_id(), "logged in to Matrix; the session is kept in MATRIX_STORE_DIR");
    Ok(client)
}

/// Whether the homeserver takes the bot's credentials, without touching its stores or joining
/// anything (`chimera check`): the kept session's token if there is one, else the access token,
/// else the password (a login, then a logout that deletes the device it made). What was
/// accepted, in a few words.
pub async fn check(settings: &Settings) -> anyhow::Result<String> {
    let (tokens, what) = match (kept(settings)?, &settings.credentials) {
        (Some(session), _) => (session.tokens, "the session kept in MATRIX_STORE_DIR"),
        (None, Credentials::AccessToken(token)) => {
            (SessionTokens { access_token: token.clone(), refresh_token: None }, "MATRIX_ACCESS_TOKEN")
        }
        (None, Credentials::Password(password)) => {
            let probe = probe(settings).await?;
            probe
                .matrix_auth()
                .login_username(&settings.user, password)
                .initial_device_display_name("Chimera (check)")
                .await
                .context("MATRIX_USER and MATRIX_PASSWORD are not accepted by the homeserver")?;
            probe.matrix_auth().logout().await.context("logged in, but cannot log the check's device out")?;
            return Ok(format!("{} logs in with MATRIX_PASSWORD", settings.user));
        }
    };
    let whoami = whoami(settings, tokens, what).await?;
    Ok(format!("{} is logged in with {what}", whoami.user_id))
}

/// The session kept in the store directory, if there is one; an error if it cannot be read or
/// belongs to another user.
fn kept(settings: &Settings) -> anyhow::Result<Option<MatrixSession>> {
    let session_file = settings.store_dir.join(SESSION_FILE);
    if !session_file.exists() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&session_file)
        .with_context(|| format!("cannot read the Matrix session {}", session_file.display()))?;
    let session: MatrixSession = serde_json::from_str(&text)
        .with_context(|| format!("the Matrix session {} cannot be read", session_file.display()))?;
    if session.meta.user_id != settings.user {
        bail!(
            "MATRIX_STORE_DIR {} holds the session of {}, not of MATRIX_USER {}; use another store",
            settings.store_dir.display(),
            session.meta.user_id,
            settings.user
        );
    }
    Ok(Some(session))
}

/// A client with no stores: it leaves no trace of a probe on disk.
async fn probe(settings: &Settings) -> anyhow::Result<Client> {
    Client::builder()
        .homeserver_url(&settings.homeserver)
        .build()
        .await
        .with_context(|| format!("cannot reach the homeserver {}", settings.homeserver))
}

/// Whom `tokens` (named `what` in errors) belong to, as the homeserver says; an error unless it
/// is the settings' user.
async fn whoami(
    settings: &Settings,
    tokens: SessionTokens,
    what: &str,
) -> anyhow::Result<matrix_sdk::ruma::api::client::account::whoami::v3::Response> {
    let probe = probe(settings).await?;
    // The device is not known yet: whoami tells it.
    let placeholder = SessionMeta { user_id: settings.user.clone(), device_id: "CHIMERAPROBE".into() };
    probe.restore_session(MatrixSession { meta: placeholder, tokens }).await?;
    let whoami = probe.whoami().await.with_context(|| format!("{what} is not accepted by the homeserver"))?;
    if whoami.user_id != settings.user {
        bail!("{what} belongs to {}, not to MATRIX_USER {}", whoami.user_id, settings.user);
    }
    Ok(whoami)
}

async fn build(settings: &Settings) -> anyhow::Result<Client> {
    Client::builder()
        .homeserver_url(&settings.homeserver)
        .sqlite_store(
            settings.store_dir.join("sdk"),
            settings.store_passphrase.as_ref().map(crate::settings::Secret::expose),
        )
        .build()
        .await
        .with_context(|| format!("cannot reach the homeserver {} or open the store", settings.homeserver))
}

/// Writes the session where only the bot's user can read it: it holds the access token.
fn save(path: &Path, session: &MatrixSession) -> anyhow::Result<()> {
    let text = serde_json::to_string_pretty(session)?;
    let temporary = path.with_extension("json.new");
    std::fs::write(&temporary, text).with_context(|| format!("cannot write {}", temporary.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&temporary, std::fs::Permissions::from_mode(0o600))?;
    }
    std::fs::rename(&temporary, path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}
