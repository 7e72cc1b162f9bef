// Compiled by run.sh with tsc --strict against the installed package: what index.d.ts must
// accept, and (ts-expect-error) what it must refuse.
import { ExtensionLoadingDatabase, getLoadablePath, load } from 'sqlite-bloom';
import { BloomFilter, FilterInfo, FilterKey, openFilter } from 'sqlite-bloom/filter';

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

// sqlite-bloom/filter, required (filter.d.cts); types.mts imports it (filter.d.mts).
const filter: BloomFilter = openFilter(new Uint8Array(64));
openFilter(new ArrayBuffer(64));
const answer: boolean | null = filter.mightContain('alice');
const keys: FilterKey[] = ['alice', 1, 1.5, 1n, new Uint8Array(2), new ArrayBuffer(2), null, undefined];
keys.forEach((key) => filter.mightContain(key));
const info: FilterInfo = filter.info();
const layout: string = info.layout;
const size: number = info.bytes;
const other: unknown = info.fingerprint_bits;

// @ts-expect-error: a boolean is no key
filter.mightContain(true);
// @ts-expect-error: a filter is bytes, not a string
openFilter('SQBF');
// @ts-expect-error: the answer to a NULL key is null
const sure: boolean = filter.mightContain('alice');
