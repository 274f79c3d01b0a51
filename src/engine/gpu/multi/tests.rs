//! Unit tests of the `multi` tables and their CPU reference.

use super::*;
use proptest::prelude::*;

fn naive(text: &[u8], pats: &[Vec<u8>]) -> Vec<u64> {
    (0..text.len())
        .filter(|&i| pats.iter().any(|p| text[i..].starts_with(p)))
        .map(|i| i as u64)
        .collect()
}

proptest! {
    /// Sets with shared prefixes, substrings of each other, duplicates
    /// and 1-byte patterns: the reference finds exactly the naive starts.
    #[test]
    fn reference_equals_naive(
        pats in prop::collection::vec(prop::collection::vec(prop::sample::select(b"abc\n".to_vec()), 1..7), 1..40),
        text in prop::collection::vec(prop::sample::select(b"abc\n".to_vec()), 0..300),
    ) {
        let t = MultiTables::new(&pats).unwrap();
        prop_assert_eq!(t.reference(&text), naive(&text, &pats));
        for at in 0..text.len() {
            let want = pats.iter().filter(|p| text[at..].starts_with(p)).map(|p| p.len()).max();
            prop_assert_eq!(t.longest_at(&text, at), want);
        }
    }
}

proptest! {
    /// Large groups (one shared 4-byte key) whose patterns are prefixes
    /// of each other in chains and trees: the binary search and prefix
    /// links find exactly the naive starts.
    #[test]
    fn prefix_chains_in_one_group_equal_naive(
        tails in prop::collection::vec(prop::collection::vec(prop::sample::select(b"ab".to_vec()), 0..6), 1..60),
        text in prop::collection::vec(prop::sample::select(b"key ab".to_vec()), 0..400),
    ) {
        let pats: Vec<Vec<u8>> = tails.iter().map(|t| [b"key ".as_slice(), t].concat()).collect();
        let t = MultiTables::new(&pats).unwrap();
        prop_assert_eq!(t.reference(&text), naive(&text, &pats));
    }

    /// Groups whose minimal patterns share their 5th to 8th bytes, end
    /// inside them or hold zero bytes (what the heads are padded with):
    /// the heads' binary search and the walk back find exactly the naive
    /// starts, also where the text ends inside a pattern.
    #[test]
    fn minimal_patterns_with_equal_or_padded_heads_equal_naive(
        tails in prop::collection::vec(prop::collection::vec(prop::sample::select(b"a\0".to_vec()), 0..12), 1..40),
        pieces in prop::collection::vec((0..40usize, 4..17usize, prop::sample::select(b"a\0".to_vec())), 0..60),
    ) {
        let pats: Vec<Vec<u8>> = tails.iter().map(|t| [b"key ".as_slice(), t].concat()).collect();
        // The text: patterns cut anywhere from their key on, each followed
        // by one more byte, so heads meet near misses.
        let text: Vec<u8> = pieces
            .iter()
            .flat_map(|&(i, cut, more)| {
                let p = &pats[i % pats.len()];
                p[..cut.min(p.len())].iter().copied().chain([more])
            })
            .collect();
        let t = MultiTables::new(&pats).unwrap();
        prop_assert_eq!(t.reference(&text), naive(&text, &pats));
    }

    /// `lengths_at` (what the tally's `-w` tries) is every pattern length
    /// occurring at a position, longest first, short patterns included.
    #[test]
    fn lengths_at_are_every_occurring_pattern(
        pats in prop::collection::vec(prop::collection::vec(prop::sample::select(b"ab ".to_vec()), 1..7), 1..12),
        text in prop::collection::vec(prop::sample::select(b"ab ".to_vec()), 0..200),
    ) {
        let t = MultiTables::new(&pats).unwrap();
        let mut distinct = pats.clone();
        distinct.sort();
        distinct.dedup();
        for at in 0..text.len() {
            let mut want: Vec<usize> = distinct.iter().filter(|p| text[at..].starts_with(p)).map(|p| p.len()).collect();
            want.sort_unstable_by(|a, b| b.cmp(a));
            prop_assert_eq!(t.lengths_at(&text, at), want);
        }
    }
}

