//! Interactions both ways: the INTERACTION_CREATE events a test makes a user trigger, and the
//! routes by which the bot answers ("Receiving and Responding"): the callback, follow-ups, and
//! the original response by its webhook.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use base64::Engine as _;
use serde_json::{json, Map, Value};

use crate::ids::{ChannelId, GuildId, InteractionId, MessageId, UserId};
use crate::messages::{self, LOADING};
use crate::multipart::MessageBody;
use crate::objects;
use crate::rest::{ApiError, ApiResult};
use crate::state::{CallbackType, Interaction, InteractionKind, Message, Shared, World};
use crate::Error;

pub(crate) fn routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/interactions/{id}/{token}/callback", post(callback))
        .route("/webhooks/{app}/{token}", post(followup))
        .route(
            "/webhooks/{app}/{token}/messages/{message}",
            get(get_response_message).patch(edit_response_message).delete(delete_response_message),
        )
}

fn unknown_interaction() -> ApiError {
    ApiError::new(404, 10062, "Unknown interaction")
}

fn already_acknowledged() -> ApiError {
    ApiError::new(400, 40060, "Interaction has already been acknowledged.")
}

fn unknown_webhook() -> ApiError {
    ApiError::new(404, 10015, "Unknown Webhook")
}

/// "Create Interaction Response". Discord takes one callback per interaction, of a type that
/// fits the interaction, within the deadline (three seconds); anything else is refused as Discord
/// refuses it, so a bot that is slow or answers twice fails here as it would in production.
async fn callback(
    State(shared): State<Arc<Shared>>,
    Path((id, token)): Path<(u64, String)>,
    body: MessageBody,
) -> ApiResult<StatusCode> {
    let now = Instant::now();
    let id = InteractionId(id);
    let kind = body.payload["type"].as_u64().and_then(CallbackType::from_code);
    let kind = kind.ok_or_else(|| ApiError::invalid_form("type: not an interaction callback type"))?;
    let interaction = shared.read(|w| {
        let interaction = w.interactions.get(&id).filter(|i| i.token == token).ok_or_else(unknown_interaction)?;
        let waited = now.saturating_duration_since(interaction.dispatched.unwrap_or(interaction.created));
        if interaction.callback.is_some() {
            Err(already_acknowledged())
        } else if waited > shared.config.interaction_deadline {
            Err(unknown_interaction())
        } else if !kind.answers(interaction.kind) {
            Err(ApiError::invalid_form(format!("type: {kind:?} cannot answer a {:?} interaction", interaction.kind)))
        } else {
            Ok(interaction.clone())
        }
    })?;
    let data = body.payload.get("data").cloned().unwrap_or_else(|| json!({}));
    let content = MessageBody { payload: data, files: body.files };
    let bot = shared.read(|w| w.bot);

    // Build whatever message the callback makes before taking the lock for the acknowledgement.
    let change = match kind {
        CallbackType::ChannelMessageWithSource => {
            Change::Post(messages::compose(&shared, interaction.channel, bot, content, Some(id))?)
        }
        CallbackType::DeferredChannelMessageWithSource => {
            // The "thinking" placeholder the first follow-up or edit will fill.
            let ephemeral = content.payload["flags"].as_u64().unwrap_or(0) & Message::EPHEMERAL;
            Change::Post(Message {
                id: MessageId(shared.mint()),
                channel_id: interaction.channel,
                author: bot,
                content: String::new(),
                embeds: Vec::new(),
                components: Vec::new(),
                attachments: Vec::new(),
                flags: ephemeral | LOADING,
                interaction: Some(id),
                edited_at: None,
            })
        }
        CallbackType::UpdateMessage => {
            let source = interaction.source_message.expect("component interactions carry their message");
            let mut message =
                shared.read(|w| w.messages.get(&source).cloned()).ok_or_else(ApiError::unknown_message)?;
            messages::edit(&shared, &mut message, content)?;
            Change::Update(message)
        }
        CallbackType::AutocompleteResult => {
            let choices = content.payload["choices"].as_array().cloned().unwrap_or_default();
            if choices.len() > 25 {
                return Err(ApiError::invalid_form("choices: at most 25"));
            }
            Change::Choices(choices)
        }
        CallbackType::DeferredUpdateMessage | CallbackType::Modal => Change::Nothing,
    };

    shared.write(|w| {
        let record = w.interactions.get_mut(&id).expect("interactions are never removed");
        if record.callback.is_some() {
            // Another callback won the race since the check above.
            return Err(already_acknowledged());
        }
        record.callback = Some((kind, now));
        record.original = record.source_message;
        match change {
            Change::Post(message) => {
                record.original = Some(message.id);
                messages::publish(w, message);
            }
            Change::Update(message) => {
                let message_id = message.id;
                w.messages.insert(message_id, message);
                messages::publish_edit(w, message_id);
            }
            Change::Choices(choices) => record.choices = choices,
            Change::Nothing => {}
        }
        Ok(StatusCode::NO_CONTENT)
    })
}

