//! The HTTP API under `/api/v10`: the routes a bot uses to start, register commands, post
//! messages and open threads. Interaction callbacks and follow-ups live in `interactions.rs`.
//!
//! serenity's `HttpBuilder::proxy` swaps `https://discord.com` for the proxy URL and keeps the
//! path, so requests arrive as `{base_url}/api/v10/...`, exactly as Discord would see them.

use std::sync::Arc;

use axum::extract::{FromRequest, Path, Query, Request, State};
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE};
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::ids::{AttachmentId, ChannelId, CommandId, GuildId, MessageId, UserId};
use crate::multipart::MessageBody;
use crate::state::{intents, Channel, ChannelKind, Command, Request as Recorded, Shared, World};
use crate::{gateway, interactions, messages, objects};

/// Discord's upload limit for a bot without boosts is 10 MiB per file, ten files per message.
const BODY_LIMIT: usize = 10 * 10 * 1024 * 1024 + 64 * 1024;

/// An error as Discord reports it ("API Reference", Error Messages; codes from "Opcodes and
/// Status Codes", JSON Error Codes).
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    code: u32,
    message: String,
    errors: Option<Value>,
}

impl ApiError {
    pub(crate) fn new(status: u16, code: u32, message: impl Into<String>) -> Self {
        let status = StatusCode::from_u16(status).expect("the fake uses only valid status codes");
        ApiError { status, code, message: message.into(), errors: None }
    }

    /// 50035 Invalid Form Body, with what was wrong where Discord puts it.
    pub(crate) fn invalid_form(detail: impl Into<String>) -> Self {
        let detail = detail.into();
        ApiError {
            errors: Some(json!({ "_errors": [{ "code": "BASE_TYPE_INVALID", "message": detail }] })),
            ..Self::new(400, 50035, "Invalid Form Body")
        }
    }

    pub(crate) fn unknown_channel() -> Self {
        Self::new(404, 10003, "Unknown Channel")
    }

    pub(crate) fn unknown_message() -> Self {
        Self::new(404, 10008, "Unknown Message")
    }

    fn unknown_guild() -> Self {
        Self::new(404, 10004, "Unknown Guild")
    }

    fn unknown_application() -> Self {
        Self::new(404, 10002, "Unknown Application")
    }

    fn unknown_user() -> Self {
        Self::new(404, 10013, "Unknown User")
    }

    fn unauthorized() -> Self {
        Self::new(401, 0, "401: Unauthorized")
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({ "code": self.code, "message": self.message });
        if let Some(errors) = self.errors {
            body["errors"] = errors;
        }
        (self.status, Json(body)).into_response()
    }
}

pub(crate) type ApiResult<T = Json<Value>> = Result<T, ApiError>;

/// A JSON request body; one that does not parse is refused as Discord refuses it, with 50035
/// Invalid Form Body rather than a bare status.
pub(crate) struct Body<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(request, state).await {
            Ok(Json(body)) => Ok(Body(body)),
            Err(rejection) => Err(ApiError::invalid_form(rejection.body_text())),
        }
    }
}

pub(crate) fn router(shared: Arc<Shared>) -> Router {
    let api = Router::new()
        .route("/gateway", get(gateway_url))
        .route("/gateway/bot", get(gateway_bot))
        .route("/users/@me", get(current_user))
        .route("/users/@me/channels", post(create_dm))
        .route("/oauth2/applications/@me", get(current_application))
        .route("/applications/@me", get(current_application))
        .route("/applications/{app}/commands", get(list_commands).put(overwrite_commands).post(create_command))
        .route(
            "/applications/{app}/guilds/{guild}/commands",
            get(list_guild_commands).put(overwrite_guild_commands).post(create_guild_command),
        )
        .route("/channels/{channel}", get(get_channel))
        .route("/channels/{channel}/messages", get(list_messages).post(create_message))
        .route("/channels/{channel}/messages/{message}", get(get_message).patch(edit_message).delete(delete_message))
        .route("/channels/{channel}/messages/{message}/threads", post(thread_from_message))
        .route("/channels/{channel}/threads", post(thread_without_message))
        .merge(interactions::routes())
        .fallback(|| async { ApiError::new(404, 0, "404: Not Found") });

    Router::new()
        .nest("/api/v10", api)
        .route("/gateway", get(gateway::upgrade))
        .route("/attachments/{channel}/{attachment}/{filename}", get(attachment_bytes))
        .layer(axum::extract::DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn_with_state(Arc::clone(&shared), authorize_and_record))
        .with_state(shared)
}

