//! The gateway: a WebSocket at `/gateway` that speaks Discord's protocol ("Gateway").
//!
//! A connection says HELLO, takes IDENTIFY (a new session: READY, then GUILD_CREATE per guild)
//! or RESUME (the session's missed events, then RESUMED), acknowledges heartbeats, and delivers
//! the session's dispatches in order. Dispatches live in the session's log, not in the connection,
//! so events raised while the bot is away wait there for its RESUME, as Discord keeps them.
//!
//! Compression ("Gateway", Compression): with `?compress=zlib-stream` every frame is a chunk of
//! one zlib stream ending in a sync flush; otherwise, if IDENTIFY sets `compress: true`, each
//! payload after it is a complete zlib buffer in a binary frame. serenity 0.12 takes the second.

use std::io::Write as _;
use std::sync::Arc;
use std::time::Instant;

use axum::extract::ws::{CloseFrame, Message as Frame, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::response::Response;
use flate2::write::ZlibEncoder;
use flate2::{Compress, Compression as Level, FlushCompress};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::objects;
use crate::state::{intents, Control, Session, Shared, World};

/// Gateway opcodes ("Opcodes and Status Codes", Gateway Opcodes).
mod op {
    pub const HEARTBEAT: u64 = 1;
    pub const IDENTIFY: u64 = 2;
    pub const PRESENCE_UPDATE: u64 = 3;
    pub const VOICE_STATE_UPDATE: u64 = 4;
    pub const RESUME: u64 = 6;
    pub const RECONNECT: u64 = 7;
    pub const REQUEST_GUILD_MEMBERS: u64 = 8;
    pub const INVALID_SESSION: u64 = 9;
    pub const HELLO: u64 = 10;
    pub const HEARTBEAT_ACK: u64 = 11;
    pub const REQUEST_SOUNDBOARD_SOUNDS: u64 = 31;
}

/// Gateway close event codes ("Opcodes and Status Codes").
mod close {
    pub const UNKNOWN_OPCODE: u16 = 4001;
    pub const DECODE_ERROR: u16 = 4002;
    pub const NOT_AUTHENTICATED: u16 = 4003;
    pub const AUTHENTICATION_FAILED: u16 = 4004;
    pub const ALREADY_AUTHENTICATED: u16 = 4005;
    pub const INVALID_SHARD: u16 = 4010;
    pub const INVALID_API_VERSION: u16 = 4012;
    pub const INVALID_INTENTS: u16 = 4013;
    pub const DISALLOWED_INTENTS: u16 = 4014;
}

/// The gateway version the fake speaks, as serenity asks for it with `?v=10`.
const VERSION: u64 = 10;

#[derive(Deserialize)]
pub(crate) struct ConnectQuery {
    v: Option<u64>,
    encoding: Option<String>,
    compress: Option<String>,
}

pub(crate) async fn upgrade(
    socket: WebSocketUpgrade,
    Query(query): Query<ConnectQuery>,
    State(shared): State<Arc<Shared>>,
) -> Response {
    socket.on_upgrade(move |socket| Connection::open(shared, socket, query))
}

/// How frames leave this connection.
enum Compression {
    None,
    /// Each payload its own zlib buffer.
    Payload,
    /// One zlib stream for the connection's lifetime.
    Stream(Box<Compress>),
}

/// Why a connection stops.
enum Stop {
    /// Send a close frame with a gateway close code.
    Close(u16, &'static str),
    /// Vanish without a close frame, as a network failure would.
    Drop,
    /// The peer went away, or the fake is shutting down.
    Ended,
}

struct Connection {
    shared: Arc<Shared>,
    socket: WebSocket,
    id: u64,
    compression: Compression,
    /// The last seq this connection wrote.
    cursor: u64,
    /// Whether this connection identified or resumed.
    authenticated: bool,
}

impl Connection {
    async fn open(shared: Arc<Shared>, socket: WebSocket, query: ConnectQuery) {
        let id = shared.write(|w| {
            w.gateway.connections += 1;
            w.next_connection += 1;
            w.next_connection
        });
        let compression = match query.compress.as_deref() {
            Some("zlib-stream") => Compression::Stream(Box::new(Compress::new(Level::fast(), true))),
            _ => Compression::None,
        };
        let mut connection = Connection { shared, socket, id, compression, cursor: 0, authenticated: false };
        let stop = match connection.check_query(&query) {
            Err(stop) => stop,
            Ok(()) => connection.serve().await,
        };
        connection.finish(stop).await;
    }

    fn check_query(&self, query: &ConnectQuery) -> Result<(), Stop> {
        if query.v.is_some_and(|v| v != VERSION) {
            return Err(Stop::Close(close::INVALID_API_VERSION, "Invalid API version."));
        }
        if query.encoding.as_deref().is_some_and(|e| e != "json") {
            return Err(Stop::Close(close::DECODE_ERROR, "The fake gateway speaks only JSON."));
        }
        Ok(())
    }

    async fn serve(&mut self) -> Stop {
        let interval = self.shared.config.heartbeat_interval.as_millis() as u64;
        let hello = json!({ "op": op::HELLO, "d": { "heartbeat_interval": interval }, "s": null, "t": null });
        if self.send(&hello.to_string()).await.is_err() {
            return Stop::Ended;
        }
        let mut changes = self.shared.subscribe();
        loop {
            if let Err(stop) = self.on_change().await {
                return stop;
            }
            let frame = tokio::select! {
                frame = self.socket.recv() => Some(frame),
                changed = changes.changed() => match changed {
                    Ok(()) => None,
                    Err(_) => return Stop::Ended,
                },
            };
            let result = match frame {
                None => continue,
                Some(Some(Ok(Frame::Text(text)))) => self.receive(text.as_str()).await,
                Some(Some(Ok(Frame::Binary(_)))) => {
                    Err(Stop::Close(close::DECODE_ERROR, "Error while decoding payload."))
                }
                Some(Some(Ok(Frame::Ping(_) | Frame::Pong(_)))) => Ok(()),
                Some(Some(Ok(Frame::Close(_)) | Err(_)) | None) => Err(Stop::Ended),
            };
            if let Err(stop) = result {
                return stop;
            }
        }
    }

    async fn finish(mut self, stop: Stop) {
        if let Stop::Close(code, reason) = stop {
            let frame = CloseFrame { code, reason: reason.into() };
            // The peer may already be gone; a close frame is a courtesy.
            let _ = self.socket.send(Frame::Close(Some(frame))).await;
        }
        self.shared.write(|w| {
            w.controls.remove(&self.id);
            detach(w, self.id);
        });
    }

    /// Acts on the test's requests for this connection, then delivers pending dispatches.
    async fn on_change(&mut self) -> Result<(), Stop> {
        let (closed, has_control) = self.shared.read(|w| (w.closed, w.controls.contains_key(&self.id)));
        if closed {
            return Err(Stop::Ended);
        }
        if has_control {
            match self.shared.write(|w| w.controls.remove(&self.id)) {
                Some(Control::Reconnect) => {
                    // The session waits, detached, for the bot's RESUME on a new connection.
                    self.shared.write(|w| detach(w, self.id));
                    self.send_op(op::RECONNECT, Value::Null).await?;
                }
                Some(Control::Drop) => return Err(Stop::Drop),
                Some(Control::Invalidate) => {
                    let id = self.id;
                    self.shared.write(|w| w.sessions.retain(|_, s| s.connection != Some(id)));
                    self.authenticated = false;
                    self.send_op(op::INVALID_SESSION, json!(false)).await?;
                }
                None => {}
            }
        }
        self.flush().await
    }

    /// Writes the session's dispatches this connection has not yet written.
    async fn flush(&mut self) -> Result<(), Stop> {
        let pending: Vec<_> = self.shared.read(|w| {
            match w.sessions.values().find(|s| s.connection == Some(self.id)) {
                Some(session) => {
                    // The log is in seq order.
                    let unsent = session.log.partition_point(|d| d.seq <= self.cursor);
                    session.log.range(unsent..).cloned().collect()
                }
                None => Vec::new(),
            }
        });
        if pending.is_empty() {
            return Ok(());
        }
        for dispatch in &pending {
            if let Some(interaction) = dispatch.interaction {
                // Stamped before the write, so the bot's answer can never precede it: latencies
                // and the callback deadline count from here, the first delivery.
                let now = Instant::now();
                self.shared.write(|w| {
                    if let Some(interaction) = w.interactions.get_mut(&interaction) {
                        interaction.dispatched.get_or_insert(now);
                    }
                });
            }
            self.send(&dispatch.text).await.map_err(|_| Stop::Ended)?;
            self.cursor = dispatch.seq;
        }
        let (id, cursor) = (self.id, self.cursor);
        self.shared.write(|w| {
            if let Some(session) = w.session_on(id) {
                session.delivered = session.delivered.max(cursor);
            }
        });
        Ok(())
    }

    async fn receive(&mut self, text: &str) -> Result<(), Stop> {
        let decode_error = Stop::Close(close::DECODE_ERROR, "Error while decoding payload.");
        let payload: Value = serde_json::from_str(text).map_err(|_| decode_error)?;
        let data = &payload["d"];
        match payload["op"].as_u64() {
            Some(op::HEARTBEAT) => self.heartbeat(data.as_u64()).await,
            Some(op::IDENTIFY) => self.identify(data).await,
            Some(op::RESUME) => self.resume(data).await,
            Some(
                op::PRESENCE_UPDATE
                | op::VOICE_STATE_UPDATE
                | op::REQUEST_GUILD_MEMBERS
                | op::REQUEST_SOUNDBOARD_SOUNDS,
            ) => {
                // Accepted and ignored: the fake has no presences, voice or member lists to send.
                if self.authenticated {
                    Ok(())
                } else {
                    Err(Stop::Close(close::NOT_AUTHENTICATED, "Not authenticated."))
                }
            }
            _ => Err(Stop::Close(close::UNKNOWN_OPCODE, "Unknown opcode.")),
        }
    }

    /// "Sending Heartbeats": acknowledge, and drop the dispatches the heartbeat's seq confirms.
    async fn heartbeat(&mut self, confirmed: Option<u64>) -> Result<(), Stop> {
        let id = self.id;
        self.shared.write(|w| {
            w.gateway.heartbeats += 1;
            if let (Some(session), Some(confirmed)) = (w.session_on(id), confirmed) {
                while session.log.front().is_some_and(|d| d.seq <= confirmed) {
                    let dropped = session.log.pop_front().expect("the loop checked the front");
                    session.dropped_through = dropped.seq;
                }
            }
        });
        self.send(&json!({ "op": op::HEARTBEAT_ACK }).to_string()).await.map_err(|_| Stop::Ended)
    }

    fn token_matches(&self, presented: Option<&str>) -> bool {
        // serenity sends the token as its Authorization header carries it, "Bot " and all.
        let presented = presented.map(|t| t.strip_prefix("Bot ").unwrap_or(t));
        self.shared.read(|w| presented == Some(w.token.as_str()))
    }

    /// "Identifying": a new session, then READY and a GUILD_CREATE per guild.
    async fn identify(&mut self, data: &Value) -> Result<(), Stop> {
        if self.authenticated {
            return Err(Stop::Close(close::ALREADY_AUTHENTICATED, "Already authenticated."));
        }
        if !self.token_matches(data["token"].as_str()) {
            return Err(Stop::Close(close::AUTHENTICATION_FAILED, "Authentication failed."));
        }
        let intents = data["intents"].as_u64().ok_or(Stop::Close(close::INVALID_INTENTS, "Invalid intent(s)."))?;
        if intents & intents::PRIVILEGED & !self.shared.config.privileged_intents != 0 {
            return Err(Stop::Close(close::DISALLOWED_INTENTS, "Disallowed intent(s)."));
        }
        // "Sharding": `[shard_id, num_shards]`, the same total for every session.
        let invalid = Stop::Close(close::INVALID_SHARD, "Invalid shard.");
        let shard = match &data["shard"] {
            Value::Null => [0, 1],
            shard => match (shard[0].as_u64(), shard[1].as_u64()) {
                (Some(id), Some(count)) if id < count => [id, count],
                _ => return Err(invalid),
            },
        };
        let id = self.id;
        let counted_otherwise = self.shared.write(|w| {
            // Sessions of another total that no connection holds are a bot restarted with a
            // new shard count: forgotten. One still connected makes this IDENTIFY invalid.
            w.sessions.retain(|_, s| s.shard[1] == shard[1] || s.connection.is_some_and(|c| c != id));
            w.sessions.values().any(|s| s.shard[1] != shard[1])
        });
        if counted_otherwise {
            return Err(invalid);
        }
        let compress = data["compress"] == true;
        if compress && matches!(self.compression, Compression::None) {
            self.compression = Compression::Payload;
        }
        let session_id = format!("{:016x}{:016x}", self.shared.mint(), self.shared.mint());
        self.shared.write(|w| {
            w.gateway.identifies += 1;
            let session = Session {
                id: session_id.clone(),
                shard,
                seq: 0,
                log: Default::default(),
                dropped_through: 0,
                intents,
                compress,
                connection: Some(self.id),
                delivered: 0,
            };
            w.sessions.insert(shard[0], session);
            // "Gateway Events", Ready: the shard's guilds only.
            let on_shard: Vec<_> =
                w.guilds.values().filter(|g| crate::shard_of(g.id, shard[1]) == shard[0]).cloned().collect();
            let ready = json!({
                "v": VERSION,
                "user": objects::current_user(&w.users[&w.bot]),
                "guilds": on_shard.iter().map(objects::unavailable_guild).collect::<Vec<_>>(),
                "session_id": session_id,
                "resume_gateway_url": w.gateway_url,
                "shard": shard,
                "application": { "id": w.application.to_string(), "flags": 0 },
            });
            w.dispatch_to(shard[0], "READY", ready, None, None);
            let guilds: Vec<Value> = on_shard.iter().map(|g| objects::guild_create(w, g)).collect();
            for guild in guilds {
                w.dispatch_to(shard[0], "GUILD_CREATE", guild, Some(intents::GUILDS), None);
            }
        });
        self.authenticated = true;
        self.cursor = 0;
        Ok(())
    }

    /// "Resuming": replay what the session's last connection missed, then RESUMED; or op 9
    /// INVALID_SESSION (not resumable) when the session is gone or its events are.
    async fn resume(&mut self, data: &Value) -> Result<(), Stop> {
        if !self.token_matches(data["token"].as_str()) {
            return Err(Stop::Close(close::AUTHENTICATION_FAILED, "Authentication failed."));
        }
        let session_id = data["session_id"].as_str().unwrap_or_default();
        let seq = data["seq"].as_u64().unwrap_or(0);
        let id = self.id;
        let resumed = self.shared.write(|w| {
            let session = w.sessions.values_mut().find(|s| s.id == session_id)?;
            if seq > session.seq || seq < session.dropped_through {
                return None;
            }
            session.connection = Some(id);
            session.delivered = seq;
            let (compress, shard) = (session.compress, session.shard[0]);
            w.gateway.resumes += 1;
            w.dispatch_to(shard, "RESUMED", json!({}), None, None);
            Some(compress)
        });
        match resumed {
            Some(compress) => {
                if compress && matches!(self.compression, Compression::None) {
                    self.compression = Compression::Payload;
                }
                self.authenticated = true;
                self.cursor = seq;
                Ok(())
            }
            None => self.send_op(op::INVALID_SESSION, json!(false)).await,
        }
    }

    async fn send_op(&mut self, op: u64, data: Value) -> Result<(), Stop> {
        let payload = json!({ "op": op, "d": data, "s": null, "t": null });
        self.send(&payload.to_string()).await.map_err(|_| Stop::Ended)
    }

    async fn send(&mut self, text: &str) -> Result<(), axum::Error> {
        let frame = match &mut self.compression {
            Compression::None => Frame::Text(text.into()),
            Compression::Payload => Frame::Binary(zlib_buffer(text.as_bytes()).into()),
            Compression::Stream(stream) => Frame::Binary(zlib_stream_chunk(stream, text.as_bytes()).into()),
        };
        self.socket.send(frame).await
    }
}

/// Lets go of the session if `connection` holds it; its events then wait in the log.
fn detach(world: &mut World, connection: u64) {
    if let Some(session) = world.session_on(connection) {
        session.connection = None;
    }
}

/// One complete zlib buffer.
fn zlib_buffer(input: &[u8]) -> Vec<u8> {
    let mut encoder = ZlibEncoder::new(Vec::with_capacity(input.len() / 2 + 16), Level::fast());
    encoder.write_all(input).expect("writing to a Vec cannot fail");
    encoder.finish().expect("writing to a Vec cannot fail")
}

/// The next chunk of a zlib stream: the input, compressed and sync-flushed so the chunk ends in
/// the `00 00 ff ff` suffix clients look for to know a payload is complete.
fn zlib_stream_chunk(stream: &mut Compress, input: &[u8]) -> Vec<u8> {
    const SYNC_SUFFIX: [u8; 4] = [0, 0, 0xff, 0xff];
    let start = stream.total_in();
    let mut out = Vec::with_capacity(input.len() / 2 + 64);
    loop {
        let consumed = (stream.total_in() - start) as usize;
        if out.capacity() - out.len() < 64 {
            out.reserve(out.capacity().max(64));
        }
        stream.compress_vec(&input[consumed..], &mut out, FlushCompress::Sync).expect("deflate on valid state");
        let all_in = (stream.total_in() - start) as usize == input.len();
        if all_in && out.ends_with(&SYNC_SUFFIX) {
            return out;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Read as _;

    use flate2::{Decompress, FlushDecompress};

    use super::*;

    #[test]
    fn a_zlib_buffer_inflates_to_its_payload() {
        let payload = br#"{"op":0,"t":"READY","s":1,"d":{}}"#;
        let mut inflated = Vec::new();
        flate2::read::ZlibDecoder::new(&zlib_buffer(payload)[..]).read_to_end(&mut inflated).unwrap();
        assert_eq!(inflated, payload);
    }

    #[test]
    fn zlib_stream_chunks_each_end_a_payload_and_share_one_stream() {
        let mut stream = Compress::new(Level::fast(), true);
        let mut inflate = Decompress::new(true);
        for payload in [&b"first payload"[..], &[b'x'; 100_000][..], b"third"] {
            let chunk = zlib_stream_chunk(&mut stream, payload);
            assert!(chunk.ends_with(&[0, 0, 0xff, 0xff]));
            let mut out = Vec::with_capacity(payload.len() + 64);
            inflate.decompress_vec(&chunk, &mut out, FlushDecompress::Sync).unwrap();
            assert_eq!(out, payload);
        }
    }
}
