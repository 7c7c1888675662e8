"""Drive Quarry's /api/chat/completions with the official OpenAI Python client.

Usage: openai_client.py BASE_URL KEY  (BASE_URL like http://127.0.0.1:PORT/api)
Prints one JSON object: the non-streamed answer and the streamed one, joined from chunks.
"""

import json
import sys

from openai import OpenAI

base, key = sys.argv[1], sys.argv[2]
client = OpenAI(base_url=base, api_key=key)
messages = [{"role": "user", "content": "How are points summed in the C code?"}]
resp = client.chat.completions.create(
    model="quarry", messages=messages, extra_body={"names": ["polyglot"], "conversation_id": "conv-1"}
)
streamed = []
finish = None
for chunk in client.chat.completions.create(model="quarry", messages=messages, stream=True, extra_body={"names": ["polyglot"]}):
    if chunk.choices and chunk.choices[0].delta.content:
        streamed.append(chunk.choices[0].delta.content)
    if chunk.choices and chunk.choices[0].finish_reason:
        finish = chunk.choices[0].finish_reason
print(json.dumps({
    "answer": resp.choices[0].message.content,
    "conversation_id": getattr(resp, "conversation_id", None) or (resp.model_extra or {}).get("conversation_id"),
    "finish_reason": resp.choices[0].finish_reason,
    "streamed": "".join(streamed),
    "stream_finish": finish,
}))
