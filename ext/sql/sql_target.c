/*
** sql_target.c: the column the in-place functions name, and SQLite's guards
** for it. See sql_target.h.
*/
#include "sql_target.h"

#include "sql_error.h"

#include <stdarg.h>
#include <string.h>

/* The arguments of the in-place functions. */
enum { TABLE_ARGUMENT = 0, COLUMN_ARGUMENT = 1 };

/* The names SQL has for a rowid, in the order they are tried. */
static const char *const target_rowid_names[] = {"rowid", "_rowid_", "oid"};
enum { TARGET_ROWID_NAMES = sizeof target_rowid_names / sizeof target_rowid_names[0] };

/* Frees a stored_target (the auxdata destructor). */
static void target_free(void *p) {
    stored_target *t = p;
    if (t != NULL) {
        sqlite3_finalize(t->type_query);
        sqlite3_finalize(t->version_query);
        sqlite3_free(t->table_arg);
        sqlite3_free(t->column_arg);
        sqlite3_free(t->schema);
        sqlite3_free(t->table);
        sqlite3_free(t->update_sql);
        sqlite3_free(t);
    }
}

/* A copy of bytes of text, NUL-terminated, from sqlite3_malloc64, or NULL. */
static char *target_copy_text(const char *text, size_t bytes) {
    char *copy = sqlite3_malloc64(bytes + 1);
    if (copy != NULL) {
        memcpy(copy, text, bytes);
        copy[bytes] = '\0';
    }
    return copy;
}

/* The text of the name argument v (what: "table" or "column"): TEXT without NUL. NULL after
** setting the error; a BLOB that is a filter is a column passed where its name belongs. */
static const char *target_read_name(sqlite3_context *ctx, const char *func, sqlite3_value *v,
                                    const char *what) {
    int type = sqlite3_value_type(v); /* before sqlite3_value_text, which converts v */
    const unsigned char *blob = type == SQLITE_BLOB ? sqlite3_value_blob(v) : NULL;
    const char *text = type == SQLITE_TEXT ? (const char *)sqlite3_value_text(v) : NULL;
    if (type == SQLITE_TEXT && text == NULL) {
        sqlite3_result_error_nomem(ctx);
        return NULL;
    }
    if (text != NULL && strlen(text) == (size_t)sqlite3_value_bytes(v)) {
        return text;
    }
    sqlite3_str *s = sqlite3_str_new(NULL);
    sqlite3_str_appendf(s, "%s: %s must be a %s's name as TEXT%s, got ", func, what, what,
                        text != NULL ? " without NUL characters" : "");
    sql_append_value(s, v);
    if (blob != NULL && sqlite3_value_bytes(v) >= 4 && memcmp(blob, "SQBF", 4) == 0) {
        const char *example = strcmp(what, "table") == 0 ? "filters" : "filter";
        sqlite3_str_appendf(s,
                            "; this BLOB is a filter, the value of a column: give the %s's name "
                            "in quotes, as a string ('%s', not %s)",
                            what, example, example);
    }
    sql_error_from_str(ctx, s);
    return NULL;
}

/* A new target for the names table ("schema.table" or "table") and column, not checked; NULL
** after setting NOMEM. */
static stored_target *target_new(sqlite3_context *ctx, const char *table, const char *column,
                                 int writable) {
    const char *dot = strchr(table, '.');
    stored_target *t = sqlite3_malloc(sizeof *t);
    if (t != NULL) {
        memset(t, 0, sizeof *t);
        t->writable = writable;
        t->table_arg = target_copy_text(table, strlen(table));
        t->column_arg = target_copy_text(column, strlen(column));
        t->schema = dot != NULL ? target_copy_text(table, (size_t)(dot - table))
                                : target_copy_text("main", 4);
        t->table = dot != NULL ? target_copy_text(dot + 1, strlen(dot + 1))
                               : target_copy_text(table, strlen(table));
    }
    if (t == NULL || t->table_arg == NULL || t->column_arg == NULL || t->schema == NULL ||
        t->table == NULL) {
        target_free(t);
        sqlite3_result_error_nomem(ctx);
        return NULL;
    }
    return t;
}

