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
