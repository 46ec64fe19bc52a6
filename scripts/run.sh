#!/usr/bin/env bash
# One entry for the README's two commands, on a fresh machine with only Node 20 and npm:
#   npm run demo   → install everything, start the demo
#   npm run check  → install everything, run every check and test
set -euo pipefail
cd "$(dirname "$0")/.."

PNPM_VERSION=12.4.2

ensure_pnpm() {
  if [ "$(pnpm --version 2>/dev/null || true)" != "$PNPM_VERSION" ]; then
    echo "› installing pnpm $PNPM_VERSION"
    npm install --global --save-exact "pnpm@$PNPM_VERSION" >/dev/null
  fi
}

# Debian's Chromium for the demo's browser tests (never a downloaded browser build).
ensure_chromium() {
  if [ -x /usr/bin/chromium ]; then return; fi
  echo "› installing chromium (apt)"
  local sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
}

install_dependencies() {
  ensure_pnpm
  echo "› pnpm install"
  pnpm install --frozen-lockfile --reporter=silent
}

case "${1:-}" in
  demo)
    install_dependencies
    shift
    exec pnpm --filter @dsh/demo run start "$@"
    ;;
  check)
    install_dependencies
    if [ -d apps/demo/test ] && ls apps/demo/test/*.e2e.test.ts >/dev/null 2>&1; then ensure_chromium; fi
    echo "› lint"
    pnpm run lint
    echo "› typecheck"
    pnpm turbo run typecheck --output-logs=errors-only
    echo "› build + publint + attw"
    pnpm turbo run build publint --output-logs=errors-only
    echo "› tests"
    source scripts/postgres.sh # a throwaway PostgreSQL server unless DATABASE_URL names one
    pnpm exec vitest run
    ;;
  *)
    echo "usage: scripts/run.sh demo|check" >&2
    exit 2
    ;;
esac
