//! A small safe Rust wrapper over the C ABI (the `extern "C"` functions of the kassen-ffi
//! rlib), so the golden replays can drive the exact functions a C program calls.

use std::ffi::{CStr, CString};
use std::ptr;

use kassen::*;
use serde_json::Value;

/// A failed C call: its status and `kassen_last_error_message()`.
#[derive(Debug, Clone, PartialEq)]
pub struct CError {
    pub status: kassen_status,
    pub message: String,
}

pub type CResult<T> = Result<T, CError>;

fn check(status: kassen_status) -> CResult<()> {
    if status == kassen_status::Ok {
        Ok(())
    } else {
        let message = unsafe { CStr::from_ptr(kassen_last_error_message()) }.to_string_lossy().into_owned();
        Err(CError { status, message })
    }
}

/// Takes the text out of a filled `kassen_buf` and frees it with `kassen_buf_free`.
fn take(mut b: kassen_buf) -> String {
    let s = if b.data.is_null() {
        String::new()
    } else {
        let bytes = unsafe { std::slice::from_raw_parts(b.data.cast::<u8>(), b.len) };
        String::from_utf8(bytes.to_vec()).expect("kassen_buf holds UTF-8")
    };
    unsafe { kassen_buf_free(&mut b) };
    assert!(b.data.is_null() && b.len == 0, "kassen_buf_free resets the buffer");
    s
}

fn empty_buf() -> kassen_buf {
    kassen_buf { data: ptr::null(), len: 0 }
}

pub fn json_of(f: impl FnOnce(*mut kassen_buf) -> kassen_status) -> CResult<Value> {
    let mut b = empty_buf();
    check(f(&mut b))?;
    let text = take(b);
    Ok(serde_json::from_str(&text).unwrap_or_else(|e| panic!("the C ABI returned malformed JSON ({e}): {text}")))
}

/// Reads a caller-buffer output: asks for the size with a NULL buffer first (checking the
/// BUFFER_TOO_SMALL protocol), then fills an exact buffer.
fn vec_of<T: Copy + Default>(f: impl Fn(*mut T, usize, *mut usize) -> kassen_status) -> CResult<Vec<T>> {
    let mut need = usize::MAX;
    let s = f(ptr::null_mut(), 0, &mut need);
    if s == kassen_status::Ok {
        assert_eq!(need, 0, "OK with a zero-capacity buffer means an empty result");
        return Ok(Vec::new());
    }
    if s != kassen_status::BufferTooSmall {
        return check(s).map(|_| Vec::new());
    }
    let mut v = vec![T::default(); need];
    let mut len = usize::MAX;
    check(f(v.as_mut_ptr(), v.len(), &mut len))?;
    assert_eq!(len, need, "the filled length equals the required length");
    Ok(v)
}

/// The ids of the registered games, from `kassen_games_json`.
pub fn game_ids() -> Vec<String> {
    let v = json_of(|b| unsafe { kassen_games_json(b) }).expect("kassen_games_json");
    v.as_array().expect("an array").iter().map(|g| g["id"].as_str().expect("id").to_string()).collect()
}

/// An owned `kassen_game`.
pub struct CGame(*mut kassen_game);

impl CGame {
    pub fn new(id: &str, config: Option<&str>) -> CResult<CGame> {
        let id = CString::new(id).unwrap();
        let config = config.map(|c| CString::new(c).unwrap());
        let mut out = ptr::null_mut();
        check(unsafe { kassen_game_new(id.as_ptr(), config.as_ref().map_or(ptr::null(), |c| c.as_ptr()), &mut out) })?;
        assert!(!out.is_null());
        Ok(CGame(out))
    }

    pub fn info(&self) -> Value {
        json_of(|b| unsafe { kassen_game_info_json(self.0, b) }).expect("info")
    }

    pub fn num_players(&self) -> u32 {
        let mut n = 0;
        check(unsafe { kassen_game_num_players(self.0, &mut n) }).expect("num_players");
        n
    }

    pub fn new_state(&self, seed: u64) -> CState {
        let mut out = ptr::null_mut();
        check(unsafe { kassen_state_new(self.0, seed, &mut out) }).expect("state_new");
        CState(out)
    }
}

impl Drop for CGame {
    fn drop(&mut self) {
        unsafe { kassen_game_free(self.0) }
    }
}

/// An owned `kassen_state`.
pub struct CState(*mut kassen_state);

