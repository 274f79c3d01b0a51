//! The `multi` kernel's own layout of the keys (`probe`, `heads`, `mins`),
//! and its CPU mirror (`long_starts`): per key its minimal patterns, a
//! lone one held in the key's probe slot (why: the module doc of
//! `multi`).

use super::{slot_hash, word, MultiTables, NO_LINK};

impl MultiTables {
    /// Fills `probe`, `heads` and `mins` from the keys' groups (`slots`,
    /// `first`, `links` built); `None` past u32 offsets.
    pub(super) fn build_probe(&mut self) -> Option<()> {
        self.probe = vec![0; 8 << self.slot_log2];
        for (h, &i) in self.slots.iter().enumerate() {
            let Some(i) = (i != NO_LINK).then_some(i as usize) else {
                continue;
            };
            let group = self.first[i] as usize..self.first[i + 1] as usize;
            let minimal: Vec<usize> = group.filter(|&k| self.links[k] == NO_LINK).collect();
            let at = u32::try_from(self.heads.len() / 2).ok()?;
            let slot = &mut self.probe[8 * h..8 * h + 8];
            slot[..3].copy_from_slice(&[self.keys[i], minimal.len() as u32, at]);
            if let [k] = minimal[..] {
                let p = &self.bytes[self.starts[k] as usize..self.starts[k + 1] as usize];
                slot[3] = p.len() as u32;
                if p.len() <= 16 {
                    for (w, c) in slot[4..7].iter_mut().zip(p[4..].chunks(4)) {
                        *w = word(c);
                    }
                }
            }
            for k in minimal {
                let p = &self.bytes[self.starts[k] as usize..self.starts[k + 1] as usize];
                self.heads.push(word(&p[4..]).swap_bytes());
                self.heads.push(u32::try_from(self.mins.len()).ok()?);
                self.mins.push(p.len() as u32);
                self.mins.extend(p[4..].chunks(4).map(word));
            }
        }
        Some(())
    }

    /// Whether a pattern of 4 bytes or more starts `rest`, as the kernel
    /// decides it: the key's slot in `probe`, which holds the key's one
    /// minimal pattern when it has one of at most 16 bytes; otherwise,
    /// among its minimal patterns the last whose head is not above the
    /// text's, by a binary search;
    /// then, walking back, those with the text's head and the one before
    /// them, each compared a word at a time. Why that finds every match:
    /// no minimal pattern is a prefix of another, so at most one occurs,
    /// and one that occurs sorts at or below the text with nothing but
    /// patterns it begins (none minimal) between it and the text.
    pub(super) fn long_starts(&self, rest: &[u8]) -> bool {
        let key = word(rest);
        let mask = (1u32 << self.slot_log2) - 1;
        let mut h = slot_hash(key, self.slot_log2) as usize;
        let slot = loop {
            let slot = &self.probe[8 * h..8 * h + 8];
            match slot[1] {
                0 => return false,
                _ if slot[0] == key => break slot,
                _ => h = (h + 1) & mask as usize,
            }
        };
        // A pattern of `len` bytes whose bytes from the 5th on are `words`
        // (4 a word, zero-padded) starts `rest`.
        let occurs = |len: usize, words: &[u32]| {
            rest.len() >= len
                && rest[4..len]
                    .chunks(4)
                    .zip(words)
                    .all(|(t, &w)| word(t) == w)
        };
        let (count, at, len) = (slot[1] as usize, slot[2] as usize, slot[3] as usize);
        if count == 1 && len <= 16 {
            return occurs(len, &slot[4..7]);
        }
        let pairs = &self.heads[2 * at..2 * (at + count)];
        let head = word(rest.get(4..).unwrap_or_default()).swap_bytes();
        let below = pairs.chunks(2).take_while(|p| p[0] <= head).count();
        for p in pairs[..2 * below].chunks(2).rev() {
            let m = p[1] as usize;
            let len = self.mins[m] as usize;
            if occurs(len, &self.mins[m + 1..m + 1 + (len - 4).div_ceil(4)]) {
                return true;
            }
            if p[0] < head {
                return false;
            }
        }
        false
    }
}
