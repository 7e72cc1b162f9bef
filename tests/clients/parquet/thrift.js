// Thrift's compact protocol, read into a tree and written back byte for byte: enough to take
// a Parquet file's footer (FileMetaData), point a column chunk's bloom_filter_offset and
// bloom_filter_length at other bytes, and write the footer again. Written for the test from
// the protocol's description; a struct is a list of fields kept in file order, with their
// types, so that an unchanged tree writes back the bytes it was read from.
'use strict';

const TYPE = {
  STOP: 0, TRUE: 1, FALSE: 2, BYTE: 3, I16: 4, I32: 5, I64: 6, DOUBLE: 7, BINARY: 8,
  LIST: 9, SET: 10, MAP: 11, STRUCT: 12,
};

// Reads bytes from a Buffer, throwing past its end.
class Input {
  constructor(bytes) {
    this.bytes = bytes;
    this.at = 0;
  }

  byte() {
    if (this.at >= this.bytes.length) throw new Error(`thrift: read past the end (${this.bytes.length} bytes)`);
    return this.bytes[this.at++];
  }

  take(length) {
    if (this.at + length > this.bytes.length) throw new Error('thrift: read past the end');
    this.at += length;
    return this.bytes.subarray(this.at - length, this.at);
  }

  varint() {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const b = this.byte();
      value |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return value;
    }
  }

  zigzag() {
    const u = this.varint();
    return (u >> 1n) ^ -(u & 1n);
  }
}

// Reads one value of the compact type; a struct is an array of {id, type, value}.
function readValue(input, type) {
  switch (type) {
    case TYPE.TRUE: return true;
    case TYPE.FALSE: return false;
    case TYPE.BYTE: return input.byte();
    case TYPE.I16: case TYPE.I32: case TYPE.I64: return input.zigzag();
    case TYPE.DOUBLE: return input.take(8);
    case TYPE.BINARY: return input.take(Number(input.varint()));
    case TYPE.LIST: case TYPE.SET: {
      const header = input.byte();
      const elementType = header & 0x0f;
      const count = (header >> 4) === 15 ? Number(input.varint()) : header >> 4;
      const items = [];
      for (let i = 0; i < count; i++) {
        // A boolean in a container is one byte of its own.
        items.push(elementType === TYPE.TRUE || elementType === TYPE.FALSE
          ? input.byte() : readValue(input, elementType));
      }
      return { elementType, items };
    }
    case TYPE.MAP: {
      const count = Number(input.varint());
      if (count === 0) return { kinds: 0, entries: [] };
      const kinds = input.byte();
      const entries = [];
      for (let i = 0; i < count; i++) {
        entries.push([readValue(input, kinds >> 4), readValue(input, kinds & 0x0f)]);
      }
      return { kinds, entries };
    }
    case TYPE.STRUCT: {
      const fields = [];
      for (let last = 0; ;) {
        const header = input.byte();
        if (header === TYPE.STOP) return fields;
        const fieldType = header & 0x0f;
        const id = header >> 4 ? last + (header >> 4) : Number(input.zigzag());
        fields.push({ id, type: fieldType, value: readValue(input, fieldType) });
        last = id;
      }
    }
    default: throw new Error(`thrift: unknown compact type ${type}`);
  }
}

// Collects the bytes of a value written back.
class Output {
  constructor() {
    this.parts = [];
  }

  byte(b) {
    this.parts.push(Buffer.from([b]));
  }

