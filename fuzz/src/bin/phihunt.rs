fn main() {
    std::process::exit(phihunt::check::cli_main(std::env::args().skip(1).collect()));
}
