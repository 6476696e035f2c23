//! `phihunt check` (stub).
pub fn cli_main(_args: Vec<String>) -> i32 {
    2
}