/// What a callback does to the world, prepared outside the lock.
enum Change {
    Post(Message),
    Update(Message),
    Choices(Vec<Value>),
    Nothing,
}

/// The acknowledged interaction an interaction webhook (application id plus token) belongs to.
fn interaction_for_webhook(world: &World, app: u64, token: &str) -> ApiResult<Interaction> {
    let id = world.interaction_tokens.get(token).filter(|_| app == world.application).ok_or_else(unknown_webhook)?;
    let interaction = &world.interactions[id];
    // The webhook exists once the interaction is acknowledged.
    interaction.callback.ok_or_else(unknown_webhook)?;
    Ok(interaction.clone())
}

/// Whether the interaction's placeholder still waits for its content.
fn awaiting_completion(interaction: &Interaction) -> bool {
    let deferred = interaction.callback.is_some_and(|(kind, _)| kind == CallbackType::DeferredChannelMessageWithSource);
    deferred && interaction.completed.is_none()
}

/// "Create Followup Message". After a deferred callback the first follow-up replaces the
/// "thinking" placeholder, keeping the ephemerality chosen when deferring.
async fn followup(
    State(shared): State<Arc<Shared>>,
    Path((app, token)): Path<(u64, String)>,
    body: MessageBody,
) -> ApiResult {
    let interaction = shared.read(|w| interaction_for_webhook(w, app, &token))?;
    if awaiting_completion(&interaction) {
        let placeholder = interaction.original.expect("a deferred callback posts a placeholder");
        return edit_original(&shared, interaction.id, placeholder, body);
    }
    let bot = shared.read(|w| w.bot);
    let message = messages::compose(&shared, interaction.channel, bot, body, Some(interaction.id))?;
    Ok(Json(shared.write(|w| {
        let record = w.interactions.get_mut(&interaction.id).expect("interactions are never removed");
        record.followups.push(message.id);
        messages::publish(w, message)
    })))
}

/// The message a webhook route names: `@original`, or one of the interaction's follow-ups.
fn response_message(world: &World, app: u64, token: &str, message: &str) -> ApiResult<(Interaction, MessageId)> {
    let interaction = interaction_for_webhook(world, app, token)?;
    let id = if message == "@original" {
        interaction.original
    } else {
        message
            .parse()
            .ok()
            .map(MessageId)
            .filter(|id| interaction.original == Some(*id) || interaction.followups.contains(id))
    };
    let id = id.filter(|id| world.messages.contains_key(id)).ok_or_else(ApiError::unknown_message)?;
    Ok((interaction, id))
}

/// "Get Original Interaction Response" and "Get Followup Message".
async fn get_response_message(
    State(shared): State<Arc<Shared>>,
    Path((app, token, message)): Path<(u64, String, String)>,
) -> ApiResult {
    shared.read(|w| {
        let (_, id) = response_message(w, app, &token, &message)?;
        Ok(Json(objects::message(w, &w.messages[&id])))
    })
}

