// The folders of dsh-cli and of every workspace package it depends on at run time (dependencies, not
// devDependencies), one per line: what `npm run install-cli` packs.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import process from 'node:process';

const root = fileURLToPath(import.meta.resolve('../'));
const folders = new Map();
for (const group of ['packages', 'apps']) {
  for (const folder of readdirSync(join(root, group))) {
    const manifest = join(root, group, folder, 'package.json');
    if (existsSync(manifest)) folders.set(JSON.parse(readFileSync(manifest, 'utf8')).name, join(group, folder));
  }
}
const wanted = new Set();
const visit = (name) => {
  if (wanted.has(name) || !folders.has(name)) return;
  wanted.add(name);
  const manifest = JSON.parse(readFileSync(join(root, folders.get(name), 'package.json'), 'utf8'));
  for (const [dependency, range] of Object.entries(manifest.dependencies ?? {}))
    if (String(range).startsWith('workspace:')) visit(dependency);
};
visit('dsh-cli');
for (const name of wanted) process.stdout.write(`${folders.get(name)}\n`);