/// Checks the bot token and records the request.
///
/// Interaction callbacks and webhook routes authenticate by the token in their path ("Receiving
/// and Responding": these endpoints "do not require a bot token"), so they skip the header check.
async fn authorize_and_record(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let Some(api_path) = path.strip_prefix("/api/v10") else { return next.run(request).await };
    let by_path_token = api_path.starts_with("/interactions/") || api_path.starts_with("/webhooks/");
    let expected = shared.read(|w| format!("Bot {}", w.token));
    let presented = request.headers().get(AUTHORIZATION).and_then(|v| v.to_str().ok());
    let response = if by_path_token || presented == Some(expected.as_str()) {
        next.run(request).await
    } else {
        ApiError::unauthorized().into_response()
    };
    let record = Recorded { method: method.to_string(), path: api_path.to_owned(), status: response.status().as_u16() };
    shared.write(|w| w.requests.push(record));
    response
}

/// "Get Gateway": where to connect. serenity 0.12's `Client::start` reads this one.
async fn gateway_url(State(shared): State<Arc<Shared>>) -> Json<Value> {
    Json(json!({ "url": shared.read(|w| w.gateway_url.clone()) }))
}

/// "Get Gateway Bot": the URL plus sharding advice and the session start limit.
async fn gateway_bot(State(shared): State<Arc<Shared>>) -> Json<Value> {
    let shards = shared.config.recommended_shards;
    Json(shared.read(|w| {
        json!({
            "url": w.gateway_url,
            "shards": shards,
            "session_start_limit": {
                "total": 1000,
                "remaining": 1000u64.saturating_sub(w.gateway.identifies),
                "reset_after": 86_400_000,
                "max_concurrency": 1,
            },
        })
    }))
}

async fn current_user(State(shared): State<Arc<Shared>>) -> Json<Value> {
    Json(shared.read(|w| objects::current_user(&w.users[&w.bot])))
}

#[derive(Deserialize)]
struct CreateDm {
    /// A snowflake: serenity sends it as a string, some libraries as a number.
    recipient_id: Value,
}

/// "Create DM": the bot's DM channel with a user, opened by the first call and the same channel
/// at every call after. Discord sends no event for it; the bot learns of it by this answer.
async fn create_dm(State(shared): State<Arc<Shared>>, Body(request): Body<CreateDm>) -> ApiResult {
    let recipient = interactions::snowflake(&request.recipient_id)
        .map(UserId)
        .ok_or_else(|| ApiError::invalid_form("recipient_id: not a snowflake"))?;
    shared.write(|w| {
        if !w.users.contains_key(&recipient) {
            return Err(ApiError::unknown_user());
        }
        let id = match w.dms.get(&recipient) {
            Some(&id) => id,
            None => {
                let id = ChannelId(shared.mint());
                let dm = Channel {
                    id,
                    guild: None,
                    recipient: Some(recipient),
                    name: String::new(),
                    kind: ChannelKind::Dm,
                    parent: None,
                    owner: None,
                    auto_archive_minutes: 0,
                    last_message: None,
                    message_count: 0,
                };
                w.dms.insert(recipient, id);
                w.channels.insert(id, dm);
                id
            }
        };
        Ok(Json(objects::channel(w, &w.channels[&id])))
    })
}

async fn current_application(State(shared): State<Arc<Shared>>) -> Json<Value> {
    Json(shared.read(objects::application))
}

