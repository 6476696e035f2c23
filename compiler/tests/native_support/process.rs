//! Spreading independent checks over the machine's two shared cores.
//!
//! Why: a native check is mostly waiting for gcc and qemu, so two workers halve the wall
//! time; more would take cores other people's builds need.
//!
//! Invariant: every problem any item reports is returned (in no particular order); an
//! item's panic fails the test.

use std::sync::Mutex;

/// Runs `check` on every item on two threads; every problem found.
pub fn on_two_threads<T: Send>(
    items: Vec<T>,
    check: impl Fn(T) -> Vec<String> + Sync,
) -> Vec<String> {
    let queue = Mutex::new(items);
    let problems = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some(item) = queue.lock().unwrap().pop() else {
                    break;
                };
                let found = check(item);
                problems.lock().unwrap().extend(found);
            });
        }
    });
    problems.into_inner().unwrap()
}

/// Fails listing `problems`, if there are any, under `what`.
pub fn assert_no_problems(problems: &[String], what: &str) {
    assert!(
        problems.is_empty(),
        "{} {what}:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
