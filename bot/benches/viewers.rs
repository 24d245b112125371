//! Web viewers for the Discord load bench (`--viewers N --watched M`): N open game pages on one
//! game and a few on each of M more, each an event stream (`/g/{key}/live`) read the way a
//! browser's `EventSource` reads it, over plain HTTP/1.1 on loopback. The bench notes when it
//! sent each move of a watched game; a viewer notes when the snapshot with that move reached it.
//! Also the first page's weight (the HTML and every asset it names) and its time to first byte.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// When each move of each watched game was sent: `(web key, plies after it) -> sent`.
#[derive(Clone, Default)]
pub struct Sends(Arc<Mutex<HashMap<(String, usize), Instant>>>);

impl Sends {
    pub fn note(&self, key: &str, plies: usize, at: Instant) {
        self.0.lock().unwrap().insert((key.to_string(), plies), at);
    }

    fn sent(&self, key: &str, plies: usize) -> Option<Instant> {
        self.0.lock().unwrap().get(&(key.to_string(), plies)).copied()
    }
}

/// What the viewers saw: one delay per (viewer, move) seen, and the streams that broke.
#[derive(Clone, Default)]
pub struct Seen {
    pub delays: Arc<Mutex<Vec<Duration>>>,
    pub broken: Arc<Mutex<Vec<String>>>,
    pub open: Arc<std::sync::atomic::AtomicUsize>,
}

/// Opens one viewer of `key` on the pages at `addr`: reads its events until the task is
/// aborted, noting for each new ply the delay since the bench sent that move.
pub async fn watch(addr: SocketAddr, key: String, sends: Sends, seen: Seen) {
    let fail = |why: String| seen.broken.lock().unwrap().push(why);
    let Ok(mut stream) = TcpStream::connect(addr).await else {
        return fail(format!("cannot connect to {addr}"));
    };
    let request = format!("GET /g/{key}/live HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n");
    if stream.write_all(request.as_bytes()).await.is_err() {
        return fail("cannot send the request".into());
    }
    let mut lines = BufReader::new(stream).lines();
    let mut counted = false;
    // The plies the first event showed: later ones count from there.
    let mut plies: Option<usize> = None;
    loop {
        let line = match lines.next_line().await {
            Ok(Some(line)) => line,
            Ok(None) => return fail(format!("the stream of {key} ended")),
            Err(e) => return fail(format!("the stream of {key} broke: {e}")),
        };
        // Chunked transfer: the event lines come between chunk sizes; only `data:` lines matter.
        let Some(json) = line.strip_prefix("data: ").or_else(|| line.strip_prefix("data:")) else { continue };
        let Ok(snapshot) = serde_json::from_str::<serde_json::Value>(json) else { continue };
        let now = snapshot["moves"].as_array().map_or(0, Vec::len);
        if !counted {
            counted = true;
            seen.open.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        if let Some(before) = plies {
            for ply in before + 1..=now {
                if let Some(sent) = sends.sent(&key, ply) {
                    seen.delays.lock().unwrap().push(sent.elapsed());
                }
            }
        }
        plies = Some(now);
    }
}

/// One GET on a fresh connection: the time to the first byte of the answer, and the whole
/// answer's body length and text (head and body).
pub async fn get(addr: SocketAddr, path: &str) -> (Duration, usize, String) {
    let mut stream = TcpStream::connect(addr).await.expect("the pages listen");
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    let asked = Instant::now();
    stream.write_all(request.as_bytes()).await.expect("a request");
    let mut first = [0u8; 1];
    stream.read_exact(&mut first).await.expect("an answer");
    let ttfb = asked.elapsed();
    let mut rest = Vec::new();
    stream.read_to_end(&mut rest).await.expect("the whole answer");
    let mut all = first.to_vec();
    all.extend(rest);
    let text = String::from_utf8_lossy(&all).into_owned();
    let body = text.split_once("\r\n\r\n").map_or(0, |(head, _)| all.len() - head.len() - 4);
    (ttfb, body, text)
}

/// The game page at `key` as a first visit loads it: the HTML and every `/assets/` file it
/// names, in bytes on the wire (the server sends them as they are: no compression).
pub async fn page_weight(addr: SocketAddr, key: &str) -> (usize, usize, usize) {
    let (_, html, page) = get(addr, &format!("/g/{key}")).await;
    let mut assets: Vec<String> = page
        .split("\"/assets/")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(|name| format!("/assets/{name}"))
        .collect();
    assets.sort();
    assets.dedup();
    let mut asset_bytes = 0;
    for asset in &assets {
        asset_bytes += get(addr, asset).await.1;
    }
    (html, assets.len(), asset_bytes)
}

/// The median time to first byte of the game page at `key`, over `n` fetches one after another.
pub async fn ttfb(addr: SocketAddr, key: &str, n: usize) -> Duration {
    let mut times = Vec::with_capacity(n);
    for _ in 0..n {
        times.push(get(addr, &format!("/g/{key}")).await.0);
    }
    times.sort();
    times[n / 2]
}
