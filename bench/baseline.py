"""The baseline a researcher would otherwise write: load every sample of a Qwen2.5-Math /
limit-of-RLVR results folder into SQLite with the standard library only.

    python3 bench/baseline.py <results folder> <database>

Per file `<model>/math_eval/<dataset>/<file>.jsonl`: `json.loads` each line, then one
`executemany` of that line's samples; one commit per file (sqlite3's default transaction handling
and pragmas). After loading, one index on (model, dataset, problem) so a problem's samples can be
looked up. Prints one JSON line: load and index times, samples, peak RSS.
"""
import json
import os
import resource
import sqlite3
import sys
import time


def main() -> None:
    root, db = sys.argv[1], sys.argv[2]
    for suffix in ("", "-journal", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    files = []
    for dirpath, _dirs, names in os.walk(root):
        for name in names:
            if name.endswith(".jsonl"):
                files.append(os.path.join(dirpath, name))
    files.sort()

    t0 = time.perf_counter()
    con = sqlite3.connect(db)
    con.execute(
        "CREATE TABLE samples (model TEXT, dataset TEXT, problem TEXT, sample INTEGER,"
        " correct INTEGER, pred TEXT, score REAL, text TEXT)"
    )
    con.execute("CREATE TABLE problems (model TEXT, dataset TEXT, problem TEXT, question TEXT, gt TEXT, level TEXT)")
    samples = 0
    for path in files:
        rel = os.path.relpath(path, root).split(os.sep)
        dataset = rel[-2]
        model = "/".join(p for p in rel[:-2] if p != "math_eval")
        with open(path, encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                o = json.loads(line)
                pid = str(o["idx"])
                con.execute(
                    "INSERT INTO problems VALUES (?, ?, ?, ?, ?, ?)",
                    (model, dataset, pid, o.get("question"), o.get("gt"), o.get("level")),
                )
                scores = o.get("pred_score") or []
                rows = [
                    (
                        model,
                        dataset,
                        pid,
                        i,
                        int(bool(c)),
                        p,
                        (scores[i][-1] if i < len(scores) and scores[i] else None),
                        t,
                    )
                    for i, (t, c, p) in enumerate(zip(o["code"], o["score"], o["pred"]))
                ]
                con.executemany("INSERT INTO samples VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
                samples += len(rows)
        con.commit()
    load_s = time.perf_counter() - t0
    t1 = time.perf_counter()
    con.execute("CREATE INDEX samples_by_problem ON samples (model, dataset, problem, sample)")
    con.commit()
    index_s = time.perf_counter() - t1
    con.close()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    rss_kb = usage.ru_maxrss
    print(
        json.dumps(
            {
                "loadMs": load_s * 1000,
                "indexMs": index_s * 1000,
                "ms": (load_s + index_s) * 1000,
                "samples": samples,
                "dbBytes": os.path.getsize(db),
                "maxRssMB": rss_kb * 1024 / 1e6,
                "cpuMs": (usage.ru_utime + usage.ru_stime) * 1000,
                "python": sys.version.split()[0],
                "sqlite": sqlite3.sqlite_version,
            }
        )
    )


if __name__ == "__main__":
    main()