/* Sets the error "FUNC: cannot ACTION SCHEMA.TABLE.COLUMN: " then the formatted reason, with
** the result code code (SQLITE_ERROR, SQLITE_AUTH, ...), ACTION "update" for a writer and
** "read" for a reader. */
static void target_error(sqlite3_context *ctx, const char *func, const stored_target *t, int code,
                         const char *format, ...) {
    sqlite3_str *s = sqlite3_str_new(NULL);
    va_list ap;
    sqlite3_str_appendf(s, "%s: cannot %s %s.%s.%s: ", func, t->writable ? "update" : "read",
                        t->schema, t->table, t->column_arg);
    va_start(ap, format);
    sqlite3_str_vappendf(s, format, ap);
    va_end(ap);
    if (sql_error_from_str(ctx, s) && code != SQLITE_ERROR) {
        sqlite3_result_error_code(ctx, code);
    }
}

/* Appends name as SQL names it: as it is when it is a plain identifier and no keyword, else in
** double quotes. */
static void target_append_name(sqlite3_str *s, const char *name) {
    size_t plain = strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789");
    if (name[0] != '\0' && plain == strlen(name) && !(name[0] >= '0' && name[0] <= '9') &&
        !sqlite3_keyword_check(name, (int)plain)) {
        sqlite3_str_appendall(s, name);
    } else {
        sqlite3_str_appendf(s, "\"%w\"", name);
    }
}

/* Appends the function on a BLOB value that does what func does in place, on t's column:
** "bloom_add(c, key)", the column's name quoted where SQL needs it. */
static void target_append_call(sqlite3_str *s, const char *func, const stored_target *t) {
    int name = (int)(strlen(func) - strlen("_in_place"));
    const char *arguments = strcmp(func, "cms_add_in_place") == 0 ? "key, count" : "key";
    sqlite3_str_appendf(s, "%.*s(", name, func);
    target_append_name(s, t->column_arg);
    sqlite3_str_appendf(s, ", %s)", arguments);
}

/* Appends t's table as SQL names it: "schema.table", each quoted where SQL needs it. */
static void target_append_table(sqlite3_str *s, const stored_target *t) {
    target_append_name(s, t->schema);
    sqlite3_str_appendchar(s, 1, '.');
    target_append_name(s, t->table);
}

/* Appends what to do instead of func on t at rowid, with the function on a BLOB value: "; use
** UPDATE s.t SET c = bloom_add(c, key) WHERE rowid = R instead" (a writer), or the SELECT of
** the reader's answer; the names quoted where SQL needs it, the rowid by the name no column
** hides. */
static void target_append_instead(sqlite3_str *s, const char *func, const stored_target *t,
                                  sqlite3_int64 rowid) {
    const char *rowid_name = t->rowid != NULL ? t->rowid : target_rowid_names[0];
    if (t->writable) {
        sqlite3_str_appendall(s, "; use UPDATE ");
        target_append_table(s, t);
        sqlite3_str_appendall(s, " SET ");
        target_append_name(s, t->column_arg);
        sqlite3_str_appendall(s, " = ");
    } else {
        sqlite3_str_appendall(s, "; use SELECT ");
    }
    target_append_call(s, func, t);
    if (!t->writable) {
        sqlite3_str_appendall(s, " FROM ");
        target_append_table(s, t);
    }
    sqlite3_str_appendf(s, " WHERE %s = %lld instead", rowid_name, rowid);
}

