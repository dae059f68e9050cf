"""A local HTTP server that counts the requests it gets, answering every GET with a schema holding SECRET: what a
hostile template's `$ref` would fetch. A template load, an upload or a validation must make it no request (issue
52). Used by tests/templates/test_template_safety.py, tests/serve/test_hostile_schema.py and
benchmarks/bad_inputs_r3_schema.py."""

import http.server
import json
import threading

SECRET = "TOP-SECRET-VALUE-42"


class CountingListener:
    """`url` (a schema's address on 127.0.0.1), `hits` (the paths requested, in order); a context manager, or
    `close()`."""

    def __init__(self):
        hits = self.hits = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (the stdlib's name)
                hits.append(self.path)
                body = json.dumps({"const": SECRET}).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *a):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/schema.json"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
