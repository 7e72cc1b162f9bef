// The reader of sqlite-bloom/filter: a filter BLOB that the extension wrote, probed and described
// without SQLite, by the extension's own core compiled to WebAssembly (ext/wasm/wasm_reader.c).
// build_filter_js.sh wraps this function, with the module's bytes in base64, as filter.cjs
// (CommonJS), filter.mjs (an ES module) and into check-names.html (a page): it declares
// nothing else, imports nothing, and runs wherever WebAssembly, TextEncoder and atob do (Node.js,
// browsers, Deno, Bun, workers).
//
// Each filter gets an instance of the module, whose memory holds its bytes above the module's
// own (from base()), then room for one key or one bloom_info text, grown with memory.grow; the
// module allocates nothing and imports nothing. The instance and its memory go when the filter
// is garbage-collected.

function sqliteBloomFilterReader(wasmBase64) {
  'use strict';

  const KEY_TAG_TEXT = 3; // ext/core/key_hash.h
  const KEY_TAG_BLOB = 4;
  const PAGE_BYTES = 65536;
  const INT64_MIN = -(2n ** 63n);
  const INT64_MAX = 2n ** 63n - 1n;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let compiled = null;

  // The module, compiled on first use, synchronously (64 KB at most: browsers compile it on
  // their main thread too).
  function wasmModule() {
    if (compiled === null) {
      const text = atob(wasmBase64);
      const bytes = new Uint8Array(text.length);
      for (let i = 0; i < text.length; i++) {
        bytes[i] = text.charCodeAt(i);
      }
      compiled = new WebAssembly.Module(bytes);
    }
    return compiled;
  }

  // The class of value, as Object.prototype.toString names it (also for another realm's).
  function tagOf(value) {
    return Object.prototype.toString.call(value);
  }

  // value as bytes, if it is a Uint8Array (a Node.js Buffer is one) or an ArrayBuffer; else null.
  function bytesOf(value) {
    const tag = tagOf(value);
    if (tag === '[object Uint8Array]') {
      return value;
    }
    if (tag === '[object ArrayBuffer]') {
      return new Uint8Array(value);
    }
    return null;
  }

  // A short description of a value that is not a BLOB, for messages.
  function describe(value) {
    if (value === null || value === undefined) {
      return String(value);
    }
    if (typeof value === 'string') {
      const shown = value.length > 40 ? `${value.slice(0, 40)}'...` : `${value}'`;
      return `the string '${shown}`;
    }
    if (typeof value === 'object') {
      return `${tagOf(value).slice(8, -1)} object`;
    }
    return `a ${typeof value}`;
  }

  // A key as bloom_might_contain's messages show it: a string quoted as SQL quotes it (its first
  // 40 characters), a number or bigint in decimal, bytes as "a BLOB of N bytes".
  function sqlText(key) {
    if (typeof key === 'string') {
      const quoted = key.slice(0, 40).replaceAll("'", "''");
      return key.length > 40 ? `'${quoted}'...` : `'${quoted}'`;
    }
    if (typeof key === 'object') {
      const length = bytesOf(key).length;
      return `a BLOB of ${length} byte${length === 1 ? '' : 's'}`;
    }
    return String(key);
  }

  // The message of a filter argument that is not a BLOB, with the hints bloom_might_contain
  // gives for TEXT that holds a filter's bytes or its hex.
  function notABlob(value) {
    let message = 'bloom_might_contain: the filter must be a BLOB (a Uint8Array or an ArrayBuffer), ' +
      `got ${describe(value)}`;
    if (typeof value === 'string' && value.startsWith('SQBF')) {
      message += "; this string holds a filter's bytes as text: pass the bytes themselves";
    } else if (typeof value === 'string' && /^53514246([0-9a-f]{2})*$/i.test(value)) {
      message += '; this string is a filter in hex: pass its bytes (Buffer.from(hex, "hex") in Node.js)';
    }
    return message;
  }

  // A filter that openFilter accepted: its instance of the module, and the room after its bytes.
  class BloomFilter {
    #exports;
    #memory;
    #keyAt; // the first byte after the filter, at a multiple of 8: a key, or bloom_info's text
    #keyRoom; // bytes from #keyAt to the end of the memory
    #keyView; // those bytes

    constructor(exports, keyAt) {
      this.#exports = exports;
      this.#memory = exports.memory;
      this.#keyAt = keyAt;
      this.#reserve(1024);
    }

    // Makes room for bytes bytes at #keyAt, growing the memory by whole pages.
    #reserve(bytes) {
      const end = this.#keyAt + bytes;
      const have = this.#memory.buffer.byteLength;
      if (end > have) {
        this.#memory.grow(Math.ceil((end - have) / PAGE_BYTES));
      }
      this.#keyRoom = this.#memory.buffer.byteLength - this.#keyAt;
      this.#keyView = new Uint8Array(this.#memory.buffer, this.#keyAt, this.#keyRoom);
    }

    // The answer for a TEXT key: its UTF-8 bytes (a lone surrogate as U+FFFD) at #keyAt. A short
    // ASCII key is copied by hand: faster than encodeInto's call for it.
    #probeText(key) {
      const length = key.length;
      if (length <= 64 && length <= this.#keyRoom) {
        const view = this.#keyView;
        let i = 0;
        for (; i < length; i++) {
          const unit = key.charCodeAt(i);
          if (unit >= 0x80) {
            break;
          }
          view[i] = unit;
        }
        if (i === length) {
          return this.#exports.probe_bytes(KEY_TAG_TEXT, this.#keyAt, length);
        }
      }
      let { read, written } = encoder.encodeInto(key, this.#keyView);
      if (read < key.length) { // no room: each UTF-16 unit takes at most 3 bytes
        this.#reserve(key.length * 3);
        ({ written } = encoder.encodeInto(key, this.#keyView));
      }
      return this.#exports.probe_bytes(KEY_TAG_TEXT, this.#keyAt, written);
    }

    // The module's answer for key as mightContain's: 1 true, 0 false, 2 bloom_might_contain's
    // error for a key of an SQL type the filter's values never have (rule 27 (Parquet filters)).
    #answer(key, answer) {
      if (answer === 2) {
        const memory = new Uint8Array(this.#memory.buffer);
        const at = this.#exports.message();
        const why = decoder.decode(memory.subarray(at, memory.indexOf(0, at)));
        throw new TypeError(`bloom_might_contain: the key ${sqlText(key)} ${why}`);
      }
      return answer === 1;
    }

    // The answer for a BLOB key.
    #probeBlob(bytes) {
      if (bytes.length > this.#keyRoom) {
        this.#reserve(bytes.length);
      }
      this.#keyView.set(bytes);
      return this.#exports.probe_bytes(KEY_TAG_BLOB, this.#keyAt, bytes.length);
    }

    // false when key was certainly never added to the filter, true when it may have been, null
    // for a NULL key (null, undefined, or NaN, which SQLite holds as NULL): bloom_might_contain's
    // 0, 1 and NULL (rule 7 (probe)). Keys follow SQL equality (rule 5 (keys)): a string is TEXT,
    // a number an INTEGER when integral in the 64-bit range and a REAL otherwise (so 1 and 1.0,
    // 0 and -0 are one key, as in SQL), a bigint an INTEGER, a Uint8Array or an ArrayBuffer a
    // BLOB.
    mightContain(key) {
      switch (typeof key) {
        case 'string':
          return this.#answer(key, this.#probeText(key));
        case 'number':
          return Number.isNaN(key) ? null : this.#answer(key, this.#exports.probe_number(key));
        case 'bigint':
          if (key < INT64_MIN || key > INT64_MAX) {
            throw new RangeError(`bloom_might_contain: the key ${key} is not an INTEGER: ` +
              `SQL's integers are from ${INT64_MIN} to ${INT64_MAX}`);
          }
          return this.#answer(key, this.#exports.probe_integer(key));
        case 'undefined':
          return null;
        case 'object': {
          if (key === null) {
            return null;
          }
          const bytes = bytesOf(key);
          if (bytes !== null) {
            return this.#answer(key, this.#probeBlob(bytes));
          }
          break;
        }
        default:
          break;
      }
      const hint = typeof key === 'boolean' ? ` (SQL has no booleans: its TRUE is 1 and FALSE is 0)` : '';
      throw new TypeError('bloom_might_contain: a key is a string, a number, a bigint, a Uint8Array, ' +
        `an ArrayBuffer, null or undefined, got ${describe(key)}${hint}`);
    }

    // What bloom_info(filter) returns (rule 11 (info)), as an object: its JSON text, parsed.
    // Reads the whole filter.
    info() {
      for (;;) {
        const length = this.#exports.info(this.#keyAt, this.#keyRoom);
        if (length < this.#keyRoom) {
          return JSON.parse(decoder.decode(this.#keyView.subarray(0, length)));
        }
        this.#reserve(length + 1);
      }
    }
  }

  // Validates bytes as bloom_might_contain validates a filter (rule 8 (validation)), in O(1),
  // and returns the filter, or throws bloom_might_contain's error.
  function openFilter(filter) {
    const bytes = bytesOf(filter);
    if (bytes === null) {
      throw new TypeError(notABlob(filter));
    }
    const { exports } = new WebAssembly.Instance(wasmModule(), {});
    const base = exports.base();
    const keyAt = Math.ceil((base + bytes.length) / 8) * 8;
    const have = exports.memory.buffer.byteLength;
    if (keyAt > have) {
      try {
        exports.memory.grow(Math.ceil((keyAt - have) / PAGE_BYTES));
      } catch (error) {
        throw new RangeError(`bloom_might_contain: a filter of ${bytes.length} bytes does not fit ` +
          `in this WebAssembly memory: ${error.message}`, { cause: error });
      }
    }
    new Uint8Array(exports.memory.buffer, base, bytes.length).set(bytes);
    if (exports.open(base, bytes.length) !== 1) {
      const memory = new Uint8Array(exports.memory.buffer);
      const at = exports.message();
      const why = decoder.decode(memory.subarray(at, memory.indexOf(0, at)));
      throw new Error(`bloom_might_contain: ${why}`);
    }
    return new BloomFilter(exports, keyAt);
  }

  return { openFilter };
}