/// "Edit Original Interaction Response" and "Edit Followup Message".
async fn edit_response_message(
    State(shared): State<Arc<Shared>>,
    Path((app, token, message)): Path<(u64, String, String)>,
    body: MessageBody,
) -> ApiResult {
    let (interaction, id) = shared.read(|w| response_message(w, app, &token, &message))?;
    edit_original(&shared, interaction.id, id, body)
}

/// Edits a response message; the first edit of `@original` after a deferral completes the answer.
fn edit_original(shared: &Shared, interaction: InteractionId, id: MessageId, body: MessageBody) -> ApiResult {
    let mut message = shared.read(|w| w.messages.get(&id).cloned()).ok_or_else(ApiError::unknown_message)?;
    messages::edit(shared, &mut message, body)?;
    let now = Instant::now();
    Ok(Json(shared.write(|w| {
        w.messages.insert(id, message);
        let record = w.interactions.get_mut(&interaction).expect("interactions are never removed");
        let deferred = record.callback.is_some_and(|(kind, _)| kind.is_deferred());
        if deferred && record.original == Some(id) && record.completed.is_none() {
            record.completed = Some(now);
        }
        messages::publish_edit(w, id)
    })))
}

/// "Delete Original Interaction Response" and "Delete Followup Message".
async fn delete_response_message(
    State(shared): State<Arc<Shared>>,
    Path((app, token, message)): Path<(u64, String, String)>,
) -> ApiResult<StatusCode> {
    shared.write(|w| {
        let (_, id) = response_message(w, app, &token, &message)?;
        messages::delete(w, id);
        Ok(StatusCode::NO_CONTENT)
    })
}

/// What the test asks a user to do.
pub(crate) struct Trigger {
    pub kind: InteractionKind,
    pub user: UserId,
    /// Where; a component interaction happens where its message is.
    pub channel: Option<ChannelId>,
    pub source_message: Option<MessageId>,
}

/// Sends INTERACTION_CREATE for a trigger, with the `data` that `data` builds from the world
/// and the channel, and returns the handle to watch the bot's answer.
pub(crate) fn trigger(
    shared: &Arc<Shared>,
    trigger: Trigger,
    data: impl FnOnce(&World, ChannelId) -> Result<Value, Error>,
) -> Result<InteractionHandle, Error> {
    let id = InteractionId(shared.mint());
    // "Interaction Object": the token is an opaque string, valid for 15 minutes.
    let token = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(format!("interaction:{id}:fakecord"));
    shared.write(|w| {
        w.user(trigger.user)?;
        let source =
            trigger.source_message.map(|m| w.messages.get(&m).ok_or(Error::Invalid(format!("no message {m}"))));
        let source = source.transpose()?;
        let channel = match (trigger.channel, source) {
            (Some(channel), _) => channel,
            (None, Some(message)) => message.channel_id,
            (None, None) => return Err(Error::Invalid("an interaction needs a channel".into())),
        };
        let guild = w.interaction_guild(channel)?;
        // The shard that holds the guild receives the interaction; it must be connected.
        if !w.sessions.contains_key(&w.shard_for(Some(guild))) {
            return Err(Error::NoSession);
        }
        let data = data(w, channel)?;
        let interaction = Interaction {
            id,
            token: token.clone(),
            kind: trigger.kind,
            channel,
            user: trigger.user,
            source_message: trigger.source_message,
            created: Instant::now(),
            dispatched: None,
            callback: None,
            original: None,
            completed: None,
            followups: Vec::new(),
            choices: Vec::new(),
        };
        let json = objects::interaction(w, &interaction, data, source);
        w.interaction_tokens.insert(token, id);
        w.interactions.insert(id, interaction);
        w.dispatch(Some(guild), "INTERACTION_CREATE", json, None, Some(id));
        Ok(())
    })?;
    Ok(InteractionHandle { id, shared: Arc::clone(shared) })
}

