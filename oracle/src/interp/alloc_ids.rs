//! Allocation ids: what every id a run handed out designates, in four bytes per id.
//!
//! Why: a pointer names its allocation by an id encoded in its bits (`memory.rs`), and ids
//! are never reused, so a dangling pointer is always caught. The memory must still answer
//! for an id whose allocation died long ago — how it died (`DeadFrame`, `UseAfterFree`,
//! `UseAfterScope`) and which slot it belonged to (pointer comparison and subtraction) —
//! but a full record per dead allocation made memory grow with every call (a program of
//! 3,000,000 calls needed a gigabyte: issue 13). Here a live id maps to the index of its
//! record in the memory's table of live records, and a dead id keeps only its death and
//! a 30-bit payload, packed in one `u32`. The payload is the memory's to define
//! (`memory.rs`): with 4-byte pointers how far back the slot's *root* is (the id it was
//! first allocated with; a revived block-scope object gets an id of its own), with
//! 8-byte pointers how far a revived slot had moved inside its id's range when it died.
//!
//! The table is kept in pages of `PAGE_IDS` ids. A page all of whose ids are dead never
//! changes again, and is then kept as runs of equal entries when that is smaller (a page
//! of returned frames' slots is one run): so a long run's dead ids cost close to nothing,
//! and at most 4 bytes each when their deaths differ from id to id. Looking a dead id up
//! in runs is a binary search; live ids are always in uncompressed pages.
//!
//! Invariants:
//! - ids are handed out in increasing order and never reused; id 0 is no allocation;
//! - an id is live ([`Entry::Live`]) from its allocation to its death and dead
//!   ([`Entry::Dead`]) ever after; an entry never goes from dead back to live;
//! - ids, record indices and payloads stay below [`MAX_IDS`] (30 bits), so an entry packs
//!   a two-bit tag and a 30-bit payload;
//! - a page is kept as runs only when every id in it was handed out and is dead, and its
//!   runs give exactly the entries it had.

use std::collections::HashMap;

/// Ids a run may hand out (the last one is `MAX_IDS - 1`): entries keep 30 bits.
pub(crate) const MAX_IDS: u32 = 1 << 30;
const PAYLOAD: u32 = MAX_IDS - 1;
const TAG_SHIFT: u32 = 30;
/// Ids per page of the table.
const PAGE_BITS: u32 = 12;
const PAGE_IDS: usize = 1 << PAGE_BITS;

/// How an allocation's life ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Death {
    /// A stack slot whose frame returned.
    FrameReturned = 1,
    /// A heap block passed to `free`.
    Freed = 2,
    /// An earlier object of a block-scope slot: its block ended and was entered again,
    /// which created a new object under a new id (4-byte pointers, checked lowering:
    /// `__phi_ub.scope_start`).
    ScopeEnded = 3,
}

/// What an id designates now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Entry {
    /// A live allocation: the index of its record.
    Live(u32),
    /// A dead one: how it died and its payload.
    Dead(Death, u32),
}

/// A page of the table in full: the entries of ids `k * PAGE_IDS ..` (packed
/// [`Entry`]s: tag 0 and the record index for a live id, the [`Death`] as tag and the
/// payload for a dead one; entries past [`AllocIds::len`] mean nothing).
type Page = Box<[u32; PAGE_IDS]>;

/// A full page of dead ids as runs: (first index in the page, packed entry), by
/// increasing index, the first at 0.
type Runs = Box<[(u16, u32)]>;

/// Every id of a run.
#[derive(Clone, Debug)]
pub(crate) struct AllocIds {
    /// Each page in full, or `None` when it is kept as runs in `runs` (so the hot path,
    /// a live id, costs one pointer load more than a flat table).
    pages: Vec<Option<Page>>,
    runs: HashMap<usize, Runs>,
    /// Live ids per page.
    live: Vec<u16>,
    /// Ids handed out (id 0 included).
    len: usize,
}

