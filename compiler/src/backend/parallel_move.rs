//! Sequentialising parallel moves: a set of moves `dst <- src` that must all happen "at
//! once" (every source read before any destination is written) turned into an ordinary
//! sequence of moves, with one scratch location to break cycles.
//!
//! Why it exists: setting up a call's arguments moves values from wherever the allocator
//! put them into the ABI's argument registers and stack slots, and those sets overlap (an
//! argument may sit in the register another argument must go to; two may need swapping).
//! Emitting the moves in the given order loses a value whenever a destination is read by
//! a later move. It is the problem phi elimination solves at the IR level, here over
//! machine locations; every backend shares this one resolver.
//!
//! The algorithm (the classic one, as in regalloc2's `moves.rs`): a move is *ready* when
//! no other pending move still reads its destination; emit ready moves until none is
//! left; when moves remain but none is ready, the remaining moves form disjoint cycles
//! (each pending destination is read by exactly one pending move): copy one destination
//! into the scratch location, let its reader read the scratch instead, and go on.
//!
//! Invariants: the sequence writes only the given destinations and the scratch location;
//! each destination gets the value its source had before the first move (the parallel
//! semantics) — [`replay`] checks exactly this, symbolically, and [`resolve`] runs it
//! after every resolution in debug builds; a constant source is never a destination; no
//! move of a location to itself is emitted.
//!
//! Seeded bug: [`Mutant::ParallelMoveInOrder`] returns the moves in the given order, with
//! no ordering and no cycle breaking (then `replay` is not asserted: the mutant exists to
//! be found by the native runs).

use crate::mutants::{self, Mutant};
use std::collections::HashMap;
use std::fmt;
use std::hash::Hash;

/// Where a move reads from: a location, or a constant (an immediate, a symbol's address;
/// whatever the target materialises without reading a location).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Source<L, K> {
    Loc(L),
    Const(K),
}

impl<L: PartialEq, K> Source<L, K> {
    /// True when this source is location `l`.
    pub fn reads(&self, l: L) -> bool {
        matches!(self, Source::Loc(s) if *s == l)
    }
}

/// One move `dst <- src`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move<L, K> {
    pub dst: L,
    pub src: Source<L, K>,
}

impl<L, K> Move<L, K> {
    /// `dst <- src` for a location source.
    pub fn from_loc(dst: L, src: L) -> Move<L, K> {
        Move {
            dst,
            src: Source::Loc(src),
        }
    }

    /// `dst <- k` for a constant source.
    pub fn from_const(dst: L, k: K) -> Move<L, K> {
        Move {
            dst,
            src: Source::Const(k),
        }
    }
}

/// A set of parallel moves the resolver cannot sequentialise (a bug of the caller).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParallelMoveError<L> {
    /// Two moves write the same destination.
    DuplicateDestination(L),
    /// The scratch location is a source or a destination of the parallel moves.
    ScratchInUse(L),
}

impl<L: fmt::Debug> fmt::Display for ParallelMoveError<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParallelMoveError::DuplicateDestination(l) => {
                write!(f, "parallel moves write {l:?} twice")
            }
            ParallelMoveError::ScratchInUse(l) => {
                write!(f, "the scratch location {l:?} is also moved from or to")
            }
        }
    }
}

impl<L: fmt::Debug> std::error::Error for ParallelMoveError<L> {}

/// Turns the parallel moves `moves` (each destination at most once) into a sequence with
/// the same effect on the destinations, using `scratch` (which must not appear in
/// `moves`) to break cycles.
pub fn resolve<L, K>(
    moves: &[Move<L, K>],
    scratch: L,
) -> Result<Vec<Move<L, K>>, ParallelMoveError<L>>
where
    L: Copy + Eq + Hash + fmt::Debug,
    K: Clone + PartialEq + fmt::Debug,
{
    validate(moves, scratch)?;
    if mutants::enabled(Mutant::ParallelMoveInOrder) {
        return Ok(moves.to_vec());
    }
    let sequence = sequentialise(moves, scratch);
    #[cfg(debug_assertions)]
    if let Err(e) = replay(moves, &sequence, scratch) {
        panic!("parallel move resolver: {e}\nmoves: {moves:?}\nsequence: {sequence:?}");
    }
    Ok(sequence)
}

/// Each destination once; the scratch location nowhere.
fn validate<L, K>(moves: &[Move<L, K>], scratch: L) -> Result<(), ParallelMoveError<L>>
where
    L: Copy + Eq + Hash,
{
    let mut dsts = HashMap::with_capacity(moves.len());
    for m in moves {
        if dsts.insert(m.dst, ()).is_some() {
            return Err(ParallelMoveError::DuplicateDestination(m.dst));
        }
        if m.dst == scratch || m.src.reads(scratch) {
            return Err(ParallelMoveError::ScratchInUse(scratch));
        }
    }
    Ok(())
}