/// The `data` of an APPLICATION_COMMAND or APPLICATION_COMMAND_AUTOCOMPLETE interaction
/// ("Interaction Object", Application Command Data Structure), typed by the registered command.
///
/// `invocation` is what the user typed before the options: `"ping"`, or `"game move"` for a
/// subcommand. `args` maps option names to values; the registered option types decide how each
/// is sent (user and channel options as snowflakes with their `resolved` objects), and Discord's
/// client-side checks apply: known names, required options present, values among the choices and
/// within the bounds.
pub(crate) fn command_data(
    world: &World,
    channel: ChannelId,
    invocation: &str,
    args: &Value,
    focused: Option<&str>,
) -> Result<Value, Error> {
    let guild = world.interaction_guild(channel)?;
    let mut words = invocation.split_whitespace();
    let root = words.next().ok_or_else(|| Error::Invalid("an empty command name".into()))?;
    let command = world
        .command_named(guild, root)
        .ok_or_else(|| Error::Invalid(format!("the bot registered no command /{root} for this guild")))?;
    let Value::Object(args) = args else {
        return Err(Error::Invalid("command arguments must be a JSON object of option names to values".into()));
    };
    let path: Vec<&str> = words.collect();
    let mut resolved = Resolved::default();
    let options = Options { world, guild, args, focused, resolved: &mut resolved };
    let options = options.at(&command.json["options"], &path)?;
    let mut data = json!({ "id": command.id.to_string(), "name": root, "type": 1, "options": options });
    if let Some(guild) = command.guild {
        data["guild_id"] = json!(guild.to_string());
    }
    if !resolved.is_empty() {
        data["resolved"] = resolved.into_json();
    }
    Ok(data)
}

/// The objects that option values refer to ("Interaction Object", Resolved Data Structure).
#[derive(Default)]
struct Resolved {
    users: Map<String, Value>,
    members: Map<String, Value>,
    channels: Map<String, Value>,
}

impl Resolved {
    fn is_empty(&self) -> bool {
        self.users.is_empty() && self.channels.is_empty()
    }

    fn into_json(self) -> Value {
        let mut json = json!({});
        for (key, map) in [("users", self.users), ("members", self.members), ("channels", self.channels)] {
            if !map.is_empty() {
                json[key] = Value::Object(map);
            }
        }
        json
    }
}

struct Options<'a> {
    world: &'a World,
    guild: GuildId,
    args: &'a Map<String, Value>,
    focused: Option<&'a str>,
    resolved: &'a mut Resolved,
}

/// Application command option types ("Application Command Object", Option Type).
mod option_type {
    pub const SUB_COMMAND: u64 = 1;
    pub const SUB_COMMAND_GROUP: u64 = 2;
    pub const STRING: u64 = 3;
    pub const INTEGER: u64 = 4;
    pub const BOOLEAN: u64 = 5;
    pub const USER: u64 = 6;
    pub const CHANNEL: u64 = 7;
    pub const MENTIONABLE: u64 = 9;
    pub const NUMBER: u64 = 10;
}

