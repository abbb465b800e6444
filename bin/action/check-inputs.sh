#!/usr/bin/env bash
# The action's first step (action.yml): masks the key in the log, then refuses what would make the suite guess or
# fail later: a real target without the key's plan, an engine or environment it does not know. Every problem is
# an ::error:: and a line of the job summary; nothing is installed or sent before.
set -euo pipefail
if [ -n "${API_KEY:-}" ]; then
  while IFS= read -r line; do
    if [ -n "$line" ]; then echo "::add-mask::$line"; fi
  done <<<"$API_KEY"
fi
problems=()
env_name="${ENV_NAME,,}"
case "$env_name" in
  "" | local | staging | production) ;;
  *) problems+=("The input env must be staging or production (or empty for the suite's default).") ;;
esac
case "$ENGINE" in
  node | k6) ;;
  *) problems+=("The input engine must be node or k6.") ;;
esac
if [ -n "$BASE_URL" ] || [ "$env_name" = staging ] || [ "$env_name" = production ]; then
  if [ -z "${PLAN//[[:space:]]/}" ]; then
    problems+=("The input plan is required for a real target: the plan of the key (free, pro, business or enterprise). The suite never guesses it.")
  fi
fi
if [ "${#problems[@]}" -gt 0 ]; then
  {
    echo "## ❌ The certification did not run: its inputs are incomplete"
    echo
    printf -- '- %s\n' "${problems[@]}"
  } >>"$GITHUB_STEP_SUMMARY"
  for p in "${problems[@]}"; do echo "::error title=Configuration::$p"; done
  exit 1
fi
