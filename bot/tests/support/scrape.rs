//! Reading the operator's endpoint (`CHIMERA_HTTP_ADDR`) as Prometheus or a health check does:
//! one plain HTTP/1.1 GET.

use std::net::SocketAddr;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A loopback address with a port nothing listens on now, for the bot to bind.
pub fn free_addr() -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address")
}

/// `GET path` at `addr`: the status code and the body.
pub async fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("the endpoint listens");
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("the request is sent");
    let mut response = String::new();
    stream.read_to_string(&mut response).await.expect("a response");
    let (head, body) = response.split_once("\r\n\r\n").expect("a head and a body");
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).expect("a status code");
    (status, body.to_string())
}

/// The value of the series line that starts with `series` (name and labels), if there is one.
pub fn value(metrics: &str, series: &str) -> Option<f64> {
    metrics.lines().find_map(|line| line.strip_prefix(series)?.strip_prefix(' ')?.split(' ').next()?.parse().ok())
}

/// `/healthz` once it answers 200, or its last answer after 30 s.
pub async fn healthy(addr: SocketAddr) -> (u16, String) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let (status, body) = get(addr, "/healthz").await;
        if status == 200 || std::time::Instant::now() > deadline {
            return (status, body);
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}
