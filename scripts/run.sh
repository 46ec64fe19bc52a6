#!/usr/bin/env bash
# One entry for the README's two commands, on a fresh machine with only Node 20 and npm:
#   npm run demo   → install what is missing, start the demo (exec'd: signals reach it directly)
#   npm run check  → install what is missing, run every check and test, print each phase's time
#   npm run install-cli → install what is missing, build and pack dsh-cli, npm install --global the tarballs
# Needs no root and no global npm bin on PATH: pnpm goes to ./.tools/pnpm when the right one is not
# already installed; Chromium is used where it is and installed (apt) only when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

PNPM_VERSION=12.4.2
NODE_MIN=20.19
TOOLS_DIR="$PWD/.tools"

say() { printf '› %s\n' "$*"; }
fail() {
  printf '\ndsh %s: %s\n' "${MODE:-setup}" "$1" >&2
  [ -z "${2:-}" ] || printf '  fix: %s\n' "$2" >&2
  print_timings >&2
  exit 1
}

now_ms() { date +%s%3N; }
PHASE_NAMES=()
PHASE_MS=()
print_timings() {
  [ "${#PHASE_NAMES[@]}" -gt 0 ] || return 0
  printf '\nphase times:\n'
  local i
  for i in "${!PHASE_NAMES[@]}"; do
    printf '  %-22s %6.1f s\n' "${PHASE_NAMES[$i]}" "$(awk "BEGIN { print ${PHASE_MS[$i]} / 1000 }")"
  done
}

# phase NAME COMMAND…: runs one step, records its duration, and names it when it fails.
phase() {
  local name=$1 started rc=0
  shift
  say "$name"
  started=$(now_ms)
  "$@" || rc=$?
  PHASE_NAMES+=("$name")
  PHASE_MS+=("$(($(now_ms) - started))")
  if [ "$rc" -ne 0 ]; then
    fail "phase '$name' failed (exit $rc): \`$*\`" "read the output above; rerun that command alone to iterate"
  fi
}

ensure_node() {
  command -v node >/dev/null 2>&1 || fail "Node.js was not found on PATH." "install Node.js $NODE_MIN or newer (https://nodejs.org)"
  command -v npm >/dev/null 2>&1 || fail "npm was not found on PATH (it ships with Node.js)." "install Node.js $NODE_MIN or newer with its npm"
  node -e "const [a,b]=process.versions.node.split('.').map(Number); const [x,y]='$NODE_MIN'.split('.').map(Number); process.exit(a>x||(a===x&&b>=y)?0:1)" ||
    fail "Node.js $NODE_MIN or newer is required; found $(node --version)." "install a newer Node.js 20 (or 22)"
}

# The pinned pnpm: the one on PATH if it is that version, else a local copy under .tools/ (npm's global
# bin may be unwritable or missing from PATH; corepack fails signature checks on our registry).
ensure_pnpm() {
  if [ "$(pnpm --version 2>/dev/null || true)" = "$PNPM_VERSION" ]; then return; fi
  local local_bin="$TOOLS_DIR/pnpm/node_modules/.bin"
  if [ "$("$local_bin/pnpm" --version 2>/dev/null || true)" != "$PNPM_VERSION" ]; then
    say "pnpm $PNPM_VERSION not found: installing it into .tools/pnpm (no global install)"
    mkdir -p "$TOOLS_DIR/pnpm"
    npm install --prefix "$TOOLS_DIR/pnpm" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "pnpm@$PNPM_VERSION" >/dev/null ||
      fail "could not install pnpm $PNPM_VERSION with npm." "check the npm registry is reachable (npm ping), then rerun"
  fi
  export PATH="$local_bin:$PATH"
}

# Debian's Chromium for the demo's browser tests (never a downloaded browser build). Uses the one
# already installed; installs with apt only when none is found, and says so.
ensure_chromium() {
  local candidate
  for candidate in "${CHROMIUM_PATH:-}" /usr/bin/chromium "$(command -v chromium 2>/dev/null || true)" \
    "$(command -v chromium-browser 2>/dev/null || true)" "$(command -v google-chrome 2>/dev/null || true)"; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then
      export CHROMIUM_PATH="$candidate"
      say "browser tests use Chromium at $CHROMIUM_PATH"
      return
    fi
  done
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    if sudo -n true 2>/dev/null; then sudo="sudo"; else
      fail "Chromium is needed for the demo's browser tests and none was found (looked at \$CHROMIUM_PATH, /usr/bin/chromium, chromium, chromium-browser, google-chrome)." \
        "install it (sudo apt-get install chromium) or set CHROMIUM_PATH to a Chromium binary"
    fi
  fi
  command -v apt-get >/dev/null 2>&1 || fail "Chromium was not found and apt-get is not available to install it." "install Chromium and set CHROMIUM_PATH"
  say "Chromium not found: installing Debian's chromium with apt-get (without recommended packages)"
  phase "install chromium (apt)" apt_install_chromium "$sudo"
  export CHROMIUM_PATH=/usr/bin/chromium
}

# Only chromium and what it depends on: its recommended packages pull in ~190 more, daemons such as
# avahi and udev among them, that headless browser tests never use.
apt_install_chromium() {
  local sudo=$1
  $sudo apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null ||
    { echo "apt-get could not install chromium: install Chromium yourself and set CHROMIUM_PATH" >&2; return 1; }
}

