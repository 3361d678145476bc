//! The core's integration tests, in one binary (one link instead of fifteen).

mod common;

mod cancel;
mod compressed;
mod compressed_edit;
mod crowd;
mod dynamic;
mod dynamic_job;
mod forged;
mod io;
mod movingai;
mod next_hop;
mod open;
mod oracle;
mod search;
mod search_scenarios;
mod shards;
mod sizes;
mod weighted;
