//! GIF's LZW compression, written for speed on board frames. The `gif` crate's encoder
//! (weezl) walks a tree of successors per input byte and spent two thirds of a game GIF's time
//! there (about 90 MB/s); this one looks each (prefix, byte) pair up in a dense table, one load
//! per byte, and makes the whole GIF about twice as fast. The table holds `4096 << min_size`
//! codes (1 MB for a palette of 128), allocated once per GIF; only the entries a frame used are
//! cleared for the next.
//!
//! The output is what the GIF format stores for one image (the minimum code size byte, then the
//! codes packed least significant bit first), ready for `gif::Encoder::write_lzw_pre_encoded_frame`.

/// Codes never exceed 12 bits.
const MAX_CODES: usize = 4096;

pub(crate) struct LzwEncoder {
    min_size: u8,
    /// `next[prefix << min_size | byte]`: the code for that string, or 0 for none yet (no string's code
    /// is 0: codes below the clear code stand for single bytes and are never added).
    next: Vec<u16>,
    /// Slots of `next` filled since the last reset.
    used: Vec<u32>,
}

/// Codes packed into bytes, least significant bit first.
struct BitWriter<'a> {
    out: &'a mut Vec<u8>,
    bits: u64,
    count: u32,
}

impl BitWriter<'_> {
    #[inline]
    fn write(&mut self, code: u16, size: u8) {
        self.bits |= u64::from(code) << self.count;
        self.count += u32::from(size);
        while self.count >= 8 {
            self.out.push(self.bits as u8);
            self.bits >>= 8;
            self.count -= 8;
        }
    }

    fn finish(self) {
        if self.count > 0 {
            self.out.push(self.bits as u8);
        }
    }
}

impl LzwEncoder {
    /// An encoder for pixels below `1 << min_size` (`min_size` within 2..=8).
    pub(crate) fn new(min_size: u8) -> LzwEncoder {
        debug_assert!((2..=8).contains(&min_size));
        LzwEncoder { min_size, next: vec![0; MAX_CODES << min_size], used: Vec::with_capacity(MAX_CODES) }
    }

    /// The smallest code size that holds every index below `colours`.
    pub(crate) fn min_size_for(colours: usize) -> u8 {
        let mut size = 2;
        while (1usize << size) < colours {
            size += 1;
        }
        size
    }

    fn reset(&mut self) {
        for &slot in &self.used {
            self.next[slot as usize] = 0;
        }
        self.used.clear();
    }

    /// Appends `pixels` compressed to `out`, as one GIF image's data.
    pub(crate) fn encode(&mut self, pixels: &[u8], out: &mut Vec<u8>) {
        let clear = 1u16 << self.min_size;
        let end = clear + 1;
        let first_free = clear + 2;
        out.push(self.min_size);
        let mut writer = BitWriter { out, bits: 0, count: 0 };
        let mut size = self.min_size + 1;
        writer.write(clear, size);
        self.reset();
        let Some((&first, rest)) = pixels.split_first() else {
            writer.write(end, size);
            writer.finish();
            return;
        };
        debug_assert!(pixels.iter().all(|&p| u16::from(p) < clear), "pixels fit the code size");
        let mut free = first_free;
        let mut prefix = u16::from(first);
        for &byte in rest {
            let slot = usize::from(prefix) << self.min_size | usize::from(byte);
            let code = self.next[slot];
            if code != 0 {
                prefix = code;
                continue;
            }
            writer.write(prefix, size);
            // The decoder adds `free` on reading this code: it needs the wider codes from here.
            if usize::from(free) < MAX_CODES {
                if free == 1 << size && size < 12 {
                    size += 1;
                }
                self.next[slot] = free;
                self.used.push(slot as u32);
                free += 1;
            } else {
                writer.write(clear, size);
                self.reset();
                size = self.min_size + 1;
                free = first_free;
            }
            prefix = u16::from(byte);
        }
        writer.write(prefix, size);
        if usize::from(free) < MAX_CODES && free == 1 << size && size < 12 {
            size += 1;
        }
        writer.write(end, size);
        writer.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(pixels: &[u8], min_size: u8) {
        let mut encoder = LzwEncoder::new(min_size);
        // Twice through the same encoder: the second run must not see the first's strings.
        for _ in 0..2 {
            let mut out = Vec::new();
            encoder.encode(pixels, &mut out);
            assert_eq!(out[0], min_size);
            let mut decoder = weezl::decode::Decoder::new(weezl::BitOrder::Lsb, min_size);
            let decoded = decoder.decode(&out[1..]).expect("weezl reads it");
            assert_eq!(decoded.len(), pixels.len());
            assert!(decoded == pixels, "round trip of {} pixels at code size {min_size}", pixels.len());
        }
    }

    #[test]
    fn what_is_encoded_decodes_unchanged() {
        round_trip(&[], 2);
        round_trip(&[3], 2);
        round_trip(&[0, 0, 1, 3], 2);
        round_trip(&[7; 100_000], 8);
        // Pseudo-random bytes fill the table many times over, forcing clears.
        let mut state = 1u32;
        let noise: Vec<u8> = (0..300_000)
            .map(|_| {
                state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
                (state >> 16) as u8
            })
            .collect();
        round_trip(&noise, 8);
        round_trip(&noise.iter().map(|b| b & 0x7f).collect::<Vec<_>>(), 7);
        round_trip(&noise.iter().map(|b| b & 3).collect::<Vec<_>>(), 2);
        // Board-like rows: runs of a few colours, repeated.
        let rows: Vec<u8> = (0..200_000).map(|i| ((i / 80) % 2 * 5 + (i % 640 / 300)) as u8).collect();
        round_trip(&rows, 4);
    }

    #[test]
    fn code_sizes_cover_the_palette() {
        assert_eq!(LzwEncoder::min_size_for(2), 2);
        assert_eq!(LzwEncoder::min_size_for(5), 3);
        assert_eq!(LzwEncoder::min_size_for(128), 7);
        assert_eq!(LzwEncoder::min_size_for(129), 8);
        assert_eq!(LzwEncoder::min_size_for(256), 8);
    }
}
