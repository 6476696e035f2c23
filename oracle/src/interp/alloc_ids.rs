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
//! (`memory.rs`): with 4-byte pointers the slot's *root* (the id it was first allocated
//! with; a revived block-scope object gets an id of its own), with 8-byte pointers how
//! far a revived slot had moved inside its id's range when it died.
//!
//! Invariants:
//! - ids are handed out in increasing order and never reused; id 0 is no allocation;
//! - an id is live ([`Entry::Live`]) from its allocation to its death and dead
//!   ([`Entry::Dead`]) ever after; an entry never goes from dead back to live;
//! - ids, record indices and payloads stay below [`MAX_IDS`] (30 bits), so an entry packs
//!   a two-bit tag and a 30-bit payload.

/// Ids a run may hand out (the last one is `MAX_IDS - 1`): entries keep 30 bits.
pub(crate) const MAX_IDS: u32 = 1 << 30;
const PAYLOAD: u32 = MAX_IDS - 1;
const TAG_SHIFT: u32 = 30;

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

/// Every id of a run, indexed by id.
#[derive(Clone, Debug)]
pub(crate) struct AllocIds {
    /// Packed [`Entry`]s: tag 0 and the record index for a live id, the [`Death`] as tag
    /// and the payload for a dead one.
    entries: Vec<u32>,
}

impl AllocIds {
    /// The table with id 0 (no allocation) taken.
    pub fn new() -> AllocIds {
        AllocIds {
            entries: vec![pack(Entry::Dead(Death::Freed, 0))],
        }
    }

    /// Ids handed out so far (including id 0).
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Hands out the next id, live with record `record`; `None` once [`MAX_IDS`] are used.
    pub fn push_live(&mut self, record: u32) -> Option<u32> {
        let id = u32::try_from(self.entries.len())
            .ok()
            .filter(|&i| i < MAX_IDS)?;
        self.entries.push(pack(Entry::Live(record)));
        Some(id)
    }

    /// What `id` (below [`AllocIds::len`]) designates.
    #[inline(always)]
    pub fn get(&self, id: u32) -> Entry {
        unpack(self.entries[id as usize])
    }

    /// Marks the live `id` dead by `death`, with `payload` (below [`MAX_IDS`]).
    pub fn kill(&mut self, id: u32, death: Death, payload: u32) {
        debug_assert!(matches!(self.get(id), Entry::Live(_)) && payload < MAX_IDS);
        self.entries[id as usize] = pack(Entry::Dead(death, payload));
    }

    /// Bytes the table holds per id (for the bookkeeping test).
    #[cfg(test)]
    pub const BYTES_PER_ID: usize = std::mem::size_of::<u32>();
}

#[inline(always)]
fn pack(e: Entry) -> u32 {
    match e {
        Entry::Live(record) => record & PAYLOAD,
        Entry::Dead(death, root) => ((death as u32) << TAG_SHIFT) | (root & PAYLOAD),
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
}