/// Which commands a request addresses: the application's global ones, or one guild's.
fn command_scope(world: &World, app: u64, guild: Option<u64>) -> ApiResult<Option<GuildId>> {
    if app != world.application {
        return Err(ApiError::unknown_application());
    }
    match guild.map(GuildId) {
        Some(guild) if !world.guilds.contains_key(&guild) => Err(ApiError::unknown_guild()),
        scope => Ok(scope),
    }
}

fn list_scope(shared: &Shared, app: u64, guild: Option<u64>) -> ApiResult {
    shared.read(|w| {
        let scope = command_scope(w, app, guild)?;
        Ok(Json(w.commands.iter().filter(|c| c.guild == scope).map(|c| c.json.clone()).collect()))
    })
}

/// "Bulk Overwrite Global/Guild Application Commands": the request's list replaces the scope's
/// commands; a command keeps its id when its name survives.
fn overwrite_scope(shared: &Shared, app: u64, guild: Option<u64>, body: Value) -> ApiResult {
    let Value::Array(definitions) = body else { return Err(ApiError::invalid_form("expected an array of commands")) };
    shared.write(|w| {
        let scope = command_scope(w, app, guild)?;
        let mut stored = Vec::with_capacity(definitions.len());
        for definition in definitions {
            validate_command(&definition)?;
            let name = definition["name"].as_str().unwrap_or_default();
            if stored.iter().any(|c: &Command| c.name == name) {
                return Err(ApiError::invalid_form(format!("duplicate command name {name}")));
            }
            stored.push(store_command(shared, w, scope, definition));
        }
        let json = stored.iter().map(|c| c.json.clone()).collect();
        w.commands.retain(|c| c.guild != scope);
        w.commands.extend(stored);
        Ok(Json(json))
    })
}

/// "Create Global/Guild Application Command": an upsert by name; 201 when new.
fn create_in_scope(shared: &Shared, app: u64, guild: Option<u64>, definition: Value) -> ApiResult<Response> {
    shared.write(|w| {
        let scope = command_scope(w, app, guild)?;
        validate_command(&definition)?;
        let command = store_command(shared, w, scope, definition);
        let existed = w.commands.iter().position(|c| c.guild == scope && c.name == command.name);
        let status = if existed.is_some() { StatusCode::OK } else { StatusCode::CREATED };
        let json = command.json.clone();
        match existed {
            Some(index) => w.commands[index] = command,
            None => w.commands.push(command),
        }
        Ok((status, Json(json)).into_response())
    })
}

/// "Application Command Object" as Discord stores a definition: the bot's fields plus the id,
/// application, version and defaults it fills in.
fn store_command(shared: &Shared, world: &World, scope: Option<GuildId>, definition: Value) -> Command {
    let name = definition["name"].as_str().unwrap_or_default().to_owned();
    let id = world
        .commands
        .iter()
        .find(|c| c.guild == scope && c.name == name)
        .map_or_else(|| CommandId(shared.mint()), |c| c.id);
    let mut json = json!({
        "type": 1,
        "description": "",
        "options": [],
        "default_member_permissions": null,
        "nsfw": false,
    });
    json.as_object_mut().expect("a JSON object").extend(definition.as_object().cloned().unwrap_or_default());
    json["id"] = json!(id.to_string());
    json["application_id"] = json!(world.application.to_string());
    json["version"] = json!(shared.mint().to_string());
    if let Some(guild) = scope {
        json["guild_id"] = json!(guild.to_string());
    }
    Command { id, guild: scope, name, json }
}

/// The checks Discord makes on a definition ("Application Commands", Application Command
/// Naming; Application Command Option Structure): names of 1-32 lowercase letters, digits, `-`
/// and `_`; descriptions of 1-100 characters on slash commands and their options; at most 25
/// options, required ones first.
fn validate_command(definition: &Value) -> ApiResult<()> {
    let kind = definition["type"].as_u64().unwrap_or(1);
    let chat_input = kind == 1;
    check_name_and_description(definition, chat_input)?;
    if chat_input {
        check_options(&definition["options"])?;
    }
    Ok(())
}

