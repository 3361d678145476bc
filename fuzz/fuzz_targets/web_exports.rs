//! The web page's module: any sequence of calls to its `extern "C"` exports, with any
//! arguments, returns (an error code, a clamped count, a null pointer), never panics or aborts,
//! and leaves the state the page reads consistent: every enemy on an open cell of the map, at
//! most `MAX_ENEMIES` of them, the rooms enemies at finite points, error messages in UTF-8.
//!
//! Input: a list of calls, each an opcode byte and its arguments (little-endian `u32`s, `f64`s
//! from 8 raw bytes, so NaN and infinities come up, and byte strings with a length byte). Maps
//! come as a size byte (1–8 cells a side) and a wall bit per cell, or as raw `.map` bytes (at
//! most 255: tables of a few hundred cells keep each case short). `alloc` lengths are at most
//! 1 MiB or past `isize::MAX` (what `Layout` refuses): lengths between reach AddressSanitizer's
//! allocator, which aborts on sizes it cannot map instead of returning null as wasm's does.
//! The maze that `load_map` builds from no bytes is left out (a second or more a case).
#![no_main]

use libfuzzer_sys::fuzz_target;
use signposts_web::MAX_ENEMIES;
use signposts_web::exports as web;

/// The input, read front to back; zeros past its end.
struct Input<'a>(&'a [u8]);

impl Input<'_> {
    fn u8(&mut self) -> u8 {
        let Some((&b, rest)) = self.0.split_first() else { return 0 };
        self.0 = rest;
        b
    }

    fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }

    fn f64(&mut self) -> f64 {
        f64::from_bits(u64::from(self.u32()) | u64::from(self.u32()) << 32)
    }

    /// A coordinate: mostly on or near a small map, sometimes anywhere.
    fn coordinate(&mut self) -> u32 {
        let b = self.u8();
        if b == 255 { self.u32() } else { u32::from(b % 12) }
    }

    fn bytes(&mut self) -> Vec<u8> {
        let len = usize::from(self.u8()).min(self.0.len());
        let (bytes, rest) = self.0.split_at(len);
        self.0 = rest;
        bytes.to_vec()
    }

    /// A small map's `.map` text: a size byte, then a wall bit per cell.
    fn map(&mut self) -> Vec<u8> {
        let size = self.u8();
        let (w, h) = (usize::from(size & 7) + 1, usize::from(size >> 3 & 7) + 1);
        let mut text = format!("type octile\nheight {h}\nwidth {w}\nmap\n").into_bytes();
        let mut bits = 0u32;
        for i in 0..w * h {
            if i % 8 == 0 {
                bits = u32::from(self.u8());
            }
            text.push(if bits >> (i % 8) & 1 == 1 { b'@' } else { b'.' });
            if i % w == w - 1 {
                text.push(b'\n');
            }
        }
        text
    }
}

/// The bytes at `ptr` (`len` of them; none when null or empty).
fn read<T: Copy>(ptr: *const T, len: usize) -> Vec<T> {
    if ptr.is_null() || len == 0 {
        return Vec::new();
    }
    // SAFETY: each export's pointer is valid for the length its twin export gives, until the
    // next call that changes it; nothing is called in between.
    unsafe { core::slice::from_raw_parts(ptr, len) }.to_vec()
}

fn load_map(bytes: &[u8], dense_up_to_mib: u32) -> i32 {
    if bytes.is_empty() {
        return 0; // the maze: too slow for a case
    }
    // SAFETY: a slice's pointer and length.
    unsafe { web::load_map(bytes.as_ptr(), bytes.len(), dense_up_to_mib) }
}

fn load_saved(bytes: &[u8]) -> i32 {
    // SAFETY: a slice's pointer and length.
    unsafe { web::load_saved(bytes.as_ptr(), bytes.len()) }
}

/// What the page reads after each call, checked.
fn check() {
    let (w, h) = (web::width() as usize, web::height() as usize);
    let cells = read(web::cells_ptr(), w * h);
    assert!(cells.iter().all(|&c| c <= 1), "cells other than 0 and 1");
    let enemies = read(web::enemies_ptr(), 2 * web::enemies_len() as usize);
    assert!(enemies.len() / 2 <= MAX_ENEMIES);
    for pair in enemies.chunks_exact(2) {
        let (x, y) = (pair[0] as usize, pair[1] as usize);
        assert!(
            x < w && y < h && cells[y * w + x] == 1,
            "an enemy at ({x}, {y}), not an open cell of {w}×{h}"
        );
    }
    let rooms = read(web::rooms_enemies_ptr(), 2 * web::rooms_enemies_len() as usize);
    assert!(rooms.len() / 2 <= MAX_ENEMIES);
    assert!(rooms.iter().all(|v| v.is_finite()), "a rooms enemy at a non-finite point");
    let outlines = read(web::rooms_outlines_ptr(), web::rooms_outlines_len());
    assert!(outlines.iter().all(|v| v.is_finite()));
    assert!(web::table_bytes() >= 0.0 && web::dense_bytes() >= 0.0);
    assert!(core::str::from_utf8(&read(web::error_ptr(), web::error_len())).is_ok());
}

