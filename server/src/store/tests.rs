//! Group commit: appends made at the same time share one transaction, each is answered with
//! its own outcome, and a refused one leaves no trace and fails no other. On a fresh SQLite
//! file, and on PostgreSQL too when `KASSEN_TEST_POSTGRES` names a server
//! (server/tests/postgres.sh).

use futures_util::future::join_all;
use sqlx::Connection;

use super::{open, Appended, GameRow, MoveRow, SeatRow, Store, Update};

fn game(id: &str, step: i64) -> GameRow {
    GameRow {
        id: id.into(),
        game: "samurai".into(),
        config: "{}".into(),
        seed: 1,
        rules_version: "test/1".into(),
        status: "active".into(),
        step,
        to_act: Some(0),
        result: None,
        created_at: 1,
        updated_at: 1,
    }
}

fn seats() -> Vec<SeatRow> {
    vec![SeatRow { seat: 0, kind: "human".into(), token_hash: None }]
}

fn mv(step: i64, action: i64) -> MoveRow {
    MoveRow { step, seat: 0, action, at: 2 }
}

fn update(step: i64) -> Update {
    Update { step, status: "active", to_act: Some(0), result: None, updated_at: 2 }
}

async fn databases() -> Vec<String> {
    let n = std::process::id();
    let dir = std::env::temp_dir().join(format!("kassen-store-test-{n}"));
    std::fs::create_dir_all(&dir).unwrap();
    let mut urls = vec![format!("sqlite://{}", dir.join("batch.db").display())];
    let _ = std::fs::remove_file(dir.join("batch.db"));
    if let Some(base) = std::env::var("KASSEN_TEST_POSTGRES").ok().filter(|s| !s.is_empty()) {
        let name = format!("kassen_store_test_{n}");
        let mut c = sqlx::PgConnection::connect(&base).await.unwrap();
        sqlx::query(&format!("DROP DATABASE IF EXISTS {name}")).execute(&mut c).await.unwrap();
        sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut c).await.unwrap();
        let (head, _) = base.rsplit_once('/').unwrap();
        urls.push(format!("{head}/{name}"));
    }
    urls
}

async fn appends_of_several_games_share_one_transaction(store: &dyn Store) {
    let commits = || store.commits();
    // a, b, c at step 0; d claims step 0 but its move row of step 0 exists already.
    for id in ["a", "b", "c"] {
        store.create(&game(id, 0), &seats(), &[]).await.unwrap();
    }
    store.create(&game("d", 0), &seats(), &[mv(0, 9)]).await.unwrap();
    let before = commits();
    let jobs = [
        ("a", 0, vec![mv(0, 1), mv(1, 2)], update(2)),
        ("b", 5, vec![mv(5, 3)], update(6)),
        ("c", 0, vec![mv(0, 4)], update(1)),
        ("d", 0, vec![mv(0, 5)], update(1)),
    ];
    // Queued together before the writer runs (one thread): one transaction.
    let outcomes = join_all(jobs.iter().map(|(id, at, moves, u)| store.append(id, *at, moves, u))).await;
    let outcomes: Vec<Appended> = outcomes.into_iter().map(Result::unwrap).collect();
    assert_eq!(outcomes, [Appended::Done, Appended::Conflict, Appended::Done, Appended::Conflict]);
    assert_eq!(commits() - before, 1, "{}: four appends, one transaction", store.kind());
    // Each game holds exactly what its own outcome says.
    let step = |id: &'static str| async move { store.game(id).await.unwrap().unwrap().0.step };
    assert_eq!((step("a").await, step("b").await, step("c").await, step("d").await), (2, 0, 1, 0));
    assert_eq!(store.moves_from("a", 0).await.unwrap(), [mv(0, 1), mv(1, 2)]);
    assert!(store.moves_from("b", 0).await.unwrap().is_empty());
    assert_eq!(store.moves_from("c", 0).await.unwrap(), [mv(0, 4)]);
    assert_eq!(store.moves_from("d", 0).await.unwrap(), [mv(0, 9)], "d's refused append left its row and moves alone");
    // The next append of a game continues from its committed step.
    assert_eq!(store.append("a", 2, &[mv(2, 7)], &update(3)).await.unwrap(), Appended::Done);
    assert_eq!(store.append("a", 2, &[mv(2, 8)], &update(3)).await.unwrap(), Appended::Conflict);
    assert_eq!(store.moves_from("a", 2).await.unwrap(), [mv(2, 7)]);
}

#[tokio::test]
async fn group_commit_answers_each_append_with_its_own_outcome() {
    for url in databases().await {
        let store = open(&url).await.unwrap();
        appends_of_several_games_share_one_transaction(&*store).await;
    }
}
