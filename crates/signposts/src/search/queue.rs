//! Priority queues for the searches: no heap allocation once their buckets have grown.

/// A monotone priority queue for A* (keys never drop below the last key popped, as with a
/// consistent heuristic): a radix heap. Bucket `i ≥ 1` holds the keys whose highest bit
/// differing from the last popped key is bit `i − 1`; bucket 0 the keys equal to it. A 64-bit
/// occupancy mask finds the lowest non-empty bucket with one `trailing_zeros`; popping from
/// it moves its entries to lower buckets, each entry at most 64 times in all. Ties leave in
/// last-in first-out order (deeper nodes first).
#[derive(Debug)]
pub(crate) struct RadixQueue {
    last: u64,
    equal: Vec<u32>,
    buckets: Vec<Vec<(u64, u32)>>,
    /// Bit `i − 1` set when bucket `i` is non-empty.
    occupied: u64,
}

impl Default for RadixQueue {
    fn default() -> Self {
        RadixQueue { last: 0, equal: Vec::new(), buckets: (0..64).map(|_| Vec::new()).collect(), occupied: 0 }
    }
}

impl RadixQueue {
    /// Empties the queue, keeping its memory; keys pushed next must be at least `floor`.
    pub fn reset(&mut self, floor: u64) {
        self.last = floor;
        self.equal.clear();
        let mut occupied = self.occupied;
        while occupied != 0 {
            self.buckets[occupied.trailing_zeros() as usize].clear();
            occupied &= occupied - 1;
        }
        self.occupied = 0;
    }

    #[inline]
    pub fn push(&mut self, key: u64, item: u32) {
        debug_assert!(key >= self.last, "keys are monotone");
        let diff = key ^ self.last;
        if diff == 0 {
            self.equal.push(item);
        } else {
            let bucket = 63 - diff.leading_zeros() as usize;
            self.buckets[bucket].push((key, item));
            self.occupied |= 1 << bucket;
        }
    }

    /// The item of smallest key, with its key.
    #[inline]
    pub fn pop(&mut self) -> Option<(u64, u32)> {
        if let Some(item) = self.equal.pop() {
            return Some((self.last, item));
        }
        if self.occupied == 0 {
            return None;
        }
        let bucket = self.occupied.trailing_zeros() as usize;
        let mut entries = core::mem::take(&mut self.buckets[bucket]);
        self.occupied &= !(1 << bucket);
        self.last = entries.iter().map(|&(key, _)| key).min().expect("occupied buckets are not empty");
        for &(key, item) in &entries {
            self.push(key, item);
        }
        entries.clear();
        self.buckets[bucket] = entries;
        self.equal.pop().map(|item| (self.last, item))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radix_queue_pops_in_key_order() {
        let mut q = RadixQueue::default();
        q.reset(5);
        for (key, item) in [(9, 0), (5, 1), (1 << 40, 2), (7, 3), (9, 4), (6, 5)] {
            q.push(key, item);
        }
        let mut keys = Vec::new();
        while let Some((key, item)) = q.pop() {
            keys.push(key);
            if item == 1 {
                q.push(8, 6); // pushes at or above the last key popped stay allowed
            }
        }
        assert_eq!(keys, [5, 6, 7, 8, 9, 9, 1 << 40]);
        q.reset(0);
        assert_eq!(q.pop(), None);
    }
}
