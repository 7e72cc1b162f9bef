/*
** sqltest.c: runs a SQL test script against the built extension through
** SQLite's C API, checking every expected result and error verbatim.
**
** Usage: sqltest EXTENSION SCRIPT.sql DATABASE
**
** DATABASE is deleted first, then opened and the extension loaded. The
** script is plain SQL. Lines right after a statement state what it must give:
**
**   -- => 1|abc|NULL        one expected row (columns joined by '|'); repeat
**                           the line for each further row, in order
**   -- => (no rows)         the statement must return no row
**   -- error: MESSAGE       the statement must fail with SQLITE_ERROR and
**                           exactly this message
**   -- error TOOBIG: MSG    the same with another primary result code
**
** A statement followed by none of these must succeed; its rows are not checked.
** Directives, on lines of their own between statements:
**
**   --! reopen              close the database and open it again, reloading
**   --! limit length N      sqlite3_limit(db, SQLITE_LIMIT_LENGTH, N)
**   --! defensive on|off    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1|0),
**                           the shell's .dbconfig defensive
**   --! param @NAME SELECT  bind the first value the SELECT returns to @NAME
**                           in every later statement that names it (like
**                           the shell's .parameter set)
**   --! needs exact reals   the next statement's expectation relies on SQLite
**                           reading, printing and comparing REALs exactly, as
**                           3.40 does with x87's 80-bit long double (checked
**                           at start); where SQLite lacks that (under valgrind,
**                           which computes long double with 64 bits, or where
**                           long double is double), the statement runs but its
**                           result is not checked, and the runner says so
**   --! chdir DIR           make DIR, relative to the script's own directory, the
**                           working directory, for the files a statement names
**   --! scratch DIR         make DATABASE.files, made or emptied of what an
**                           earlier run left there, the working directory, for
**                           the files a statement writes, with a symbolic link
**                           in it to DIR (relative to the script's directory,
**                           as chdir takes it) named as DIR's last part, for
**                           the files a statement reads
**   --! since X.Y.Z         the next statement runs only on SQLite X.Y.Z or
**   --! before X.Y.Z        later (since), or older (before): what it shows
**                           is a behaviour of some versions of SQLite itself
**                           (a message, a feature), or a path the extension
**                           takes on them; elsewhere it is not run, and the
**                           runner says so
**
** Values print as NULL, integers, reals as SQLite shows them (1.0, 0.01),
** text as is, BLOBs as x'HEX'. The script fails if no expectation is checked.
*/
/* chdir, which the strict -std=c11 of the build hides without it. */
#if !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <sqlite3.h>

#include "text.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef _WIN32 /* mingw-w64, for the SQL suite on Windows (tests/platforms) */
#include <direct.h>
#include <windows.h>
#define mkdir(path, mode) _mkdir(path)
#endif

/* Primary result codes an "-- error CODE:" line may name. */
static const struct {
    const char *name;
    int code;
} result_codes[] = {
    {"ERROR", SQLITE_ERROR},           {"TOOBIG", SQLITE_TOOBIG}, {"NOMEM", SQLITE_NOMEM},
    {"CONSTRAINT", SQLITE_CONSTRAINT}, {"RANGE", SQLITE_RANGE},   {"MISMATCH", SQLITE_MISMATCH},
    {"READONLY", SQLITE_READONLY},     {"FULL", SQLITE_FULL},     {"CORRUPT", SQLITE_CORRUPT}};

enum { MAX_PARAMS = 8 };

typedef struct runner {
    const char *extension;
    const char *script;
    const char *db_path;
    sqlite3 *db;
    int checks;
    int failures;
    int exact_reals;      /* SQLite here reads, prints and compares REALs exactly */
    int next_needs_exact; /* a "--! needs exact reals" awaits its statement */
    int unchecked;        /* statements run but not checked for want of exact REALs */
    int next_since;       /* the next statement runs on SQLite versions >= this (0: any) */
    int next_before;      /* and < this (0: any) */
    int not_run;          /* statements not run on this version of SQLite */
    int nparams;
    char *param_names[MAX_PARAMS];
    sqlite3_value *param_values[MAX_PARAMS];
} runner;

/* Opens the database and loads the extension; exits on failure. */
static void open_database(runner *r) {
    char *err = NULL;
    if (sqlite3_open(r->db_path, &r->db) != SQLITE_OK ||
        sqlite3_db_config(r->db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1, NULL) != SQLITE_OK ||
        sqlite3_load_extension(r->db, r->extension, NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "sqltest: cannot open %s with %s: %s\n", r->db_path, r->extension,
                err ? err : sqlite3_errmsg(r->db));
        exit(2);
    }
}

