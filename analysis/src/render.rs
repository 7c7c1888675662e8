//! Results as agents and scripts read them: Arrow rows as JSON objects, XML text (docs/tools.md),
//! JSON bodies. Here, optimised, rather than in the server (opt-level 0 in the debug build):
//! at opt-level 0 a grep answer of a few hundred files took milliseconds to write.

use arrow_array::{Array, RecordBatch};
use arrow_cast::display::{ArrayFormatter, FormatOptions};
use arrow_schema::{ArrowError, DataType};
use serde_json::{Map, Value};

/// Rows as JSON objects keyed by column, with numbers and booleans kept typed.
pub fn json_rows(batches: &[RecordBatch]) -> Result<Vec<Map<String, Value>>, ArrowError> {
    use arrow_array::cast::AsArray;
    use arrow_array::types::*;
    let mut rows = Vec::new();
    let opts = FormatOptions::default();
    for batch in batches {
        let schema = batch.schema();
        let mut out: Vec<Map<String, Value>> = (0..batch.num_rows()).map(|_| Map::new()).collect();
        for (ci, field) in schema.fields().iter().enumerate() {
            let col = batch.column(ci);
            let fmt = ArrayFormatter::try_new(col.as_ref(), &opts)?;
            for (ri, row) in out.iter_mut().enumerate() {
                let v = if col.is_null(ri) {
                    Value::Null
                } else {
                    match field.data_type() {
                        DataType::Int64 => Value::from(col.as_primitive::<Int64Type>().value(ri)),
                        DataType::Int32 => Value::from(col.as_primitive::<Int32Type>().value(ri)),
                        DataType::UInt64 => Value::from(col.as_primitive::<UInt64Type>().value(ri)),
                        DataType::UInt32 => Value::from(col.as_primitive::<UInt32Type>().value(ri)),
                        DataType::Float64 => {
                            Value::from(col.as_primitive::<Float64Type>().value(ri))
                        }
                        DataType::Float32 => {
                            Value::from(col.as_primitive::<Float32Type>().value(ri) as f64)
                        }
                        DataType::Boolean => Value::from(col.as_boolean().value(ri)),
                        DataType::Utf8 => Value::from(col.as_string::<i32>().value(ri)),
                        DataType::LargeUtf8 => Value::from(col.as_string::<i64>().value(ri)),
                        DataType::Utf8View => Value::from(col.as_string_view().value(ri)),
                        _ => Value::from(fmt.value(ri).to_string()),
                    }
                };
                row.insert(field.name().clone(), v);
            }
        }
        rows.extend(out);
    }
    Ok(rows)
}

// Agent-facing XML text (docs/tools.md). Here rather than in the server so the renderings built
// for hundreds of results run optimised (the engine is, even in the debug build).

/// Escape text for XML element content (`&`, `<`, `>`; quotes stay readable).
pub fn xml_escape(s: &str) -> String {
    escape(s, false)
}

/// Escape text for a double-quoted XML attribute value.
pub fn attr_escape(s: &str) -> String {
    escape(s, true)
}

fn escape(s: &str, attr: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attr => out.push_str("&quot;"),
            // In an attribute (a path, a name) a line break would forge a line of output:
            // written as a character reference instead.
            c if attr && (c == '\n' || c == '\r' || c == '\t') => {
                out.push_str(&format!("&#{};", c as u32));
            }
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' && c != '\r' => {}
            c => out.push(c),
        }
    }
    out
}

/// ` name="value"` pairs of an XML element (values escaped; nulls left out).
pub fn attrs(pairs: &[(&str, Option<&str>)]) -> String {
    pairs
        .iter()
        .filter_map(|(k, v)| v.map(|v| format!(" {k}=\"{}\"", attr_escape(v))))
        .collect()
}

/// `value` as JSON bytes: an HTTP response body. (Serialised here, optimised, for the same
/// reason: at opt-level 0 a grep answer of a few hundred files took milliseconds to write.)
pub fn json_bytes(value: &Value) -> Vec<u8> {
    serde_json::to_vec(value).unwrap_or_else(|_| b"null".to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_control_characters() {
        assert_eq!(xml_escape("a<b>&\"'\u{1}"), "a&lt;b&gt;&amp;\"'");
        assert_eq!(attr_escape("a\nb\"c"), "a&#10;b&quot;c");
        assert_eq!(attr_escape("a\"'"), "a&quot;'");
        assert_eq!(
            attrs(&[("a", Some("x\"y")), ("b", None)]),
            " a=\"x&quot;y\""
        );
    }
}
