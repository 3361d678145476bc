//! The crate's tests: the page's game on the host (the same code the WebAssembly module runs)
//! and its exports called as the page calls them.

mod avoid;
mod exports;
mod game;
mod job;