/* Whether SQLite reads, prints and compares REALs exactly here: a literal just under 1, 2^63 - 1
** against 2^63, 0.3 with 17 digits. */
static int reals_are_exact(runner *r) {
    sqlite3_stmt *stmt = NULL;
    int exact = sqlite3_prepare_v2(r->db,
                                   "SELECT 0.9999999999999999 < 1.0 "
                                   "AND 9223372036854775807 <> 9223372036854775808.0 "
                                   "AND printf('%!.17g', 0.3) = '0.29999999999999999'",
                                   -1, &stmt, NULL) == SQLITE_OK &&
                sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_int(stmt, 0) == 1;
    sqlite3_finalize(stmt);
    return exact;
}

static void close_database(runner *r) {
    if (sqlite3_close(r->db) != SQLITE_OK) {
        fprintf(stderr, "sqltest: cannot close %s: %s\n", r->db_path, sqlite3_errmsg(r->db));
        exit(2);
    }
    r->db = NULL;
}

/* Appends column i of the current row of stmt as the tests show it. */
static void append_column(text *row, sqlite3_stmt *stmt, int i) {
    char buf[64];
    switch (sqlite3_column_type(stmt, i)) {
    case SQLITE_NULL:
        text_append(row, "NULL", 4);
        break;
    case SQLITE_INTEGER:
        sqlite3_snprintf(sizeof buf, buf, "%lld", sqlite3_column_int64(stmt, i));
        text_append(row, buf, strlen(buf));
        break;
    case SQLITE_FLOAT:
        sqlite3_snprintf(sizeof buf, buf, "%!.15g", sqlite3_column_double(stmt, i));
        text_append(row, buf, strlen(buf));
        break;
    case SQLITE_TEXT:
        text_append(row, (const char *)sqlite3_column_text(stmt, i),
                    (size_t)sqlite3_column_bytes(stmt, i));
        break;
    default: {
        const unsigned char *blob = sqlite3_column_blob(stmt, i);
        int bytes = sqlite3_column_bytes(stmt, i);
        text_append(row, "x'", 2);
        for (int b = 0; b < bytes; b++) {
            sqlite3_snprintf(sizeof buf, buf, "%02X", blob[b]);
            text_append(row, buf, 2);
        }
        text_append(row, "'", 1);
    }
    }
}

/*
** Runs every statement of sql. Appends each result row to rows, one per line.
** Returns SQLITE_OK, or the primary code of the first failure with its message.
*/
static int run_sql(runner *r, const char *sql, text *rows, text *message) {
    const char *tail = sql;
    while (*tail != '\0') {
        sqlite3_stmt *stmt = NULL;
        int rc = sqlite3_prepare_v2(r->db, tail, -1, &stmt, &tail);
        if (rc != SQLITE_OK) {
            text_append(message, sqlite3_errmsg(r->db), strlen(sqlite3_errmsg(r->db)));
            return rc & 0xFF;
        }
        if (stmt == NULL) {
            continue; /* only white space or comments left */
        }
        for (int i = 0; i < r->nparams; i++) {
            int index = sqlite3_bind_parameter_index(stmt, r->param_names[i]);
            if (index > 0) {
                sqlite3_bind_value(stmt, index, r->param_values[i]);
            }
        }
        while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
            for (int i = 0; i < sqlite3_column_count(stmt); i++) {
                if (i > 0) {
                    text_append(rows, "|", 1);
                }
                append_column(rows, stmt, i);
            }
            text_append(rows, "\n", 1);
        }
        if (rc != SQLITE_DONE) {
            text_append(message, sqlite3_errmsg(r->db), strlen(sqlite3_errmsg(r->db)));
            sqlite3_finalize(stmt);
            return rc & 0xFF;
        }
        sqlite3_finalize(stmt);
    }
    return SQLITE_OK;
}

/* The primary result code an "-- error NAME:" line names, or -1. */
static int code_named(const char *name, size_t len) {
    for (size_t i = 0; i < sizeof result_codes / sizeof result_codes[0]; i++) {
        if (strlen(result_codes[i].name) == len && strncmp(result_codes[i].name, name, len) == 0) {
            return result_codes[i].code;
        }
    }
    return -1;
}

