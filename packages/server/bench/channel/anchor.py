"""The seed's channel algorithm, as the benchmark's anchor: one JSON array file per direction,
read and rewritten whole under an exclusive flock on every append and drain, and a watcher that
re-reads the file every 0.5 s. Written from the seed's description, trimmed to what is measured.

Modes (times are CLOCK_MONOTONIC nanoseconds, the clock Node's process.hrtime reads):
  fill DIR CH N              write a backlog of N messages
  append DIR CH N MAX_S      wait for a line on stdin, append up to N messages (stop after MAX_S
                             seconds), print {"done": k, "seconds": s}
  drain-time DIR CH          drain once, print {"count": k, "seconds": s}
  helper DIR                 read "CH" lines on stdin; for each print the time, then append to CH
  watch DIR CH TIMEOUT       the seed's watcher: exit 0 when CH's app-to-agent file has mail
  poll DIR CH INTERVAL       the app's poll loop: drain every INTERVAL s, print the time of each hit
"""
import fcntl
import json
import sys
import time
from pathlib import Path

MESSAGE = {"event": "ask", "data": {"quote": "We hold these truths to be self-evident", "question": "What does self-evident mean here?"}}


def queue_file(root, channel):
    return Path(root) / f"agent_{channel}.json"


def queue_append(path, item):
    path.touch(exist_ok=True)
    with open(path, "r+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        content = f.read().strip()
        items = json.loads(content) if content else []
        items.append(item)
        f.seek(0)
        f.truncate()
        json.dump(items, f)


def queue_drain(path):
    path.touch(exist_ok=True)
    with open(path, "r+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        content = f.read().strip()
        items = json.loads(content) if content else []
        f.seek(0)
        f.truncate()
        json.dump([], f)
    return items


def main(argv):
    mode, root = argv[0], argv[1]
    if mode == "fill":
        queue_file(root, argv[2]).write_text(json.dumps([MESSAGE] * int(argv[3])))
    elif mode == "append":
        path, count, max_s = queue_file(root, argv[2]), int(argv[3]), float(argv[4])
        sys.stdin.readline()
        start = time.monotonic()
        done = 0
        while done < count and time.monotonic() - start < max_s:
            queue_append(path, MESSAGE)
            done += 1
        print(json.dumps({"done": done, "seconds": time.monotonic() - start}), flush=True)
    elif mode == "drain-time":
        start = time.monotonic()
        items = queue_drain(queue_file(root, argv[2]))
        print(json.dumps({"count": len(items), "seconds": time.monotonic() - start}), flush=True)
    elif mode == "helper":
        for line in sys.stdin:
            channel = line.strip()
            print(time.monotonic_ns(), flush=True)
            queue_append(queue_file(root, channel), MESSAGE)
    elif mode == "watch":
        q = queue_file(root, argv[2])
        deadline = time.monotonic() + float(argv[3])
        while time.monotonic() < deadline:
            try:
                items = json.loads(q.read_text() or "[]")
            except (FileNotFoundError, json.JSONDecodeError):
                items = []
            if items:
                sys.exit(0)
            time.sleep(0.5)
        sys.exit(2)
    elif mode == "poll":
        q, interval = queue_file(root, argv[2]), float(argv[3])
        while True:
            if queue_drain(q):
                print(time.monotonic_ns(), flush=True)
            time.sleep(interval)


if __name__ == "__main__":
    main(sys.argv[1:])