fuzz_target!(|data: &[u8]| {
    web::unload(); // each case starts with no map (the state is the thread's)
    let mut input = Input(data);
    for _ in 0..64 {
        if input.0.is_empty() {
            break;
        }
        match input.u8() % 20 {
            0 => {
                let map = input.map();
                let rc = load_map(&map, input.u32());
                assert_eq!(rc, 0, "a valid map did not load");
            }
            1 => {
                let bytes = input.bytes();
                assert!(matches!(load_map(&bytes, input.u32()), 0 | -1));
            }
            2 => assert!(matches!(load_saved(&input.bytes()), 0 | -1)),
            3 => {
                if web::save_table() == 0 {
                    let table = read(web::out_ptr(), web::out_len());
                    assert_eq!(load_saved(&table), 0, "a saved table did not load");
                }
            }
            4 => {
                if web::save_map() == 0 {
                    let text = read(web::out_ptr(), web::out_len());
                    assert_eq!(load_map(&text, input.u32()), 0, "a saved map did not load");
                }
            }
            5 => {
                let n = web::set_enemies(input.u32());
                assert!(n == -1 || (n as usize <= MAX_ENEMIES && n as u32 == web::enemies_len()));
            }
            6 => {
                let moved = web::tick(input.coordinate(), input.coordinate());
                assert!(moved <= web::enemies_len());
            }
            7 => {
                let d = web::mean_distance(input.coordinate(), input.coordinate(), input.u32());
                assert!(d.is_finite() && d >= 0.0);
            }
            8 => {
                let found = web::astar(input.coordinate(), input.coordinate(), u32::from(input.u8()));
                assert!(found <= web::enemies_len());
            }
            9 => assert!(matches!(web::toggle(input.coordinate(), input.coordinate()), -1..=1)),
            10 => assert!(matches!(web::rooms_build(), 0 | -1)),
            11 => {
                let n = web::rooms_set_enemies(input.u32());
                assert!(n == -1 || (n as usize <= MAX_ENEMIES && n as u32 == web::rooms_enemies_len()));
            }
            12 => {
                let moved = web::rooms_tick(input.f64(), input.f64(), input.f64());
                assert!(moved <= web::rooms_enemies_len());
            }
            13 => {
                let d = web::rooms_mean_distance(input.f64(), input.f64(), input.u32());
                assert!(!d.is_nan(), "a NaN mean path length");
            }
            14 => {
                let b = input.u8();
                let len =
                    if b & 1 == 1 { usize::MAX - usize::from(b) } else { input.u32() as usize & 0xf_ffff };
                let ptr = web::alloc(len);
                assert!(len <= 0xf_ffff || ptr.is_null(), "alloc({len}) gave memory");
                // SAFETY: `alloc`'s pointer and length (null is nothing to give back).
                unsafe { web::dealloc(ptr, len) };
            }
            15 => web::unload(),
            16 => {
                let _ = (web::repairs(), web::compressed(), web::rooms_regions(), web::max_enemies());
            }
            17 => {
                let on = u32::from(input.u8() & 1);
                let n = web::set_avoid(on);
                assert!(n == -1 || n as u32 == web::enemies_len());
                if n >= 0 {
                    assert_eq!(web::avoid(), on);
                }
            }
            18 => {
                let most = web::most_in_a_cell();
                assert!(most >= -1);
                if web::avoid() == 1 {
                    assert!(most <= 1, "{most} enemies in one cell with avoidance on");
                    assert!(web::enemies_len() <= web::open_cells().max(0));
                }
                let (r, deepest) = (web::rooms_radius(), web::rooms_deepest_overlap());
                assert!(r >= 0.0 && deepest >= 0.0 && deepest.is_finite());
                let _ = web::rooms_overlaps();
            }
            _ => {
                let at = [input.coordinate(), input.coordinate()];
                let _ = (web::tick(at[0], at[1]), web::toggle(at[0], at[1]), web::tick(at[0], at[1]));
            }
        }
        check();
    }
});
