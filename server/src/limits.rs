//! Defences (docs/server.md section 7): per-client rate limits, caps on connections, the
//! JSON nesting limit.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::error::{ApiError, Code};
use crate::settings::{Settings, MAX_DEPTH};

/// A token bucket: `rate` tokens per second up to `burst`.
#[derive(Clone, Copy, Debug)]
pub struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    pub fn full(burst: f64) -> Bucket {
        Bucket { tokens: burst, at: Instant::now() }
    }

    /// Takes one token; `Err(ms)`: none left, one comes in `ms`.
    pub fn take(&mut self, rate: f64, burst: f64) -> Result<(), u64> {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * rate).min(burst);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Ok(())
        } else {
            Err(((1.0 - self.tokens) / rate * 1000.0).ceil() as u64)
        }
    }
}

/// Buckets per client address.
struct PerIp {
    rate: f64,
    burst: f64,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

impl PerIp {
    fn take(&self, ip: IpAddr) -> Result<(), ApiError> {
        let mut b = self.buckets.lock().expect("rate lock");
        if b.len() > 100_000 {
            // Forget the clients that have been quiet long enough to be full again.
            let full = self.burst / self.rate;
            b.retain(|_, v| v.at.elapsed().as_secs_f64() < full);
        }
        let rate = self.rate;
        let burst = self.burst;
        b.entry(ip).or_insert_with(|| Bucket::full(burst)).take(rate, burst).map_err(|ms| {
            ApiError::new(Code::RateLimited, "too many requests from this client; slow down").with("retry_after_ms", ms.into())
        })
    }
}

pub struct Limits {
    requests: PerIp,
    creates: PerIp,
    max_connections: usize,
    max_per_ip: usize,
    connections: Arc<Mutex<(usize, HashMap<IpAddr, usize>)>>,
}

/// A held WebSocket connection; dropping it gives the place back.
pub struct ConnectionPermit {
    ip: IpAddr,
    connections: Arc<Mutex<(usize, HashMap<IpAddr, usize>)>>,
}

impl Drop for ConnectionPermit {
    fn drop(&mut self) {
        let mut c = self.connections.lock().expect("connections lock");
        c.0 -= 1;
        if let Some(n) = c.1.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                c.1.remove(&self.ip);
            }
        }
    }
}

impl Limits {
    pub fn new(s: &Settings) -> Limits {
        Limits {
            requests: PerIp { rate: s.rate, burst: s.burst, buckets: Mutex::new(HashMap::new()) },
            creates: PerIp { rate: s.creates_per_minute / 60.0, burst: s.creates_per_minute.max(1.0), buckets: Mutex::new(HashMap::new()) },
            max_connections: s.max_connections,
            max_per_ip: s.max_connections_per_ip,
            connections: Arc::new(Mutex::new((0, HashMap::new()))),
        }
    }

    /// One HTTP request from `ip`.
    pub fn request(&self, ip: IpAddr) -> Result<(), ApiError> {
        self.requests.take(ip)
    }

    /// One game creation from `ip`.
    pub fn create(&self, ip: IpAddr) -> Result<(), ApiError> {
        self.creates.take(ip)
    }

    /// A place for one more WebSocket connection from `ip`.
    pub fn connect(&self, ip: IpAddr) -> Result<ConnectionPermit, ApiError> {
        let mut c = self.connections.lock().expect("connections lock");
        let mine = c.1.get(&ip).copied().unwrap_or(0);
        if c.0 >= self.max_connections || mine >= self.max_per_ip {
            return Err(ApiError::new(Code::ConnectionsCap, "the server holds its maximum of connections; try again later"));
        }
        c.0 += 1;
        *c.1.entry(ip).or_insert(0) += 1;
        Ok(ConnectionPermit { ip, connections: self.connections.clone() })
    }
}

/// Refuses JSON text nested deeper than [`MAX_DEPTH`] (before it is parsed).
pub fn check_depth(text: &[u8]) -> Result<(), ApiError> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for &b in text {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(ApiError::new(Code::TooDeep, format!("json nested deeper than {MAX_DEPTH} levels")));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_counts_brackets_outside_strings() {
        let deep = "[".repeat(MAX_DEPTH + 1);
        assert_eq!(check_depth(deep.as_bytes()).unwrap_err().code, Code::TooDeep as i32);
        assert!(check_depth("[".repeat(MAX_DEPTH).as_bytes()).is_ok());
        let quoted = format!("{{\"a\": \"{}\\\"\"}}", "[".repeat(100));
        assert!(check_depth(quoted.as_bytes()).is_ok());
    }

    #[test]
    fn buckets_refill_at_their_rate() {
        let mut b = Bucket::full(2.0);
        assert!(b.take(1.0, 2.0).is_ok());
        assert!(b.take(1.0, 2.0).is_ok());
        assert!(b.take(1.0, 2.0).is_err());
    }
}