fn empty_page() -> Page {
    let entries: Box<[u32]> = vec![0; PAGE_IDS].into_boxed_slice();
    entries
        .try_into()
        .unwrap_or_else(|_| unreachable!("a page has PAGE_IDS entries"))
}

impl AllocIds {
    /// The table with id 0 (no allocation) taken.
    pub fn new() -> AllocIds {
        let mut first = empty_page();
        first[0] = pack(Entry::Dead(Death::Freed, 0));
        AllocIds {
            pages: vec![Some(first)],
            runs: HashMap::new(),
            live: vec![0],
            len: 1,
        }
    }

    /// Ids handed out so far (including id 0).
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Hands out the next id, live with record `record`; `None` once [`MAX_IDS`] are used.
    pub fn push_live(&mut self, record: u32) -> Option<u32> {
        let id = u32::try_from(self.len).ok().filter(|&i| i < MAX_IDS)?;
        if self.len.is_multiple_of(PAGE_IDS) {
            self.pages.push(Some(empty_page()));
            self.live.push(0);
        }
        // The last page has ids still to hand out, so it is never runs.
        let entries = self.pages.last_mut()?.as_mut()?;
        entries[self.len & (PAGE_IDS - 1)] = pack(Entry::Live(record));
        *self.live.last_mut()? += 1;
        self.len += 1;
        Some(id)
    }

    /// What `id` (below [`AllocIds::len`]) designates.
    #[inline(always)]
    pub fn get(&self, id: u32) -> Entry {
        match &self.pages[id as usize >> PAGE_BITS] {
            Some(entries) => unpack(entries[id as usize & (PAGE_IDS - 1)]),
            None => self.dead_in_runs(id),
        }
    }

    /// The entry of `id` in a page kept as runs.
    #[cold]
    fn dead_in_runs(&self, id: u32) -> Entry {
        let at = id as usize & (PAGE_IDS - 1);
        let Some(runs) = self.runs.get(&(id as usize >> PAGE_BITS)) else {
            debug_assert!(false, "a page is either in full or runs");
            return Entry::Dead(Death::Freed, 0);
        };
        let k = runs.partition_point(|&(start, _)| start as usize <= at);
        // The first run starts at 0, so `k >= 1`.
        unpack(runs[k.saturating_sub(1)].1)
    }

    /// Marks the live `id` dead by `death`, with `payload` (below [`MAX_IDS`]); a full
    /// page whose last live id this was becomes runs when they are smaller.
    pub fn kill(&mut self, id: u32, death: Death, payload: u32) {
        debug_assert!(matches!(self.get(id), Entry::Live(_)) && payload < MAX_IDS);
        let page = id as usize >> PAGE_BITS;
        let Some(entries) = &mut self.pages[page] else {
            return;
        };
        entries[id as usize & (PAGE_IDS - 1)] = pack(Entry::Dead(death, payload));
        self.live[page] -= 1;
        if self.live[page] == 0 && self.len >= (page + 1) * PAGE_IDS {
            if let Some(runs) = runs_if_smaller(&entries[..]) {
                self.pages[page] = None;
                self.runs.insert(page, runs);
            }
        }
    }

    /// Bytes the table holds, roughly (for the bookkeeping tests).
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        let full = self.pages.iter().flatten().count() * size_of::<[u32; PAGE_IDS]>();
        let runs: usize = self
            .runs
            .values()
            .map(|r| std::mem::size_of_val(&**r) + 32)
            .sum();
        full + runs + self.pages.capacity() * size_of::<Option<Page>>() + self.live.capacity() * 2
    }
}

/// A full page's entries as runs, if they take fewer bytes that way.
fn runs_if_smaller(entries: &[u32]) -> Option<Runs> {
    let limit = std::mem::size_of_val(entries) / size_of::<(u16, u32)>();
    let mut runs: Vec<(u16, u32)> = Vec::new();
    for (i, &e) in entries.iter().enumerate() {
        if runs.last().is_none_or(|&(_, last)| last != e) {
            if runs.len() >= limit {
                return None;
            }
            runs.push((i as u16, e));
        }
    }
    Some(runs.into_boxed_slice())
}

