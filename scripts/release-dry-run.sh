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
# Only the workspace's own node_modules folders (the root's and each package's), each linked into a real
# folder of the scratch copy. A glob like */*/node_modules also matches node_modules/eslint/node_modules,
# whose scratch path runs through the linked root node_modules: that wrote self-links into the real tree
# and made the next run fail. The check at the end proves the real tree gained no link.
WORKSPACE_MODULES=(node_modules packages/*/node_modules apps/*/node_modules tooling/*/node_modules)
links_in_real_tree() { find "${WORKSPACE_MODULES[@]}" -maxdepth 2 -type l 2>/dev/null | LC_ALL=C sort; }
LINKS_BEFORE=$(links_in_real_tree)
SCRATCH_REAL=$(cd "$SCRATCH" && pwd -P)
for modules in "${WORKSPACE_MODULES[@]}"; do
  [ -d "$modules" ] || continue
  parent=$(cd "$SCRATCH/$(dirname "$modules")" && pwd -P)
  case "$parent/" in
    "$SCRATCH_REAL/"*) ln -s "$ROOT/$modules" "$SCRATCH/$modules" ;;
    *) echo "release dry run: $SCRATCH/$modules would resolve to $parent, outside the scratch copy" >&2; exit 1 ;;
  esac
done

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
cd "$ROOT"
if [ "$(links_in_real_tree)" != "$LINKS_BEFORE" ]; then
  echo "release dry run: the real tree's node_modules gained or lost links during the run (it must stay untouched)" >&2
  exit 1
fi
