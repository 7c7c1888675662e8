"""Drive Quarry's MCP endpoint with the official Python SDK (PyPI `mcp`).

Usage: mcp_client.py URL KEY MODE   (MODE: legacy = 2025-11-25 handshake, or 2026-07-28)
Lists the tools, calls each one with arguments valid for the polyglot fixture, checks every
structuredContent against the tool's declared outputSchema (the SDK's own check for results,
and jsonschema for isError results too), and prints one JSON object with what came back, for
the Rust integration test to assert on.
"""

import asyncio
import json
import sys

import httpx2
import jsonschema
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client

CALLS = {
    "get_data_sources": {},
    "semantic_search": {"question": "How are points summed?"},
    "grep_search": {"query": "clamp", "max_results": 2.0},
    "get_file_tree": {"path": "c"},
    "get_artifact_relationships": {"identifier": "fixtures/polyglot::c/util.c::clamp"},
    "query_artifact_metadata": {"statement": "SELECT COUNT(*) AS n FROM files LIMIT 1"},
    "get_artifact_query_schema": {"entity": "files"},
    "read_file": {"path": "c/util.c", "start_line": "1", "end_line": 2},
    "fetch_artifacts": {"identifiers": ["fixtures/polyglot::c/util.c::sum_points"]},
    "chat": {"question": "How are points summed?"},
    "get_repository_ontology": {},
}


async def main(url, key, mode):
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=60)
    out = {"tools": [], "calls": {}}
    async with Client(streamable_http_client(url, http_client=http), mode=mode) as client:
        listed = await client.list_tools()
        schemas = {}
        for t in listed.tools:
            schemas[t.name] = t.output_schema
            out["tools"].append({
                "name": t.name,
                "properties": sorted((t.input_schema or {}).get("properties", {})),
                "hasOutputSchema": t.output_schema is not None,
            })

        async def call(label, name, args):
            r = await client.call_tool(name, args)
            if not r.is_error:
                await client.session.validate_tool_result(name, r)  # raises when it does not conform
            problem = None
            try:
                jsonschema.validate(r.structured_content, schemas[name])
            except jsonschema.ValidationError as e:
                problem = e.message
            out["calls"][label] = {
                "isError": bool(r.is_error),
                "text": r.content[0].text if r.content else "",
                "structured": r.structured_content,
                "schemaProblem": problem,
            }

        for name, args in CALLS.items():
            await call(name, name, args)
        await call("unknown_argument", "read_file", {"path": "c/util.c", "colour": "red"})
        await call("bad_statement", "query_artifact_metadata", {"statement": "SELECT nme FROM files LIMIT 1"})
        await call("grep_json", "grep_search", {"query": "clamp", "output_format": "json"})
        await call("grep_agentic", "grep_search", {"query": "clamp", "output_format": "agentic"})
    print(json.dumps(out))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3]))