#[inline(always)]
fn pack(e: Entry) -> u32 {
    match e {
        Entry::Live(record) => record & PAYLOAD,
        Entry::Dead(death, payload) => ((death as u32) << TAG_SHIFT) | (payload & PAYLOAD),
    }
}

#[inline(always)]
fn unpack(bits: u32) -> Entry {
    let payload = bits & PAYLOAD;
    match bits >> TAG_SHIFT {
        0 => Entry::Live(payload),
        1 => Entry::Dead(Death::FrameReturned, payload),
        2 => Entry::Dead(Death::Freed, payload),
        _ => Entry::Dead(Death::ScopeEnded, payload),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_stay_dead() {
        let mut ids = AllocIds::new();
        assert_eq!(ids.get(0), Entry::Dead(Death::Freed, 0), "id 0 is nothing");
        let a = ids.push_live(7).unwrap();
        let b = ids.push_live(PAYLOAD).unwrap();
        assert_eq!((a, b), (1, 2), "ids increase from 1");
        assert_eq!(ids.get(a), Entry::Live(7));
        assert_eq!(ids.get(b), Entry::Live(PAYLOAD));
        ids.kill(a, Death::ScopeEnded, a);
        ids.kill(b, Death::FrameReturned, PAYLOAD);
        assert_eq!(ids.get(a), Entry::Dead(Death::ScopeEnded, 1));
        assert_eq!(ids.get(b), Entry::Dead(Death::FrameReturned, PAYLOAD));
        let c = ids.push_live(0).unwrap();
        ids.kill(c, Death::Freed, c);
        assert_eq!(ids.get(c), Entry::Dead(Death::Freed, 3));
        assert_eq!(ids.len(), 4);
    }

    #[test]
    fn dead_pages_shrink_to_runs_and_keep_every_entry() {
        // Four pages, the last not full; every third id dies freed, the others as
        // returned frames' slots (too many runs to pay), except one that stays live.
        let mut ids = AllocIds::new();
        let n = 4 * PAGE_IDS as u32 - 10;
        let all: Vec<u32> = (1..n).map(|r| ids.push_live(r).unwrap()).collect();
        let keep = 2 * PAGE_IDS as u32 + 5;
        let death = |id: u32| {
            if id.is_multiple_of(3) {
                (Death::Freed, id)
            } else {
                (Death::FrameReturned, 0)
            }
        };
        for &id in all.iter().filter(|&&id| id != keep) {
            let (d, p) = death(id);
            ids.kill(id, d, p);
        }
        for &id in &all {
            let (d, p) = death(id);
            let want = if id == keep {
                Entry::Live(id)
            } else {
                Entry::Dead(d, p)
            };
            assert_eq!(ids.get(id), want, "id {id}");
        }
        assert!(ids.pages[1].is_some(), "runs would not pay");
        assert!(ids.pages[2].is_some(), "a live id stays");
        // A page of frames' slots alone is one run.
        let mut frames = AllocIds::new();
        let empty = frames.bytes();
        let mut slots = Vec::new();
        for r in 0..3 * PAGE_IDS as u32 {
            let id = frames.push_live(r).unwrap();
            slots.push(id);
            frames.kill(id, Death::FrameReturned, if id == 5000 { 7 } else { 0 });
        }
        assert!(frames.pages[0].is_none() && frames.runs[&0].len() == 2);
        assert!(frames.pages[1].is_none() && frames.runs[&1].len() == 3);
        assert_eq!(frames.get(0), Entry::Dead(Death::Freed, 0));
        for id in slots {
            let payload = if id == 5000 { 7 } else { 0 };
            assert_eq!(frames.get(id), Entry::Dead(Death::FrameReturned, payload));
        }
        assert!(frames.bytes() < 2 * empty, "{} bytes", frames.bytes());
    }
}
