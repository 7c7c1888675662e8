"""A stand-in for an OpenAI-compatible LLM (an LLM cannot run here): answers every
/v1/chat/completions request with a fixed sentence that cites the first artifact identifier
found in the evidence, and records the request to the file given as argv[2].

Usage: stand_in_llm.py PORT_FILE REQUEST_LOG [DELAY_SECONDS]
(prints nothing; writes the bound port; answers each request after DELAY_SECONDS, default 0,
so tests can hold requests in flight)
"""

import json
import re
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DELAY = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
        with open(sys.argv[2], "a") as log:
            log.write(json.dumps({"path": self.path, "auth": self.headers.get("authorization"), "body": body}) + "\n")
        time.sleep(DELAY)
        evidence = body["messages"][-1]["content"]
        first = re.search(r"\[([^\]\s]+::[^\]\s]+)\]", evidence)
        answer = f"STAND-IN LLM: the answer is in [{first.group(1) if first else 'nothing'}]."
        out = json.dumps({"id": "x", "object": "chat.completion", "created": 0, "model": body.get("model"),
                          "choices": [{"index": 0, "message": {"role": "assistant", "content": answer}, "finish_reason": "stop"}]})
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.end_headers()
        self.wfile.write(out.encode())

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(sys.argv[1], "w") as f:
    f.write(str(server.server_address[1]))
server.serve_forever()