/* Sets the error of a table that func cannot work on in place: the reason, then what to do
** instead when the function on a BLOB value would do (suggest). */
static void target_refuse(sqlite3_context *ctx, const char *func, const stored_target *t,
                          sqlite3_int64 rowid, const char *reason, int suggest) {
    sqlite3_str *s = sqlite3_str_new(NULL);
    sqlite3_str_appendf(s, "%s: cannot %s %s.%s.%s in place: %s", func,
                        t->writable ? "write" : "read", t->schema, t->table, t->column_arg, reason);
    if (suggest) {
        target_append_instead(s, func, t, rowid);
    }
    sql_error_from_str(ctx, s);
}

/* Prepares sql (from sqlite3_mprintf, freed here): the statement, or NULL after setting the
** error, SQLite's message as the reason (SQLITE_AUTH when the authorizer denied it). */
static sqlite3_stmt *target_prepare(sqlite3_context *ctx, const char *func, const stored_target *t,
                                    char *sql) {
    sqlite3 *db = sqlite3_context_db_handle(ctx);
    sqlite3_stmt *stmt = NULL;
    int rc = sql == NULL ? SQLITE_NOMEM : sqlite3_prepare_v2(db, sql, -1, &stmt, NULL);
    sqlite3_free(sql);
    if (rc == SQLITE_NOMEM) {
        sqlite3_result_error_nomem(ctx);
    } else if (rc != SQLITE_OK) {
        target_error(ctx, func, t, rc == SQLITE_AUTH ? SQLITE_AUTH : SQLITE_ERROR, "%s",
                     sqlite3_errmsg(db));
    }
    return stmt;
}

/* What the table's columns say of t (from PRAGMA table_xinfo). */
typedef struct target_columns {
    int count;                     /* columns, 0 when there is no such table */
    int has_column;                /* one is t's column */
    int has_generated;             /* one is generated (VIRTUAL or STORED) */
    int hides[TARGET_ROWID_NAMES]; /* one is called rowid_names[i] */
} target_columns;

/* Reads t's table's columns into *c. 0 after setting the error: no such schema, or a query
** that failed. */
static int target_read_columns(sqlite3_context *ctx, const char *func, const stored_target *t,
                               target_columns *c) {
    sqlite3 *db = sqlite3_context_db_handle(ctx);
    sqlite3_stmt *q = NULL;
    char *sql = sqlite3_mprintf("PRAGMA \"%w\".table_xinfo(\"%w\")", t->schema, t->table);
    int rc = sql == NULL ? SQLITE_NOMEM : sqlite3_prepare_v2(db, sql, -1, &q, NULL);
    sqlite3_free(sql);
    memset(c, 0, sizeof *c);
    while (rc == SQLITE_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(q, 1); /* cid, name, ..., hidden */
        int hidden = sqlite3_column_int(q, 6);
        rc = name == NULL ? SQLITE_NOMEM : SQLITE_OK;
        c->count++;
        c->has_column |= name != NULL && sqlite3_stricmp(name, t->column_arg) == 0;
        c->has_generated |= hidden == 2 || hidden == 3;
        for (int i = 0; i < TARGET_ROWID_NAMES; i++) {
            c->hides[i] |= name != NULL && sqlite3_stricmp(name, target_rowid_names[i]) == 0;
        }
    }
    if (rc == SQLITE_NOMEM) {
        sqlite3_result_error_nomem(ctx);
    } else if (rc != SQLITE_DONE && strncmp(sqlite3_errmsg(db), "unknown database", 16) == 0) {
        target_error(ctx, func, t, SQLITE_ERROR, "no such schema: %s", t->schema);
    } else if (rc != SQLITE_DONE) {
        target_error(ctx, func, t, rc, "%s", sqlite3_errmsg(db));
    }
    sqlite3_finalize(q);
    return rc == SQLITE_DONE;
}

