# Sourced by the bench scripts: start a warm `quarry serve` on the current QUARRY_STORE.
# Needs $QUARRY; sets KEY (a fresh API key) and URL, and stops the server on exit.
KEY=$("$QUARRY" keys create 2>/dev/null)
PORT_FILE=$(mktemp)
"$QUARRY" serve --addr 127.0.0.1:0 > "$PORT_FILE" 2>/dev/null &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; rm -f "$PORT_FILE"' EXIT
for _ in $(seq 50); do grep -q http "$PORT_FILE" && break; sleep 0.2; done
URL=$(grep -o 'http://[0-9.:]*' "$PORT_FILE" | head -1)
