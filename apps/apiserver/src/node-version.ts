/**
 * Imported first by main.ts: on a Node.js older than the dependencies need (undici needs 22.19;
 * the SQLite store uses the built-in node:sqlite), exit at once with one line that says so,
 * instead of failing later with a stack from deep inside a dependency.
 */
const required = [22, 19] as const;
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < required[0] || (major === required[0] && minor < required[1])) {
  process.stderr.write(
    `kevents-apiserver: Node.js ${required.join('.')} or newer is needed (Node 24 LTS recommended); this is ${process.versions.node}\n`,
  );
  process.exit(1);
}
export {};
