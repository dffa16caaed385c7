#!/usr/bin/env bash
# Publishes the built site to the Pages branch with plain git. Run it from the
# repository's checkout (its `origin` is where the Pages branch lives; on a
# runner actions/checkout has stored the credentials there).
#
#   scripts/publish.sh prepare PAGES_DIR
#       Check the Pages branch out into PAGES_DIR as a git worktree of this
#       checkout (so it shares origin and credentials). When the branch does
#       not exist yet, PAGES_DIR becomes an empty worktree on a new orphan
#       branch, created on the remote by the first commit.
#
#   scripts/publish.sh commit SITE_DIR PAGES_DIR [CHANGED_JSON]
#       Make PAGES_DIR hold exactly SITE_DIR (deleted apps disappear), plus
#       .nojekyll (Pages serves files as is) and a CNAME if the branch has one
#       (a custom domain set in the Pages settings lives there). Commit and push
#       when the tree differs, which is every run: api/v1/status.json says when
#       the last run was, so a stopped pipeline shows. CHANGED_JSON is the action's `changed`
#       output; without it the changed apps are read from the diff.
#
# Environment: PAGES_BRANCH (default gh-pages), PUSH=false to commit without
# pushing. Prints committed=true|false and sha=… to GITHUB_OUTPUT when set.
set -euo pipefail
# shellcheck source=scripts/redact.sh
. "$(dirname "${BASH_SOURCE[0]}")/redact.sh"
# git can print a remote with its credentials: nothing leaves unredacted.
redact_output all "$@"

branch="${PAGES_BRANCH:-gh-pages}"
bot_name='github-actions[bot]'
bot_email='41898282+github-actions[bot]@users.noreply.github.com'

die() {
  echo "publish.sh: $*" >&2
  exit 1
}

output() {
  if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "$1" >>"$GITHUB_OUTPUT"; fi
}

prepare() {
  local dir="$1"
  [ ! -e "$dir" ] || [ -z "$(ls -A "$dir")" ] || die "$dir exists and is not empty"
  git check-ref-format --branch "$branch" >/dev/null || die "PAGES_BRANCH '$branch' is not a valid branch name"
  local status=0
  git ls-remote --exit-code --heads origin "refs/heads/$branch" >/dev/null || status=$?
  if [ "$status" -eq 0 ]; then
    # Only the tip is needed: the new commit goes on top of it.
    git fetch --quiet --depth=1 origin "+refs/heads/$branch:refs/remotes/origin/$branch"
    git worktree add --quiet -B "$branch" "$dir" "refs/remotes/origin/$branch"
    echo "checked out $branch at $(git -C "$dir" rev-parse --short HEAD) into $dir"
  elif [ "$status" -eq 2 ]; then
    # exit 2 means "no such ref"; anything else (auth, network) must not be taken for a first run.
    git worktree add --quiet --no-checkout --detach "$dir" HEAD
    git -C "$dir" checkout --quiet --orphan "$branch"
    git -C "$dir" rm -r --quiet --cached --ignore-unmatch .
    # The orphan checkout leaves this branch's files in the folder (git 2.39): the action would read them as the
    # previous site (a CNAME there names the base URL) and the commit would keep that CNAME. The folder was empty.
    find "$dir" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
    echo "$branch does not exist yet: $dir is an empty orphan branch; the first commit creates it"
  else
    die "could not list the branches of origin (git ls-remote exit $status)"
  fi
}

# The action's `changed` output, one slug per line; empty when it is not a plain JSON array of slugs.
slugs_from_json() {
  local json="${1// /}"
  if [[ "$json" =~ ^\[(\"[a-z0-9]+(-[a-z0-9]+)*\"(,\"[a-z0-9]+(-[a-z0-9]+)*\")*)?\]$ ]]; then
    json="${json#[}"
    json="${json%]}"
    [ -z "$json" ] || tr ',' '\n' <<<"${json//\"/}"
  else
    return 1
  fi
}

# Apps whose JSON document was added, changed or deleted in the staged tree.
slugs_from_diff() {
  git diff --cached --name-only -- 'api/v1/apps/*.json' | sed -n 's#^api/v1/apps/\([^/]*\)\.json$#\1#p'
}

commit() {
  local site="$1" dir="$2" changed_json="${3:-}"
  [ -f "$site/api/v1/apps.json" ] || die "$site holds no api/v1/apps.json; is it a built site?"
  [ -e "$dir/.git" ] || die "$dir is not a git checkout; run 'publish.sh prepare $dir' first"
  site="$(cd "$site" && pwd)"
  local keep
  keep="$(mktemp -d)"
  [ ! -f "$dir/CNAME" ] || cp "$dir/CNAME" "$keep/CNAME"
  find "$dir" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
  cp -R "$site/." "$dir/"
  [ ! -f "$keep/CNAME" ] || cp "$keep/CNAME" "$dir/CNAME"
  rm -rf "$keep"
  : >"$dir/.nojekyll"

  cd "$dir"
  git add --all .
  if git rev-parse --verify --quiet HEAD >/dev/null && git diff --cached --quiet; then
    echo "no change: $branch already holds this site"
    output "committed=false"
    return 0
  fi

  local slugs
  slugs="$(slugs_from_json "$changed_json")" || slugs="$(slugs_from_diff)"
  local n subject
  n="$(grep -c . <<<"$slugs" || true)"
  if [ "$n" -eq 0 ]; then
    # A quiet day: only the run report (api/v1/status.json) and the index that shows it moved.
    subject="Publish run status: no app changed"
  elif [ "$n" -le 5 ]; then
    subject="Publish catalog: $(paste -sd, <<<"$slugs" | sed 's/,/, /g')"
  else
    subject="Publish catalog: $n apps changed"
  fi
  local message="$subject"
  if [ "$n" -gt 0 ]; then message+=$'\n\nChanged apps:\n'"$(sed 's/^/- /' <<<"$slugs")"; fi

  # Commit as the Actions bot unless an identity is configured (locally, tests).
  local who=()
  git config user.name >/dev/null || who+=(-c "user.name=$bot_name")
  git config user.email >/dev/null || who+=(-c "user.email=$bot_email")
  git "${who[@]}" commit --quiet --no-verify -m "$message"
  local sha
  sha="$(git rev-parse HEAD)"
  echo "committed $sha: $subject"
  if [ "${PUSH:-true}" != "false" ]; then
    git push --quiet origin "HEAD:refs/heads/$branch"
    echo "pushed to $branch"
  fi
  output "committed=true"
  output "sha=$sha"
}

case "${1:-}" in
  prepare)
    [ $# -eq 2 ] || die "usage: publish.sh prepare PAGES_DIR"
    prepare "$2"
    ;;
  commit)
    [ $# -ge 3 ] && [ $# -le 4 ] || die "usage: publish.sh commit SITE_DIR PAGES_DIR [CHANGED_JSON]"
    commit "$2" "$3" "${4:-}"
    ;;
  *)
    die "usage: publish.sh prepare PAGES_DIR | commit SITE_DIR PAGES_DIR [CHANGED_JSON]"
    ;;
esac
