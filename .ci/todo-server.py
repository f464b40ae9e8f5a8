#!/usr/bin/env python3
"""Exercises the TodoServer example (Examples/TodoServer) over HTTP on loopback, as CI does:

    python3 .ci/todo-server.py PATH/TO/TodoServer

It starts the server on a free port with a new SQLite file, checks every route's answers (bodies,
statuses, ModelKit's error text in a 400), stops it with SIGTERM, starts it again on the same file
and checks that what was saved is there. Exits non-zero at the first difference."""
import json, os, select, signal, subprocess, sys, tempfile, urllib.error, urllib.request

binary = sys.argv[1]
database = os.path.join(tempfile.mkdtemp(), "todos.sqlite")


def start():
    server = subprocess.Popen([binary, "--port", "0", "--db", database], stdout=subprocess.PIPE, text=True)
    if not select.select([server.stdout], [], [], 120)[0]:
        server.kill()
        sys.exit("TodoServer printed nothing within 120 s")
    line = server.stdout.readline()
    if "listening on " not in line:
        sys.exit(f"TodoServer did not start: {line!r}")
    return server, line.split("listening on ")[1].split(",")[0]


def call(method, path, body=None):
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    request = urllib.request.Request(base + path, data=data, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def expect(what, actual, expected):
    if actual != expected:
        sys.exit(f"{what}: expected {expected!r}, got {actual!r}")
    print(f"ok: {what}")


def stop(server):
    server.send_signal(signal.SIGTERM)
    expect("the server stops on SIGTERM", server.wait(timeout=30), 0)


server, base = start()
todo = {"id": 1, "title": "buy milk", "due_on": "2026-12-24", "meta": {"tags": ["home"]}}
status, headers, body = call("POST", "/todos", todo)
expect("POST /todos answers 201", status, 201)
expect("with the new to-do's location", headers.get("Location"), "/todos/1")
expect("and the to-do in its remote keys", json.loads(body), {**todo, "done": False})
expect("POST of a taken id answers 409", call("POST", "/todos", todo)[0], 409)

status, headers, body = call("POST", "/todos", {"id": 2, "title": 42})
expect("a body that does not map answers 400", status, 400)
expect("with ModelKit's error text", json.loads(body),
       {"error": {"message": "cannot map 'Todo.title' at 'title': expected a string, found 42"}})
status, _, body = call("POST", "/todos", b'{"id": 2, "title": "x",}')
expect("malformed JSON answers 400", status, 400)
expect("naming where it broke", "line 1, column 24" in json.loads(body)["error"]["message"], True)

statuses = {call("POST", "/todos", {"id": number, "title": f"to-do {number}"})[0] for number in range(2, 201)}
expect("199 more POSTs answer 201", statuses, {201})
status, headers, body = call("GET", "/todos")
expect("GET /todos answers 200", status, 200)
expect("as a JSON array of every to-do, in order", [t["id"] for t in json.loads(body)], list(range(1, 201)))
status, headers, body = call("GET", "/todos?format=ndjson")
expect("GET /todos?format=ndjson is NDJSON", headers.get("Content-Type"), "application/x-ndjson")
expect("one to-do per line", [json.loads(line)["id"] for line in body.decode().splitlines()], list(range(1, 201)))

expect("GET /todos/1", json.loads(call("GET", "/todos/1")[2])["title"], "buy milk")
status, _, body = call("PUT", "/todos/1", {**todo, "done": True, "title": "buy oat milk"})
expect("PUT /todos/1 answers 200", status, 200)
expect("GET /todos/1 after PUT", json.loads(call("GET", "/todos/1")[2]),
       {**todo, "done": True, "title": "buy oat milk"})
expect("PUT with another id in the body answers 400", call("PUT", "/todos/1", {"id": 9, "title": "x"})[0], 400)
expect("PUT of a missing to-do answers 404", call("PUT", "/todos/999", {"id": 999, "title": "x"})[0], 404)
expect("DELETE /todos/2 answers 204", call("DELETE", "/todos/2")[0], 204)
expect("GET /todos/2 then answers 404", call("GET", "/todos/2")[0], 404)
expect("DELETE /todos/2 again answers 404", call("DELETE", "/todos/2")[0], 404)
stop(server)

# What was saved is in the file: a new server on it sees it.
server, base = start()
ids = [t["id"] for t in json.loads(call("GET", "/todos")[2])]
expect("after a restart, every saved to-do is there", ids, [1] + list(range(3, 201)))
expect("with its last state", json.loads(call("GET", "/todos/1")[2])["title"], "buy oat milk")
stop(server)
print("TodoServer: every check passed")
