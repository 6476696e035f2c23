//! The `phihunt` binary: a thin wrapper over `phihunt::cli`.

fn main() {
    std::process::exit(phihunt::cli::cli_main(std::env::args().skip(1).collect()));
}
