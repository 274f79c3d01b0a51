//! Decimal digits of a number, written without `fmt` or an allocation
//! (a line number's `to_string` per printed line; JSON's numbers; the
//! corpus generator's).

/// A number's decimal digits.
pub struct Decimal {
    digits: [u8; 20],
    start: usize,
}

/// The two digits of 0 to 99, in order.
const PAIRS: &[u8; 200] = b"\
0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

impl Decimal {
    #[inline]
    pub fn new(n: u64) -> Decimal {
        let mut digits = [0u8; 20];
        let start = digits.len() - digit_count(n);
        write_digits(&mut digits[start..], n);
        Decimal { digits, start }
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.digits[self.start..]
    }

    /// Spaces before the digits, up to `width` bytes in all (at most 20,
    /// a `u64`'s digits): `-T`'s padded numbers.
    pub fn padded(mut self, width: usize) -> Decimal {
        let start = self.digits.len().saturating_sub(width).min(self.start);
        self.digits[start..self.start].fill(b' ');
        self.start = start;
        self
    }
}

/// Appends `n`'s decimal digits to `out`: below 10^8 (every line number
/// but in files of more than 100 M lines) all eight digits at once
/// ([`eight_digits`]). A [`Decimal`] copied out after its digits were
/// stored two bytes at a time stalled on the copy (the store could not be
/// forwarded), and its divisions by 100 wait on each other: with the
/// copy, 15 % of dense `-n` output's time (dev VM, `perf annotate`).
#[inline]
pub fn push_decimal(out: &mut Vec<u8>, n: u64) {
    if n >= EIGHT {
        // At most twice more: u64::MAX has 20 digits.
        push_decimal(out, n / EIGHT);
        out.extend_from_slice(&eight_digits((n % EIGHT) as u32).to_le_bytes());
        return;
    }
    let digits = eight_digits(n as u32);
    // Leading zeros are the low bytes equal to b'0' (0 prints one).
    let zeros = (((digits ^ ZEROS).trailing_zeros() / 8) as usize).min(7);
    let at = out.len();
    out.extend_from_slice(&(digits >> (8 * zeros)).to_le_bytes());
    out.truncate(at + 8 - zeros);
}

const EIGHT: u64 = 100_000_000;
const ZEROS: u64 = u64::from_le_bytes(*b"00000000");

/// The eight decimal digits of `n` (below 10^8, leading zeros kept) as
/// ASCII, the first in the lowest byte: the number split in halves of
/// four digits, pairs and digits in the lanes of one 64-bit word, each
/// division a multiply and a shift (`x * 10486 >> 20` is `x / 100` below
/// 10^4, `x * 103 >> 10` is `x / 10` below 100).
#[inline]
fn eight_digits(n: u32) -> u64 {
    let n = u64::from(n);
    let halves = (n / 10_000) | ((n % 10_000) << 32);
    let hundreds = ((halves * 10486) >> 20) & 0x0000_007f_0000_007f;
    let pairs = hundreds | ((halves - hundreds * 100) << 16);
    let tens = ((pairs * 103) >> 10) & 0x000f_000f_000f_000f;
    let digits = tens | ((pairs - tens * 10) << 8);
    digits | ZEROS
}

fn digit_count(n: u64) -> usize {
    n.checked_ilog10().map_or(1, |l| l as usize + 1)
}

/// Writes `n`'s digits into `digits`, which is as long as they are: two
/// at a time (one division per pair: a line number per printed line, 4-5
/// % of dense `-n` output's time a digit at a time).
#[inline]
fn write_digits(digits: &mut [u8], mut n: u64) {
    let mut end = digits.len();
    while n >= 100 {
        let pair = (n % 100) as usize * 2;
        n /= 100;
        end -= 2;
        digits[end..end + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    match n >= 10 {
        true => digits[end - 2..end].copy_from_slice(&PAIRS[n as usize * 2..n as usize * 2 + 2]),
        false => digits[end - 1] = b'0' + n as u8,
    }
}

#[cfg(test)]
mod tests {
    use super::{push_decimal, Decimal};

    #[test]
    fn push_decimal_writes_every_number_below_a_million_as_to_string() {
        let mut out = Vec::new();
        let mut want = String::new();
        for n in 0..1_000_000u64 {
            push_decimal(&mut out, n);
            want.push_str(&n.to_string());
        }
        assert_eq!(out, want.as_bytes());
    }

    /// Padded as `format!("{n:>width$}")`, never cut; 20 bytes at most.
    #[test]
    fn padded_is_right_aligned_as_format_pads() {
        for n in [0, 7, 42, 99_999, 1 << 40, u64::MAX] {
            for width in [0, 1, 2, 5, 19, 20, 25] {
                let want = format!("{n:>w$}", w = width.min(20));
                assert_eq!(Decimal::new(n).padded(width).as_bytes(), want.as_bytes());
            }
        }
    }

    #[test]
    fn decimal_writes_what_to_string_writes() {
        let mut n = 1u64;
        for k in 0..200u64 {
            for m in [
                0,
                1,
                9,
                10,
                99,
                100,
                k,
                k * 7919,
                n,
                n.wrapping_sub(1),
                n.wrapping_add(1),
                u64::MAX - k,
            ] {
                assert_eq!(Decimal::new(m).as_bytes(), m.to_string().as_bytes(), "{m}");
                let mut out = b"x".to_vec();
                push_decimal(&mut out, m);
                assert_eq!(out, format!("x{m}").as_bytes(), "{m}");
            }
            n = n.wrapping_mul(3).wrapping_add(k);
        }
    }
}
