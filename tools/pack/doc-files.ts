/** A file a Markdown document spells out in a fenced block headed by its path. */
export interface DocFile {
  readonly path: string;
  readonly text: string;
  /** The words after the path in the block's info string (```ts example.ts no-run: `no-run`). */
  readonly words: readonly string[];
}

/**
 * The files a Markdown document spells out: every fenced block whose info string names a file
 * after the language (```ts src/widget.ts), in order. A path named twice is an error, so a
 * document cannot show two versions of one file.
 */
export function docFiles(markdown: string): DocFile[] {
  const files: DocFile[] = [];
  const block = /^```[a-z]+ +([\w./-]+)([^\n]*)\n([\s\S]*?)^```$/gm;
  for (let m = block.exec(markdown); m; m = block.exec(markdown)) {
    const path = m[1]!;
    if (path.startsWith('/') || path.split('/').includes('..')) throw new Error(`${path}: not a relative path`);
    if (files.some((f) => f.path === path)) throw new Error(`${path} is spelled out twice`);
    files.push({ path, text: m[3]!, words: m[2]!.split(/\s+/).filter(Boolean) });
  }
  return files;
}

/** {@link docFiles} by path. */
export function filesFromMarkdown(markdown: string): Map<string, string> {
  return new Map(docFiles(markdown).map((f) => [f.path, f.text]));
}