impl Options<'_> {
    /// The options at one level of the command's tree, descending into the named subcommands.
    fn at(mut self, schema: &Value, path: &[&str]) -> Result<Vec<Value>, Error> {
        use option_type::*;
        let schema = schema.as_array().map(Vec::as_slice).unwrap_or_default();
        let is_group = |o: &Value| matches!(o["type"].as_u64(), Some(SUB_COMMAND | SUB_COMMAND_GROUP));
        if let Some((sub, rest)) = path.split_first() {
            let definition = schema
                .iter()
                .find(|o| is_group(o) && o["name"] == *sub)
                .ok_or_else(|| Error::Invalid(format!("no subcommand {sub}")))?;
            let inner = self.at(&definition["options"], rest)?;
            return Ok(vec![json!({ "name": sub, "type": definition["type"], "options": inner })]);
        }
        if schema.iter().any(is_group) {
            return Err(Error::Invalid("this command needs a subcommand".into()));
        }
        if let Some(unknown) = self.args.keys().find(|k| !schema.iter().any(|o| o["name"] == k.as_str())) {
            return Err(Error::Invalid(format!("the command has no option {unknown}")));
        }
        let mut options = Vec::new();
        for definition in schema {
            let name = definition["name"].as_str().unwrap_or_default();
            let Some(value) = self.args.get(name) else {
                // Autocomplete fires while the user is still typing: required options may be missing.
                if definition["required"] == true && self.focused.is_none() {
                    return Err(Error::Invalid(format!("option {name} is required")));
                }
                continue;
            };
            let kind = definition["type"].as_u64().unwrap_or_default();
            let mut option = json!({ "name": name, "type": kind });
            if self.focused == Some(name) {
                if definition["autocomplete"] != true {
                    return Err(Error::Invalid(format!("option {name} has no autocomplete")));
                }
                // The focused option carries the partial text as typed ("Autocomplete").
                option["value"] = json!(value.as_str().map_or_else(|| value.to_string(), str::to_owned));
                option["focused"] = json!(true);
            } else {
                option["value"] = self.typed(definition, name, kind, value)?;
            }
            options.push(option);
        }
        if let Some(focused) = self.focused {
            if !self.args.contains_key(focused) {
                return Err(Error::Invalid(format!("the focused option {focused} has no value")));
            }
        }
        Ok(options)
    }

    /// One option's value as Discord sends it, checked as Discord's client checks it.
    fn typed(&mut self, definition: &Value, name: &str, kind: u64, value: &Value) -> Result<Value, Error> {
        use option_type::*;
        let wrong = || Error::Invalid(format!("option {name} of type {kind} cannot be {value}"));
        let typed = match kind {
            STRING => {
                let text = value.as_str().ok_or_else(wrong)?;
                let length = text.chars().count() as u64;
                let min = definition["min_length"].as_u64().unwrap_or(0);
                let max = definition["max_length"].as_u64().unwrap_or(6000);
                if !(min..=max).contains(&length) {
                    return Err(Error::Invalid(format!("option {name} must be {min} to {max} characters")));
                }
                json!(text)
            }
            INTEGER => json!(value.as_i64().ok_or_else(wrong)?),
            NUMBER => json!(value.as_f64().ok_or_else(wrong)?),
            BOOLEAN => json!(value.as_bool().ok_or_else(wrong)?),
            USER | MENTIONABLE => {
                let user = UserId(snowflake(value).ok_or_else(wrong)?);
                let user = self.world.user(user)?;
                let guild = &self.world.guilds[&self.guild];
                let mut member = objects::member(guild, user);
                if let Some(member) = member.as_object_mut() {
                    member.remove("user");
                    member.remove("deaf");
                    member.remove("mute");
                }
                self.resolved.users.insert(user.id.to_string(), objects::user(user));
                self.resolved.members.insert(user.id.to_string(), member);
                json!(user.id.to_string())
            }
            CHANNEL => {
                let channel = self.world.channel(ChannelId(snowflake(value).ok_or_else(wrong)?))?;
                let mut partial = objects::channel(self.world, channel);
                partial["permissions"] = json!("0");
                self.resolved.channels.insert(channel.id.to_string(), partial);
                json!(channel.id.to_string())
            }
            other => return Err(Error::Invalid(format!("option {name}: the fake does not model option type {other}"))),
        };
        if let Some(number) = typed.as_f64() {
            let below = definition["min_value"].as_f64().is_some_and(|min| number < min);
            let above = definition["max_value"].as_f64().is_some_and(|max| number > max);
            if below || above {
                return Err(Error::Invalid(format!("option {name} is out of its bounds")));
            }
        }
        // An empty `choices` (poise sends one) means none, as on Discord.
        if let Some(choices) = definition["choices"].as_array().filter(|c| !c.is_empty()) {
            if !choices.iter().any(|c| c["value"] == typed) {
                return Err(Error::Invalid(format!("option {name} must be one of its choices")));
            }
        }
        Ok(typed)
    }
}

/// A snowflake given as a number or a string.
pub(crate) fn snowflake(value: &Value) -> Option<u64> {
    value.as_u64().or_else(|| value.as_str()?.parse().ok())
}

