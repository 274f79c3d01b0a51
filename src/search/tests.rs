use super::count_byte;

#[test]
fn count_byte_matches_naive_across_block_sizes() {
    for len in [
        0,
        1,
        31,
        32,
        33,
        255 * 32 - 1,
        255 * 32,
        255 * 32 + 1,
        20_000,
    ] {
        let hay: Vec<u8> = (0..len)
            .map(|i| {
                if i % 3 == 0 || i % 7 == 0 {
                    b'\n'
                } else {
                    b'x'
                }
            })
            .collect();
        let naive = hay.iter().filter(|&&x| x == b'\n').count() as u64;
        assert_eq!(count_byte(&hay, b'\n'), naive, "len {len}");
    }
    let all = vec![b'\n'; 100_000];
    assert_eq!(count_byte(&all, b'\n'), 100_000);
}

#[test]
fn binary_probe_sees_the_same_bytes_however_they_arrive() {
    use super::binary::{BinaryRule, Probe, BINARY_PROBE};
    use crate::config::BinaryMode;
    let rule = BinaryRule::new(BinaryMode::Binary, b'\n');
    for nul_at in [0, 1, BINARY_PROBE - 1, BINARY_PROBE, BINARY_PROBE + 5] {
        let mut data = vec![b'a'; BINARY_PROBE + 10];
        data[nul_at] = 0;
        let whole = rule.probe(&data);
        assert_eq!(whole, nul_at < BINARY_PROBE);
        for block in [1, 7, 4096, BINARY_PROBE] {
            let mut probe = Probe::default();
            let fed = data.chunks(block).fold(false, |seen, c| {
                let done = probe.done();
                seen | (!done && probe.feed(c))
            });
            assert_eq!(fed, whole, "NUL at {nul_at}, blocks of {block}");
        }
    }
    assert!(!BinaryRule::new(BinaryMode::Text, b'\n').probe(b"\0"));
    assert!(!BinaryRule::new(BinaryMode::Binary, 0).probe(b"\0"));
}
