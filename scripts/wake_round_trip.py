#!/usr/bin/env python3
"""What one round trip between two processes costs on this machine: the
floor under the Python bridge's cost per call (docs/benchmarks.md).

Two processes answer each other over a socketpair, as troupe and a Python
host do: back to back, and with the caller busy between calls (as an agent's
thread waits while its host steps 64 environments), which lets the other CPU
go idle and shows what waking it costs.

    scripts/wake_round_trip.py [--calls N] [--busy-us 0,100,...]
"""
import argparse
import os
import socket
import statistics
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=5000)
    parser.add_argument("--busy-us", default="0,100")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    ours, theirs = socket.socketpair()
    child = os.fork()
    if child == 0:
        ours.close()
        fd = theirs.fileno()
        while True:
            if not os.read(fd, 12):
                os._exit(0)
            os.write(fd, b"answer!!")
    theirs.close()
    fd = ours.fileno()
    command = b"x" * 12
    for busy_us in (int(b) for b in args.busy_us.split(",")):
        trips = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            for _ in range(args.calls):
                os.write(fd, command)
                os.read(fd, 8)
                if busy_us:
                    until = time.perf_counter() + busy_us * 1e-6
                    while time.perf_counter() < until:
                        pass
            elapsed = time.perf_counter() - start
            trips.append(elapsed / args.calls * 1e6 - busy_us)
        print("busy %4d us between calls: round trip min %.1f / median %.1f / max %.1f us"
              % (busy_us, min(trips), statistics.median(trips), max(trips)))
    ours.close()
    os.waitpid(child, 0)


if __name__ == "__main__":
    main()