  varint(value) {
    const bytes = [];
    let v = BigInt(value);
    while (v >= 0x80n) {
      bytes.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    bytes.push(Number(v));
    this.parts.push(Buffer.from(bytes));
  }

  zigzag(value) {
    const v = BigInt(value);
    this.varint(v >= 0n ? v << 1n : ((-v) << 1n) - 1n);
  }

  buffer() {
    return Buffer.concat(this.parts);
  }
}

// Writes one value of the compact type, as readValue read it.
function writeValue(output, type, value) {
  switch (type) {
    case TYPE.TRUE: case TYPE.FALSE: return;
    case TYPE.BYTE: output.byte(value); return;
    case TYPE.I16: case TYPE.I32: case TYPE.I64: output.zigzag(value); return;
    case TYPE.DOUBLE: output.parts.push(value); return;
    case TYPE.BINARY: output.varint(value.length); output.parts.push(value); return;
    case TYPE.LIST: case TYPE.SET: {
      const count = value.items.length;
      if (count < 15) {
        output.byte((count << 4) | value.elementType);
      } else {
        output.byte(0xf0 | value.elementType);
        output.varint(count);
      }
      for (const item of value.items) {
        if (value.elementType === TYPE.TRUE || value.elementType === TYPE.FALSE) output.byte(item);
        else writeValue(output, value.elementType, item);
      }
      return;
    }
    case TYPE.MAP:
      output.varint(value.entries.length);
      if (value.entries.length === 0) return;
      output.byte(value.kinds);
      for (const [k, v] of value.entries) {
        writeValue(output, value.kinds >> 4, k);
        writeValue(output, value.kinds & 0x0f, v);
      }
      return;
    case TYPE.STRUCT: {
      let last = 0;
      for (const field of value) {
        const delta = field.id - last;
        if (delta > 0 && delta <= 15) {
          output.byte((delta << 4) | field.type);
        } else {
          output.byte(field.type);
          output.zigzag(field.id);
        }
        writeValue(output, field.type, field.value);
        last = field.id;
      }
      output.byte(TYPE.STOP);
      return;
    }
    default: throw new Error(`thrift: unknown compact type ${type}`);
  }
}

// The struct encoded in bytes (which it must use up), as a tree.
function readStruct(bytes) {
  const input = new Input(bytes);
  const tree = readValue(input, TYPE.STRUCT);
  if (input.at !== bytes.length) throw new Error(`thrift: ${bytes.length - input.at} bytes after the struct`);
  return tree;
}

// The bytes of a struct tree.
function writeStruct(tree) {
  const output = new Output();
  writeValue(output, TYPE.STRUCT, tree);
  return output.buffer();
}

// The field of a struct tree with that id, or undefined.
function field(struct, id) {
  return struct.find((f) => f.id === id);
}

// Sets field id of a struct to an integer of the type, adding it in id order when absent.
function setInteger(struct, id, type, value) {
  const existing = field(struct, id);
  if (existing) {
    existing.value = BigInt(value);
    return;
  }
  const at = struct.findIndex((f) => f.id > id);
  struct.splice(at < 0 ? struct.length : at, 0, { id, type, value: BigInt(value) });
}

// A Parquet file's footer: {tree, start} (start: the offset of its first byte).
function readFooter(file) {
  const length = file.readUInt32LE(file.length - 8);
  if (file.subarray(file.length - 4).toString('latin1') !== 'PAR1') throw new Error('not a Parquet file');
  const start = file.length - 8 - length;
  return { tree: readStruct(file.subarray(start, file.length - 8)), start };
}

// Parquet's FileMetaData field ids: row_groups 4; RowGroup.columns 1; ColumnChunk.meta_data 3;
// ColumnMetaData.path_in_schema 3, bloom_filter_offset 14, bloom_filter_length 15.
// Returns the file with the Bloom filters of some column chunks replaced: replacements maps
// "row group/dotted path" to the bytes (header and bitset) to store, appended after the data.
function replaceBloomFilters(file, replacements) {
  const { tree, start } = readFooter(file);
  const appended = [];
  let offset = start;
  const done = new Set();
  field(tree, 4).value.items.forEach((rowGroup, index) => {
    for (const chunk of field(rowGroup, 1).value.items) {
      const meta = field(chunk, 3).value;
      const dotted = field(meta, 3).value.items.map((b) => b.toString('utf8')).join('.');
      const bytes = replacements.get(`${index}/${dotted}`);
      if (!bytes) continue;
      setInteger(meta, 14, TYPE.I64, offset);
      setInteger(meta, 15, TYPE.I32, bytes.length);
      appended.push(bytes);
      offset += bytes.length;
      done.add(`${index}/${dotted}`);
    }
  });
  for (const key of replacements.keys()) {
    if (!done.has(key)) throw new Error(`no column chunk ${key} in the footer`);
  }
  const footer = writeStruct(tree);
  const tail = Buffer.alloc(8);
  tail.writeUInt32LE(footer.length, 0);
  tail.write('PAR1', 4, 'latin1');
  return Buffer.concat([file.subarray(0, start), ...appended, footer, tail]);
}

module.exports = { readFooter, writeStruct, replaceBloomFilters };
