import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { twMerge } from 'tailwind-merge';
import { describe, expect, it } from 'vitest';
import { cn } from './cn';

const WEB_DIR = path.resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    // cn.ts itself holds group names, not class lists.
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && entry.name !== 'cn.ts'
      ? [file]
      : [];
  });
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.TSX,
  );
}

/** String literals that read as class lists (`'mt-4 text-sm'`). */
function classLiterals(node: ts.Node, out: string[] = []): string[] {
  if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && looksLikeClasses(node.text)) {
    out.push(node.text);
  }
  ts.forEachChild(node, (child) => {
    classLiterals(child, out);
  });
  return out;
}

function looksLikeClasses(text: string): boolean {
  const parts = text.split(/\s+/).filter(Boolean);
  return (
    parts.length > 0 &&
    parts.every((p) => /^[!-]?[a-z0-9[@*][\w:./[\]()%,#'=&>*+-]*$/.test(p)) &&
    /-/.test(text)
  );
}

const files = sourceFiles(WEB_DIR);
const literalsByFile = new Map(files.map((file) => [file, classLiterals(parse(file))]));

/** Where each component is declared, for the classes it merges with what a caller passes. */
const componentFile = new Map<string, string>();
for (const file of files) {
  parse(file).forEachChild((node) => {
    if (ts.isFunctionDeclaration(node) && node.name) componentFile.set(node.name.text, file);
  });
}

/** Every pair of class lists that can meet in one cn() call: within a file, and a component's own classes with a caller's className. */
function combinations(): string[] {
  const out = new Set<string>();
  for (const literals of literalsByFile.values()) {
    for (const a of literals) for (const b of literals) if (a !== b) out.add(`${a} ${b}`);
  }
  for (const file of files) {
    const source = parse(file);
    const visit = (node: ts.Node) => {
      if (ts.isJsxOpeningElement(node) || ts.isJsxSelfClosingElement(node)) {
        const own = componentFile.get(node.tagName.getText(source));
        if (own) {
          for (const attribute of node.attributes.properties) {
            if (!ts.isJsxAttribute(attribute) || !attribute.initializer) continue;
            if (!/className$/i.test(attribute.name.getText(source))) continue;
            for (const given of classLiterals(attribute.initializer)) {
              for (const base of literalsByFile.get(own) ?? []) out.add(`${base} ${given}`);
            }
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return [...out];
}

describe('cn', () => {
  it('lets a later utility of the same property win', () => {
    expect(cn('px-6 text-sm text-white', 'px-4 text-emerald-400')).toBe('text-sm px-4 text-emerald-400');
    expect(cn('rounded-lg bg-stone-200', 'rounded-2xl')).toBe('bg-stone-200 rounded-2xl');
    expect(cn('size-8 shrink-0', 'size-10')).toBe('shrink-0 size-10');
    expect(cn('p-5 sm:p-6', 'p-4 sm:p-5')).toBe('p-4 sm:p-5');
    expect(cn('text-sm text-stone-700', false, undefined, 'text-[15px]')).toBe('text-stone-700 text-[15px]');
    expect(cn('border border-stone-200', 'border-2 border-rose-600')).toBe('border-2 border-rose-600');
  });

  it('merges every class combination written in src/web as the full tailwind-merge does', () => {
    const pairs = combinations();
    expect(pairs.length).toBeGreaterThan(10_000);
    // What the browser applies is the set of classes: order and repeats do not matter.
    const applied = (classes: string) => [...new Set(classes.split(' '))].sort().join(' ');
    const differing = pairs
      .filter((classes) => applied(cn(classes)) !== applied(twMerge(classes)))
      .slice(0, 20);
    expect(
      differing.map((classes) => `${classes}\n  ours: ${cn(classes)}\n  full: ${twMerge(classes)}`),
    ).toEqual([]);
  });
});
