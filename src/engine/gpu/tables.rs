//! Boyer-Moore shift tables, built on the host and uploaded once per search.
//!
//! They are built here rather than in the kernel because they are O(m) work
//! done once, and because here they can be unit-tested against the naive
//! definitions below. Both tables hold `i32`: shifts are never capped at 255.
//! `bm_model` replays the kernel's per-thread loop on the CPU (portions,
//! ownership by start, the same shift rule) so the logic is tested without
//! a GPU.

/// Last index of each byte value in `pat`, or -1 when absent. On a mismatch
/// at `j` against text byte `c`, `j - bad[c]` is a safe shift (maybe <= 0).
pub fn bad_char(pat: &[u8]) -> [i32; 256] {
    let mut bad = [-1i32; 256];
    for (i, &c) in pat.iter().enumerate() {
        bad[usize::from(c)] = i as i32;
    }
    bad
}

/// Strong good-suffix shifts: `gs[j]` is the shift after a mismatch at `j`
/// (with `pat[j+1..]` matched); `gs[0]` is also the shift after a full match,
/// the pattern's period. O(m) (Charras and Lecroq's construction).
pub fn good_suffix(pat: &[u8]) -> Vec<i32> {
    let m = pat.len();
    if m == 0 {
        return Vec::new();
    }
    let suff = suffixes(pat);
    let mi = m as i32;
    let mut gs = vec![mi; m];
    let mut j = 0usize;
    for i in (0..m).rev() {
        if suff[i] == i + 1 {
            while j < m - 1 - i {
                if gs[j] == mi {
                    gs[j] = (m - 1 - i) as i32;
                }
                j += 1;
            }
        }
    }
    for i in 0..m.saturating_sub(1) {
        gs[m - 1 - suff[i]] = (m - 1 - i) as i32;
    }
    gs
}

/// `suff[i]` = length of the longest common suffix of `pat[..=i]` and `pat`.
fn suffixes(pat: &[u8]) -> Vec<usize> {
    let m = pat.len();
    let mut suff = vec![0usize; m];
    suff[m - 1] = m;
    // g and f as in the textbook, shifted by one so they stay unsigned:
    // g1 = g + 1 where g may reach -1.
    let mut g1 = m; // g = m - 1
    let mut f = 0usize;
    for i in (0..m.saturating_sub(1)).rev() {
        let g = g1 as isize - 1;
        if (i as isize) > g && suff[i + m - 1 - f] < (i as isize - g) as usize {
            suff[i] = suff[i + m - 1 - f];
        } else {
            if (i as isize) < g {
                g1 = i + 1;
            }
            f = i;
            while g1 > 0 && pat[g1 - 1] == pat[g1 - 1 + m - 1 - f] {
                g1 -= 1;
            }
            suff[i] = f + 1 - g1;
        }
    }
    suff
}

/// The definition `good_suffix` must meet, computed directly (O(m^3)).
#[cfg(test)]
pub fn good_suffix_naive(pat: &[u8]) -> Vec<i32> {
    let m = pat.len() as isize;
    (0..m)
        .map(|j| {
            (1..=m)
                .find(|&k| {
                    let suffix_ok =
                        (j + 1..m).all(|i| i - k < 0 || pat[(i - k) as usize] == pat[i as usize]);
                    let mismatch_ok = j - k < 0 || pat[(j - k) as usize] != pat[j as usize];
                    suffix_ok && mismatch_ok
                })
                .unwrap_or(m) as i32
        })
        .collect()
}

/// The `bm` kernel's loop, replayed on the CPU: match starts (ascending)
/// found by threads owning `portion`-byte portions, as the kernel would.
#[cfg(test)]
pub fn bm_model(text: &[u8], pat: &[u8], portion: usize) -> Vec<u64> {
    let (n, m) = (text.len(), pat.len());
    let mut out = Vec::new();
    if m == 0 || n < m {
        return out;
    }
    let bad = bad_char(pat);
    let gs = good_suffix(pat);
    let last = n - m;
    let mut start = 0;
    while start <= last {
        let stop = (start + portion).min(last + 1);
        let mut i = start;
        while i < stop {
            let mut j = m - 1;
            let mut c = text[i + j];
            while c == pat[j] && j > 0 {
                j -= 1;
                c = text[i + j];
            }
            if j == 0 && c == pat[0] {
                out.push(i as u64);
                i += gs[0] as usize;
            } else {
                let bc = j as i32 - bad[usize::from(c)];
                i += bc.max(gs[j]) as usize;
            }
        }
        start += portion;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    struct XorShift(u64);
    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn bytes(&mut self, len: usize, alphabet: &[u8]) -> Vec<u8> {
            (0..len)
                .map(|_| alphabet[(self.next() % alphabet.len() as u64) as usize])
                .collect()
        }
    }

    fn naive_find(text: &[u8], pat: &[u8]) -> Vec<u64> {
        if pat.len() > text.len() {
            return Vec::new();
        }
        (0..=text.len() - pat.len())
            .filter(|&i| &text[i..i + pat.len()] == pat)
            .map(|i| i as u64)
            .collect()
    }

    #[test]
    fn bad_char_is_last_index() {
        let bad = bad_char(b"abcab");
        assert_eq!(bad[usize::from(b'a')], 3);
        assert_eq!(bad[usize::from(b'b')], 4);
        assert_eq!(bad[usize::from(b'c')], 2);
        assert_eq!(bad[usize::from(b'z')], -1);
    }

    #[test]
    fn good_suffix_known_values() {
        // Period of "abab" is 2; of "aaaa" is 1; of "abcd" is 4.
        assert_eq!(good_suffix(b"abab")[0], 2);
        assert_eq!(good_suffix(b"aaaa")[0], 1);
        assert_eq!(good_suffix(b"abcd"), vec![4, 4, 4, 1]);
        assert_eq!(good_suffix(b"x"), vec![1]);
    }

    #[test]
    fn good_suffix_matches_definition() {
        let mut rng = XorShift(0x9e3779b97f4a7c15);
        for alphabet in [&b"ab"[..], b"abc", b"abcdefgh"] {
            for m in 1..=40 {
                for _ in 0..30 {
                    let pat = rng.bytes(m, alphabet);
                    assert_eq!(
                        good_suffix(&pat),
                        good_suffix_naive(&pat),
                        "pattern {:?}",
                        String::from_utf8_lossy(&pat)
                    );
                }
            }
        }
        // Long shifts are not capped at 255.
        let mut long = vec![b'a'; 600];
        long[0] = b'b';
        let gs = good_suffix(&long);
        assert_eq!(gs, good_suffix_naive(&long));
        assert!(gs.iter().any(|&s| s > 255));
    }

    #[test]
    fn bm_model_finds_every_match() {
        let mut rng = XorShift(12345);
        for case in 0..3000 {
            let alphabet: &[u8] = if case % 3 == 0 { b"ab" } else { b"abcd" };
            let n = (rng.next() % 700) as usize;
            let m = 1 + (rng.next() % 20) as usize;
            let text = rng.bytes(n, alphabet);
            let pat = if n > m && case % 2 == 0 {
                let at = (rng.next() % (n - m) as u64) as usize;
                text[at..at + m].to_vec()
            } else {
                rng.bytes(m, alphabet)
            };
            let portion = [32usize, 64, 128][case % 3];
            assert_eq!(bm_model(&text, &pat, portion), naive_find(&text, &pat));
        }
    }
}
