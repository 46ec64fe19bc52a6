#!/usr/bin/env bash
# Release dry run: `changeset version` on a scratch copy of the repository (the real one is never
# touched), then `pnpm pack` of every published package there. Needs the packages built (dist/).
# Prints the versions it would release and the tarballs; exits non-zero when either step fails.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/dsh-release-dry-run.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT

# The tracked files as they are now (edits included), plus every built dist/ and the installed tools.
git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$SCRATCH" 2>/dev/null || true
for dist in packages/*/dist apps/*/dist; do [ -d "$dist" ] && cp -r "$dist" "$SCRATCH/$dist"; done
for modules in node_modules */*/node_modules; do [ -d "$modules" ] && ln -s "$ROOT/$modules" "$SCRATCH/$modules"; done

cd "$SCRATCH"
"$ROOT/node_modules/.bin/changeset" version >/dev/null
mkdir -p "$SCRATCH/tarballs"
for manifest in packages/*/package.json apps/*/package.json; do
  dir=$(dirname "$manifest")
  if node -e "process.exit(require('./$manifest').private === true ? 1 : 0)"; then
    [ -d "$dir/dist" ] || { echo "release dry run: $dir has no dist/: build first (pnpm turbo run build)" >&2; exit 1; }
    echo "  $(node -p "const p=require('./$manifest'); p.name + '@' + p.version")"
    (cd "$dir" && pnpm pack --pack-destination "$SCRATCH/tarballs" >/dev/null)
  fi
done
echo "  tarballs: $(cd "$SCRATCH/tarballs" && ls | tr '\n' ' ')"
