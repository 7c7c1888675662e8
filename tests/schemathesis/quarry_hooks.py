"""Schemathesis checks for Quarry's Tool API (loaded with SCHEMATHESIS_HOOKS=quarry_hooks).

SPEC 7.3 answers invalid tool arguments with HTTP 200 and a repairable error (`obj.error`
plus a `<tool_error>` block), not with a 4xx. schemathesis's built-in
`negative_data_rejection` expects a 4xx for schema-violating bodies, so the test command
excludes it and these checks take its place: every 200 is a well-formed envelope, every
repairable error has all four fields in both forms, and a body with an argument the schema
does not declare is answered with `unknown_argument`.
"""

import json

import schemathesis


def _declared(case):
    body = case.operation.definition.raw.get("requestBody", {})
    content = body.get("content", {}).get("application/json", {})
    return set(content.get("schema", {}).get("properties", {}).keys())


@schemathesis.check
def tool_envelope(ctx, response, case):
    if response.status_code != 200:
        return None
    try:
        doc = json.loads(response.content)
    except ValueError as e:
        raise AssertionError(f"200 without a JSON body: {e}")
    if not isinstance(doc, dict):
        raise AssertionError("200 body is not an object")
    obj = doc.get("obj")
    err = obj.get("error") if isinstance(obj, dict) else None
    if err is not None:
        for key in ("code", "message", "retry", "try"):
            if not isinstance(err.get(key), str) or not err[key]:
                raise AssertionError(f"obj.error.{key} missing or empty: {err}")
        rendered = doc.get("rendered", "")
        if "<tool_error>" not in rendered or f"<code>{err['code']}</code>" not in rendered:
            raise AssertionError("a repairable error must also be rendered as <tool_error>")
    elif "obj" not in doc and "rendered" not in doc:
        raise AssertionError(f"neither obj nor rendered in {sorted(doc)}")
    body = case.body if isinstance(case.body, dict) else None
    if body is not None:
        unknown = set(body) - _declared(case)
        if unknown:
            if err is None or err.get("code") != "unknown_argument":
                raise AssertionError(f"undeclared arguments {sorted(unknown)} were not rejected with unknown_argument")
            for name in unknown:
                if name not in err["message"]:
                    raise AssertionError(f"unknown_argument does not name {name!r}: {err['message']}")
    return None