fn check_name_and_description(item: &Value, chat_input: bool) -> ApiResult<()> {
    let name = item["name"].as_str().unwrap_or_default();
    let valid_char = |c: char| c == '-' || c == '_' || (c.is_alphanumeric() && !(chat_input && c.is_uppercase()));
    if !(1..=32).contains(&name.chars().count()) || !name.chars().all(valid_char) {
        return Err(ApiError::invalid_form(format!("name: {name:?} is not a valid command or option name")));
    }
    let description = item["description"].as_str().unwrap_or_default().chars().count();
    if chat_input && !(1..=100).contains(&description) {
        return Err(ApiError::invalid_form(format!("description of {name}: must be 1 to 100 characters")));
    }
    Ok(())
}

fn check_options(options: &Value) -> ApiResult<()> {
    let Some(options) = options.as_array() else { return Ok(()) };
    if options.len() > 25 {
        return Err(ApiError::invalid_form("options: at most 25"));
    }
    let mut optional_seen = false;
    for option in options {
        check_name_and_description(option, true)?;
        let required = option["required"].as_bool().unwrap_or(false);
        if required && optional_seen {
            return Err(ApiError::invalid_form("options: required options must come before optional ones"));
        }
        optional_seen |= !required;
        check_options(&option["options"])?;
    }
    Ok(())
}

async fn list_commands(State(shared): State<Arc<Shared>>, Path(app): Path<u64>) -> ApiResult {
    list_scope(&shared, app, None)
}

async fn overwrite_commands(State(s): State<Arc<Shared>>, Path(app): Path<u64>, Body(body): Body<Value>) -> ApiResult {
    overwrite_scope(&s, app, None, body)
}

async fn create_command(
    State(s): State<Arc<Shared>>,
    Path(app): Path<u64>,
    Body(body): Body<Value>,
) -> ApiResult<Response> {
    create_in_scope(&s, app, None, body)
}

async fn list_guild_commands(State(s): State<Arc<Shared>>, Path((app, guild)): Path<(u64, u64)>) -> ApiResult {
    list_scope(&s, app, Some(guild))
}

async fn overwrite_guild_commands(
    State(s): State<Arc<Shared>>,
    Path((app, guild)): Path<(u64, u64)>,
    Body(body): Body<Value>,
) -> ApiResult {
    overwrite_scope(&s, app, Some(guild), body)
}

async fn create_guild_command(
    State(s): State<Arc<Shared>>,
    Path((app, guild)): Path<(u64, u64)>,
    Body(body): Body<Value>,
) -> ApiResult<Response> {
    create_in_scope(&s, app, Some(guild), body)
}

async fn get_channel(State(shared): State<Arc<Shared>>, Path(channel): Path<u64>) -> ApiResult {
    shared.read(|w| {
        let channel = w.channels.get(&ChannelId(channel)).ok_or_else(ApiError::unknown_channel)?;
        Ok(Json(objects::channel(w, channel)))
    })
}

#[derive(Deserialize)]
struct ListMessages {
    limit: Option<usize>,
}

/// "Get Channel Messages": newest first, 50 unless `limit` (1-100) says otherwise.
async fn list_messages(
    State(shared): State<Arc<Shared>>,
    Path(channel): Path<u64>,
    Query(query): Query<ListMessages>,
) -> ApiResult {
    let limit = query.limit.unwrap_or(50).clamp(1, 100);
    shared.read(|w| {
        w.channel(ChannelId(channel)).map_err(|_| ApiError::unknown_channel())?;
        let newest_first = w.messages.values().rev().filter(|m| m.channel_id.get() == channel && !m.is_ephemeral());
        Ok(Json(newest_first.take(limit).map(|m| objects::message(w, m)).collect()))
    })
}

