// Compiled by run.sh with tsc --strict against the installed package: what index.d.ts must
// accept, and (ts-expect-error) what it must refuse.
import { ExtensionLoadingDatabase, getLoadablePath, load } from 'sqlite-bloom';

const loadable: string = getLoadablePath();

// The shapes of better-sqlite3's Database and node:sqlite's DatabaseSync.
class LikeBetterSqlite3 {
  loadExtension(path: string, entryPoint?: string): this {
    return this;
  }
}
class LikeNodeSqlite {
  loadExtension(path: string, entryPoint?: string): void {}
}
load(new LikeBetterSqlite3());
load(new LikeNodeSqlite());
const minimal: ExtensionLoadingDatabase = { loadExtension: (path: string) => path.length };
load(minimal);

// @ts-expect-error: no loadExtension method
load({});
// @ts-expect-error: loadExtension must take a path
load({ loadExtension: (path: number) => path });
// @ts-expect-error: load returns nothing
const nothing: string = load(minimal);
// @ts-expect-error: getLoadablePath takes no argument
getLoadablePath(loadable);
