//! Ruby: the rules of this language family.

use super::*;

/// The symbol kind a node defines, if any ([`super::def_kind`]).
pub(super) fn def_kind<'t>(_up: Up<'_, 't>, n: Node<'t>, src: &str) -> Option<&'static str> {
    Some(match kind_of(n) {
        "method" | "singleton_method" => "function",
        "class" => "class",
        "module" => "module",
        "assignment" if field(n, "left").map(kind_of) == Some("constant") => "constant",
        // `attr_accessor :name, …` defines the reader and writer methods of each name.
        "call"
            if field(n, "receiver").is_none()
                && field(n, "method").is_some_and(|m| {
                    matches!(
                        src.get(m.byte_range()),
                        Some("attr_accessor" | "attr_reader" | "attr_writer")
                    )
                }) =>
        {
            "property"
        }
        _ => return None,
    })
}

/// The typed names node `n` declares ([`super::typed_bindings`]).
pub(super) fn typed_bindings<'t>(
    b: &mut Bindings<'_, 't>,
    n: Node<'t>,
    _src: &str,
    _in_type: bool,
) {
    if kind_of(n) == "assignment" {
        b.bind(
            field(n, "left").filter(|l| matches!(kind_of(l), "identifier" | "instance_variable")),
            field(n, "right"),
            true,
            false,
        );
    }
}

/// Imports declared by a node ([`super::imports`]).
pub(super) fn imports(n: Node, src: &str) -> Vec<Import> {
    let text = |x: Node| node_text(x, src);
    match kind_of(n) {
        "call" => {
            let method = field(n, "method").map(text).unwrap_or_default();
            if !matches!(method.as_str(), "require" | "require_relative" | "load")
                || field(n, "receiver").is_some()
            {
                return vec![];
            }
            field(n, "arguments")
                .and_then(|a| a.named_child(0))
                .map(|s| {
                    let p = unquote(text(s));
                    (
                        p.rsplit('/').next().unwrap_or(&p).to_string(),
                        Some(p),
                        None,
                    )
                })
                .into_iter()
                .collect()
        }
        _ => vec![],
    }
}

/// Whether a Ruby method is public: `private def m`, a bare `private` or `protected` earlier
/// in its class body (until a bare `public`), or `private :m` / `private_class_method :m`
/// anywhere in that body make it not. Constants and accessors count as public.
pub(super) fn ruby_visibility<'t>(up: Up<'_, 't>, n: Node<'t>, name: &str, src: &str) -> bool {
    let kind = kind_of(n);
    if !matches!(kind, "method" | "singleton_method") {
        return true;
    }
    let text = |x: Node| src.get(x.byte_range()).unwrap_or("");
    let hides = |word: &str| match word {
        "private" | "protected" => Some(false),
        "public" => Some(true),
        _ => None,
    };
    let mut at = n;
    if let Some(args) = up.parent(n).filter(|p| kind_of(*p) == "argument_list")
        && let Some(call) = up.parent(args).filter(|c| kind_of(*c) == "call")
    {
        if let Some(public) = field(call, "method").and_then(|m| hides(text(m))) {
            return public;
        }
        at = call;
    }
    let Some(body) = up.parent(at).filter(|b| kind_of(*b) == "body_statement") else {
        return true;
    };
    // `private :m` names it, before or after the definition.
    let named_by = if kind == "singleton_method" {
        &["private_class_method"][..]
    } else {
        &["private", "protected"][..]
    };
    for c in named_children(body) {
        if kind_of(c) == "call"
            && field(c, "receiver").is_none()
            && field(c, "method").is_some_and(|m| named_by.contains(&text(m)))
            && field(c, "arguments").is_some_and(|a| {
                named_children(a).into_iter().any(|s| {
                    kind_of(s) == "simple_symbol" && name_text(Lang::Ruby, text(s)) == name
                })
            })
        {
            return false;
        }
    }
    if kind == "singleton_method" {
        return true;
    }
    up.prev_siblings(at)
        .filter(|p| kind_of(*p) == "identifier")
        .find_map(|p| hides(text(p)))
        .unwrap_or(true)
}

/// Ruby: the arguments of a call that mixes modules in — `include`, `extend` or `prepend`
/// without a receiver, naming only constants (`include Enumerable, Mod::Helpers`) — or `None`
/// for any other call (`include "*.rb"` on a file list is a method call).
pub(super) fn ruby_mixin<'t>(n: Node<'t>, src: &str) -> Option<Node<'t>> {
    if kind_of(n) != "call" || field(n, "receiver").is_some() {
        return None;
    }
    let method = field(n, "method")?;
    if !matches!(
        src.get(method.byte_range())?,
        "include" | "extend" | "prepend"
    ) {
        return None;
    }
    let args = field(n, "arguments")?;
    let names = named_children(args);
    let constants = !names.is_empty()
        && names
            .iter()
            .all(|a| matches!(kind_of(*a), "constant" | "scope_resolution"));
    constants.then_some(args)
}