#[test]
fn links_point_at_the_longest_prefix_in_the_group() {
    let pats: Vec<Vec<u8>> = ["abcd", "abcdx", "abcdxy", "abcdz", "abcdxz", "bcde"]
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect();
    let t = MultiTables::new(&pats).unwrap();
    // Sorted: abcd, abcdx, abcdxy, abcdxz, abcdz | bcde
    assert_eq!(t.links, vec![NO_LINK, 0, 1, 1, 0, NO_LINK]);
}

#[test]
fn tables_are_sorted_and_deduplicated() {
    let pats: Vec<Vec<u8>> = ["abcd", "abce", "ab", "abcd", "zz"]
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect();
    let t = MultiTables::new(&pats).unwrap();
    assert_eq!((t.classes, t.minlen, t.maxlen, t.len()), (0b1010, 2, 4, 4));
    assert_eq!(t.keys.len(), 2); // "abcd", "abce"
    assert!(t.keys.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(t.slots.len(), 16); // an eighth full at most
    assert_eq!(t.slots.iter().filter(|&&s| s != NO_LINK).count(), 2);
    assert_eq!(t.probe.len(), 8 * 16);
    assert_eq!(t.probe.chunks(8).filter(|s| s[1] != 0).count(), 2);
    for (i, &k) in t.keys.iter().enumerate() {
        assert_eq!(t.key_index(k), Some(i));
    }
    assert_eq!(t.key_index(u32::from_le_bytes(*b"abcf")), None);
    assert_eq!(t.first, vec![0, 1, 2]);
    assert!(has_bit(&t.set2, u32::from_le_bytes([b'a', b'b', 0, 0])));
    assert!(has_bit(&t.set2, u32::from_le_bytes([b'z', b'z', 0, 0])));
    assert_ne!(MultiTables::new(&pats).unwrap().id, t.id);
    assert!(MultiTables::new(&[b"a".to_vec(), Vec::new()]).is_none());
    assert!(MultiTables::new(&[]).is_none());
}

proptest! {
    /// Every key is found, through collisions and wrap-arounds, and no
    /// other word is.
    #[test]
    fn every_key_is_found_in_the_slots(
        keys in prop::collection::btree_set(any::<u32>(), 0..300),
        others in prop::collection::vec(any::<u32>(), 0..50),
    ) {
        let pats: Vec<Vec<u8>> = keys.iter().map(|k| k.to_le_bytes().to_vec()).collect();
        let Some(t) = MultiTables::new(&pats) else { return Ok(()) };
        for (i, &k) in t.keys.iter().enumerate() {
            prop_assert_eq!(t.key_index(k), Some(i));
        }
        for o in others.into_iter().filter(|o| !keys.contains(o)) {
            prop_assert_eq!(t.key_index(o), None);
        }
    }
}

#[test]
fn hash_matches_the_kernel_constant() {
    // multi.cuh: (key * 0x9E3779B1u) >> (32u - FILTER_LOG2)
    assert_eq!(hash(1), 0x9E37_79B1 >> 14);
    // multi.cuh multi_hash3: (bytes3 * 0x2C1B3C6Du) >> (32u - FILTER_LOG2)
    assert_eq!(hash3(1), 0x2C1B_3C6D >> 14);
    assert!(crate::engine::gpu::kernels::MULTI_PTX.contains(".entry multi("));
}

/// The global 3-byte set is read only behind the shared filter: every
/// 3-byte pattern has its `hash3` bit there, so none is missed among
/// longer patterns (the kernel's gate, mirrored by `reference`).
#[test]
fn three_byte_patterns_pass_the_filter_among_long_ones() {
    let pats: Vec<Vec<u8>> = ["sh ", "err", "timed out", "abcd"]
        .iter()
        .map(|p| p.as_bytes().to_vec())
        .collect();
    let t = MultiTables::new(&pats).unwrap();
    for p in ["sh ", "err"] {
        let key = u32::from_le_bytes([p.as_bytes()[0], p.as_bytes()[1], p.as_bytes()[2], 0]);
        assert!(has_bit(&t.filter, hash3(key)), "{p}");
    }
    let text = b"ssh x; error: timed out; abcd";
    assert_eq!(t.reference(text), naive(text, &pats));
    assert_eq!(t.reference(text), vec![1, 7, 14, 25]);
}

/// `fold4` (the kernels' SWAR step) lowers exactly the ASCII capitals,
/// each byte on its own whatever its neighbours.
#[test]
fn fold4_lowers_ascii_capitals_only() {
    for b in 0..=255u8 {
        for other in [0u8, b'A', b'Z', b'z', 0x7f, 0x80, 0xc3, 0xff] {
            for lane in 0..4 {
                let mut w = [other; 4];
                w[lane] = b;
                let want: Vec<u8> = w.iter().map(u8::to_ascii_lowercase).collect();
                assert_eq!(fold4(u32::from_le_bytes(w)).to_le_bytes().to_vec(), want);
            }
        }
    }
}

fn naive_folded(text: &[u8], pats: &[Vec<u8>]) -> Vec<u64> {
    (0..text.len())
        .filter(|&i| {
            pats.iter()
                .any(|p| text.len() - i >= p.len() && text[i..i + p.len()].eq_ignore_ascii_case(p))
        })
        .map(|i| i as u64)
        .collect()
}

proptest! {
    /// Folded tables (`-i`): the reference finds exactly the naive
    /// case-insensitive starts, in mixed-case text with bytes >= 0x80
    /// (left as they are), and `longest_at` / `lengths_at` the longest and
    /// every pattern length there.
    #[test]
    fn folded_reference_equals_naive(
        pats in prop::collection::vec(prop::collection::vec(prop::sample::select(b"aBkK \xc3\xa9\x89".to_vec()), 1..7), 1..30),
        text in prop::collection::vec(prop::sample::select(b"AbKk \xc3\xa9\x89\n".to_vec()), 0..300),
    ) {
        let t = MultiTables::new_folded(&pats).unwrap();
        assert!(t.fold && t.classes & FOLD_CLASS != 0);
        prop_assert_eq!(t.reference(&text), naive_folded(&text, &pats));
        let mut distinct: Vec<Vec<u8>> = pats.iter().map(|p| p.to_ascii_lowercase()).collect();
        distinct.sort();
        distinct.dedup();
        for at in 0..text.len() {
            let occurs = |p: &&Vec<u8>| text.len() - at >= p.len() && text[at..at + p.len()].eq_ignore_ascii_case(p);
            let mut want: Vec<usize> = distinct.iter().filter(occurs).map(|p| p.len()).collect();
            want.sort_unstable_by(|a, b| b.cmp(a));
            prop_assert_eq!(t.longest_at(&text, at), want.first().copied());
            prop_assert_eq!(t.lengths_at(&text, at), want);
        }
    }
}

/// A key's one minimal pattern is compared in its probe slot up to 16
/// bytes and through `mins` past that: both ways find exactly the naive
/// starts, near misses at every byte included.
#[test]
fn one_minimal_pattern_in_its_slot_or_in_mins() {
    let pats: Vec<Vec<u8>> = ["abcdefghijklmnop", "bcdefghijklmnopq_", "cdefg", "defghijk"]
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect();
    let t = MultiTables::new(&pats).unwrap();
    let slots: Vec<&[u32]> = t.probe.chunks(8).filter(|s| s[1] != 0).collect();
    assert_eq!(slots.len(), 4);
    assert!(slots.iter().all(|s| s[1] == 1));
    let mut text = Vec::new();
    for p in &pats {
        for cut in 4..=p.len() {
            text.extend_from_slice(&p[..cut]);
            text.push(b'#');
        }
    }
    assert_eq!(t.reference(&text), naive(&text, &pats));
}
