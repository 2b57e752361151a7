import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { chartDir } from './renderer.js';

/** Every template file of the chart, by path relative to the chart. */
function templates(dir = join(chartDir, 'templates')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? templates(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/**
 * The `.Values` paths a template reads: `.Values.a.b` directly, and `$x.c` where the file
 * assigns `$x := .Values.a.b`. Reads inside `with` blocks are left to the strict renders of
 * render.test.ts (a missing key is an error there).
 */
export function valuePaths(text: string): string[] {
  const aliases = new Map<string, string>();
  for (const m of text.matchAll(/\$(\w+) :?= \.Values\.([\w.]+)/g)) aliases.set(m[1]!, m[2]!);
  const paths = [...text.matchAll(/\.Values\.([A-Za-z_][\w.]*)/g)].map((m) => m[1]!);
  for (const [alias, base] of aliases)
    for (const m of text.matchAll(new RegExp(`\\$${alias}\\.([A-Za-z_][\\w.]*)`, 'g'))) paths.push(`${base}.${m[1]}`);
  return [...new Set(paths.map((p) => p.replace(/\.$/, '')))];
}

/** Whether values.yaml declares the path (free-form maps such as `config: {}` declare everything below them). */
function declared(values: unknown, path: string): boolean {
  let node = values;
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return false;
    const obj = node as Record<string, unknown>;
    if (Object.keys(obj).length === 0) return true;
    if (!(key in obj)) return false;
    node = obj[key];
  }
  return true;
}

describe('values.yaml declares every value the templates read', () => {
  const values = parse(readFileSync(join(chartDir, 'values.yaml'), 'utf8'));
  const files = templates();

  it('finds reads in every template that has them', () => {
    const reading = files.filter((f) => valuePaths(readFileSync(f, 'utf8')).length > 0);
    expect(reading.length).toBeGreaterThan(15);
  });

  it.each(files.map((f) => relative(chartDir, f)))('%s', (file) => {
    const undeclared = valuePaths(readFileSync(join(chartDir, file), 'utf8')).filter((p) => !declared(values, p));
    expect(undeclared).toEqual([]);
  });

  it('the scan catches an undeclared value', () => {
    const paths = valuePaths(
      '{{ .Values.server.replicaCount }} {{- $c := .Values.controller }}{{ $c.leaderElection.bogus }}',
    );
    expect(paths.filter((p) => !declared(values, p))).toEqual([
      'server.replicaCount',
      'controller.leaderElection.bogus',
    ]);
  });

  it('every value in values.yaml has a helm-docs "# --" comment', () => {
    const lines = readFileSync(join(chartDir, 'values.yaml'), 'utf8').split('\n');
    const missing: string[] = [];
    lines.forEach((line, i) => {
      const m = /^(\s*)([\w.-]+):(.*)$/.exec(line);
      if (!m) return;
      const isBlock = m[3]!.trim() === '' && (lines[i + 1] ?? '').startsWith(`${m[1]}  `);
      const isListItemBlock = m[3]!.trim() === '' && /^\s*- /.test(lines[i + 1] ?? '');
      let j = i - 1;
      while (j >= 0 && /^\s*# @default/.test(lines[j]!)) j--;
      const documented = /^\s*# -- /.test(lines[j] ?? '');
      const insideDocumentedValue = m[1]!.length > 0 && !documented && isInsideValue(lines, i);
      if (!documented && !insideDocumentedValue && (!isBlock || isListItemBlock))
        missing.push(`${i + 1}: ${line.trim()}`);
    });
    expect(missing).toEqual([]);
  });
});

/** Whether line i is part of a documented value's default (e.g. the keys of `podSecurityContext:`). */
function isInsideValue(lines: string[], i: number): boolean {
  const indent = /^(\s*)/.exec(lines[i]!)![1]!.length;
  for (let j = i - 1; j >= 0; j--) {
    const m = /^(\s*)\S/.exec(lines[j]!);
    if (!m || lines[j]!.trim().startsWith('#')) continue;
    if (m[1]!.length < indent) {
      let k = j - 1;
      while (k >= 0 && /^\s*# @default/.test(lines[k]!)) k--;
      return /^\s*# -- /.test(lines[k] ?? '') || isInsideValue(lines, j);
    }
  }
  return false;
}
