/*
 * SparkGolden.java: golden Spark Bloom filters, made by Spark's own classes
 * (org.apache.spark.util.sketch, compiled from Spark's sources by
 * make_golden.sh), for sqlite-bloom's 'spark' kind to be held to byte for byte.
 *
 * It only calls Spark's public API (BloomFilter.create, put, mightContain,
 * writeTo, readFrom) and writes, on standard output, the text fixture that
 * tests/test_spark_golden.c reads (its format: README.md in this folder):
 * for each filter, how it was created, its keys, the bytes writeTo wrote, and
 * what mightContain answered for its keys and for a set of other keys.
 */

import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

import org.apache.spark.util.sketch.BloomFilter;

public final class SparkGolden {
  /* UTF-8 whatever the locale: a range's prefix may be non-ASCII. */
  private static final PrintStream out =
      new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);

  /* The keys every filter holds: longs at the extremes, strings with non-ASCII and empty
   * text, byte arrays of every tail length from 0 to 9 (high bytes, whose sign Spark's tail
   * extends). */
  private static List<Object> specialKeys() {
    List<Object> keys = new ArrayList<>();
    for (long v : new long[] {Long.MIN_VALUE, Long.MAX_VALUE, -1L, 0L, 1L, 42L,
        Integer.MIN_VALUE, Integer.MAX_VALUE, 4294967296L}) {
      keys.add(v);
    }
    for (String s : new String[] {"", "a", "abcd", "abcde", "h\u00e9llo", "\u65e5\u672c",
        "\ud83d\ude42", "\u00fcn\u00efc\u00f6d\u00e9", "key0"}) {
      keys.add(s);
    }
    for (int length = 0; length <= 9; length++) {
      byte[] b = new byte[length];
      for (int i = 0; i < length; i++) {
        b[i] = (byte) (0x80 + 37 * i + length);
      }
      keys.add(b);
    }
    return keys;
  }

  /* The i-th byte array of a "B" range (the C test makes the same): i % 10 bytes, byte j
   * (i * 31 + j * 131 + salt) mod 256. */
  static byte[] rangeBytes(int salt, int i) {
    byte[] b = new byte[i % 10];
    for (int j = 0; j < b.length; j++) {
      b[j] = (byte) (i * 31 + j * 131 + salt);
    }
    return b;
  }

  private static String hex(byte[] b) {
    if (b.length == 0) {
      return "-";
    }
    StringBuilder s = new StringBuilder();
    for (byte x : b) {
      s.append(String.format("%02X", x & 0xFF));
    }
    return s.toString();
  }

  /* A key as a line's type and value. */
  private static String keyText(Object key) {
    if (key instanceof Long v) {
      return "L " + v;
    }
    if (key instanceof String s) {
      return "S " + hex(s.getBytes(StandardCharsets.UTF_8));
    }
    return "B " + hex((byte[]) key);
  }

  private static int answer(BloomFilter f, Object key) {
    return f.mightContain(key) ? 1 : 0;
  }

  /* Puts the count keys of a range into f (adding), or writes mightContain's answers for them
   * (probing), after the line's words: what, then the range as the fixture writes it. */
  private static void range(BloomFilter f, String what, String range, int count,
      IntFunction<Object> key, boolean adding) {
    StringBuilder answers = new StringBuilder();
    for (int i = 0; i < count; i++) {
      if (adding) {
        f.put(key.apply(i));
      } else {
        answers.append(answer(f, key.apply(i)));
      }
    }
    out.println(what + " " + range + (adding ? "" : " " + answers));
  }

  private static void longRange(BloomFilter f, String what, long start, int count, long step,
      boolean adding) {
    range(f, what, "L " + start + " " + count + " " + step, count, i -> start + i * step, adding);
  }

  private static void stringRange(BloomFilter f, String what, String prefix, int start,
      int count, boolean adding) {
    range(f, what, "S " + prefix + " " + start + " " + count, count, i -> prefix + (start + i),
        adding);
  }

  private static void bytesRange(BloomFilter f, String what, int salt, int count,
      boolean adding) {
    range(f, what, "B " + salt + " " + count, count, i -> rangeBytes(salt, i), adding);
  }

  /* One filter: created as said, the special keys and `added` generated keys of each type put,
   * its bytes, then its answers for its keys and for keys not put (some false positives). */
  private static void filter(String name, BloomFilter.Version version, long n, double p,
      long numBits, int seed, int added) throws IOException {
    BloomFilter f = numBits == 0
        ? (version == BloomFilter.Version.V2 && seed == 0
            ? BloomFilter.create(n, p)
            : BloomFilter.create(version, n, BloomFilter.optimalNumOfBits(n, p), seed))
        : BloomFilter.create(version, n, numBits, seed);
    out.println("filter " + name + " " + (version == BloomFilter.Version.V1 ? 1 : 2) + " " + n
        + " " + (numBits == 0 ? Double.toString(p) : "0") + " " + numBits + " " + seed);
    List<Object> keys = specialKeys();
    for (Object key : keys) {
      f.put(key);
      out.println("key " + keyText(key));
    }
    longRange(f, "keys", -7L * added, added, 7919L, true);
    stringRange(f, "keys", "user-", 0, added, true);
    bytesRange(f, "keys", 1, added, true);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    f.writeTo(bytes);
    out.println("bytes " + hex(bytes.toByteArray()));
    BloomFilter back = BloomFilter.readFrom(bytes.toByteArray());
    if (!back.equals(f)) {
      throw new IllegalStateException(name + ": readFrom(writeTo) is another filter");
    }
    for (Object key : keys) {
      out.println("probe " + keyText(key) + " " + answer(f, key));
    }
    longRange(f, "probes", -7L * added, added, 7919L, false);
    stringRange(f, "probes", "user-", 0, added, false);
    bytesRange(f, "probes", 1, added, false);
    longRange(f, "probes", 1000003L, 400, -2305843009213693951L, false);
    stringRange(f, "probes", "absent-\u00e9-", 0, 400, false);
    bytesRange(f, "probes", 77, 400, false);
    for (Object key : new Object[] {"\u00e9t\u00e9", "ab", new byte[] {0x61, 0x62},
        new byte[] {(byte) 0xFF}, new byte[] {0x7F}, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1}) {
      out.println("probe " + keyText(key) + " " + answer(f, key));
    }
    out.println("end");
  }

  public static void main(String[] args) throws IOException {
    BloomFilter.Version v1 = BloomFilter.Version.V1, v2 = BloomFilter.Version.V2;
    out.println("# Made by SparkGolden.java with Spark's own classes (make_golden.sh); see");
    out.println("# README.md. Do not edit: make it again.");
    /* BloomFilter.create(n, p) (version 2, seed 0) and version 1 of the same size, which
     * bloom_build(key, n, p, 'spark') and 'spark v1' make. */
    filter("v2_n1000_p0.03", v2, 1000, 0.03, 0, 0, 300);
    filter("v1_n1000_p0.03", v1, 1000, 0.03, 0, 0, 300);
    filter("v2_n5000_p0.01", v2, 5000, 0.01, 0, 0, 1600);
    filter("v1_n5000_p0.01", v1, 5000, 0.01, 0, 0, 1600);
    filter("v2_n100_p0.001", v2, 100, 0.001, 0, 0, 20);
    filter("v1_n100_p0.001", v1, 100, 0.001, 0, 0, 20);
    filter("v2_n30_p1e-10", v2, 30, 1e-10, 0, 0, 0);
    filter("v1_n30_p1e-10", v1, 30, 1e-10, 0, 0, 0);
    /* Over capacity: most probes find their bits. */
    filter("v2_n50_p0.1_full", v2, 50, 0.1, 0, 0, 300);
    filter("v1_n50_p0.1_full", v1, 50, 0.1, 0, 0, 300);
    /* One word: 7 bits asked, k = 1; and 14 bits, k = 3. */
    filter("v2_n5_p0.5_one_word", v2, 5, 0.5, 0, 0, 0);
    filter("v1_n3_p0.1_one_word", v1, 3, 0.1, 0, 0, 0);
    /* Version 2 with seeds, and sizes given in bits (not a multiple of 64). */
    filter("v2_seed42", v2, 1000, 0.0, 7298, 42, 300);
    filter("v2_seed_cafebabe", v2, 1000, 0.0, 7298, 0xCAFEBABE, 300);
    filter("v2_seed_min", v2, 200, 0.0, 1000, Integer.MIN_VALUE, 50);
    filter("v2_seed_max_one_word", v2, 3, 0.0, 64, Integer.MAX_VALUE, 0);
    filter("v1_bits_1000", v1, 200, 0.0, 1000, 0, 50);
    out.flush();
  }
}
