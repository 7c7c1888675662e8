//! Agent-facing text: the XML blocks of SPEC 4.2 and abridged JSON.

use serde_json::Value;

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

/// The JSON of `obj` with long arrays cut to `keep` items (marked), for abridged renderings.
pub fn abridged(obj: &Value, keep: usize) -> String {
    fn cut(v: &Value, keep: usize) -> Value {
        match v {
            Value::Array(a) if a.len() > keep => {
                let mut out: Vec<Value> = a.iter().take(keep).map(|x| cut(x, keep)).collect();
                out.push(Value::String(format!(
                    "… {} more (use output_format=json for all)",
                    a.len() - keep
                )));
                Value::Array(out)
            }
            Value::Array(a) => Value::Array(a.iter().map(|x| cut(x, keep)).collect()),
            Value::Object(o) => {
                Value::Object(o.iter().map(|(k, x)| (k.clone(), cut(x, keep))).collect())
            }
            other => other.clone(),
        }
    }
    serde_json::to_string(&cut(obj, keep)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_control_characters() {
        assert_eq!(xml_escape("a<b>&\"'\u{1}"), "a&lt;b&gt;&amp;\"'");
        assert_eq!(attr_escape("a\"'"), "a&quot;'");
        assert_eq!(
            attrs(&[("a", Some("x\"y")), ("b", None)]),
            " a=\"x&quot;y\""
        );
    }
}