impl CState {
    pub fn raw(&self) -> *mut kassen_state {
        self.0
    }

    pub fn from_json(text: &str) -> CResult<CState> {
        let c = CString::new(text).unwrap();
        let mut out = ptr::null_mut();
        check(unsafe { kassen_state_from_json(c.as_ptr(), &mut out) })?;
        Ok(CState(out))
    }

    pub fn current_player(&self) -> i32 {
        let mut p = i32::MIN;
        check(unsafe { kassen_state_current_player(self.0, &mut p) }).expect("current_player");
        p
    }

    pub fn is_terminal(&self) -> bool {
        let mut t = 2u8;
        check(unsafe { kassen_state_is_terminal(self.0, &mut t) }).expect("is_terminal");
        assert!(t <= 1, "is_terminal writes 0 or 1");
        t == 1
    }

    pub fn legal_actions(&self) -> Vec<u32> {
        vec_of(|b, c, l| unsafe { kassen_state_legal_actions(self.0, b, c, l) }).expect("legal_actions")
    }

    pub fn legal_actions_mask(&self) -> Vec<u8> {
        vec_of(|b, c, l| unsafe { kassen_state_legal_actions_mask(self.0, b, c, l) }).expect("mask")
    }

    pub fn history(&self) -> Vec<u32> {
        vec_of(|b, c, l| unsafe { kassen_state_history(self.0, b, c, l) }).expect("history")
    }

    pub fn returns(&self) -> Vec<f64> {
        vec_of(|b, c, l| unsafe { kassen_state_returns(self.0, b, c, l) }).expect("returns")
    }

    pub fn observation(&self, player: i32) -> CResult<Vec<f32>> {
        vec_of(|b, c, l| unsafe { kassen_state_observation_tensor(self.0, player, b, c, l) })
    }

    pub fn view(&self, player: i32) -> CResult<Value> {
        json_of(|b| unsafe { kassen_state_view_json(self.0, player, b) })
    }

    pub fn events(&self, player: i32) -> CResult<Value> {
        json_of(|b| unsafe { kassen_state_events_json(self.0, player, b) })
    }

    pub fn events_since(&self, player: i32, from: u64) -> CResult<Value> {
        json_of(|b| unsafe { kassen_state_events_since_json(self.0, player, from, b) })
    }

    pub fn to_json(&self) -> Value {
        json_of(|b| unsafe { kassen_state_to_json(self.0, b) }).expect("to_json")
    }

    pub fn to_json_text(&self) -> String {
        let mut b = empty_buf();
        check(unsafe { kassen_state_to_json(self.0, &mut b) }).expect("to_json");
        take(b)
    }

    pub fn action_to_string(&self, a: u32) -> CResult<String> {
        let mut b = empty_buf();
        check(unsafe { kassen_state_action_to_string(self.0, a, &mut b) })?;
        Ok(take(b))
    }

    pub fn action_to_json(&self, a: u32) -> CResult<Value> {
        json_of(|b| unsafe { kassen_state_action_to_json(self.0, a, b) })
    }

    pub fn hash(&self) -> u64 {
        let mut h = 0;
        check(unsafe { kassen_state_hash(self.0, &mut h) }).expect("hash");
        h
    }

    pub fn equal(&self, other: &CState) -> bool {
        let mut e = 2u8;
        check(unsafe { kassen_state_equal(self.0, other.0, &mut e) }).expect("equal");
        assert!(e <= 1, "equal writes 0 or 1");
        e == 1
    }

    pub fn apply_as(&mut self, player: i32, a: u32) -> CResult<()> {
        check(unsafe { kassen_state_apply_as(self.0, player, a) })
    }

    pub fn apply_in_place(&mut self, a: u32) -> CResult<()> {
        check(unsafe { kassen_state_apply_in_place(self.0, a) })
    }

    pub fn apply(&self, a: u32) -> CResult<CState> {
        let mut out = ptr::null_mut();
        check(unsafe { kassen_state_apply(self.0, a, &mut out) })?;
        Ok(CState(out))
    }
}

impl Clone for CState {
    fn clone(&self) -> Self {
        let mut out = ptr::null_mut();
        check(unsafe { kassen_state_clone(self.0, &mut out) }).expect("clone");
        CState(out)
    }
}

impl Drop for CState {
    fn drop(&mut self) {
        unsafe { kassen_state_free(self.0) }
    }
}
