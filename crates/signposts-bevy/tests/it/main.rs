//! The plugin's tests, headless, in one binary (one link instead of five): the grid and rooms
//! walkers, crowds (cell capacity, avoidance), repairs off the main thread, the chase example's
//! twin and the README's snippet.

mod avoid;
mod capacity;
mod common;
mod example;
mod grid;
mod readme;
mod repair;
mod rooms;