/// "Create Message".
async fn create_message(State(shared): State<Arc<Shared>>, Path(channel): Path<u64>, body: MessageBody) -> ApiResult {
    let channel = ChannelId(channel);
    shared.read(|w| {
        let channel = w.channel(channel).map_err(|_| ApiError::unknown_channel())?;
        // A user who takes no DMs from the bot (privacy settings, a block, no shared server).
        if channel.recipient.is_some_and(|user| w.dms_refused.contains(&user)) {
            return Err(ApiError::new(403, 50007, "Cannot send messages to this user"));
        }
        Ok(())
    })?;
    let bot = shared.read(|w| w.bot);
    // Discord dedupes a message sent again with the same nonce when `enforce_nonce` is set
    // (for a few minutes; here for the fake's life): the first message comes back.
    let nonce = match &body.payload["nonce"] {
        Value::String(text) => Some(text.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    };
    let enforced = nonce.filter(|_| body.payload["enforce_nonce"].as_bool() == Some(true));
    let message = messages::compose(&shared, channel, bot, body, None)?;
    Ok(Json(shared.write(|w| {
        if let Some(nonce) = enforced {
            if let Some(first) = w.nonces.get(&(bot, nonce.clone())).and_then(|id| w.messages.get(id)) {
                return objects::message(w, first);
            }
            w.nonces.insert((bot, nonce), message.id);
        }
        messages::publish(w, message)
    })))
}

async fn get_message(State(shared): State<Arc<Shared>>, Path((channel, message)): Path<(u64, u64)>) -> ApiResult {
    shared.read(|w| {
        let message = w.messages.get(&MessageId(message)).filter(|m| m.channel_id.get() == channel);
        Ok(Json(objects::message(w, message.ok_or_else(ApiError::unknown_message)?)))
    })
}

/// "Edit Message": only the bot's own messages.
async fn edit_message(
    State(shared): State<Arc<Shared>>,
    Path((channel, message)): Path<(u64, u64)>,
    body: MessageBody,
) -> ApiResult {
    let id = MessageId(message);
    let mut edited = shared.read(|w| {
        let message =
            w.messages.get(&id).filter(|m| m.channel_id.get() == channel).ok_or_else(ApiError::unknown_message)?;
        if message.author != w.bot {
            return Err(ApiError::new(403, 50005, "Cannot edit a message authored by another user"));
        }
        Ok(message.clone())
    })?;
    messages::edit(&shared, &mut edited, body)?;
    Ok(Json(shared.write(|w| {
        w.messages.insert(id, edited);
        messages::publish_edit(w, id)
    })))
}

async fn delete_message(
    State(shared): State<Arc<Shared>>,
    Path((channel, message)): Path<(u64, u64)>,
) -> ApiResult<StatusCode> {
    shared.write(|w| {
        let id = MessageId(message);
        w.messages.get(&id).filter(|m| m.channel_id.get() == channel).ok_or_else(ApiError::unknown_message)?;
        messages::delete(w, id);
        Ok(StatusCode::NO_CONTENT)
    })
}

#[derive(Deserialize)]
struct StartThread {
    name: String,
    auto_archive_duration: Option<u64>,
    #[serde(rename = "type")]
    kind: Option<u8>,
}

impl StartThread {
    /// Thread names are 1-100 characters; archive durations are 60, 1440, 4320 or 10080 minutes.
    fn validate(&self) -> ApiResult<u64> {
        if !(1..=100).contains(&self.name.chars().count()) {
            return Err(ApiError::invalid_form("name: must be 1 to 100 characters"));
        }
        match self.auto_archive_duration.unwrap_or(4320) {
            minutes @ (60 | 1440 | 4320 | 10080) => Ok(minutes),
            other => Err(ApiError::invalid_form(format!("auto_archive_duration: {other} is not a valid duration"))),
        }
    }
}

/// A text channel (not a thread) to start a thread in.
fn thread_parent(world: &World, channel: ChannelId) -> ApiResult<&Channel> {
    if world.threads_forbidden {
        return Err(ApiError::new(403, 50013, "Missing Permissions"));
    }
    let parent = world.channels.get(&channel).ok_or_else(ApiError::unknown_channel)?;
    if parent.kind != ChannelKind::GuildText {
        return Err(ApiError::new(400, 50024, "Cannot execute action on this channel type"));
    }
    Ok(parent)
}

/// "Start Thread from Message": a public thread whose id is the message's.
async fn thread_from_message(
    State(shared): State<Arc<Shared>>,
    Path((channel, message)): Path<(u64, u64)>,
    Body(request): Body<StartThread>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let minutes = request.validate()?;
    let thread = shared.write(|w| {
        let parent = thread_parent(w, ChannelId(channel))?;
        w.messages
            .get(&MessageId(message))
            .filter(|m| m.channel_id == parent.id)
            .ok_or_else(ApiError::unknown_message)?;
        if w.channels.contains_key(&ChannelId(message)) {
            return Err(ApiError::new(400, 160004, "A thread has already been created for this message"));
        }
        let thread = Channel {
            id: ChannelId(message),
            guild: parent.guild,
            recipient: None,
            name: request.name,
            kind: ChannelKind::PublicThread,
            parent: Some(parent.id),
            owner: Some(w.bot),
            auto_archive_minutes: minutes,
            last_message: None,
            message_count: 0,
        };
        Ok(open_thread(w, thread))
    })?;
    Ok((StatusCode::CREATED, Json(thread)))
}

/// "Start Thread without Message": `type` 11 public or 12 private, and private when absent (the
/// documented default in API v9 and v10).
async fn thread_without_message(
    State(shared): State<Arc<Shared>>,
    Path(channel): Path<u64>,
    Body(request): Body<StartThread>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let minutes = request.validate()?;
    let kind = match request.kind {
        Some(11) => ChannelKind::PublicThread,
        Some(12) | None => ChannelKind::PrivateThread,
        Some(other) => return Err(ApiError::invalid_form(format!("type: {other} is not a thread type"))),
    };
    let id = ChannelId(shared.mint());
    let thread = shared.write(|w| {
        let parent = thread_parent(w, ChannelId(channel))?;
        let thread = Channel {
            id,
            guild: parent.guild,
            recipient: None,
            name: request.name,
            kind,
            parent: Some(parent.id),
            owner: Some(w.bot),
            auto_archive_minutes: minutes,
            last_message: None,
            message_count: 0,
        };
        Ok(open_thread(w, thread))
    })?;
    Ok((StatusCode::CREATED, Json(thread)))
}

/// Stores a thread and announces it ("Gateway Events", Thread Create, with `newly_created`).
fn open_thread(world: &mut World, thread: Channel) -> Value {
    let json = objects::channel(world, &thread);
    let mut event = json.clone();
    event["newly_created"] = json!(true);
    let guild = thread.guild;
    world.channels.insert(thread.id, thread);
    world.dispatch(guild, "THREAD_CREATE", event, Some(intents::GUILDS), None);
    json
}

/// The fake's CDN: attachment URLs point here.
async fn attachment_bytes(
    State(shared): State<Arc<Shared>>,
    Path((channel, attachment, _filename)): Path<(u64, u64, String)>,
) -> Response {
    let found = shared.read(|w| {
        w.messages
            .values()
            .filter(|m| m.channel_id.get() == channel)
            .flat_map(|m| &m.attachments)
            .find_map(|a| (a.id == AttachmentId(attachment)).then(|| (a.content_type.clone(), a.bytes.clone())))
    });
    match found {
        Some((content_type, bytes)) => {
            let content_type = content_type.unwrap_or_else(|| "application/octet-stream".into());
            ([(CONTENT_TYPE, content_type)], bytes).into_response()
        }
        None => (StatusCode::NOT_FOUND, "404: Not Found").into_response(),
    }
}
