#!/usr/bin/env bash
# Releases with plain git, from the repository's checkout (origin is where the
# tags go; on a runner actions/checkout has stored the credentials there).
#
#   scripts/release.sh notes VERSION
#       Print the CHANGELOG.md section of VERSION (Keep a Changelog: the lines
#       under "## [VERSION] - YYYY-MM-DD" up to the next "## "). Fails when
#       there is none or it is empty.
#
#   scripts/release.sh tag VERSION
#       Check that VERSION is semantic (X.Y.Z or X.Y.Z-pre), that package.json
#       says the same, that CHANGELOG.md has its section and that the tag vX.Y.Z
#       does not exist yet, here or on origin. Then create the annotated tag
#       vX.Y.Z at HEAD and, for a stable release, move the major tag vX to it
#       (`uses: owner/updatesafe@vX` follows every vX.y.z); push both.
#       A prerelease (1.2.0-rc.1) never moves the major tag, and a release
#       older than the one vX points at does not move it back.
#
# Environment: PUSH=false to tag without pushing. Prints tag=…, major=… and
# moved=true|false to GITHUB_OUTPUT when set.
set -euo pipefail
# shellcheck source=scripts/redact.sh
. "$(dirname "${BASH_SOURCE[0]}")/redact.sh"
# git can print a remote with its credentials: nothing leaves unredacted. The notes on stdout are
# the changelog's own words, passed as they are.
if [ "${1:-}" = notes ]; then redact_output stderr "$@"; else redact_output all "$@"; fi

die() {
  echo "release.sh: $*" >&2
  exit 1
}

output() {
  if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "$1" >>"$GITHUB_OUTPUT"; fi
}

semver='^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$'

check_version() {
  [[ "$1" =~ $semver ]] || die "'$1' is not a semantic version (X.Y.Z or X.Y.Z-prerelease), without a leading v"
}

notes() {
  local version="$1"
  check_version "$version"
  [ -f CHANGELOG.md ] || die "CHANGELOG.md is missing"
  local section
  # Versions are matched literally: the dots of 1.2.3 must not match any character.
  section="$(awk -v want="## [$version]" '
    index($0, "## ") == 1 { if (found) exit; if (index($0, want) == 1) { found = 1; next } }
    found { print }
  ' CHANGELOG.md)"
  grep -q '[^[:space:]]' <<<"$section" || die "CHANGELOG.md has no section '## [$version] - YYYY-MM-DD' with entries"
  # Trim the blank lines around the section.
  sed -e '/./,$!d' <<<"$section" | sed -e ':a' -e '/^\n*$/{$d;N;ba' -e '}'
}

tag_exists() {
  git rev-parse --verify --quiet "refs/tags/$1" >/dev/null && return 0
  [ "${PUSH:-true}" = "false" ] && return 1
  local status=0
  git ls-remote --exit-code --tags origin "refs/tags/$1" >/dev/null || status=$?
  [ "$status" -eq 0 ] && return 0
  [ "$status" -eq 2 ] || die "could not list the tags of origin (git ls-remote exit $status)"
  return 1
}

# Whether version $1 sorts after version $2 (stable releases only: X.Y.Z).
newer() {
  [ "$1" != "$2" ] && [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | tail -n 1)" = "$1" ]
}

tag() {
  local version="$1"
  check_version "$version"
  local package_version
  package_version="$(node -p 'require("./package.json").version')"
  [ "$package_version" = "$version" ] || die "package.json says version $package_version, not $version"
  notes "$version" >/dev/null
  local tag="v$version" major="v${version%%.*}"
  git diff --quiet HEAD -- || die "the working tree has uncommitted changes; release a commit"
  tag_exists "$tag" && die "tag $tag already exists"

  # Identity: the configured one (tests, a maintainer), else the Actions bot.
  local who=()
  git config user.name >/dev/null || who+=(-c "user.name=github-actions[bot]")
  git config user.email >/dev/null || who+=(-c "user.email=41898282+github-actions[bot]@users.noreply.github.com")
  git "${who[@]}" tag -a "$tag" -m "updatesafe $version" HEAD
  echo "tagged $tag at $(git rev-parse --short HEAD)"
  output "tag=$tag"
  output "major=$major"

  local move=true
  if [[ "$version" == *-* ]]; then
    move=false
    echo "$version is a prerelease: $major stays where it is"
  else
    # Do not move the major tag back to an older release (a patch of an old line released later).
    # Where origin's tags are (the major tag may have moved since this checkout was made).
    [ "${PUSH:-true}" = "false" ] || git fetch --quiet --force --tags origin
    if git rev-parse --verify --quiet "refs/tags/$major" >/dev/null; then
      local current
      current="$(git describe --tags --exact-match --match 'v[0-9]*.[0-9]*.[0-9]*' --exclude '*-*' "refs/tags/$major^{commit}" 2>/dev/null || true)"
      if [ -n "$current" ] && ! newer "$version" "${current#v}"; then
        move=false
        echo "$major points at $current, newer than $version: it stays"
      fi
    fi
  fi
  if [ "$move" = true ]; then
    # A lightweight tag, moved with force: the major tag is a pointer, the release tag is the record.
    git tag -f "$major" "$tag^{commit}" >/dev/null
    echo "moved $major to $tag"
  fi
  output "moved=$move"

  if [ "${PUSH:-true}" != "false" ]; then
    git push --quiet origin "refs/tags/$tag"
    echo "pushed $tag"
    if [ "$move" = true ]; then
      git push --quiet --force origin "refs/tags/$major"
      echo "pushed $major"
    fi
  fi
}

case "${1:-}" in
  notes)
    [ $# -eq 2 ] || die "usage: release.sh notes VERSION"
    notes "$2"
    ;;
  tag)
    [ $# -eq 2 ] || die "usage: release.sh tag VERSION"
    tag "$2"
    ;;
  *)
    die "usage: release.sh notes VERSION | tag VERSION"
    ;;
esac