/* What t's table is, as far as the guards go. */
typedef enum table_type {
    TABLE_ORDINARY,      /* a table with a rowid, and not a shadow table */
    TABLE_MAYBE_SHADOW,  /* a table with a rowid, before SQLite 3.37, which cannot tell */
    TABLE_SHADOW,        /* a shadow table of a virtual table */
    TABLE_VIRTUAL,       /* a virtual table */
    TABLE_VIEW,          /* a view */
    TABLE_WITHOUT_ROWID, /* a WITHOUT ROWID table */
    TABLE_NO_ROWID,      /* without a rowid, before SQLite 3.37, and not in sqlite_master */
    TABLE_UNLISTED       /* not in PRAGMA table_list: an eponymous virtual table, or hidden */
} table_type;

/* Runs q (bound, then finalized here), whose first row has the type of t's table as text in
** column type_column and whether it has no rowid in column no_rowid_column, into *type. 0
** after setting the error. */
static int target_read_type_row(sqlite3_context *ctx, const char *func, const stored_target *t,
                                sqlite3_stmt *q, int type_column, int no_rowid_column,
                                table_type *type) {
    int rc = sqlite3_step(q);
    const char *name = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(q, type_column) : "";
    if (name == NULL) {
        rc = SQLITE_NOMEM;
    } else if (rc == SQLITE_ROW || rc == SQLITE_DONE) {
        int no_rowid = rc == SQLITE_ROW && sqlite3_column_int(q, no_rowid_column);
        *type = rc == SQLITE_DONE              ? TABLE_UNLISTED
                : strcmp(name, "view") == 0    ? TABLE_VIEW
                : strcmp(name, "shadow") == 0  ? TABLE_SHADOW
                : strcmp(name, "virtual") == 0 ? TABLE_VIRTUAL
                : no_rowid                     ? TABLE_WITHOUT_ROWID
                                               : TABLE_ORDINARY;
        rc = SQLITE_OK;
    } else {
        rc = sqlite3_reset(q);
    }
    if (rc == SQLITE_NOMEM) {
        sqlite3_result_error_nomem(ctx);
    } else if (rc != SQLITE_OK) {
        target_error(ctx, func, t, rc, "%s", sqlite3_errmsg(sqlite3_context_db_handle(ctx)));
    }
    sqlite3_finalize(q);
    return rc == SQLITE_OK;
}

