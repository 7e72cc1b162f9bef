// Compiled by run.sh with types.ts: sqlite-bloom/filter imported by an ES module (filter.d.mts).
import { openFilter } from 'sqlite-bloom/filter';
import type { BloomFilter } from 'sqlite-bloom/filter';

const filter: BloomFilter = openFilter(new Uint8Array(64));
const answer: boolean | null = filter.mightContain(42n);

// @ts-expect-error: the module has no default export
import reader from 'sqlite-bloom/filter';
