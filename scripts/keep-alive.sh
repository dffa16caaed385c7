#!/usr/bin/env bash
# Keeps the scheduled workflow that runs this script enabled. GitHub disables the
# scheduled workflows of a public repository when no repository activity has
# occurred in 60 days; a Pages site that only ever commits to its Pages branch
# would stop updating without anyone being told. The documented remedy is the
# REST API's "Enable a workflow" (PUT /repos/{owner}/{repo}/actions/workflows/
# {workflow_id}/enable), which needs the `actions: write` permission and sets
# the workflow active; run on every scheduled run, it never lapses.
#
# Environment (all set by the runner): GITHUB_TOKEN (with actions: write),
# GITHUB_REPOSITORY, GITHUB_WORKFLOW_REF (owner/repo/.github/workflows/x.yml@ref),
# GITHUB_API_URL (GitHub Enterprise Server works too).
set -euo pipefail
# shellcheck source=scripts/redact.sh
. "$(dirname "${BASH_SOURCE[0]}")/redact.sh"
# An API error can echo the Authorization header it was sent: nothing leaves unredacted.
redact_output all "$@"

die() {
  echo "keep-alive.sh: $*" >&2
  exit 1
}

: "${GITHUB_TOKEN:?keep-alive.sh needs GITHUB_TOKEN}"
: "${GITHUB_REPOSITORY:?keep-alive.sh needs GITHUB_REPOSITORY}"
: "${GITHUB_WORKFLOW_REF:?keep-alive.sh needs GITHUB_WORKFLOW_REF}"
api="${GITHUB_API_URL:-https://api.github.com}"

[[ "$GITHUB_REPOSITORY" =~ ^[A-Za-z0-9-]+/[A-Za-z0-9._-]+$ ]] || die "GITHUB_REPOSITORY '$GITHUB_REPOSITORY' is not owner/repo"
path="${GITHUB_WORKFLOW_REF%%@*}"
file="${path##*/}"
[ "$path" = "$GITHUB_REPOSITORY/.github/workflows/$file" ] && [[ "$file" =~ ^[A-Za-z0-9._-]+\.ya?ml$ ]] ||
  die "GITHUB_WORKFLOW_REF '$GITHUB_WORKFLOW_REF' does not name a workflow of $GITHUB_REPOSITORY"

body="$(mktemp)"
trap 'rm -f "$body"' EXIT
# The token goes in a header read from stdin, so it never appears in a process listing.
status="$(printf 'Authorization: Bearer %s\n' "$GITHUB_TOKEN" | curl --silent --show-error --max-time 30 \
  --request PUT --header @- --header 'Accept: application/vnd.github+json' \
  --header 'X-GitHub-Api-Version: 2022-11-28' --output "$body" --write-out '%{http_code}' \
  "$api/repos/$GITHUB_REPOSITORY/actions/workflows/$file/enable")" || die "could not reach $api"
if [ "$status" != 204 ]; then
  # The answer is GitHub's JSON; only its message is shown, cut short, never as a workflow command.
  message="$(head -c 300 "$body" | tr -d '\r\n' | sed -n 's/.*"message": *"\([^"]*\)".*/\1/p' | tr -cd '[:print:]')"
  die "GitHub answered HTTP $status to enabling $file${message:+: ${message//::/: :}} (does the job have permissions: actions: write?)"
fi
echo "enabled $file (PUT …/enable answered 204): the schedule stays on"
