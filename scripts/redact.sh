# Sourced by the scripts a workflow runs. `redact_output` sends everything the script and the
# commands it starts (curl, git) write to stdout and stderr through `redact_stream`, which replaces
# the token's value and anything shaped like a token with *** (the shapes of src/util/redact.ts): an
# API error, a git remote or a message that echoes a secret never reaches the job log.

# The environment variables whose values are secrets: every *TOKEN* variable, and INPUT_TOKEN.
redact_stream() {
  # Literal values: awk's index(), so no character of a token is read as a pattern. ENVIRON, unlike
  # `awk -v`, reads the value without escapes. A secret under 8 characters would blank ordinary words.
  awk '
    BEGIN { for (name in ENVIRON) if (name ~ /TOKEN/ && length(ENVIRON[name]) >= 8) secrets[name] = ENVIRON[name] }
    {
      for (name in secrets) {
        s = secrets[name]
        while ((i = index($0, s)) > 0) $0 = substr($0, 1, i - 1) "***" substr($0, i + length(s))
      }
      print
      fflush()
    }' |
    # GNU sed: `I` matches the header names in any case, as redact.ts's /i does. No word boundary
    # before them (redact.ts has \b): here `xtoken <credential>` is redacted too, which only hides more.
    sed -E \
      -e 's/gh[opusr]_[A-Za-z0-9]{16,}/***/g' \
      -e 's/github_pat_[A-Za-z0-9_]{16,}/***/g' \
      -e 's/(bearer|token|basic)([[:space:]]+)[A-Za-z0-9._~+\/=-]{16,}/\1\2***/gI' \
      -e 's#(://)[^/@[:space:]]+@#\1***@#g'
}

# Runs the calling script again, its stdout and stderr (and those of every command it starts) each
# through redact_stream, and exits with its status; in the run again, returns at once. Called first
# thing as `redact_output all "$@"`, or `redact_output stderr "$@"` to leave stdout as it is (where
# it carries data, not a log). A second run rather than `exec > >(filter)`: the output ends when the
# inner script's process ends, so every line is out before the exit status is seen.
redact_output() {
  local mode="$1"
  shift
  [ -z "${UPDATESAFE_REDACTED:-}" ] || return 0
  export UPDATESAFE_REDACTED=1
  local status_file status
  status_file="$(mktemp)"
  # 3: the real stdout, 4: the real stderr.
  exec 3>&1 4>&2
  if [ "$mode" = stderr ]; then
    { "$BASH" "$0" "$@" 3>&- 4>&- && status=0 || status=$?; echo "$status" >"$status_file"; } 2>&1 1>&3 |
      redact_stream >&4
  else
    { { "$BASH" "$0" "$@" 3>&- 4>&- 5>&- && status=0 || status=$?; echo "$status" >"$status_file"; } 2>&1 1>&5 |
      redact_stream >&4; } 5>&1 | redact_stream >&3
  fi
  status="$(cat "$status_file")"
  rm -f "$status_file"
  exit "${status:-1}"
}
