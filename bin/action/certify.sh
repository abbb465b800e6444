#!/usr/bin/env bash
# The action's certify step (action.yml): animal-store-certify with the action's inputs as options, run in the
# job's folder (its .env and waivers.json; the reports written there). The key goes to the suite in its environment
# only. The exit code is the step's output `exit-code`; the step itself succeeds, so that the summary, the JUnit
# results and the upload follow, and the action's last step fails with that code.
set -uo pipefail
if [ -n "${KEY_INPUT:-}" ]; then export ANIMAL_STORE_API_KEY="$KEY_INPUT"; fi
unset KEY_INPUT
args=(--no-progress --engine "$ENGINE" --reports-dir "$REPORTS_DIR")
if [ -n "$BASE_URL" ]; then args+=(--base-url "$BASE_URL"); fi
if [ -n "$ENV_NAME" ]; then args+=(--env "$ENV_NAME"); fi
if [ -n "$PLAN" ]; then args+=(--plan "$PLAN"); fi
if [ -n "$RPM" ]; then args+=(--rpm "$RPM"); fi
if [ -n "$RPD" ]; then args+=(--rpd "$RPD"); fi
if [ -n "$PROFILE" ]; then args+=(--profile "$PROFILE"); fi
if [ -n "$SCENARIOS" ]; then args+=(--scenarios "$SCENARIOS"); fi
if [ -n "$MAX_REQUESTS" ]; then args+=(--max-requests "$MAX_REQUESTS"); fi
read -r -a extra <<<"$EXTRA_ARGS"
args+=("${extra[@]}")
node "$GITHUB_ACTION_PATH/bin/certify.mjs" "${args[@]}"
code=$?
echo "exit-code=$code" >>"$GITHUB_OUTPUT"
