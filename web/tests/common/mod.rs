//! What the tests over HTTP share: a plain HTTP/1.1 GET on loopback, its response read whole
//! (de-chunked), and the pieces to read a stream as it comes.

#![allow(dead_code)] // each test binary uses part of it

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Header names (in lower case) and values.
pub type Headers = Vec<(String, String)>;

/// A response as it came: status, headers (names in lower case) and the body, de-chunked.
pub struct Response {
    pub status: u16,
    pub headers: Headers,
    pub body: Vec<u8>,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8(self.body.clone()).unwrap()
    }
}

/// The head's status and headers, and where the body starts, once the head is all in `raw`.
pub fn head(raw: &[u8]) -> Option<(u16, Headers, usize)> {
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let text = std::str::from_utf8(&raw[..end]).unwrap();
    let mut lines = text.split("\r\n");
    let status = lines.next()?.split(' ').nth(1)?.parse().ok()?;
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Some((status, headers, end + 4))
}

/// The complete chunks of a chunked body (a partial last chunk is left out).
pub fn dechunk(mut body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = body.windows(2).position(|w| w == b"\r\n") {
        let Ok(len) = usize::from_str_radix(std::str::from_utf8(&body[..eol]).unwrap().trim(), 16) else { break };
        if len == 0 || body.len() < eol + 2 + len + 2 {
            break;
        }
        out.extend_from_slice(&body[eol + 2..eol + 2 + len]);
        body = &body[eol + 2 + len + 2..];
    }
    out
}

pub async fn get(addr: SocketAddr, path: &str) -> Response {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    // `Connection: close`: the server ends the answer by closing.
    stream.read_to_end(&mut raw).await.unwrap();
    let (status, headers, start) = head(&raw).expect("an HTTP response");
    let chunked = headers.iter().any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked { dechunk(&raw[start..]) } else { raw[start..].to_vec() };
    Response { status, headers, body }
}

/// Reads until the stream's de-chunked text holds `needle`. An event stream never ends by
/// itself, so a missing event would hang the suite: after 30 s of silence it fails instead
/// (a guard, not a measure; the load bench measures how fast events come).
pub async fn read_until(stream: &mut TcpStream, raw: &mut Vec<u8>, needle: &str) -> String {
    let mut buf = [0u8; 8192];
    loop {
        if let Some((_, _, start)) = head(raw) {
            let text = String::from_utf8_lossy(&dechunk(&raw[start..])).into_owned();
            if text.contains(needle) {
                return text;
            }
        }
        let n = tokio::time::timeout(Duration::from_secs(30), stream.read(&mut buf))
            .await
            .unwrap_or_else(|_| panic!("no {needle} in {}", String::from_utf8_lossy(raw)))
            .unwrap();
        assert!(n > 0, "the stream ended before {needle}");
        raw.extend_from_slice(&buf[..n]);
    }
}