/// The `data` of a MESSAGE_COMPONENT interaction ("Interaction Object", Message Component Data
/// Structure), for a component that is on the message and enabled.
pub(crate) fn component_data(
    world: &World,
    message: MessageId,
    custom_id: &str,
    values: Option<&[&str]>,
) -> Result<Value, Error> {
    let message = world.messages.get(&message).ok_or_else(|| Error::Invalid(format!("no message {message}")))?;
    let component = message
        .components()
        .into_iter()
        .find(|c| c.custom_id.as_deref() == Some(custom_id))
        .ok_or_else(|| Error::Invalid(format!("message {} has no component {custom_id:?}", message.id)))?;
    if component.disabled {
        return Err(Error::Invalid(format!("component {custom_id:?} is disabled")));
    }
    let mut data = json!({ "custom_id": custom_id, "component_type": component.kind });
    match (component.kind, values) {
        (2, None) => {}
        (3, Some(values)) => data["values"] = json!(values),
        (2, Some(_)) => return Err(Error::Invalid(format!("{custom_id:?} is a button: click it"))),
        _ => return Err(Error::Invalid(format!("{custom_id:?} is not a button or a string select"))),
    }
    Ok(data)
}

/// The bot's answer to an interaction, as it stands when complete.
#[derive(Clone, Debug)]
pub struct Response {
    pub callback: CallbackType,
    /// The message the answer shows: the reply, or the updated message a component sits on.
    pub message: Message,
    /// From INTERACTION_CREATE reaching the bot's socket to the callback.
    pub latency: Duration,
}

/// An autocomplete suggestion ("Application Command Object", Application Command Option Choice).
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub name: String,
    pub value: Value,
}

/// One interaction the fake sent; awaits the bot's answer.
#[derive(Clone)]
pub struct InteractionHandle {
    id: InteractionId,
    shared: Arc<Shared>,
}

impl InteractionHandle {
    pub fn id(&self) -> InteractionId {
        self.id
    }

    /// Waits for the callback, however it answered.
    pub async fn callback(&self) -> Result<(CallbackType, Duration), Error> {
        let timing = self
            .shared
            .wait_for(format!("a callback to interaction {}", self.id), |w| w.interactions[&self.id].timing())
            .await?;
        Ok((timing.callback, timing.acknowledged))
    }

    /// Waits for the complete answer: the reply or updated message, after any deferral is filled.
    pub async fn response(&self) -> Result<Response, Error> {
        self.shared
            .wait_for(format!("the response to interaction {}", self.id), |w| {
                let interaction = &w.interactions[&self.id];
                let timing = interaction.timing()?;
                if matches!(timing.callback, CallbackType::AutocompleteResult | CallbackType::Modal) {
                    return Some(Err(Error::Invalid(format!(
                        "interaction {} was answered with {:?}",
                        self.id, timing.callback
                    ))));
                }
                timing.answered?;
                let message = w.messages.get(&interaction.original?)?.clone();
                Some(Ok(Response { callback: timing.callback, message, latency: timing.acknowledged }))
            })
            .await?
    }

    /// Waits for the autocomplete choices.
    pub async fn choices(&self) -> Result<Vec<Choice>, Error> {
        let choices = self
            .shared
            .wait_for(format!("autocomplete choices for interaction {}", self.id), |w| {
                let interaction = &w.interactions[&self.id];
                interaction.callback.map(|_| interaction.choices.clone())
            })
            .await?;
        Ok(choices
            .into_iter()
            .map(|c| Choice { name: c["name"].as_str().unwrap_or_default().to_owned(), value: c["value"].clone() })
            .collect())
    }

    /// Waits until the bot has sent `count` follow-up messages, and returns them in order.
    pub async fn followups(&self, count: usize) -> Result<Vec<Message>, Error> {
        self.shared
            .wait_for(format!("{count} follow-ups to interaction {}", self.id), |w| {
                let followups = &w.interactions[&self.id].followups;
                let present: Vec<Message> = followups.iter().filter_map(|id| w.messages.get(id).cloned()).collect();
                (present.len() >= count).then_some(present)
            })
            .await
    }
}