fn sequentialise<L, K>(moves: &[Move<L, K>], scratch: L) -> Vec<Move<L, K>>
where
    L: Copy + Eq + Hash,
    K: Clone,
{
    // Pending moves (self-moves dropped); `readers[l]` counts the pending moves that read
    // location l.
    let mut pending: Vec<Option<Move<L, K>>> = moves
        .iter()
        .filter(|m| !m.src.reads(m.dst))
        .cloned()
        .map(Some)
        .collect();
    let mut readers: HashMap<L, usize> = HashMap::with_capacity(pending.len());
    for m in pending.iter().flatten() {
        if let Source::Loc(s) = m.src {
            *readers.entry(s).or_insert(0) += 1;
        }
    }
    let mut by_dst: HashMap<L, usize> = pending
        .iter()
        .enumerate()
        .filter_map(|(i, m)| m.as_ref().map(|m| (m.dst, i)))
        .collect();
    let is_read = |readers: &HashMap<L, usize>, l: &L| readers.get(l).is_some_and(|&n| n > 0);

    let mut out = Vec::with_capacity(pending.len() + 1);
    let mut ready: Vec<usize> = (0..pending.len())
        .filter(|&i| {
            pending[i]
                .as_ref()
                .is_some_and(|m| !is_read(&readers, &m.dst))
        })
        .collect();
    let mut left = pending.len();
    // Scan position for cycle breaking: pending moves before it are all emitted.
    let mut next_unemitted = 0;
    while left > 0 {
        while let Some(i) = ready.pop() {
            let Some(m) = pending[i].take() else {
                continue;
            };
            left -= 1;
            by_dst.remove(&m.dst);
            if let Source::Loc(s) = m.src {
                if let Some(n) = readers.get_mut(&s) {
                    *n -= 1;
                    if *n == 0 {
                        // The move that writes s (if any) no longer destroys a value.
                        if let Some(&j) = by_dst.get(&s) {
                            ready.push(j);
                        }
                    }
                }
            }
            out.push(m);
        }
        if left == 0 {
            break;
        }
        // Only cycles remain: save one destination in the scratch location and let its
        // (single) reader read the scratch instead; its writer is then ready.
        while pending[next_unemitted].is_none() {
            next_unemitted += 1;
        }
        let Some(d) = pending[next_unemitted].as_ref().map(|m| m.dst) else {
            break;
        };
        out.push(Move::from_loc(scratch, d));
        for m in pending.iter_mut().flatten() {
            if m.src.reads(d) {
                m.src = Source::Loc(scratch);
            }
        }
        readers.insert(d, 0);
        ready.push(next_unemitted);
    }
    out
}

/// The symbolic value a location holds during [`replay`]: what some location held before
/// the sequence, or a constant.
#[derive(Clone, Debug, PartialEq)]
enum Symbol<L, K> {
    Initial(L),
    Const(K),
}

/// Checks that `sequence`, run one move at a time, leaves every destination of the
/// parallel moves `parallel` with its source's original value and writes no location
/// other than those destinations and `scratch` (regalloc2's move checker, symbolically:
/// each location starts holding its own name).
pub fn replay<L, K>(
    parallel: &[Move<L, K>],
    sequence: &[Move<L, K>],
    scratch: L,
) -> Result<(), String>
where
    L: Copy + Eq + Hash + fmt::Debug,
    K: Clone + PartialEq + fmt::Debug,
{
    let mut state: HashMap<L, Symbol<L, K>> = HashMap::new();
    let read = |state: &HashMap<L, Symbol<L, K>>, src: &Source<L, K>| match src {
        Source::Loc(l) => state.get(l).cloned().unwrap_or(Symbol::Initial(*l)),
        Source::Const(k) => Symbol::Const(k.clone()),
    };
    let mut may_write: HashMap<L, ()> = parallel.iter().map(|m| (m.dst, ())).collect();
    may_write.insert(scratch, ());
    for (i, m) in sequence.iter().enumerate() {
        if !may_write.contains_key(&m.dst) {
            return Err(format!(
                "move {i} writes {:?}, which is not a destination",
                m.dst
            ));
        }
        let value = read(&state, &m.src);
        state.insert(m.dst, value);
    }
    for m in parallel {
        let want = match &m.src {
            Source::Loc(l) => Symbol::Initial(*l),
            Source::Const(k) => Symbol::Const(k.clone()),
        };
        let got = state.get(&m.dst).cloned().unwrap_or(Symbol::Initial(m.dst));
        if got != want {
            return Err(format!(
                "{:?} ends up holding {got:?}, expected {want:?}",
                m.dst
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "parallel_move_tests.rs"]
mod tests;