/* Records a failed expectation of the statement ending at line. */
static void fail(runner *r, int line, const char *sql, const char *what, const char *expected,
                 const char *actual) {
    r->failures++;
    fprintf(stderr, "%s:%d: %s\n  statement: %s\n  expected:\n%s\n  got:\n%s\n", r->script, line,
            what, sql, expected, actual);
}

/* Runs one statement and checks it against its expectation lines. */
static void check_statement(runner *r, int line, const char *sql, const text *expected_rows,
                            const char *expected_error, int expected_code) {
    int version = sqlite3_libversion_number();
    int runs_here = version >= r->next_since && (r->next_before == 0 || version < r->next_before);
    r->next_since = r->next_before = 0;
    if (!runs_here) {
        r->not_run++;
        printf("%s:%d: not run on SQLite %s\n", r->script, line, sqlite3_libversion());
        return;
    }
    text rows = {0}, message = {0};
    text_append(&rows, "", 0);
    text_append(&message, "", 0);
    int rc = run_sql(r, sql, &rows, &message);
    int needs_exact = r->next_needs_exact;
    r->next_needs_exact = 0;
    if (needs_exact && !r->exact_reals) {
        r->unchecked++;
        printf("%s:%d: not checked: this SQLite does not read, print and compare REALs exactly\n",
               r->script, line);
    } else if (expected_error != NULL) {
        r->checks++;
        if (rc != expected_code || strcmp(message.data, expected_error) != 0) {
            char *want = sqlite3_mprintf("code %d: %s", expected_code, expected_error);
            char *got = sqlite3_mprintf("code %d: %s", rc, message.data);
            fail(r, line, sql, "wrong error", want, got);
            sqlite3_free(want);
            sqlite3_free(got);
        }
    } else if (rc != SQLITE_OK) {
        r->failures++;
        fprintf(stderr, "%s:%d: unexpected error %d: %s\n  statement: %s\n", r->script, line, rc,
                message.data, sql);
    } else if (expected_rows->len > 0) {
        r->checks++;
        const char *want =
            strcmp(expected_rows->data, "(no rows)\n") == 0 ? "" : expected_rows->data;
        if (strcmp(rows.data, want) != 0) {
            fail(r, line, sql, "wrong result", want, rows.data);
        }
    }
    free(rows.data);
    free(message.data);
}

/* Runs the query of a "--! param @NAME SELECT ..." directive and keeps its first value. */
static void set_param(runner *r, int line, const char *name, const char *query) {
    sqlite3_stmt *stmt = NULL;
    if (r->nparams == MAX_PARAMS ||
        sqlite3_prepare_v2(r->db, query, -1, &stmt, NULL) != SQLITE_OK ||
        sqlite3_step(stmt) != SQLITE_ROW) {
        fprintf(stderr, "%s:%d: cannot set %s: %s\n", r->script, line, name, sqlite3_errmsg(r->db));
        exit(2);
    }
    r->param_names[r->nparams] = sqlite3_mprintf("%s", name);
    r->param_values[r->nparams] = sqlite3_value_dup(sqlite3_column_value(stmt, 0));
    r->nparams++;
    sqlite3_finalize(stmt);
}

/* Makes dir, relative to the script's directory, the working directory; exits on failure. */
static void change_directory(const runner *r, int line, const char *dir) {
    const char *slash = strrchr(r->script, '/');
    int prefix = slash != NULL ? (int)(slash - r->script) + 1 : 0;
    char path[4096];
    if (snprintf(path, sizeof path, "%.*s%s", prefix, r->script, dir) >= (int)sizeof path ||
        chdir(path) != 0) {
        fprintf(stderr, "%s:%d: cannot change to the directory %s\n", r->script, line, path);
        exit(2);
    }
}

/* Whether path is absolute: from the root, or, on Windows, from a drive (Z:/...). */
static int is_absolute(const char *path) {
#ifdef _WIN32
    if (path[0] != '\0' && path[1] == ':') {
        return 1;
    }
#endif
    return path[0] == '/';
}

