#!/bin/sh
# The audit of issue #37 (200 DM, 200 WS, 50 Kubbuteo matches) in 25 rounds of chunks: 8 DM, 8 WS
# and 2 Kubbuteo seeds in turn, so that a stop at any time leaves each ruleset its share; one audit
# process at a time. Each match's report is appended to audit-run/RULESET.jsonl (kubb3d audit --log),
# and audit-run/progress.txt records each chunk's start, end, exit code and load average; then
# benchmarks/audit_table.py merges the logs into docs/audit.json (docs/rules.md, "The audit").
#   AUDIT_CODE=CHECKOUT nice -n 10 benchmarks/audit_chunks.sh      # CHECKOUT: the commit audited
#   START=9 AUDIT_CODE=CHECKOUT nice -n 10 benchmarks/audit_chunks.sh   # resume at round 9
cd "$(dirname "$0")/.."
mkdir -p audit-run/replays
# the code audited: a frozen checkout of the commit under audit, not the worktree being edited
export PYTHONPATH=${AUDIT_CODE:?set AUDIT_CODE to a checkout of the audited commit}
START=${START:-0}
i=$START
while [ $i -lt 25 ]; do
  for spec in "dm 8" "wikinger 8" "kubbuteo 2"; do
    set -- $spec
    first=$(( i * $2 ))
    echo "$(date -u +%FT%TZ) start $1 seeds $first..$(( first + $2 - 1 )) load $(cut -d' ' -f1-3 /proc/loadavg)" >> audit-run/progress.txt
    .venv/bin/kubb3d audit --ruleset $1 --matches $2 --first-seed $first --workers 1 --json \
      --replay-dir audit-run/replays --log audit-run/$1.jsonl > audit-run/$1-$first.json 2>> audit-run/stderr.txt
    rc=$?
    echo "$(date -u +%FT%TZ) done $1 seeds $first rc $rc load $(cut -d' ' -f1-3 /proc/loadavg)" >> audit-run/progress.txt
  done
  i=$(( i + 1 ))
done
echo "$(date -u +%FT%TZ) all done" >> audit-run/progress.txt
