//! The `phihunt` binary: a thin wrapper over `phihunt::cli`.

/// mimalloc: the pipeline and the oracle allocate a lot of small objects; it cuts a
/// fuzz exec's instruction count by about a quarter.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(phihunt::cli::cli_main(std::env::args().skip(1).collect()));
}
