#!/usr/bin/env bash
# Reference for the benchmark: the source ADR's approach (seeds/002), a bash
# hook reading `tail -n 400` of the transcript and picking the newest usage with jq.
set -u
input=$(cat)
transcript=$(jq -r '.transcript_path // empty' <<<"$input") || exit 0
[ -f "$transcript" ] || exit 0
usage=$(tail -n 400 "$transcript" \
  | jq -c 'select(.type == "assistant" and (.isSidechain | not) and .message.usage != null) | .message.usage' 2>/dev/null \
  | tail -n 1)
[ -n "$usage" ] || exit 0
occupancy=$(jq '(.input_tokens // 0) + (.cache_read_input_tokens // 0) + (.cache_creation_input_tokens // 0)' <<<"$usage")
window=${DEV_TEAM_CONTEXT_WINDOW:-200000}
pct=$(( occupancy * 100 / window ))
if [ "$pct" -ge "${DEV_TEAM_CONTEXT_CEILING_PCT:-40}" ]; then
  echo "context ceiling: ${pct}% of window" >&2
fi
exit 0
