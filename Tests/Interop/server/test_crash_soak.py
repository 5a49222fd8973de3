"""Crash soak: concurrent producers, SIGKILL at a random moment, restart — many rounds on one data folder.

Each producer owns one metric and posts increasing values one after another. After every restart, for every metric:
every acknowledged value still in the history window is there with its seq, the history is in posting order, nothing
appears that was never posted, the current value is the last acknowledged one or a later post that was in flight,
and no sequence number is ever given twice.
"""

import argparse
import http.client
import json
import random
import sys
import tempfile
import threading
import time

from rollboard_process import Checks, RollboardProcess, insecure_client_context

METRICS = ["revenue", "visitors", "orders", "conversion", "temperature"]
LIMITS = {"revenue": 999_999, "visitors": 99_999, "orders": 10**9, "conversion": 10**9, "temperature": 99}

CONTEXT = insecure_client_context()


def producer(port: int, token: str, metric: str, start: int, stop: threading.Event, posted: list, acked: list):
    value = start
    while not stop.is_set():
        value += 1
        posted.append(value)
        try:
            client = http.client.HTTPSConnection("127.0.0.1", port, context=CONTEXT, timeout=5)
            client.request("POST", f"/api/v1/metrics/{metric}", body=json.dumps({"value": value % LIMITS[metric]}),
                           headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
            response = client.getresponse()
            body = response.read()
            client.close()
        except OSError:
            return  # the server died mid-request: this post is in flight, neither acknowledged nor refused
        if response.status == 202:
            acked.append((json.loads(body)["seq"], value % LIMITS[metric]))
        else:
            return


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(10**6)
    rng = random.Random(seed)
    print(f"seed {seed}")
    token = "crash-soak-token-" + str(rng.randrange(10**9))
    checks = Checks()
    check = checks.check

    posted = {metric: [] for metric in METRICS}
    acked = {metric: [] for metric in METRICS}
    all_seqs: list = []
    problems: list = []
    with tempfile.TemporaryDirectory() as data_dir:
        server = RollboardProcess(args.binary, data_dir, token)
        for round_number in range(args.rounds):
            server.start()
            for metric in METRICS:
                status, body = server.request("GET", f"/api/v1/metrics/{metric}")
                history = [(entry["seq"], entry["value"]) for entry in body.get("history", [])] if status == 200 else []
                window = {seq for seq, _ in history}
                lowest = min(window) if window else None
                kept = dict(history)
                for seq, value in acked[metric]:
                    if lowest is not None and seq >= lowest and kept.get(seq) != value:
                        problems.append(f"round {round_number}: {metric} seq {seq} = {value} acknowledged, "
                                        f"now {kept.get(seq)}")
                if acked[metric] and not history:
                    problems.append(f"round {round_number}: {metric} lost every acknowledged value")
                seqs = [seq for seq, _ in history]
                if seqs != sorted(seqs):
                    problems.append(f"round {round_number}: {metric} history out of order {seqs}")
                allowed = {value % LIMITS[metric] for value in posted[metric]}
                strangers = [value for _, value in history if value not in allowed]
                if strangers:
                    problems.append(f"round {round_number}: {metric} shows values never posted: {strangers[:5]}")
                if acked[metric] and history:
                    last_seq, _ = acked[metric][-1]
                    if history[-1][0] < last_seq:
                        problems.append(f"round {round_number}: {metric} current seq {history[-1][0]} is behind "
                                        f"the last acknowledged {last_seq}")
            stop = threading.Event()
            round_acked = {metric: [] for metric in METRICS}
            threads = []
            for index, metric in enumerate(METRICS):
                start = (posted[metric][-1] if posted[metric] else index * 1000)
                thread = threading.Thread(target=producer, args=(server.port, token, metric, start, stop,
                                                                 posted[metric], round_acked[metric]))
                thread.start()
                threads.append(thread)
            time.sleep(rng.uniform(0.3, 1.5))
            server.kill()
            stop.set()
            for thread in threads:
                thread.join(10)
            for metric in METRICS:
                acked[metric] += round_acked[metric]
                all_seqs += [seq for seq, _ in round_acked[metric]]
            print(f"round {round_number + 1}: {sum(len(v) for v in round_acked.values())} posts acknowledged "
                  f"before SIGKILL")
        server.start()
        server.stop()

    total = sum(len(values) for values in acked.values())
    check(total > args.rounds * 5, f"producers got {total} acknowledgements over {args.rounds} rounds")
    check(len(all_seqs) == len(set(all_seqs)), "no sequence number was given twice",
          f"{len(all_seqs) - len(set(all_seqs))} duplicates")
    check(not problems, "every acknowledged value survived every SIGKILL, in order, with nothing invented",
          "; ".join(problems[:5]))
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
