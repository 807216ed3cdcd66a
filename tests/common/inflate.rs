//! A small gzip reader (RFC 1952 around RFC 1951 DEFLATE), so the compression tests can
//! check that a gzip answer decodes to the page without adding a dependency.

/// Decodes a single-member gzip stream.
pub fn gunzip(data: &[u8]) -> Vec<u8> {
    assert!(data.len() >= 18, "a gzip stream has at least 18 bytes");
    assert_eq!(&data[..3], &[0x1f, 0x8b, 8], "gzip magic and DEFLATE method");
    let flags = data[3];
    let mut pos = 10;
    if flags & 0x04 != 0 {
        let extra = u16::from_le_bytes([data[pos], data[pos + 1]]) as usize;
        pos += 2 + extra;
    }
    for flag in [0x08, 0x10] {
        if flags & flag != 0 {
            while data[pos] != 0 {
                pos += 1;
            }
            pos += 1;
        }
    }
    if flags & 0x02 != 0 {
        pos += 2;
    }
    let (out, used) = inflate(&data[pos..]);
    let trailer = &data[pos + used..];
    assert!(trailer.len() >= 8, "gzip trailer present");
    let size = u32::from_le_bytes([trailer[4], trailer[5], trailer[6], trailer[7]]);
    assert_eq!(size as usize, out.len(), "gzip ISIZE matches the decoded length");
    out
}

struct Bits<'a> {
    data: &'a [u8],
    pos: usize,
    buf: u32,
    count: u32,
}

impl Bits<'_> {
    fn bits(&mut self, n: u32) -> u32 {
        while self.count < n {
            let byte = *self.data.get(self.pos).expect("DEFLATE stream ends early") as u32;
            self.pos += 1;
            self.buf |= byte << self.count;
            self.count += 8;
        }
        let value = self.buf & ((1u32 << n) - 1);
        self.buf >>= n;
        self.count -= n;
        value
    }

    fn align(&mut self) {
        self.buf = 0;
        self.count = 0;
    }

    fn decode(&mut self, table: &Huffman) -> usize {
        let (mut code, mut first, mut index) = (0i32, 0i32, 0i32);
        for len in 1..16 {
            code |= self.bits(1) as i32;
            let count = table.counts[len] as i32;
            if code - count < first {
                return table.symbols[(index + code - first) as usize] as usize;
            }
            index += count;
            first += count;
            first <<= 1;
            code <<= 1;
        }
        panic!("invalid Huffman code");
    }
}

struct Huffman {
    counts: [u16; 16],
    symbols: Vec<u16>,
}

impl Huffman {
    fn new(lengths: &[u8]) -> Huffman {
        let mut counts = [0u16; 16];
        for &len in lengths {
            counts[len as usize] += 1;
        }
        counts[0] = 0;
        let mut offsets = [0u16; 16];
        for len in 1..15 {
            offsets[len + 1] = offsets[len] + counts[len];
        }
        let mut symbols = vec![0u16; lengths.len()];
        for (symbol, &len) in lengths.iter().enumerate() {
            if len != 0 {
                symbols[offsets[len as usize] as usize] = symbol as u16;
                offsets[len as usize] += 1;
            }
        }
        Huffman { counts, symbols }
    }
}

const LEN_BASE: [u16; 29] =
    [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LEN_EXTRA: [u8; 29] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
    8193, 12289, 16385, 24577,
];
const DIST_EXTRA: [u8; 30] =
    [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];

/// Raw DEFLATE; returns the output and how many input bytes it used.
pub fn inflate(data: &[u8]) -> (Vec<u8>, usize) {
    let mut input = Bits { data, pos: 0, buf: 0, count: 0 };
    let mut out = Vec::new();
    loop {
        let last = input.bits(1) == 1;
        match input.bits(2) {
            0 => {
                input.align();
                let p = input.pos;
                let len = u16::from_le_bytes([data[p], data[p + 1]]) as usize;
                let nlen = u16::from_le_bytes([data[p + 2], data[p + 3]]) as usize;
                assert_eq!(len, !nlen & 0xffff, "stored block length check");
                out.extend_from_slice(&data[p + 4..p + 4 + len]);
                input.pos = p + 4 + len;
            }
            1 => {
                let mut lengths = [0u8; 288];
                lengths[..144].fill(8);
                lengths[144..256].fill(9);
                lengths[256..280].fill(7);
                lengths[280..].fill(8);
                let lit = Huffman::new(&lengths);
                let dist = Huffman::new(&[5u8; 30]);
                codes(&mut input, &mut out, &lit, &dist);
            }
            2 => {
                let nlit = input.bits(5) as usize + 257;
                let ndist = input.bits(5) as usize + 1;
                let ncode = input.bits(4) as usize + 4;
                const ORDER: [usize; 19] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
                let mut code_lengths = [0u8; 19];
                for &index in ORDER.iter().take(ncode) {
                    code_lengths[index] = input.bits(3) as u8;
                }
                let code_table = Huffman::new(&code_lengths);
                let mut lengths = Vec::with_capacity(nlit + ndist);
                while lengths.len() < nlit + ndist {
                    match input.decode(&code_table) {
                        symbol @ 0..=15 => lengths.push(symbol as u8),
                        16 => {
                            let previous = *lengths.last().expect("repeat has a previous length");
                            let n = 3 + input.bits(2);
                            lengths.extend(std::iter::repeat_n(previous, n as usize));
                        }
                        17 => {
                            let n = 3 + input.bits(3);
                            lengths.extend(std::iter::repeat_n(0, n as usize));
                        }
                        _ => {
                            let n = 11 + input.bits(7);
                            lengths.extend(std::iter::repeat_n(0, n as usize));
                        }
                    }
                }
                let lit = Huffman::new(&lengths[..nlit]);
                let dist = Huffman::new(&lengths[nlit..]);
                codes(&mut input, &mut out, &lit, &dist);
            }
            other => panic!("invalid DEFLATE block type {other}"),
        }
        if last {
            break;
        }
    }
    (out, input.pos)
}

fn codes(input: &mut Bits, out: &mut Vec<u8>, lit: &Huffman, dist: &Huffman) {
    loop {
        let symbol = input.decode(lit);
        match symbol {
            0..=255 => out.push(symbol as u8),
            256 => return,
            _ => {
                let i = symbol - 257;
                let len = LEN_BASE[i] as usize + input.bits(LEN_EXTRA[i] as u32) as usize;
                let d = input.decode(dist);
                let distance = DIST_BASE[d] as usize + input.bits(DIST_EXTRA[d] as u32) as usize;
                assert!(distance <= out.len(), "DEFLATE distance within the output");
                let from = out.len() - distance;
                for k in 0..len {
                    out.push(out[from + k]);
                }
            }
        }
    }
}