/* Reads the type of t's table into *type: from PRAGMA table_list, or before SQLite 3.37 from
** whether it has a rowid (sqlite3_table_column_metadata) and what sqlite_master records. 0
** after setting the error. */
static int target_read_table_type(sqlite3_context *ctx, const char *func, const stored_target *t,
                                  table_type *type) {
    sqlite3 *db = sqlite3_context_db_handle(ctx);
    sqlite3_stmt *q;
    if (sqlite3_libversion_number() >= 3037000) {
        /* schema, name, type, ncol, wr, strict */
        q = target_prepare(
            ctx, func, t, sqlite3_mprintf("PRAGMA \"%w\".table_list(\"%w\")", t->schema, t->table));
        return q != NULL && target_read_type_row(ctx, func, t, q, 2, 4, type);
    }
    int rc = sqlite3_table_column_metadata(db, t->schema, t->table, t->rowid, NULL, NULL, NULL,
                                           NULL, NULL);
    if (rc == SQLITE_NOMEM) {
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    if (rc == SQLITE_OK) {
        *type = TABLE_MAYBE_SHADOW;
        return 1;
    }
    q = target_prepare(ctx, func, t,
                       sqlite3_mprintf("SELECT type, 1 FROM \"%w\".sqlite_master WHERE type IN "
                                       "('table', 'view') AND name = ?1 COLLATE NOCASE",
                                       t->schema));
    if (q != NULL) {
        sqlite3_bind_text(q, 1, t->table, -1, SQLITE_STATIC);
    }
    int ok = q != NULL && target_read_type_row(ctx, func, t, q, 0, 1, type);
    *type = *type == TABLE_UNLISTED ? TABLE_NO_ROWID : *type; /* no row: it cannot tell */
    return ok;
}

/* Sets the error of a WITHOUT ROWID table, whose rows func cannot name: keep the filter in a
** table with a rowid, or use the function on a BLOB value in an UPDATE (a writer) or a SELECT. */
static void target_refuse_without_rowid(sqlite3_context *ctx, const char *func,
                                        const stored_target *t) {
    sqlite3_str *use = sqlite3_str_new(NULL);
    target_append_call(use, func, t);
    sqlite3_str_appendall(use, t->writable ? " in an UPDATE of " : " in a SELECT from ");
    target_append_table(use, t);
    char *text = sqlite3_str_finish(use);
    if (text == NULL) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    target_error(ctx, func, t, SQLITE_ERROR,
                 "%s.%s is a WITHOUT ROWID table: its rows have no rowid, which the in-place "
                 "functions need; keep the filter in a table with a rowid, or use %s",
                 t->schema, t->table, text);
    sqlite3_free(text);
}

/* Checks the table and column of t, by its columns and its type (into *type), and chooses its
** rowid's name. 0 after setting the error. */
static int target_check_table(sqlite3_context *ctx, const char *func, stored_target *t,
                              sqlite3_int64 rowid, table_type *type) {
    target_columns c;
    if (!target_read_columns(ctx, func, t, &c)) {
        return 0;
    }
    if (c.count == 0) {
        stored_target temp = *t;
        temp.schema = "temp";
        int in_temp = strcmp(t->schema, "main") == 0 && target_read_columns(ctx, func, &temp, &c) &&
                      c.count > 0;
        if (in_temp) {
            target_error(ctx, func, t, SQLITE_ERROR,
                         "no such table: %s.%s; a TEMP table has that name: name it 'temp.%s'",
                         t->schema, t->table, t->table);
        } else {
            target_error(ctx, func, t, SQLITE_ERROR, "no such table: %s.%s", t->schema, t->table);
        }
        return 0;
    }
    if (!c.has_column) {
        target_error(ctx, func, t, SQLITE_ERROR, "no such column: %s", t->column_arg);
        return 0;
    }
    for (int i = 0; i < TARGET_ROWID_NAMES && t->rowid == NULL; i++) {
        t->rowid = c.hides[i] ? NULL : target_rowid_names[i];
    }
    if (!target_read_table_type(ctx, func, t, type)) {
        return 0;
    }
    if (*type == TABLE_VIEW) {
        target_error(ctx, func, t, SQLITE_ERROR,
                     "%s.%s is a view, which stores no cells; %s the table behind it: name that "
                     "table, and the rowid of the filter's row there",
                     t->schema, t->table, t->writable ? "write to" : "read from");
    } else if (*type == TABLE_WITHOUT_ROWID) {
        target_refuse_without_rowid(ctx, func, t);
    } else if (*type == TABLE_NO_ROWID) {
        target_error(ctx, func, t, SQLITE_ERROR, "%s.%s has no rowid", t->schema, t->table);
    } else if (*type == TABLE_UNLISTED) {
        target_error(ctx, func, t, SQLITE_ERROR,
                     "PRAGMA table_list does not list %s.%s (an eponymous virtual table, or one "
                     "an authorizer hides), so what kind of table it is cannot be told",
                     t->schema, t->table);
    } else if (t->rowid == NULL) {
        target_error(ctx, func, t, SQLITE_ERROR,
                     "its columns called rowid, _rowid_ and oid hide its rowid");
    } else if (*type == TABLE_VIRTUAL) {
        target_refuse(ctx, func, t, rowid, "its table is a virtual table", 1);
    } else if (c.has_generated) {
        target_refuse(ctx, func, t, rowid,
                      t->writable
                          ? "its table has generated columns, which an UPDATE computes and a "
                            "write in place would not"
                          : "its table has generated columns, which SQLite's incremental BLOB "
                            "I/O cannot read (3.40 reads another column)",
                      1);
    } else {
        return 1;
    }
    return 0;
}

/* For a writer while defensive mode is on: checks that t's table, of type, is not a shadow
** table, which SQLite keeps read-only then, but not from within a running statement. 0 after
** setting the error. */
static int target_check_not_shadow(sqlite3_context *ctx, const char *func, const stored_target *t,
                                   sqlite3_int64 rowid, table_type type) {
    int defensive = 0;
    sqlite3_db_config(sqlite3_context_db_handle(ctx), SQLITE_DBCONFIG_DEFENSIVE, -1, &defensive);
    if (defensive && type == TABLE_MAYBE_SHADOW) {
        target_refuse(ctx, func, t, rowid,
                      "defensive mode is on, and before SQLite 3.37 this code cannot tell "
                      "shadow tables, which defensive mode keeps read-only",
                      0);
    } else if (defensive && type == TABLE_SHADOW) {
        target_refuse(ctx, func, t, rowid,
                      "its table is a shadow table of a virtual table, which defensive mode "
                      "(SQLITE_DBCONFIG_DEFENSIVE) keeps read-only; write through the virtual "
                      "table",
                      0);
    } else {
        return 1;
    }
    return 0;
}

/* What an UPDATE of a column does besides writing its cell, from the opcodes of its program. */
typedef struct target_update_effects {
    int assigns;    /* reads the new value (?2): the authorizer left the column in */
    int is_virtual; /* VUpdate: the table is virtual */
    int trigger;    /* Program: runs a trigger */
    int constraint; /* the code of a Halt of a constraint other than NOT NULL (a BLOB keeps it) */
    char *constraint_name; /* the first such Halt's P4: the constraint's name or expression */
    int index;             /* IdxInsert, IdxDelete: keeps an index on the column current */
    int foreign_key;       /* FkCheck, FkCounter, FkIfZero */
} target_update_effects;

/* Notes in *e what the opcode of one row of EXPLAIN (stmt) does. 0 on NOMEM. */
static int target_note_opcode(sqlite3_stmt *stmt, target_update_effects *e) {
    const char *op = (const char *)sqlite3_column_text(stmt, 1);
    int p1 = sqlite3_column_int(stmt, 2);
    if (op == NULL) {
        return 0;
    }
    e->assigns |= strcmp(op, "Variable") == 0 && p1 == 2;
    e->is_virtual |= strcmp(op, "VUpdate") == 0;
    e->trigger |= strcmp(op, "Program") == 0;
    e->index |= strcmp(op, "IdxInsert") == 0 || strcmp(op, "IdxDelete") == 0;
    e->foreign_key |=
        strcmp(op, "FkCheck") == 0 || strcmp(op, "FkCounter") == 0 || strcmp(op, "FkIfZero") == 0;
    if (strcmp(op, "Halt") == 0 && (p1 & 0xFF) == SQLITE_CONSTRAINT &&
        p1 != SQLITE_CONSTRAINT_NOTNULL && !e->constraint) {
        const char *p4 = (const char *)sqlite3_column_text(stmt, 5);
        e->constraint = p1;
        e->constraint_name = sqlite3_mprintf("%s", p4 != NULL ? p4 : "");
        return e->constraint_name != NULL;
    }
    return 1;
}

/* Reads what t's UPDATE does from its program into *e (constraint_name for the caller to free).
** 0 after setting the error: the authorizer denied it, or it cannot be prepared. */
static int target_read_update_effects(sqlite3_context *ctx, const char *func,
                                      const stored_target *t, target_update_effects *e) {
    memset(e, 0, sizeof *e);
    sqlite3_stmt *explain =
        target_prepare(ctx, func, t, sqlite3_mprintf("EXPLAIN %s", t->update_sql));
    int rc = explain == NULL ? SQLITE_ERROR : SQLITE_OK;
    while (explain != NULL && (rc = sqlite3_step(explain)) == SQLITE_ROW) {
        if (!target_note_opcode(explain, e)) {
            rc = SQLITE_NOMEM;
            break;
        }
    }
    if (rc == SQLITE_NOMEM) {
        sqlite3_result_error_nomem(ctx);
    } else if (explain != NULL && rc != SQLITE_DONE) {
        target_error(ctx, func, t, rc, "%s", sqlite3_errmsg(sqlite3_context_db_handle(ctx)));
    }
    sqlite3_finalize(explain);
    return rc == SQLITE_DONE;
}

/* Why a write in place would not do what an UPDATE with effects e does, from sqlite3_mprintf:
** "" when it would, NULL on NOMEM. */
static char *target_update_difference(const target_update_effects *e) {
    if (e->is_virtual) {
        return sqlite3_mprintf("its table is a virtual table");
    } else if (!e->assigns) {
        return sqlite3_mprintf("the authorizer leaves the column out of an UPDATE of it "
                               "(SQLITE_IGNORE), which a write in place would pass by");
    } else if (e->trigger) {
        return sqlite3_mprintf("an UPDATE of it fires a trigger, which a write in place would not");
    } else if (e->index) {
        return sqlite3_mprintf("an UPDATE of it updates an index that depends on it, which a "
                               "write in place would not");
    } else if (e->foreign_key) {
        return sqlite3_mprintf("an UPDATE of it checks a foreign key, which a write in place "
                               "would pass by");
    } else if (e->constraint) {
        return sqlite3_mprintf("an UPDATE of it checks the %sconstraint %s, which a write in "
                               "place would pass by",
                               e->constraint == SQLITE_CONSTRAINT_CHECK ? "CHECK " : "",
                               e->constraint_name);
    }
    return sqlite3_mprintf("");
}

int target_check_update(sqlite3_context *ctx, const char *func, const stored_target *t,
                        sqlite3_int64 rowid) {
    target_update_effects e;
    char *reason = NULL;
    if (target_read_update_effects(ctx, func, t, &e)) {
        reason = target_update_difference(&e);
        if (reason == NULL) {
            sqlite3_result_error_nomem(ctx);
        } else if (reason[0] != '\0') {
            target_refuse(ctx, func, t, rowid, reason, e.assigns);
        }
    }
    int clear = reason != NULL && reason[0] == '\0';
    sqlite3_free(reason);
    sqlite3_free(e.constraint_name);
    return clear;
}

/* Prepares the query of the type of t's cell; for a writer first checks that its table, of
** type, is no shadow table in defensive mode, and makes and checks its UPDATE. 0 after setting
** the error. */
static int target_prepare_statements(sqlite3_context *ctx, const char *func, stored_target *t,
                                     sqlite3_int64 rowid, table_type type) {
    if (t->writable) {
        t->update_sql = sqlite3_mprintf("UPDATE \"%w\".\"%w\" SET \"%w\" = ?2 WHERE \"%w\" = ?1",
                                        t->schema, t->table, t->column_arg, t->rowid);
        if (t->update_sql == NULL) {
            sqlite3_result_error_nomem(ctx);
            return 0;
        }
        if (!target_check_not_shadow(ctx, func, t, rowid, type) ||
            !target_check_update(ctx, func, t, rowid)) {
            return 0;
        }
    }
    /* The column qualified: SQLite reads a lone double-quoted name that names no column as a
    ** string, which would pass for a TEXT cell. */
    t->type_query = target_prepare(
        ctx, func, t,
        sqlite3_mprintf("SELECT typeof(\"%w\".\"%w\".\"%w\") FROM \"%w\".\"%w\" WHERE \"%w\" = ?1",
                        t->schema, t->table, t->column_arg, t->schema, t->table, t->rowid));
    return t->type_query != NULL;
}

/* The auxdata destructor: frees t, or, while a call uses it (SQLite frees auxdata it cannot
** keep at once), leaves that to target_release. */
static void target_drop(void *p) {
    stored_target *t = p;
    if (t->in_use) {
        t->dropped = 1;
    } else {
        target_free(t);
    }
}

/* Makes t, new and checked, the statement's and marks it in use. 0 after setting NOMEM, t
** freed: keeping it failed, and SQLite fails the statement then, which must not follow a write. */
static int target_keep(sqlite3_context *ctx, stored_target *t) {
    t->in_use = 1;
    sqlite3_set_auxdata(ctx, COLUMN_ARGUMENT, t, target_drop);
    if (sqlite3_get_auxdata(ctx, COLUMN_ARGUMENT) != t) {
        target_release(t);
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    return 1;
}

/* The version of t's schema into *version, or -1 when it cannot be read (a schema that does not
** exist: the checks say so), which no later reading equals. SQLITE_OK, or SQLITE_NOMEM. */
static int target_read_version(sqlite3 *db, stored_target *t, sqlite3_int64 *version) {
    int rc = SQLITE_OK;
    *version = -1;
    if (t->version_query == NULL) {
        char *sql = sqlite3_mprintf("PRAGMA \"%w\".schema_version", t->schema);
        rc = sql == NULL ? SQLITE_NOMEM : sqlite3_prepare_v2(db, sql, -1, &t->version_query, NULL);
        sqlite3_free(sql);
    }
    if (t->version_query != NULL) {
        rc = sqlite3_step(t->version_query);
        *version = rc == SQLITE_ROW ? sqlite3_column_int64(t->version_query, 0) : -1;
        rc = rc == SQLITE_ROW ? SQLITE_OK : sqlite3_reset(t->version_query);
        sqlite3_reset(t->version_query);
    }
    return rc == SQLITE_NOMEM ? SQLITE_NOMEM : SQLITE_OK;
}

int target_unchanged(sqlite3_context *ctx, stored_target *t) {
    sqlite3_int64 version;
    if (target_read_version(sqlite3_context_db_handle(ctx), t, &version) != SQLITE_OK) {
        sqlite3_result_error_nomem(ctx);
        return -1;
    }
    return version >= 0 && version == t->schema_version;
}

void target_forget(sqlite3_context *ctx, stored_target *t) {
    if (sqlite3_get_auxdata(ctx, COLUMN_ARGUMENT) == t) {
        sqlite3_set_auxdata(ctx, COLUMN_ARGUMENT, NULL, NULL); /* target_drop: dropped */
    }
}

stored_target *target_find(sqlite3_context *ctx, const char *func, sqlite3_value **argv,
                           int writable, sqlite3_int64 rowid) {
    const char *table = target_read_name(ctx, func, argv[TABLE_ARGUMENT], "table");
    const char *column =
        table != NULL ? target_read_name(ctx, func, argv[COLUMN_ARGUMENT], "column") : NULL;
    if (column == NULL) {
        return NULL;
    }
    stored_target *t = sqlite3_get_auxdata(ctx, COLUMN_ARGUMENT);
    if (t != NULL && strcmp(t->table_arg, table) == 0 && strcmp(t->column_arg, column) == 0) {
        t->in_use = 1;
        return t;
    }
    table_type type;
    t = target_new(ctx, table, column, writable);
    if (t != NULL &&
        target_read_version(sqlite3_context_db_handle(ctx), t, &t->schema_version) != SQLITE_OK) {
        target_free(t);
        sqlite3_result_error_nomem(ctx);
        return NULL;
    }
    if (t != NULL && !(target_check_table(ctx, func, t, rowid, &type) &&
                       target_prepare_statements(ctx, func, t, rowid, type))) {
        target_free(t);
        t = NULL;
    }
    return t != NULL && target_keep(ctx, t) ? t : NULL;
}

void target_release(stored_target *t) {
    if (t != NULL) {
        t->in_use = 0;
        if (t->dropped) {
            target_free(t);
        }
    }
}
