/**
 * ESLint rule `dsh/layers`: fails an import that goes against the arrows
 * `dsh-codec ← dsh-session ← dsh-agent ← dsh-host ← apps`, reaches into another unit's
 * files (its `src/` or any relative path outside the importing unit), pulls
 * `dsh-session`'s fork entry into anything but its tests, or imports `dsh-session/internal` from
 * anywhere but dsh-postgres and dsh-session's tests.
 */
import { dirname, relative, resolve, sep } from 'node:path';
import { INTERNAL_ENTRY_USERS, LAYERS, TEST_IMPORTS, WORKSPACE_PACKAGES } from './layers.js';

const UNIT_PATTERN = /^(packages|apps|tooling)\/([^/]+)(?:\/|$)/;

/** @param {string} root @param {string} file @returns {string | undefined} */
function unitOf(root, file) {
  const rel = relative(root, file).split(sep).join('/');
  const match = UNIT_PATTERN.exec(rel);
  return match ? `${match[1]}/${match[2]}` : undefined;
}

/** @param {string} file */
function isTestFile(file) {
  return /\.(test|e2e\.test|bench)\.ts$/.test(file) || /[/\\](test|__fixtures__)[/\\]/.test(file);
}

/** @type {import('eslint').Rule.RuleModule} */
export const layerRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports flow only downward through the dsh layers (SPEC §2).' },
    schema: [{ type: 'object', properties: { root: { type: 'string' } }, additionalProperties: false }],
    messages: {
      upward:
        "{{unit}} may not import '{{target}}': allowed workspace imports are {{allowed}} (layers: dsh-codec ← dsh-session ← dsh-agent ← dsh-host ← apps).",
      intoSrc: "'{{source}}' reaches into another package's files; import the package by its name and public entry instead.",
      outside: "'{{source}}' leaves {{unit}}; import other units by package name, never by relative path.",
      tooling: "{{unit}} source may not import the private tooling package '{{target}}' (only tests and configs may).",
      forkEntry:
        "'{{source}}' imports dsh-session's fork entry; only `dsh-session/fork` users and its tests may, never the main entry's files.",
      internalEntry:
        "{{unit}} may not import dsh-session's internal entry ('{{source}}'): only {{allowed}} and dsh-session's tests may; use the public entry 'dsh-session'.",
    },
  },
  create(context) {
    const root = /** @type {{root?: string}} */ (context.options[0] ?? {}).root ?? context.cwd;
    const file = context.filename;
    const unit = unitOf(root, file);
    if (unit === undefined || unit.startsWith('tooling/')) return {};
    const allowed = LAYERS[unit];
    const test = isTestFile(file);
    const testImports = test ? (TEST_IMPORTS[unit] ?? []) : [];

    /** @param {import('eslint').Rule.Node} node @param {string} source */
    function check(node, source) {
      if (source.startsWith('.')) {
        const target = resolve(dirname(file), source);
        const targetUnit = unitOf(root, target);
        if (targetUnit !== unit) {
          context.report({ node, messageId: 'outside', data: { source, unit } });
          return;
        }
        if (unit === 'packages/dsh-session' && !test && /(^|\/)fork\.(js|ts)$/.test(source)) {
          context.report({ node, messageId: 'forkEntry', data: { source } });
        }
        if (unit === 'packages/dsh-session' && !test && /(^|\/)internal\.(js|ts)$/.test(source)) {
          context.report({ node, messageId: 'internalEntry', data: { unit, source, allowed: INTERNAL_ENTRY_USERS.join(', ') } });
        }
        return;
      }
      const parts = source.split('/');
      const name = source.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? source);
      const subpath = parts.slice(source.startsWith('@') ? 2 : 1).join('/');
      if (name.startsWith('@dsh/')) {
        if (!test && !/\.config\.ts$/.test(file)) context.report({ node, messageId: 'tooling', data: { unit, target: name } });
        return;
      }
      if (!WORKSPACE_PACKAGES.includes(name)) return;
      if (subpath === 'src' || subpath.startsWith('src/') || subpath.startsWith('dist/')) {
        context.report({ node, messageId: 'intoSrc', data: { source } });
        return;
      }
      if (
        name === 'dsh-session' &&
        subpath === 'internal' &&
        !INTERNAL_ENTRY_USERS.includes(unit ?? '') &&
        !(unit === 'packages/dsh-session' && test)
      ) {
        context.report({ node, messageId: 'internalEntry', data: { unit, source, allowed: INTERNAL_ENTRY_USERS.join(', ') } });
        return;
      }
      if (`packages/${name}` === unit) return;
      if (testImports.includes(name)) return;
      if (allowed === undefined || !allowed.includes(name)) {
        context.report({
          node,
          messageId: 'upward',
          data: { unit, target: name, allowed: allowed && allowed.length > 0 ? allowed.join(', ') : 'none' },
        });
      }
    }

    /** @param {any} node */
    const visit = (node) => {
      if (node.source && typeof node.source.value === 'string') check(node, node.source.value);
    };
    return {
      ImportDeclaration: visit,
      ExportNamedDeclaration: visit,
      ExportAllDeclaration: visit,
      /** @param {any} node */
      ImportExpression(node) {
        if (node.source.type === 'Literal' && typeof node.source.value === 'string') check(node, node.source.value);
      },
    };
  },
};
