//! Unit records: the bytes a unit's row is rendered from, written in zstd frames of the
//! `.units` object and read back.

use super::*;

/// What a definition's result is rendered from.
pub(super) struct SymbolRecord<'a> {
    pub(super) identifier: &'a str,
    pub(super) path: &'a str,
    pub(super) kind: &'a str,
    pub(super) name: &'a str,
    pub(super) qualified_name: &'a str,
    pub(super) start_line: i64,
    pub(super) start_character: i64,
    pub(super) end_line: i64,
    pub(super) end_character: i64,
    pub(super) signature: &'a str,
    pub(super) summary: &'a str,
    pub(super) is_public: bool,
    /// Bytes of the definition's lines (`contentByteSize`).
    pub(super) size: usize,
}

/// What a file's result is rendered from.
pub(super) struct FileRecord<'a> {
    pub(super) identifier: &'a str,
    pub(super) path: &'a str,
    pub(super) language: &'a str,
    pub(super) lines: i64,
    pub(super) bytes: i64,
}

pub(super) const FILE_RECORD: u8 = b'F';
pub(super) const SYMBOL_RECORD: u8 = b'S';

pub(super) fn put_str(out: &mut Vec<u8>, s: &str) {
    put_varint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

impl FileRecord<'_> {
    pub(super) fn encode(&self) -> Vec<u8> {
        let mut out =
            Vec::with_capacity(16 + self.identifier.len() + self.path.len() + self.language.len());
        out.push(FILE_RECORD);
        put_str(&mut out, self.identifier);
        put_str(&mut out, self.path);
        put_str(&mut out, self.language);
        put_varint(&mut out, self.lines as u64);
        put_varint(&mut out, self.bytes as u64);
        out
    }
}

impl SymbolRecord<'_> {
    pub(super) fn encode(&self) -> Vec<u8> {
        let strings = [
            self.identifier,
            self.path,
            self.kind,
            self.name,
            self.qualified_name,
        ];
        let text: usize = strings.iter().map(|s| s.len()).sum();
        let mut out = Vec::with_capacity(48 + text + self.signature.len() + self.summary.len());
        out.push(SYMBOL_RECORD);
        for s in strings {
            put_str(&mut out, s);
        }
        for n in [
            self.start_line,
            self.start_character,
            self.end_line,
            self.end_character,
        ] {
            put_varint(&mut out, n as u64);
        }
        put_str(&mut out, self.signature);
        put_str(&mut out, self.summary);
        out.push(u8::from(self.is_public));
        put_varint(&mut out, self.size as u64);
        out
    }
}

/// The next record of a (decompressed) records frame, as the rows results are rendered
/// from; `None` at the frame's end.
pub(super) fn read_record(r: &mut Reader<'_>) -> Result<Option<Map<String, Value>>, CorruptIndex> {
    if r.at == r.bytes.len() {
        return Ok(None);
    }
    let mut m = Map::new();
    let tag = r.u8()?;
    let (texts, ints, more_texts): (&[&str], &[&str], &[&str]) = match tag {
        FILE_RECORD => (
            &["identifier", "path", "language"],
            &["lines", "bytes"],
            &[],
        ),
        SYMBOL_RECORD => (
            &["identifier", "path", "kind", "name", "qualified_name"],
            &["start_line", "start_character", "end_line", "end_character"],
            &["signature", "summary"],
        ),
        other => {
            return Err(CorruptIndex(format!(
                "{}: unknown record type {other}",
                r.what
            )));
        }
    };
    for &key in texts {
        m.insert(key.into(), Value::from(r.str()?));
    }
    // Numbers are written from an `i64` (or a `usize`).
    for &key in ints {
        m.insert(key.into(), Value::from(r.varint()? as i64));
    }
    for &key in more_texts {
        m.insert(key.into(), Value::from(r.str()?));
    }
    if tag == SYMBOL_RECORD {
        m.insert("is_public".into(), Value::from(r.u8()? != 0));
        m.insert("size".into(), Value::from(r.varint()? as i64));
    }
    Ok(Some(m))
}

pub(super) fn records_reader(frame: &[u8]) -> Reader<'_> {
    Reader {
        bytes: frame,
        at: 0,
        what: "unit records",
    }
}

/// Every record of a (decompressed) records frame, in order.
pub(super) fn decode_records(frame: &[u8]) -> Result<Vec<Map<String, Value>>, CorruptIndex> {
    let mut r = records_reader(frame);
    let mut out = Vec::new();
    while let Some(m) = read_record(&mut r)? {
        out.push(m);
    }
    Ok(out)
}

/// Where each record of a (decompressed) records frame lies in it.
pub(super) fn record_spans(frame: &[u8]) -> Result<Vec<std::ops::Range<usize>>, CorruptIndex> {
    let mut r = records_reader(frame);
    let mut out = Vec::new();
    loop {
        let start = r.at;
        if read_record(&mut r)?.is_none() {
            return Ok(out);
        }
        out.push(start..r.at);
    }
}

/// A records frame's records (at most 64 MB: a damaged size is an error, not an allocation).
pub(super) fn decompress_records(z: &[u8]) -> Result<Vec<u8>, String> {
    let size = zstd::zstd_safe::get_frame_content_size(z)
        .ok()
        .flatten()
        .filter(|&n| n <= 64 << 20)
        .ok_or("damaged")?;
    zstd::bulk::decompress(z, size as usize).map_err(|e| format!("zstd: {e}"))
}