# DSH_CHECK_LOAD=N keeps N CPU-bound processes running beside both test phases, DSH_CHECK_FAULTS_LOAD=N
# beside the fault tests only (a loaded machine on purpose: no verdict may depend on a timeout close to a
# test's normal running time, and the kill and race trials must hold when a writer is starved of CPU).
# They stop with the shell; a second call only adds the missing ones.
start_cpu_load() {
  local count=${1:-0} i
  [ "$count" -gt "${#LOAD_PIDS[@]}" ] 2>/dev/null || return 0
  say "$2 run beside $count CPU-bound processes"
  for ((i = ${#LOAD_PIDS[@]}; i < count; i++)); do
    node -e 'for (;;) {}' &
    LOAD_PIDS+=("$!")
  done
  [ -n "$LOAD_TRAP_SET" ] && return 0
  LOAD_TRAP_SET=1
  # keep the EXIT trap scripts/postgres.sh set (it stops the throwaway server)
  local previous
  previous="$(trap -p EXIT | sed -E "s/^trap -- '(.*)' EXIT$/\1/")"
  trap "stop_cpu_load; ${previous}" EXIT
}
stop_cpu_load() { [ "${#LOAD_PIDS[@]}" -eq 0 ] || kill "${LOAD_PIDS[@]}" 2>/dev/null || true; }
LOAD_PIDS=()
LOAD_TRAP_SET=

install_dependencies() {
  ensure_node
  ensure_pnpm
  phase "install (pnpm $PNPM_VERSION)" pnpm install --frozen-lockfile --reporter=silent
}

# `npm run install-cli [-- --prefix DIR]`: dsh-cli and the workspace packages it depends on, built and
# packed (pnpm pack writes real versions for workspace:*), then installed with `npm install --global`
# from those tarballs: no registry needs to hold dsh's own packages (their dependencies come from npm).
install_cli() {
  local packs
  packs=$(mktemp -d "${TMPDIR:-/tmp}/dsh-install-cli.XXXXXX")
  # shellcheck disable=SC2064
  trap "rm -rf '$packs'" EXIT
  local dir
  for dir in $(node scripts/cli-package-dirs.mjs); do
    (cd "$dir" && pnpm pack --pack-destination "$packs" >/dev/null) || fail "could not pack $dir." "run \`pnpm pack\` there to see why"
  done
  say "installing dsh with npm install --global $* (from $(ls "$packs" | wc -l) packed packages)"
  npm install --global --no-audit --no-fund --loglevel=error "$@" "$packs"/*.tgz ||
    fail "npm could not install the packed CLI globally." "npm's global folder may need root: rerun as \`npm run install-cli -- --prefix ~/.local\` and put ~/.local/bin on PATH"
  local bin
  bin="$(npm prefix --global "$@")/bin"
  say "dsh is installed: $bin/dsh ($("$bin/dsh" --version))"
  case ":$PATH:" in *":$bin:"*) ;; *) say "add $bin to PATH to run it as dsh" ;; esac
}

MODE=${1:-}
case "$MODE" in
  install-cli)
    install_dependencies
    shift
    phase "build dsh-cli and its packages" pnpm turbo run build --output-logs=errors-only --filter=dsh-cli...
    install_cli "$@"
    ;;
  demo)
    install_dependencies
    shift
    # exec, no pnpm or tsx launcher in between: Ctrl-C/SIGTERM reach the server itself, which
    # releases its sessions and exits; nothing is left serving.
    cd apps/demo
    exec node --conditions=@dsh/source --import tsx src/main.ts "$@"
    ;;
  check)
    install_dependencies
    if ls apps/demo/test/*.e2e.test.ts >/dev/null 2>&1; then ensure_chromium; fi
    phase "lint" pnpm run lint
    phase "typecheck" pnpm turbo run typecheck --output-logs=errors-only
    phase "build + publint + attw" pnpm turbo run build publint --output-logs=errors-only
    # Every dsh the tests start runs the dist/ just built, not the sources through tsx (a third of the
    # CPU per start; the tests are CPU-bound on 2 cores): the code users install is the code tested.
    export DSH_CLI_BUILT=1
    phase "release dry run (changeset version + pack)" bash scripts/release-dry-run.sh
    # a throwaway PostgreSQL server unless DATABASE_URL names one (stops when this shell exits)
    phase "postgres" source scripts/postgres.sh
    # the real Claude Code / Codex / pi the interop tests drive (SPEC §18): pinned, cached, size + time printed
    if [ "${DSH_SKIP_INTEROP:-}" = "1" ]; then say "interop tools skipped (DSH_SKIP_INTEROP=1)"; else
      phase "interop tools (pinned installs, cached)" pnpm --filter @dsh/interop run install-tools; fi
    # Every test but the fault suites, then the fault suites through their own runner, which sums what
    # they report (lost, half-written, escapes, 5xx, unbounded must all be zero). Both print their
    # slowest tests with times.
    start_cpu_load "${DSH_CHECK_LOAD:-0}" "tests"
    phase "tests" pnpm exec vitest run --exclude '**/*.faults.test.ts'
    faults_load=${DSH_CHECK_FAULTS_LOAD:-0}
    [ "${DSH_CHECK_LOAD:-0}" -gt "$faults_load" ] 2>/dev/null && faults_load=$DSH_CHECK_LOAD
    start_cpu_load "$faults_load" "fault tests"
    phase "fault tests" pnpm run test:faults
    print_timings
    ;;
  *)
    echo "usage: scripts/run.sh demo|check|install-cli [npm install options]" >&2
    exit 2
    ;;
esac
