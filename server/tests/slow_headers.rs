//! A client that trickles its request headers one byte a second is cut off once the header
//! timeout of docs/server.md (section "Limits") has passed, instead of holding its connection
//! for as long as it keeps trickling.

mod common;

use std::time::Duration;

use common::{fresh_database, Server};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

#[tokio::test]
async fn a_client_trickling_its_headers_is_cut_off() {
    let server = Server::start(&fresh_database().await, &[]);
    let mut stream = TcpStream::connect(&server.addr).await.expect("connect");
    // Long enough to outlast the header timeout several times over at one byte a second.
    let request = format!("GET /api/games HTTP/1.1\r\nHost: {}\r\nX-Slow: {}\r\n\r\n", server.addr, "a".repeat(60));
    let mut cut_off = false;
    for byte in request.as_bytes() {
        if stream.write_all(&[*byte]).await.is_err() {
            cut_off = true;
            break;
        }
        let mut buf = [0u8; 1024];
        match tokio::time::timeout(Duration::from_secs(1), stream.read(&mut buf)).await {
            // Nothing from the server yet: the next byte.
            Err(_) => {}
            // Closed (perhaps after a 408 answer, whose bytes come first).
            Ok(Ok(0)) | Ok(Err(_)) => {
                cut_off = true;
                break;
            }
            Ok(Ok(n)) => {
                let text = String::from_utf8_lossy(&buf[..n]).to_string();
                assert!(!text.starts_with("HTTP/1.1 200"), "an unfinished request was answered: {text}");
            }
        }
    }
    assert!(cut_off, "the server held a connection whose headers took {} s", request.len());
}
