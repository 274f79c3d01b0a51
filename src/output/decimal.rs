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
    /// Two digits at a time (one division per pair: a line number per
    /// printed line, 4-5 % of dense `-n` output's time a digit at a time).
    #[inline]
    pub fn new(mut n: u64) -> Decimal {
        let mut digits = [0u8; 20];
        let mut start = digits.len();
        while n >= 100 {
            let pair = (n % 100) as usize * 2;
            n /= 100;
            start -= 2;
            digits[start..start + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
        }
        match n >= 10 {
            true => {
                start -= 2;
                digits[start..start + 2]
                    .copy_from_slice(&PAIRS[n as usize * 2..n as usize * 2 + 2]);
            }
            false => {
                start -= 1;
                digits[start] = b'0' + n as u8;
            }
        }
        Decimal { digits, start }
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.digits[self.start..]
    }
}

#[cfg(test)]
mod tests {
    use super::Decimal;

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
            }
            n = n.wrapping_mul(3).wrapping_add(k);
        }
    }
}
