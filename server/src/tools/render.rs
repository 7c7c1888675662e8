//! Agent-facing text: the XML blocks of docs/tools.md and abridged JSON.

use serde_json::Value;

pub use quarry_engine::render::{attrs, xml_escape};

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
