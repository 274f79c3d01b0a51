//! Decimal digits of a number, written without `fmt` or an allocation
//! (a line number's `to_string` per printed line; JSON's numbers; the
//! corpus generator's).

/// A number's decimal digits.
pub struct Decimal {
    digits: [u8; 20],
    start: usize,
}

impl Decimal {
    pub fn new(mut n: u64) -> Decimal {
        let mut digits = [0u8; 20];
        let mut start = digits.len();
        loop {
            start -= 1;
            digits[start] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
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
