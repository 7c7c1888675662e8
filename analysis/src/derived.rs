//! The byte formats the derived objects (the trigram index, the search index, packed analyses,
//! digests) share: a bounds-checked reader, little-endian integers, varints, zstd frames.
//! (What touches the store — the per-process cache, format checks, clean-up — is the engine's
//! `derived` module.)

/// Why a stored derived object could not be read (its message names which one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CorruptIndex(pub String);

impl std::fmt::Display for CorruptIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "corrupt {}", self.0)
    }
}

impl std::error::Error for CorruptIndex {}

/// Reads a serialised object front to back; running past the end is an error, not a panic.
pub struct Reader<'a> {
    pub bytes: &'a [u8],
    pub at: usize,
    /// What is being read, for error messages (`trigram index`, …).
    pub what: &'static str,
}

impl<'a> Reader<'a> {
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], CorruptIndex> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| CorruptIndex(format!("{}: truncated at byte {}", self.what, self.at)))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    pub fn u32(&mut self) -> Result<u32, CorruptIndex> {
        let b = self.take(4)?;
        Ok(le32(b, 0))
    }

    pub fn u64(&mut self) -> Result<u64, CorruptIndex> {
        let b = self.take(8)?;
        Ok(le64(b, 0))
    }

    pub fn f32(&mut self) -> Result<f32, CorruptIndex> {
        Ok(f32::from_bits(self.u32()?))
    }

    pub fn u8(&mut self) -> Result<u8, CorruptIndex> {
        Ok(self.take(1)?[0])
    }

    /// A number [`put_varint`] wrote.
    pub fn varint(&mut self) -> Result<u64, CorruptIndex> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.u8()?;
            v |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Ok(v);
            }
        }
        Err(CorruptIndex(format!(
            "{}: a number too long before byte {}",
            self.what, self.at
        )))
    }

    /// A string written as its [`put_varint`] length and its UTF-8 bytes.
    pub fn str(&mut self) -> Result<&'a str, CorruptIndex> {
        let len = usize::try_from(self.varint()?).unwrap_or(usize::MAX);
        let at = self.at;
        std::str::from_utf8(self.take(len)?)
            .map_err(|_| CorruptIndex(format!("{}: a string at byte {at} is not UTF-8", self.what)))
    }
}

/// The little-endian `u32` at `at` (the caller has checked the bounds).
pub fn le32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// The little-endian `u64` at `at` (the caller has checked the bounds).
pub fn le64(b: &[u8], at: usize) -> u64 {
    u64::from(le32(b, at)) | (u64::from(le32(b, at + 4)) << 32)
}

/// A map by path in the derived objects' framing (row digests, blob ids): `magic`, `u64`
/// entries, then per entry, sorted by path (the same map gives the same bytes), `u32` path
/// length, path, and the entry's own bytes, written by `put`.
pub fn encode_by_path<V>(
    magic: &[u8],
    map: &std::collections::HashMap<String, V>,
    entry_bytes: usize,
    mut put: impl FnMut(&mut Vec<u8>, &V),
) -> Vec<u8> {
    let mut entries: Vec<_> = map.iter().collect();
    entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
    let mut out = Vec::with_capacity(16 + entries.len() * entry_bytes);
    out.extend_from_slice(magic);
    out.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    for (path, v) in entries {
        out.extend_from_slice(&(path.len() as u32).to_le_bytes());
        out.extend_from_slice(path.as_bytes());
        put(&mut out, v);
    }
    out
}

/// Read [`encode_by_path`]'s framing back, each entry's own bytes by `get`. Another magic,
/// a short object, a path that is not UTF-8 or trailing bytes are errors naming `what`.
pub fn decode_by_path<V>(
    bytes: &[u8],
    magic: &[u8],
    what: &'static str,
    mut get: impl FnMut(&mut Reader<'_>) -> Result<V, CorruptIndex>,
) -> Result<std::collections::HashMap<String, V>, CorruptIndex> {
    let mut r = Reader { bytes, at: 0, what };
    if r.take(magic.len())? != magic {
        return Err(CorruptIndex(format!("{what}: unknown format")));
    }
    let n = r.u64()?;
    let mut map = std::collections::HashMap::with_capacity(n.min(1 << 24) as usize);
    for _ in 0..n {
        let len = r.u32()? as usize;
        let path = std::str::from_utf8(r.take(len)?)
            .map_err(|_| CorruptIndex(format!("{what}: a path is not UTF-8")))?
            .to_string();
        let v = get(&mut r)?;
        map.insert(path, v);
    }
    if r.at != bytes.len() {
        return Err(CorruptIndex(format!("{what}: trailing bytes")));
    }
    Ok(map)
}

/// Append `v` as a LEB128 varint.
pub fn put_varint(out: &mut Vec<u8>, v: impl Into<u64>) {
    let mut v: u64 = v.into();
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// One zstd frame (level 1) of `content`, with this thread's compression context (a context
/// per call, `zstd::bulk::compress`, was 6 % of building the trigram index on the registry).
/// Used for the trigram index's content frames and for packed analyses.
pub fn compress_frame(content: &[u8]) -> std::io::Result<Vec<u8>> {
    use std::cell::RefCell;
    thread_local! {
        static CONTEXT: RefCell<Option<zstd::bulk::Compressor<'static>>> =
            const { RefCell::new(None) };
    }
    CONTEXT.with(|cell| {
        let mut cell = cell.borrow_mut();
        let cctx = match &mut *cell {
            Some(c) => c,
            none => none.insert(zstd::bulk::Compressor::new(1)?),
        };
        cctx.compress(content)
    })
}

/// One frame, with this thread's zstd context (made once per thread: rayon's `map_init` made
/// one per split, 2 % of a selective grep), into the vector's spare capacity (no zero-filling
/// of a buffer about to be overwritten: a tenth of a selective grep in the debug build).
pub fn decompress_frame(frame: &[u8], len: usize) -> std::io::Result<Vec<u8>> {
    use std::cell::RefCell;
    thread_local! {
        static CONTEXT: RefCell<Option<zstd::bulk::Decompressor<'static>>> =
            const { RefCell::new(None) };
    }
    CONTEXT.with(|cell| {
        let mut cell = cell.borrow_mut();
        let dctx = match &mut *cell {
            Some(d) => d,
            none => none.insert(zstd::bulk::Decompressor::new()?),
        };
        let mut bytes = Vec::with_capacity(len);
        dctx.decompress_to_buffer(frame, &mut bytes)?;
        Ok(bytes)
    })
}