/* Makes link name the directory target, for the files a statement reads: a symbolic link, or on
** Windows, where making one takes a privilege (and Wine's is a stub), a directory of copies of
** target's files. Returns 0, or -1 on failure. */
static int link_directory(const char *target, const char *link) {
#ifdef _WIN32
    char pattern[MAX_PATH], from[MAX_PATH], to[MAX_PATH];
    WIN32_FIND_DATAA found;
    if (_mkdir(link) != 0 || snprintf(pattern, sizeof pattern, "%s/*", target) >= MAX_PATH) {
        return -1;
    }
    HANDLE search = FindFirstFileA(pattern, &found);
    if (search == INVALID_HANDLE_VALUE) {
        return -1;
    }
    int status = 0;
    do {
        if ((found.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) == 0 &&
            (snprintf(from, sizeof from, "%s/%s", target, found.cFileName) >= MAX_PATH ||
             snprintf(to, sizeof to, "%s/%s", link, found.cFileName) >= MAX_PATH ||
             !CopyFileA(from, to, TRUE))) {
            status = -1;
        }
    } while (status == 0 && FindNextFileA(search, &found));
    FindClose(search);
    return status;
#else
    return symlink(target, link);
#endif
}

/* Removes path: a file, a link, or (what link_directory makes on Windows) a directory of files. */
static void remove_entry(const char *path) {
    char file[8192];
    if (remove(path) == 0) {
        return;
    }
    DIR *d = opendir(path);
    for (struct dirent *e = d != NULL ? readdir(d) : NULL; e != NULL; e = readdir(d)) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
            snprintf(file, sizeof file, "%s/%s", path, e->d_name) < (int)sizeof file) {
            remove(file);
        }
    }
    if (d != NULL) {
        closedir(d);
    }
    rmdir(path);
}

/* Makes DATABASE.files, emptied, the working directory, with a link in it to dir (relative to
** the script's directory) named as dir's last part; exits on failure. */
static void make_scratch(const runner *r, int line, const char *dir) {
    char scratch[4096], path[8192], target[8192], here[4096] = "";
    const char *slash = strrchr(r->script, '/'), *last = strrchr(dir, '/');
    int prefix = slash != NULL ? (int)(slash - r->script) + 1 : 0;
    struct stat st;
    snprintf(scratch, sizeof scratch, "%s.files", r->db_path);
    if ((!is_absolute(r->script) && getcwd(here, sizeof here) == NULL) ||
        snprintf(target, sizeof target, "%s%s%.*s%s", here, here[0] != '\0' ? "/" : "", prefix,
                 r->script, dir) >= (int)sizeof target ||
        stat(target, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "%s:%d: no directory %s\n", r->script, line, target);
        exit(2);
    }
    if (mkdir(scratch, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "%s:%d: cannot make the directory %s\n", r->script, line, scratch);
        exit(2);
    }
    DIR *d = opendir(scratch);
    for (struct dirent *e = d != NULL ? readdir(d) : NULL; e != NULL; e = readdir(d)) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            snprintf(path, sizeof path, "%s/%s", scratch, e->d_name);
            remove_entry(path); /* a file, or a link (not what it points to) */
        }
    }
    snprintf(path, sizeof path, "%s/%s", scratch, last != NULL ? last + 1 : dir);
    if (d == NULL || closedir(d) != 0 || link_directory(target, path) != 0 || chdir(scratch) != 0) {
        fprintf(stderr, "%s:%d: cannot make the directory %s with a link to %s\n", r->script, line,
                scratch, target);
        exit(2);
    }
}

/* Applies a "--! " directive. */
static void run_directive(runner *r, int line, const char *directive) {
    long long value;
    int x, y, z;
    char name[64];
    int query_at = 0;
    if (sscanf(directive, "param %63s %n", name, &query_at) == 1 && query_at > 0) {
        set_param(r, line, name, directive + query_at);
    } else if (strncmp(directive, "chdir ", 6) == 0) {
        change_directory(r, line, directive + 6);
    } else if (strncmp(directive, "scratch ", 8) == 0) {
        make_scratch(r, line, directive + 8);
    } else if (sscanf(directive, "since %d.%d.%d", &x, &y, &z) == 3) {
        r->next_since = x * 1000000 + y * 1000 + z;
    } else if (sscanf(directive, "before %d.%d.%d", &x, &y, &z) == 3) {
        r->next_before = x * 1000000 + y * 1000 + z;
    } else if (strcmp(directive, "needs exact reals") == 0) {
        r->next_needs_exact = 1;
    } else if (strcmp(directive, "reopen") == 0) {
        close_database(r);
        open_database(r);
    } else if (sscanf(directive, "limit length %lld", &value) == 1) {
        sqlite3_limit(r->db, SQLITE_LIMIT_LENGTH, (int)value);
    } else if (strcmp(directive, "defensive on") == 0 || strcmp(directive, "defensive off") == 0) {
        int on = strcmp(directive, "defensive on") == 0, now = -1;
        if (sqlite3_db_config(r->db, SQLITE_DBCONFIG_DEFENSIVE, on, &now) != SQLITE_OK ||
            now != on) {
            fprintf(stderr, "%s:%d: cannot set %s\n", r->script, line, directive);
            exit(2);
        }
    } else {
        fprintf(stderr, "%s:%d: unknown directive: %s\n", r->script, line, directive);
        exit(2);
    }
}

