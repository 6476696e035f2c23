//! cargo-fuzz target `c_frontend`: a thin wrapper over `phihunt::fuzzers::c_frontend::check`.
#![no_main]

/// mimalloc: the front end and the pipeline allocate a lot of small objects.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

libfuzzer_sys::fuzz_target!(|data: &[u8]| phihunt::fuzzers::c_frontend::check(data));
