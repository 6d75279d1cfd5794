//! kassen-server: the online game server (docs/server.md).

mod app;
mod bots;
mod error;
mod frames;
mod game;
mod hub;
mod limits;
mod routes;
mod settings;
mod store;
mod tokens;

use std::io::Write;
use std::sync::Arc;

use app::App;
use settings::Settings;

fn main() {
    let settings = match Settings::from_args(std::env::args().skip(1)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a tokio runtime");
    if let Err(e) = runtime.block_on(serve(settings)) {
        eprintln!("kassen-server: {e}");
        std::process::exit(1);
    }
}

async fn serve(settings: Settings) -> Result<(), String> {
    let store = store::open(&settings.database).await.map_err(|e| e.to_string())?;
    let listener = bind(&settings.listen).await.map_err(|e| format!("cannot listen on {}: {e}", settings.listen))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let notices = store.listen();
    let app = Arc::new(App::new(store, settings));
    if let Some(mut rx) = notices {
        let app = app.clone();
        tokio::spawn(async move {
            while let Some(id) = rx.recv().await {
                app.on_notice(id).await;
            }
        });
    }
    // Bots whose turn it was when the server stopped.
    for id in app.store.bot_turns().await.map_err(|e| e.to_string())? {
        if let Ok(slot) = app.slot(&id).await {
            bots::kick(&app, &slot);
        }
    }
    let router = routes::router(app.clone());
    println!("kassen-server listening on http://{addr}");
    let _ = std::io::stdout().flush();
    serve_http(listener, router).await;
    app.bots.shut_down();
    Ok(())
}

/// A client has this long to send a request's headers; one that trickles them is cut off
/// instead of holding its connection.
const HEADER_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Serves HTTP/1.1 (and WebSocket upgrades) on every accepted connection until SIGTERM or
/// Ctrl-C, then waits a little for requests in flight.
async fn serve_http(listener: tokio::net::TcpListener, router: axum::Router) {
    use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
    use tower::ServiceExt;

    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut builder = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new()).http1_only();
    builder.http1().timer(TokioTimer::new()).header_read_timeout(HEADER_TIMEOUT);
    let stop = shutdown();
    tokio::pin!(stop);
    loop {
        let (stream, addr) = tokio::select! {
            conn = listener.accept() => match conn {
                Ok(c) => c,
                // Out of file descriptors and the like: let connections close, then go on.
                Err(_) => {
                    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                    continue;
                }
            },
            _ = &mut stop => break,
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut req: hyper::Request<hyper::body::Incoming>| {
            req.extensions_mut().insert(axum::extract::ConnectInfo(addr));
            router.clone().oneshot(req)
        });
        let conn = graceful.watch(builder.serve_connection_with_upgrades(TokioIo::new(stream), service).into_owned());
        tokio::spawn(async move {
            let _ = conn.await;
        });
    }
    drop(listener);
    tokio::select! {
        _ = graceful.shutdown() => {}
        _ = tokio::time::sleep(std::time::Duration::from_secs(10)) => {}
    }
}

/// A burst of connections (a thousand games created at once) waits in the listen queue
/// instead of being reset; the kernel caps it at `net.core.somaxconn`.
const BACKLOG: u32 = 8192;

/// Listens on the first address `listen` resolves to, with a queue of [`BACKLOG`].
async fn bind(listen: &str) -> std::io::Result<tokio::net::TcpListener> {
    let mut last = std::io::Error::new(std::io::ErrorKind::AddrNotAvailable, "the address resolves to nothing");
    for addr in tokio::net::lookup_host(listen).await? {
        let socket = if addr.is_ipv4() { tokio::net::TcpSocket::new_v4()? } else { tokio::net::TcpSocket::new_v6()? };
        socket.set_reuseaddr(true)?;
        match socket.bind(addr).and_then(|()| socket.listen(BACKLOG)) {
            Ok(listener) => return Ok(listener),
            Err(e) => last = e,
        }
    }
    Err(last)
}

async fn shutdown() {
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term => {}
    }
}