/* Reads the whole file at path; exits on failure. */
static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    text t = {0};
    char buf[4096];
    size_t n;
    if (f == NULL) {
        fprintf(stderr, "sqltest: cannot read %s\n", path);
        exit(2);
    }
    text_append(&t, "", 0);
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        text_append(&t, buf, n);
    }
    fclose(f);
    return t.data;
}

static int starts_with(const char *s, const char *prefix) {
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s EXTENSION SCRIPT.sql DATABASE\n", argv[0]);
        return 2;
    }
    runner r = {.extension = argv[1], .script = argv[2], .db_path = argv[3]};
    static const char *suffixes[] = {"", "-journal", "-wal", "-shm"};
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s%s", r.db_path, suffixes[i]);
        remove(path);
    }
    open_database(&r);
    r.exact_reals = reals_are_exact(&r);

    char *script = read_file(r.script);
    text statement = {0}, pending = {0}, expected_rows = {0}, expected_error = {0};
    int pending_line = 0, expected_code = SQLITE_ERROR, has_error = 0, line_no = 0;
    text_append(&statement, "", 0);
    text_append(&expected_rows, "", 0);
    text_append(&expected_error, "", 0);
    for (char *line = script; line != NULL && *line != '\0';) {
        char *end = strchr(line, '\n');
        if (end != NULL) {
            *end = '\0';
        }
        line_no++;
        if (pending.len > 0 && starts_with(line, "-- => ")) {
            text_append(&expected_rows, line + 6, strlen(line + 6));
            text_append(&expected_rows, "\n", 1);
        } else if (pending.len > 0 && starts_with(line, "-- error")) {
            const char *colon = strstr(line, ": ");
            const char *name = line + strlen("-- error");
            expected_code = *name == ' ' && colon != NULL
                                ? code_named(name + 1, (size_t)(colon - name - 1))
                                : SQLITE_ERROR;
            if (colon == NULL || expected_code < 0) {
                fprintf(stderr, "%s:%d: malformed error line\n", r.script, line_no);
                return 2;
            }
            text_append(&expected_error, colon + 2, strlen(colon + 2));
            has_error = 1;
        } else {
            if (pending.len > 0) {
                check_statement(&r, pending_line, pending.data, &expected_rows,
                                has_error ? expected_error.data : NULL, expected_code);
                text_clear(&pending);
                text_clear(&expected_rows);
                text_clear(&expected_error);
                has_error = 0;
                expected_code = SQLITE_ERROR;
            }
            if (starts_with(line, "--! ")) {
                run_directive(&r, line_no, line + 4);
            } else {
                text_append(&statement, line, strlen(line));
                text_append(&statement, "\n", 1);
                if (sqlite3_complete(statement.data)) {
                    text_append(&pending, statement.data, statement.len);
                    pending_line = line_no;
                    text_clear(&statement);
                }
            }
        }
        line = end != NULL ? end + 1 : NULL;
    }
    if (pending.len > 0) {
        check_statement(&r, pending_line, pending.data, &expected_rows,
                        has_error ? expected_error.data : NULL, expected_code);
    }
    sqlite3_stmt *unfinished = NULL;
    if (sqlite3_prepare_v2(r.db, statement.data, -1, &unfinished, NULL) != SQLITE_OK ||
        unfinished != NULL) {
        fprintf(stderr, "%s: the script ends inside a statement\n", r.script);
        r.failures++;
    }
    sqlite3_finalize(unfinished);
    for (int i = 0; i < r.nparams; i++) {
        sqlite3_free(r.param_names[i]);
        sqlite3_value_free(r.param_values[i]);
    }
    close_database(&r);
    printf("%s: %d checks, %d failed", r.script, r.checks, r.failures);
    if (r.unchecked > 0) {
        printf(", %d not checked (REALs not exact here)", r.unchecked);
    }
    if (r.not_run > 0) {
        printf(", %d not run on SQLite %s", r.not_run, sqlite3_libversion());
    }
    printf("\n");
    free(script);
    free(statement.data);
    free(pending.data);
    free(expected_rows.data);
    free(expected_error.data);
    return r.failures == 0 && r.checks > 0 ? 0 : 1;
}
