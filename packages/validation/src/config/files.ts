import { statSync, type Stats } from 'node:fs';

/** `os.Stat` (symlinks followed): the stats, or Go's error text (`stat /x: no such file or directory`). */
export function statFile(path: string): { stats?: Stats; error?: string } {
  try {
    return { stats: statSync(path) };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'no such file or directory'
        : code === 'EACCES'
          ? 'permission denied'
          : code === 'ENOTDIR'
            ? 'not a directory'
            : (e as Error).message;
    return { error: `stat ${path}: ${reason}` };
  }
}

/** True when the path exists (directories included), as the egress validator checks. */
export function fileExists(path: string): boolean {
  return statFile(path).stats !== undefined;
}
